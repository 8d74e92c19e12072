//! The served site as one value (DESIGN.md §20): the published branch's
//! views and each branch preview's, as one [`Site`] the publisher stores
//! whole. A view is a whole snapshot per audience: public readers' one,
//! and one per group of token scopes that sees more. Which view a request
//! reads is [`Site::view`]'s answer alone, by the audience and the path;
//! a reader of one scope reaches no other scope's view, of the published
//! branch or of a preview, because a view is looked up by that scope.

use super::{Resource, Snapshot};
use crate::access::Scope;
use crate::paths::{self, brand_key_of};
use crate::render::status::Status;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::Arc;

/// One branch as each audience sees it.
#[derive(Debug, Clone, Default)]
pub struct Branch {
    /// What readers without a token see.
    pub public: Arc<Snapshot>,
    /// What the holders of tokens see, by the scopes that see it: made
    /// only where a scope sees more than public readers.
    pub scoped: Vec<(Vec<Scope>, Arc<Snapshot>)>,
}

impl Branch {
    /// A branch every audience sees alike.
    pub fn public(snapshot: Arc<Snapshot>) -> Branch {
        Branch {
            public: snapshot,
            scoped: Vec::new(),
        }
    }

    /// What `scope` sees (public readers: `None`).
    pub fn of(&self, scope: Option<&Scope>) -> &Arc<Snapshot> {
        scope
            .and_then(|s| self.scoped_for(s))
            .unwrap_or(&self.public)
    }

    /// The view of `scope`, where it sees more than public readers.
    pub fn scoped_for(&self, scope: &Scope) -> Option<&Arc<Snapshot>> {
        self.scoped
            .iter()
            .find(|(scopes, _)| scopes.contains(scope))
            .map(|(_, s)| s)
    }

    /// Every view, public first.
    pub fn all(&self) -> impl Iterator<Item = &Arc<Snapshot>> {
        std::iter::once(&self.public).chain(self.scoped.iter().map(|(_, s)| s))
    }

    /// The same views, each made anew by `f`.
    pub fn map(&self, mut f: impl FnMut(&Snapshot) -> Snapshot) -> Branch {
        Branch {
            public: Arc::new(f(&self.public)),
            scoped: self
                .scoped
                .iter()
                .map(|(scopes, s)| (scopes.clone(), Arc::new(f(s))))
                .collect(),
        }
    }
}

/// Everything served at one moment: the published branch and each
/// preview, each as every audience sees it.
#[derive(Debug, Clone, Default)]
pub struct Site {
    pub published: Branch,
    /// Branch previews, by name: each served under `/preview/<name>/…`.
    pub previews: HashMap<String, Branch>,
    /// When the next embargo lifts (the site is made again then).
    pub next_lift: Option<DateTime<Utc>>,
}

/// Where one path of the site is read, for one audience: the snapshot
/// that holds it, and the path inside it.
#[derive(Debug, Clone, Copy)]
pub struct View<'s, 'p> {
    /// The published branch's snapshot, or the preview's.
    pub snapshot: &'s Arc<Snapshot>,
    /// The path inside it (a preview's without `/preview/<name>`).
    pub path: &'p str,
    /// The published branch's snapshot for the same audience, when
    /// `snapshot` is a preview's: the releases a preview links to are
    /// the published ones, the same tag from every branch.
    pub releases: Option<&'s Arc<Snapshot>>,
}

impl Site {
    /// What readers without a token see of the published branch.
    pub fn public(&self) -> &Arc<Snapshot> {
        &self.published.public
    }

    /// Where `path` is read for `scope` (public readers: `None`); `None`
    /// for a preview that does not exist or that this reader may not read
    /// (`previews`). The one place a view is picked.
    pub fn view<'s, 'p>(
        &'s self,
        scope: Option<&Scope>,
        path: &'p str,
        previews: bool,
    ) -> Option<View<'s, 'p>> {
        let published = self.published.of(scope);
        match paths::split_preview(path) {
            None => Some(View {
                snapshot: published,
                path,
                releases: None,
            }),
            Some((name, inner)) => Some(View {
                snapshot: self.preview(scope, name, previews)?,
                path: inner,
                releases: Some(published),
            }),
        }
    }

    /// The preview `name` as `scope` sees it, if `previews` open it.
    pub fn preview(
        &self,
        scope: Option<&Scope>,
        name: &str,
        previews: bool,
    ) -> Option<&Arc<Snapshot>> {
        previews
            .then(|| self.previews.get(name))
            .flatten()
            .map(|views| views.of(scope))
    }
}

impl View<'_, '_> {
    /// The resource at its path: its snapshot's, or, in a preview, the
    /// published release it links to.
    pub fn get(&self) -> Option<&Arc<Resource>> {
        self.snapshot.get(self.path).or_else(|| {
            let key = brand_key_of(self.path).filter(|k| k.contains('@'))?;
            self.releases?.brands.get(key)?.get(self.path)
        })
    }

    /// `/status` of its snapshot, if that is its path.
    pub fn status(&self) -> Option<&Status> {
        (self.path == paths::STATUS).then_some(&*self.snapshot.status)
    }

    /// True when its path is a brand's (or a release's) that is being
    /// built and has no version served yet.
    pub fn is_building(&self) -> bool {
        let building = &self.snapshot.building;
        !building.is_empty() && brand_key_of(self.path).is_some_and(|key| building.contains(key))
    }

    /// The page of a brand that is not published, at its path.
    pub fn unpublished_page(&self) -> Option<&Arc<Resource>> {
        self.snapshot.unpublished.get(self.path)
    }

    /// True when it is a preview's.
    pub fn in_preview(&self) -> bool {
        self.releases.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot that holds one document, `body`, at `/x`.
    fn holding(body: &str) -> Arc<Snapshot> {
        let mut s = Snapshot::default();
        s.documents.insert(
            "/x".into(),
            Arc::new(Resource::with_effort(
                "text/plain",
                body.as_bytes().to_vec(),
                crate::snapshot::CachePolicy::NoStore,
                crate::snapshot::Effort::None,
            )),
        );
        Arc::new(s)
    }

    fn body(view: Option<View<'_, '_>>) -> Option<String> {
        Some(String::from_utf8(view?.get()?.body().to_vec()).unwrap())
    }

    fn scope(slug: &str) -> Scope {
        Scope::Brands([slug.to_string()].into())
    }

    #[test]
    fn each_reader_reads_its_own_scopes_view_of_every_branch_and_no_other() {
        let (a, b) = (scope("a"), scope("b"));
        let site = Site {
            published: Branch {
                public: holding("public"),
                scoped: vec![(vec![a.clone()], holding("a"))],
            },
            previews: HashMap::from([(
                "p".to_string(),
                Branch {
                    public: holding("p public"),
                    scoped: vec![(vec![b.clone()], holding("p b"))],
                },
            )]),
            next_lift: None,
        };
        let read = |scope: Option<&Scope>, path| body(site.view(scope, path, true));
        assert_eq!(read(None, "/x").as_deref(), Some("public"));
        assert_eq!(read(Some(&a), "/x").as_deref(), Some("a"));
        assert_eq!(read(Some(&b), "/x").as_deref(), Some("public"));
        assert_eq!(read(None, "/preview/p/x").as_deref(), Some("p public"));
        assert_eq!(read(Some(&a), "/preview/p/x").as_deref(), Some("p public"));
        assert_eq!(read(Some(&b), "/preview/p/x").as_deref(), Some("p b"));
        // Previews closed to this reader, or not there: nothing to read.
        assert!(site.view(Some(&b), "/preview/p/x", false).is_none());
        assert!(site.view(None, "/preview/q/x", true).is_none());
    }

    #[test]
    fn a_preview_links_to_the_published_release_its_reader_sees() {
        let release = |body: &str| {
            let mut s = Snapshot::clone(&holding(body));
            let path = "/brand/acme@1.0.0/tokens.css".to_string();
            let r = s.documents.remove("/x").unwrap();
            s.brands
                .insert("acme@1.0.0".into(), Arc::new(HashMap::from([(path, r)])));
            Arc::new(s)
        };
        let a = scope("acme");
        let site = Site {
            published: Branch {
                public: holding("public"),
                scoped: vec![(vec![a.clone()], release("released"))],
            },
            previews: HashMap::from([("p".to_string(), Branch::public(holding("p")))]),
            next_lift: None,
        };
        let path = "/preview/p/brand/acme@1.0.0/tokens.css";
        assert_eq!(
            body(site.view(Some(&a), path, true)).as_deref(),
            Some("released")
        );
        assert_eq!(body(site.view(None, path, true)), None);
    }
}
