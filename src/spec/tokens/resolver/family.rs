//! A family's resolver (DESIGN.md section 18): a child brand's tokens are
//! resolved over its parent's, so the child's resolver is the parent's
//! whole resolution order followed by the child's own. A modifier the
//! child declares under a parent modifier's name is that modifier: its
//! contexts are the parent's, then the child's new ones; a context both
//! have merges the parent's sources at the parent's place and the child's
//! at the child's, so a child token written in a context is the last word
//! in that context, and one written in a set is the last word in every
//! context. The child's `default` wins when it names one.
//!
//! A parent's files keep their paths relative to the child's folder
//! (`../core/tokens.json`: brand folders are siblings), so every merged
//! token still says where it was written.

use super::{From, Modifier, Resolver, Source, Step};

/// The prefix that makes a path of the brand folder `slug` relative to a
/// sibling brand folder.
pub fn sibling(slug: &str, path: &str) -> String {
    match path.strip_prefix("../") {
        // Already relative to a sibling: the grandparent's file of a parent.
        Some(_) => path.to_string(),
        None => format!("../{slug}/{path}"),
    }
}

impl Resolver {
    /// A resolver of one set, the whole file at `path`: what a brand whose
    /// tokens are one file is, in a family.
    pub fn single(path: &str) -> Resolver {
        Resolver {
            steps: vec![Step::Set(vec![Source {
                from: From::File {
                    path: path.to_string(),
                    fragment: String::new(),
                },
                at: String::new(),
            }])],
            ..Resolver::default()
        }
    }

    /// This resolver, read from the sibling brand folder `slug`, whose
    /// resolver document is at `doc_path` there: every file source made
    /// relative to the child's folder, and every inline source a source in
    /// the parent's resolver document.
    pub fn as_parent(mut self, slug: &str, doc_path: &str) -> Resolver {
        let doc = sibling(slug, doc_path);
        self.each_source_mut(|s| {
            s.from = match std::mem::replace(&mut s.from, From::Inline(String::new())) {
                From::File { path, fragment } => From::File {
                    path: sibling(slug, &path),
                    fragment,
                },
                From::Inline(pointer) => From::File {
                    path: doc.clone(),
                    fragment: pointer,
                },
            };
        });
        self
    }

    /// `child`'s resolver over `self` (the parent's, see
    /// [`Resolver::as_parent`]), and the names of the modifiers both
    /// declare.
    pub fn extend(mut self, child: Resolver) -> (Resolver, Vec<String>) {
        let mut shared = Vec::new();
        // For each modifier of the child: its index in the family, and
        // each of its contexts' index there.
        let mut map: Vec<(usize, Vec<usize>)> = Vec::new();
        for m in child.modifiers {
            let at = match self.modifiers.iter().position(|p| p.name == m.name) {
                Some(i) => {
                    shared.push(m.name.clone());
                    i
                }
                None => {
                    self.modifiers.push(Modifier {
                        name: m.name.clone(),
                        contexts: Vec::new(),
                        default: 0,
                        named_default: false,
                        schemes: Default::default(),
                    });
                    self.modifiers.len() - 1
                }
            };
            let family = &mut self.modifiers[at];
            for (c, s) in &m.schemes {
                family.schemes.entry(c.clone()).or_insert(s);
            }
            let fresh = family.contexts.is_empty();
            let mut indices = Vec::new();
            for (name, sources) in &m.contexts {
                let c = match family.contexts.iter().position(|(n, _)| n == name) {
                    Some(c) => c,
                    None => {
                        family.contexts.push((name.clone(), Vec::new()));
                        family.contexts.len() - 1
                    }
                };
                family.contexts[c].1.extend(sources.iter().cloned());
                indices.push(c);
            }
            if fresh || m.named_default {
                family.default = indices[m.default];
                family.named_default = m.named_default || family.named_default;
            }
            map.push((at, indices));
        }
        for step in child.steps {
            self.steps.push(match step {
                Step::Set(sources) => Step::Set(sources),
                Step::Modifier(m, here) => {
                    let (at, indices) = &map[m];
                    let mut placed = vec![Vec::new(); self.modifiers[*at].contexts.len()];
                    for (c, sources) in here.into_iter().enumerate() {
                        placed[indices[c]] = sources;
                    }
                    Step::Modifier(*at, placed)
                }
            });
        }
        self.unused_sets.extend(child.unused_sets);
        (self, shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::FileDiags;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn read(doc: &serde_json::Value) -> Resolver {
        let mut d = FileDiags::new("t", String::from("t/tokens.resolver.json"));
        super::super::read(doc, &mut d).expect("reads")
    }

    #[test]
    fn the_child_merges_after_the_parent_in_every_context() {
        let parent = read(&json!({
            "version": "2025.10",
            "resolutionOrder": [
                {"type": "set", "name": "base", "sources": [{"$ref": "base.json"}]},
                {"type": "modifier", "name": "theme", "default": "light", "contexts": {
                    "light": [], "dark": [{"$ref": "dark.json"}]}}
            ]
        }))
        .as_parent("core", "tokens.resolver.json");
        let child = read(&json!({
            "version": "2025.10",
            "resolutionOrder": [
                {"type": "set", "name": "own", "sources": [{"$ref": "own.json"}]},
                {"type": "modifier", "name": "theme", "contexts": {
                    "dark": [{"$ref": "own-dark.json"}], "dim": [{"$ref": "dim.json"}]}}
            ]
        }));
        let (family, shared) = parent.extend(child);
        assert_eq!(shared, ["theme"]);
        let theme = &family.modifiers[0];
        let names: Vec<&str> = theme.contexts.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["light", "dark", "dim"]);
        // The child names no default: the parent's stands.
        assert_eq!(theme.default, 0);
        let files = BTreeMap::from(
            [
                ("../core/base.json", json!({"c": {"$type": "color", "$value": "#000000"}, "p": {"$type": "number", "$value": 1}})),
                ("../core/dark.json", json!({"c": {"$type": "color", "$value": "#111111"}, "p": {"$type": "number", "$value": 2}})),
                ("own.json", json!({"c": {"$type": "color", "$value": "#222222"}})),
                ("own-dark.json", json!({"c": {"$type": "color", "$value": "#333333"}})),
                ("dim.json", json!({"p": {"$type": "number", "$value": 3}})),
            ]
            .map(|(k, v)| (k.to_string(), v)),
        );
        let value = |perm: usize, name: &str| {
            family.merge(&vec![perm], &json!({}), &files).doc[name]["$value"].clone()
        };
        // The child's set overrides the parent's dark context…
        assert_eq!(value(0, "c"), "#222222");
        // …and the child's dark context overrides its own set.
        assert_eq!(value(1, "c"), "#333333");
        assert_eq!(value(1, "p"), 2);
        // A context only the child has merges over the parent's base.
        assert_eq!(value(2, "p"), 3);
        assert_eq!(value(2, "c"), "#222222");
    }
}
