//! Git source: read one commit's tree from the object database (no work
//! tree), and the brands' releases from the repository's tags.
//!
//! Both are kept between reads: a brand folder is read again only when its
//! subtree id changed between the old and the new commit, and a tag costs
//! work only when it is new or moved. Everything here is synchronous:
//! git2's `Repository` is `Send` but not `Sync`, so one blocking worker owns
//! it and calls these functions.

use super::{is_ignored, is_scratch_name, Content, Pinned, Releases, BRAND_FILES};
use crate::bodies::Bodies;
use crate::redact::redact_url;
use crate::spec::brand::parse_version;
use crate::spec::diag::{file_diagnostic, Code};
use crate::spec::release::{parse_tag, sort_newest_first, Release};
use crate::spec::{limits, BrandFiles, Diagnostic};
use anyhow::{anyhow, Context as _, Result};
use bytes::Bytes;
use chrono::{DateTime, NaiveDate};
use git2::{ObjectType, Oid, Repository, Tree, TreeWalkMode, TreeWalkResult};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

const LINK_MODE: i32 = 0o120000;

/// The content tree below `prefix` (`""` or `"content/"`) of a commit.
fn content_tree<'r>(repo: &'r Repository, commit: Oid, prefix: &str) -> Result<Tree<'r>> {
    let tree = repo.find_commit(commit)?.tree()?;
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        return Ok(tree);
    }
    let entry = tree
        .get_path(std::path::Path::new(prefix))
        .with_context(|| format!("the commit has no folder {prefix}"))?;
    Ok(entry.to_object(repo)?.peel_to_tree()?)
}

/// The brand folders of one branch, read commit by commit.
pub struct GitSource {
    prefix: String,
    /// Each brand's subtree id and files, as of the last commit read.
    brands: BTreeMap<String, (Oid, Arc<BrandFiles>)>,
    history: Option<History>,
}

/// What changed between two reads.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Changed {
    /// Brands whose folder was added, changed or removed.
    pub brands: Vec<String>,
    /// Whether tags were added, moved or deleted.
    pub tags: bool,
}

impl GitSource {
    pub fn new(prefix: &str) -> GitSource {
        GitSource {
            prefix: prefix.to_string(),
            brands: BTreeMap::new(),
            history: None,
        }
    }

    /// Reads the brands of `commit`, reusing every brand folder whose tree
    /// did not change, and the releases from the tags.
    pub fn read(&mut self, repo: &Repository, commit: Oid) -> Result<(Content, Changed)> {
        let root = content_tree(repo, commit, &self.prefix)?;
        let mut next = BTreeMap::new();
        let mut changed = Changed::default();
        for entry in root.iter() {
            let Some(name) = entry.name() else { continue };
            if entry.kind() != Some(ObjectType::Tree) || is_ignored(&[name]) {
                continue;
            }
            let oid = entry.id();
            if let Some((old, files)) = self.brands.get(name).filter(|(old, _)| *old == oid) {
                next.insert(name.to_string(), (*old, files.clone()));
                continue;
            }
            let tree = entry.to_object(repo)?.peel_to_tree()?;
            if tree.get_name("brand.json").is_none() {
                continue;
            }
            let files = brand_files(repo, &tree, name);
            changed.brands.push(name.to_string());
            next.insert(name.to_string(), (oid, Arc::new(files)));
        }
        changed.brands.extend(
            self.brands
                .keys()
                .filter(|s| !next.contains_key(*s))
                .cloned(),
        );
        changed.brands.sort();
        self.brands = next;
        let before = self.history.as_ref().map(|h| h.tags.clone());
        let history = History::read(repo, &self.prefix, self.history.take());
        changed.tags = before.as_ref() != Some(&history.tags);
        let mut content = history.content(self.brands.values().map(|(_, f)| f));
        if self.brands.is_empty() {
            content.diagnostics.push(self.no_brands(repo, commit));
        }
        content.read = changed
            .brands
            .iter()
            .filter(|s| self.brands.contains_key(*s))
            .count();
        self.history = Some(history);
        Ok((content, changed))
    }
}

impl GitSource {
    /// Why the commit serves nothing: the brand folders it holds elsewhere,
    /// and the `--git-path` that serves them.
    fn no_brands(&self, repo: &Repository, commit: Oid) -> crate::spec::Diagnostic {
        let mut found = Vec::new();
        if let Ok(tree) = repo.find_commit(commit).and_then(|c| c.tree()) {
            let _ = tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
                let name = entry.name().unwrap_or_default();
                let depth = dir.matches('/').count();
                if entry.kind() == Some(ObjectType::Tree) {
                    return match depth >= super::HINT_DEPTH || super::is_tool_folder(name) {
                        true => TreeWalkResult::Skip,
                        false => TreeWalkResult::Ok,
                    };
                }
                if name == "brand.json" && depth >= 1 && found.len() < 1000 {
                    found.push(dir.trim_end_matches('/').to_string());
                }
                TreeWalkResult::Ok
            });
        }
        let prefix = self.prefix.trim_end_matches('/');
        let looked = match prefix.is_empty() {
            true => "the top of the repository".to_string(),
            false => format!("`{prefix}/`"),
        };
        super::no_brands_here(&looked, &found, |parent| match parent {
            "" => "serve them without --git-path".to_string(),
            p => format!("serve them with --git-path {p}"),
        })
    }
}

/// Reads one brand folder of a tree: brand.json, tokens.json, BRAND_BOOK.md
/// and assets/. Symbolic links are never published from git.
pub fn brand_files(repo: &Repository, tree: &Tree<'_>, slug: &str) -> BrandFiles {
    let mut reader = BlobReader {
        repo,
        slug,
        files: BTreeMap::new(),
        problems: Vec::new(),
        total: 0,
    };
    for name in BRAND_FILES {
        if let Some(entry) = tree.get_name(name) {
            reader.take((*name).to_string(), &entry);
        }
    }
    if super::reads_token_files(&reader.files) {
        // The JSON files a resolver document may name: not assets/, nor
        // the files read by name.
        let _ = tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
            let name = entry.name().unwrap_or_default();
            if entry.kind() == Some(ObjectType::Tree) {
                let skip = (dir.is_empty() && name == "assets")
                    || super::is_tool_folder(name)
                    || dir.matches('/').count() >= limits::MAX_ASSET_DEPTH;
                return if skip {
                    TreeWalkResult::Skip
                } else {
                    TreeWalkResult::Ok
                };
            }
            let path = format!("{dir}{name}");
            if !crate::spec::syntax::is_data_file(name)
                || is_scratch_name(name)
                || BRAND_FILES.contains(&path.as_str())
            {
                return TreeWalkResult::Ok;
            }
            if reader.take(path, entry) {
                TreeWalkResult::Ok
            } else {
                TreeWalkResult::Abort
            }
        });
    }
    if let Some(assets) = tree
        .get_name("assets")
        .and_then(|e| e.to_object(repo).ok())
        .and_then(|o| o.peel_to_tree().ok())
    {
        let _ = assets.walk(TreeWalkMode::PreOrder, |dir, entry| {
            let name = entry.name().unwrap_or_default();
            if is_scratch_name(name) {
                return TreeWalkResult::Skip;
            }
            if entry.kind() == Some(ObjectType::Tree) {
                return if dir.matches('/').count() >= limits::MAX_ASSET_DEPTH {
                    TreeWalkResult::Skip
                } else {
                    TreeWalkResult::Ok
                };
            }
            if reader.take(format!("assets/{dir}{name}"), entry) {
                TreeWalkResult::Ok
            } else {
                TreeWalkResult::Abort
            }
        });
    }
    let mut files = BrandFiles::new(slug, reader.files, reader.problems, Bodies::process());
    files.revision = Some(tree.id().to_string());
    files
}

/// Reads the blobs of one brand folder, counting them against the limits.
struct BlobReader<'r> {
    repo: &'r Repository,
    slug: &'r str,
    files: BTreeMap<String, Bytes>,
    problems: Vec<Diagnostic>,
    total: usize,
}

impl BlobReader<'_> {
    fn problem(&mut self, code: Code, path: &str, message: String) {
        let file = format!("{}/{path}", self.slug);
        self.problems
            .push(file_diagnostic(code, self.slug, &file, message));
    }

    /// Reads one entry as `path`. Returns false once the folder is over its limits.
    fn take(&mut self, path: String, entry: &git2::TreeEntry<'_>) -> bool {
        if entry.filemode() == LINK_MODE {
            let why = "symbolic links are not published from git".into();
            self.problem(Code::FileRefused, &path, why);
            return true;
        }
        match entry.kind() {
            Some(ObjectType::Blob) => {}
            Some(ObjectType::Tree) => {
                let why = format!("{path} is a folder, not a file");
                self.problem(Code::FileRefused, &path, why);
                return true;
            }
            _ => {
                let why = format!("{path} is not a file (a submodule?)");
                self.problem(Code::FileRefused, &path, why);
                return true;
            }
        }
        let Ok(blob) = entry.to_object(self.repo).and_then(|o| o.peel_to_blob()) else {
            let why = format!("{path} cannot be read from the repository");
            self.problem(Code::FileRefused, &path, why);
            return true;
        };
        if blob.size() > limits::MAX_FILE_BYTES {
            let message = format!(
                "file is {} bytes; the limit is {}",
                blob.size(),
                limits::describe_bytes(limits::MAX_FILE_BYTES)
            );
            self.problem(Code::FileTooLarge, &path, message);
            return true;
        }
        if self.total + blob.size() > limits::MAX_BRAND_BYTES
            || self.files.len() >= limits::MAX_ASSETS
        {
            let message = format!(
                "the brand folder holds more than {} or {} files; this file and any after it are not read",
                limits::describe_bytes(limits::MAX_BRAND_BYTES),
                limits::MAX_ASSETS
            );
            self.problem(Code::FolderTooLarge, &path, message);
            return false;
        }
        self.total += blob.size();
        self.files
            .insert(path, Bytes::copy_from_slice(blob.content()));
        true
    }
}

fn date_of(time: git2::Time) -> NaiveDate {
    let local = time.seconds() + i64::from(time.offset_minutes()) * 60;
    DateTime::from_timestamp(local, 0)
        .map(|d| d.date_naive())
        .unwrap_or_default()
}

/// The version field of `<prefix><slug>/brand.json` at a commit, if readable.
fn version_at(repo: &Repository, commit: Oid, prefix: &str, slug: &str) -> Option<String> {
    let tree = content_tree(repo, commit, prefix).ok()?;
    let entry = tree
        .get_path(std::path::Path::new(&format!("{slug}/brand.json")))
        .ok()?;
    let blob = entry.to_object(repo).ok()?.peel_to_blob().ok()?;
    if blob.size() > limits::MAX_FILE_BYTES {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(blob.content()).ok()?;
    v["version"].as_str().map(str::to_string)
}

/// The id of the brand folder's tree at a commit (to tell whether a commit touched it).
fn brand_tree_id(commit: &git2::Commit<'_>, path: &str) -> Option<Oid> {
    commit
        .tree()
        .ok()?
        .get_path(std::path::Path::new(path))
        .ok()
        .map(|e| e.id())
}

/// Most commits walked for one lightweight tag's notes.
const MAX_NOTES_WALK: usize = 1_000;

/// Subjects of the commits reachable from `to` but not from `from` that
/// changed the brand folder, newest first.
fn subjects_between(repo: &Repository, from: Option<Oid>, to: Oid, path: &str) -> Vec<String> {
    let Ok(mut walk) = repo.revwalk() else {
        return vec![];
    };
    let _ = walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::TIME);
    if walk.push(to).is_err() {
        return vec![];
    }
    if let Some(f) = from {
        let _ = walk.hide(f);
    }
    walk.take(MAX_NOTES_WALK)
        .filter_map(|id| id.ok())
        .filter_map(|id| repo.find_commit(id).ok())
        .filter(|c| {
            let mine = brand_tree_id(c, path);
            let parent = c.parent(0).ok().and_then(|p| brand_tree_id(&p, path));
            mine != parent
        })
        .filter_map(|c| c.summary().map(str::to_string))
        .collect()
}

/// What one tag says, computed once per (name, target).
#[derive(Debug, Clone)]
struct TagEntry {
    /// The release, or `None` when the tag is skipped.
    release: Option<Release>,
    lightweight: bool,
    problem: Option<Diagnostic>,
    files: Option<Arc<BrandFiles>>,
}

/// Every brand's releases, from the repository's tags.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Every tag name with the id it points at, sorted: when this is
    /// unchanged, nothing else needs reading.
    pub tags: Vec<(String, Oid)>,
    pub releases: Releases,
    /// Tags that are skipped, as warnings on their brand.
    pub diagnostics: Vec<Diagnostic>,
    pub pinned: Vec<Arc<Pinned>>,
    entries: HashMap<(String, Oid), TagEntry>,
    notes: HashMap<(Oid, Option<Oid>), Vec<String>>,
}

impl History {
    /// Reads the tags, reusing `previous` for every tag that did not move.
    pub fn read(repo: &Repository, prefix: &str, previous: Option<History>) -> History {
        let mut tags = Vec::new();
        let _ = repo.tag_foreach(|oid, name| {
            let name = String::from_utf8_lossy(name);
            if let Some(short) = name.strip_prefix("refs/tags/") {
                if parse_tag(short).is_some() {
                    tags.push((short.to_string(), oid));
                }
            }
            true
        });
        tags.sort();
        let previous = previous.unwrap_or_default();
        if previous.tags == tags && !tags.is_empty() {
            return previous;
        }
        let mut entries = HashMap::new();
        for (name, oid) in &tags {
            let key = (name.clone(), *oid);
            let entry = match previous.entries.get(&key) {
                Some(e) => e.clone(),
                None => tag_entry(repo, prefix, name),
            };
            entries.insert(key, entry);
        }
        let mut by_slug: BTreeMap<String, Vec<Release>> = BTreeMap::new();
        let mut lightweight = std::collections::HashSet::new();
        let mut diagnostics = Vec::new();
        let mut pinned = Vec::new();
        for e in entries.values() {
            if let Some(p) = &e.problem {
                diagnostics.push(p.clone());
            }
            let Some(r) = &e.release else { continue };
            let slug = parse_tag(&r.tag)
                .map(|(s, _)| s.to_string())
                .unwrap_or_default();
            if e.lightweight {
                lightweight.insert(r.tag.clone());
            }
            if let Some(files) = &e.files {
                pinned.push(Arc::new(Pinned {
                    release: r.clone(),
                    files: files.clone(),
                }));
            }
            by_slug.entry(slug).or_default().push(r.clone());
        }
        diagnostics.sort_by(|a: &Diagnostic, b| a.message.cmp(&b.message));
        pinned.sort_by(|a, b| a.release.tag.cmp(&b.release.tag));
        let pinned = with_lineages(repo, prefix, pinned);
        // Lightweight tags carry no message: list the commits since the previous release.
        let mut notes_cache = previous.notes;
        let mut notes = HashMap::new();
        let mut releases = Releases::new();
        for (slug, mut list) in by_slug {
            sort_newest_first(&mut list);
            let path = format!("{prefix}{slug}");
            for i in 0..list.len() {
                if !lightweight.contains(&list[i].tag) {
                    continue;
                }
                let Ok(to) = Oid::from_str(&list[i].commit) else {
                    continue;
                };
                let from = list.get(i + 1).and_then(|p| Oid::from_str(&p.commit).ok());
                let key = (to, from);
                let subjects = notes_cache
                    .remove(&key)
                    .unwrap_or_else(|| subjects_between(repo, from, to, &path));
                list[i].notes = subjects.clone();
                notes.insert(key, subjects);
            }
            releases.insert(slug, Arc::from(list));
        }
        History {
            tags,
            releases,
            diagnostics,
            pinned,
            entries,
            notes,
        }
    }

    /// The content made of `brands` and these releases.
    fn content<'a>(&self, brands: impl Iterator<Item = &'a Arc<BrandFiles>>) -> Content {
        let brands: Vec<Arc<BrandFiles>> = brands
            .map(|b| super::with_releases(b, &self.releases))
            .collect();
        let slugs: std::collections::HashSet<&str> =
            brands.iter().map(|b| b.slug.as_str()).collect();
        Content {
            withheld: Vec::new(),
            diagnostics: self
                .diagnostics
                .iter()
                .filter(|d| slugs.contains(d.brand.as_str()))
                .cloned()
                .collect(),
            pinned: self
                .pinned
                .iter()
                .filter(|p| slugs.contains(p.files.slug.as_str()))
                .cloned()
                .collect(),
            brands,
            read: 0,
        }
    }
}

/// Each release of a brand of a family, built over its parents as its
/// tag's commit has them (DESIGN.md section 18): a parent named by slug
/// from the same tree, one named with a range as the highest of its
/// releases in the range whose tag is reachable from that commit.
fn with_lineages(repo: &Repository, prefix: &str, pinned: Vec<Arc<Pinned>>) -> Vec<Arc<Pinned>> {
    if pinned.iter().all(|p| p.files.parent().is_none()) {
        return pinned;
    }
    // Parents first: a release whose parent is a release brings its chain.
    let mut settled: HashMap<String, Arc<Pinned>> = HashMap::new();
    let mut order: Vec<Arc<Pinned>> = pinned.clone();
    order.sort_by_key(|p| p.files.parent().is_some());
    let mut out = Vec::with_capacity(pinned.len());
    for _round in 0..=crate::spec::lineage::MAX_DEPTH {
        let mut waiting = Vec::new();
        for p in order {
            let ready = p.files.extends().is_none_or(|(slug, range)| {
                range.is_none()
                    || !pinned.iter().any(|q| {
                        q.files.slug == slug
                            && q.files.parent().is_some()
                            && !settled.contains_key(&q.release.tag)
                    })
            });
            if !ready {
                waiting.push(p);
                continue;
            }
            let p = match p.files.parent() {
                None => p,
                Some(_) => Arc::new(release_lineage(repo, prefix, &p, &settled)),
            };
            settled.insert(p.release.tag.clone(), p.clone());
            out.push(p);
        }
        if waiting.is_empty() {
            break;
        }
        order = waiting;
    }
    // A cycle among ranges: what is left is settled as it is (its
    // lineage then says what is wrong).
    for p in pinned {
        if !settled.contains_key(&p.release.tag) {
            let p = Arc::new(release_lineage(repo, prefix, &p, &settled));
            settled.insert(p.release.tag.clone(), p.clone());
            out.push(p);
        }
    }
    out.sort_by(|a, b| a.release.tag.cmp(&b.release.tag));
    out
}

/// One release, with the lineage its tag's commit gives it.
fn release_lineage(
    repo: &Repository,
    prefix: &str,
    p: &Pinned,
    settled: &HashMap<String, Arc<Pinned>>,
) -> Pinned {
    let Ok(commit) = Oid::from_str(&p.release.commit) else {
        return p.clone();
    };
    let tree = content_tree(repo, commit, prefix).ok();
    let head = |slug: &str| -> Option<Arc<BrandFiles>> {
        let tree = tree.as_ref()?;
        let folder = tree
            .get_name(slug)?
            .to_object(repo)
            .ok()?
            .peel_to_tree()
            .ok()?;
        Some(Arc::new(brand_files(repo, &folder, slug)))
    };
    let releases = |slug: &str| -> Vec<crate::spec::lineage::Release> {
        settled
            .values()
            .filter(|q| q.files.slug == slug)
            .filter(|q| {
                Oid::from_str(&q.release.commit).is_ok_and(|tagged| {
                    tagged == commit || repo.graph_descendant_of(commit, tagged).unwrap_or(false)
                })
            })
            .map(|q| (q.release.version.clone(), q.files.clone()))
            .collect()
    };
    let lineage = crate::spec::lineage::lineage(&p.files, &head, &releases);
    Pinned {
        release: p.release.clone(),
        files: Arc::new(p.files.with_lineage(lineage)),
    }
}

/// Reads what one tag says: its release, or why it is skipped.
fn tag_entry(repo: &Repository, prefix: &str, name: &str) -> TagEntry {
    let skipped = |problem: Option<Diagnostic>| TagEntry {
        release: None,
        lightweight: false,
        problem,
        files: None,
    };
    let Some((slug, version_text)) = parse_tag(name) else {
        return skipped(None);
    };
    let warn = |message: String| Diagnostic {
        pointer: "/version".into(),
        ..file_diagnostic(
            Code::TagSkipped,
            slug,
            &format!("{slug}/brand.json"),
            message,
        )
    };
    let Ok(reference) = repo.find_reference(&format!("refs/tags/{name}")) else {
        return skipped(None);
    };
    let Ok(commit) = reference.peel_to_commit() else {
        return skipped(None);
    };
    let version = match parse_version(version_text) {
        Ok(v) => v,
        Err(e) => return skipped(Some(warn(format!("tag {name} is skipped: {e}")))),
    };
    match version_at(repo, commit.id(), prefix, slug) {
        Some(v) if v == version_text => {}
        Some(v) => {
            return skipped(Some(warn(format!(
                "tag {name} is skipped: brand.json at {} says version \"{v}\"",
                &commit.id().to_string()[..12]
            ))))
        }
        None => {
            return skipped(Some(warn(format!(
                "tag {name} is skipped: the tagged commit has no readable {slug}/brand.json"
            ))))
        }
    }
    let annotated = reference.peel_to_tag().ok();
    let (date, notes) = match &annotated {
        Some(tag) => (
            tag.tagger()
                .map_or_else(|| date_of(commit.time()), |t| date_of(t.when())),
            tag.message()
                .unwrap_or_default()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        None => (date_of(commit.time()), Vec::new()),
    };
    let files = content_tree(repo, commit.id(), prefix)
        .ok()
        .and_then(|root| {
            root.get_name(slug)
                .and_then(|e| e.to_object(repo).ok())
                .and_then(|o| o.peel_to_tree().ok())
                .map(|tree| Arc::new(brand_files(repo, &tree, slug)))
        });
    let declared = crate::spec::visibility::declared(
        files
            .as_ref()
            .and_then(|f| f.get("brand.json"))
            .map(|b| &b[..]),
    );
    TagEntry {
        release: Some(Release {
            version,
            date,
            tag: name.to_string(),
            commit: commit.id().to_string(),
            notes,
            declared,
        }),
        lightweight: annotated.is_none(),
        problem: None,
        files,
    }
}

/// For a content folder inside a git work tree: the repository and the
/// folder's path inside it (`"content/"`), so its tags feed the changelog.
pub fn discover(dir: &std::path::Path) -> Option<(Repository, String)> {
    let repo = Repository::discover(dir).ok()?;
    let workdir = repo.workdir()?.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    let rel = dir.strip_prefix(&workdir).ok()?;
    let mut prefix = rel.to_str()?.replace('\\', "/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    Some((repo, prefix))
}

/// The error of an operation, with any URL in it redacted.
pub fn describe(e: &anyhow::Error, url: &str) -> String {
    format!("{e:#}").replace(url, &redact_url(url))
}

pub fn no_branch(branch: &str) -> anyhow::Error {
    anyhow!("the remote has no branch {branch}")
}
