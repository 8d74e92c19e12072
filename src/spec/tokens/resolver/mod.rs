//! The DTCG Resolver Module 2025.10: `tokens.resolver.json` names the
//! brand's token files (`sets`), the ways they vary (`modifiers`, each with
//! `contexts` and a `default`), and the order they merge in
//! (`resolutionOrder`). A permutation (one context per modifier) is the
//! sources of every step in that order, merged: groups merge member by
//! member, a later token replaces an earlier one whole, and aliases are
//! resolved after merging (by the token parser, on the merged tree).
//!
//! Every member of the merged tree remembers the file and pointer it was
//! written at ([`Merged::origin`]), so a diagnostic about a merged token
//! points into the file where the token was written, not into the merge.
//!
//! Sources are `{"$ref": "file.json"}` or `{"$ref": "file.json#/pointer"}`
//! (a file of the brand folder: relative, no `..`, no URL), `{"$ref":
//! "#/sets/name"}` (that set's sources) or inline tokens.

mod family;
mod read;
pub use family::sibling;

use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
pub(crate) use read::brand_path;
pub use read::read;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The resolver document's name in a brand folder.
pub const RESOLVER_FILE: &str = "tokens.resolver.json";

/// Most contexts, over all modifiers, that a brand may have: each is
/// merged and checked on every build.
pub const MAX_CONTEXTS: usize = 64;

/// Where a source's tokens are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum From {
    /// A file of the brand folder (relative to it), and a JSON Pointer into it.
    File { path: String, fragment: String },
    /// Tokens written in the resolver document itself, at this pointer.
    Inline(String),
}

/// One source of a set or context, with where the resolver names it.
#[derive(Debug, Clone)]
pub struct Source {
    pub from: From,
    /// Pointer of the source entry in the resolver document.
    pub at: String,
}

/// A way the tokens vary: its contexts, in document order, and the default.
#[derive(Debug, Clone)]
pub struct Modifier {
    pub name: String,
    /// Each context with every source it has, wherever the order merges
    /// it (a family's modifier is merged at the parent's place and the
    /// child's, see [`Resolver::extend`]).
    pub contexts: Vec<(String, Vec<Source>)>,
    /// Index of the default context.
    pub default: usize,
    /// The document names the default (else it is the first context).
    pub named_default: bool,
    /// Each context's colour scheme (`light`, `dark`) where the modifier's
    /// `$extensions["app.marque"].colorScheme` says it, by context name.
    pub schemes: std::collections::HashMap<String, &'static str>,
}

#[derive(Debug, Clone)]
enum Step {
    Set(Vec<Source>),
    /// A modifier (by index) at this place of the order, with the sources
    /// each of its contexts (by index) merges here; a context with none
    /// here merges nothing here.
    Modifier(usize, Vec<Vec<Source>>),
}

/// A resolver document, read.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    steps: Vec<Step>,
    pub modifiers: Vec<Modifier>,
    /// Sets the document defines but `resolutionOrder` does not list: their
    /// tokens are in no permutation.
    unused_sets: Vec<(String, Vec<Source>)>,
}

impl Resolver {
    /// Files named relative to a resolver document in the folder `dir` of
    /// the brand folder (`tokens/`), as a JSON reference is: each file
    /// source's path made relative to the brand folder.
    pub fn rebase(&mut self, dir: &str) {
        if dir.is_empty() {
            return;
        }
        self.each_source_mut(|s| {
            if let From::File { path, .. } = &mut s.from {
                *path = format!("{dir}/{path}");
            }
        });
    }

    /// Calls `f` on every source: of each step of the order (a modifier's
    /// at that place), of each modifier's contexts, and of the sets the
    /// order leaves out.
    fn each_source_mut(&mut self, mut f: impl FnMut(&mut Source)) {
        let steps = self.steps.iter_mut().flat_map(|step| match step {
            Step::Set(sources) => vec![sources],
            Step::Modifier(_, here) => here.iter_mut().collect(),
        });
        let contexts = self
            .modifiers
            .iter_mut()
            .flat_map(|m| m.contexts.iter_mut().map(|(_, sources)| sources));
        let unused = self.unused_sets.iter_mut().map(|(_, sources)| sources);
        for sources in steps.chain(contexts).chain(unused) {
            sources.iter_mut().for_each(&mut f);
        }
    }
}

/// One context per modifier, by index, in the order of [`Resolver::modifiers`].
pub type Permutation = Vec<usize>;

/// A merged token tree, and where each of its members was written.
#[derive(Debug, Clone)]
pub struct Merged {
    pub doc: Value,
    /// Pointer in the merged tree → (file relative to the brand folder, or
    /// `None` for the resolver document; pointer in that file).
    origins: BTreeMap<String, (Option<String>, String)>,
    /// JSON values the merge may still copy (see [`MAX_MERGED_VALUES`]).
    budget: usize,
}

/// Most JSON values one permutation's merge copies: sources are files of
/// at most a few megabytes, but a resolver can list one of them thousands
/// of times. Past it the merge stops and the brand has an error.
pub const MAX_MERGED_VALUES: usize = crate::spec::limits::MAX_MERGED_VALUES;

impl Merged {
    fn new() -> Merged {
        Merged {
            doc: Value::Object(Map::new()),
            origins: BTreeMap::new(),
            budget: MAX_MERGED_VALUES,
        }
    }

    /// The merge stopped at [`MAX_MERGED_VALUES`]: what it holds is partial.
    pub fn over_budget(&self) -> bool {
        self.budget == 0
    }

    /// The file (`None`: the resolver document) and the pointer in it that
    /// `pointer` of the merged tree came from.
    pub fn origin(&self, pointer: &str) -> (Option<&str>, String) {
        let mut at = pointer;
        loop {
            if let Some((file, written)) = self.origins.get(at) {
                return (
                    file.as_deref(),
                    format!("{written}{}", &pointer[at.len()..]),
                );
            }
            match at.rfind('/') {
                Some(i) => at = &at[..i],
                None => return (None, String::new()),
            }
        }
    }
}

impl Resolver {
    /// Every file the sources name, each once.
    pub fn files(&self) -> BTreeSet<&str> {
        self.all_sources()
            .filter_map(|s| match &s.from {
                From::File { path, .. } => Some(path.as_str()),
                From::Inline(_) => None,
            })
            .collect()
    }

    fn all_sources(&self) -> impl Iterator<Item = &Source> {
        let steps = self.steps.iter().flat_map(|s| match s {
            Step::Set(sources) => sources.iter().collect::<Vec<_>>(),
            Step::Modifier(..) => Vec::new(),
        });
        let contexts = self
            .modifiers
            .iter()
            .flat_map(|m| m.contexts.iter().flat_map(|(_, s)| s.iter()));
        let unused = self.unused_sets.iter().flat_map(|(_, s)| s.iter());
        steps.chain(contexts).chain(unused)
    }

    /// Reports each source whose file is missing or whose fragment names
    /// nothing (or no object), once, at the source.
    pub fn check_sources(&self, files: &BTreeMap<String, Value>, d: &mut FileDiags<'_>) {
        let mut seen = BTreeSet::new();
        for s in self.all_sources() {
            let From::File { path, fragment } = &s.from else {
                continue;
            };
            if !seen.insert(&s.at) {
                continue;
            }
            let at = join(&s.at, "$ref");
            match files.get(path) {
                None => d.push(
                    Code::UnknownResolverReference,
                    &at,
                    format!("`{path}` is not a JSON file of this brand folder"),
                ),
                Some(doc) => match doc.pointer(fragment) {
                    Some(Value::Object(_)) => {}
                    Some(_) => d.push(
                        Code::UnknownResolverReference,
                        &at,
                        format!("`{path}#{fragment}` is not an object of tokens"),
                    ),
                    None => d.push(
                        Code::UnknownResolverReference,
                        &at,
                        format!("`{path}#{fragment}` names nothing in that file"),
                    ),
                },
            }
        }
    }

    /// Every modifier at its default context.
    pub fn default_permutation(&self) -> Permutation {
        self.modifiers.iter().map(|m| m.default).collect()
    }

    /// Each permutation that differs from the default in one modifier, with
    /// that modifier and context: together they check every context.
    pub fn each_context(&self) -> Vec<(usize, usize, Permutation)> {
        let default = self.default_permutation();
        let mut out = Vec::new();
        for (m, modifier) in self.modifiers.iter().enumerate() {
            for c in 0..modifier.contexts.len() {
                if c != modifier.default {
                    let mut p = default.clone();
                    p[m] = c;
                    out.push((m, c, p));
                }
            }
        }
        out
    }

    /// The tokens of `permutation`: every step's sources, merged in order.
    /// `resolver` is the resolver document (for inline sources), `files`
    /// the brand's JSON files by path. Sources that cannot be read are
    /// skipped (see [`Resolver::check_sources`]).
    pub fn merge(
        &self,
        permutation: &Permutation,
        resolver: &Value,
        files: &BTreeMap<String, Value>,
    ) -> Merged {
        self.merge_over(
            &self.merge_common(resolver, files),
            permutation,
            resolver,
            files,
        )
    }

    /// The steps before the first modifier, merged: what every
    /// permutation starts from (most of a system: its sets), so contexts
    /// are merged from it rather than from every file again.
    pub fn merge_common(&self, resolver: &Value, files: &BTreeMap<String, Value>) -> Merged {
        let mut merged = Merged::new();
        for step in &self.steps[..self.common_steps()] {
            if let Step::Set(sources) = step {
                for s in sources {
                    merge_source(&mut merged, s, resolver, files);
                }
            }
        }
        merged
    }

    /// How many steps come before the first modifier.
    fn common_steps(&self) -> usize {
        self.steps
            .iter()
            .take_while(|s| matches!(s, Step::Set(_)))
            .count()
    }

    /// [`Resolver::merge`] of `permutation`, over `common` (what
    /// [`Resolver::merge_common`] gave).
    pub fn merge_over(
        &self,
        common: &Merged,
        permutation: &Permutation,
        resolver: &Value,
        files: &BTreeMap<String, Value>,
    ) -> Merged {
        let mut merged = common.clone();
        for step in &self.steps[self.common_steps()..] {
            let sources = match step {
                Step::Set(sources) => sources,
                Step::Modifier(m, here) => match here.get(permutation[*m]) {
                    Some(sources) => sources,
                    None => continue,
                },
            };
            for s in sources {
                merge_source(&mut merged, s, resolver, files);
            }
        }
        merged
    }

    /// Sets that `resolutionOrder` leaves out but that the listed sources
    /// refer to (Apple HIG's `typography`, whose sizes every text-style
    /// context aliases): the only reading under which those references
    /// resolve is the author's, so each such set is merged first, under
    /// everything listed, with a warning at the set. Sets nothing refers
    /// to stay out.
    pub fn adopt_referred_sets(
        &mut self,
        resolver: &Value,
        files: &BTreeMap<String, Value>,
        d: &mut FileDiags<'_>,
    ) {
        if self.unused_sets.is_empty() {
            return;
        }
        let listed_sources = self.steps.iter().flat_map(|s| match s {
            Step::Set(sources) => sources.as_slice(),
            Step::Modifier(..) => &[],
        });
        let context_sources = self
            .modifiers
            .iter()
            .flat_map(|m| m.contexts.iter().flat_map(|(_, s)| s.iter()));
        let mut defined = BTreeSet::new();
        let mut referred = BTreeSet::new();
        // Each source once: a resolver may list one file many times.
        let mut seen = std::collections::HashSet::new();
        for s in listed_sources.chain(context_sources) {
            if !seen.insert(&s.from) {
                continue;
            }
            let mut alone = Merged::new();
            merge_source(&mut alone, s, resolver, files);
            let mut names = Vec::new();
            token_names(&alone.doc, &mut Vec::new(), &mut names);
            defined.extend(names);
            references(&alone.doc, &mut referred);
        }
        let mut adopted = Vec::new();
        for (name, sources) in std::mem::take(&mut self.unused_sets) {
            let mut alone = Merged::new();
            for s in &sources {
                merge_source(&mut alone, s, resolver, files);
            }
            let mut names = Vec::new();
            token_names(&alone.doc, &mut Vec::new(), &mut names);
            let needed: Vec<&String> = names
                .iter()
                .filter(|n| referred.contains(*n) && !defined.contains(*n))
                .collect();
            match needed.first() {
                Some(first) => {
                    d.push(
                        Code::SetAdopted,
                        &join("/sets", &name),
                        format!(
                            "set `{name}` is not in `resolutionOrder`, yet the listed sets and contexts refer to {} of its tokens (`{{{first}}}`…); it is merged first, under everything `resolutionOrder` lists",
                            needed.len()
                        ),
                    );
                    adopted.push(Step::Set(sources));
                }
                None => self.unused_sets.push((name, sources)),
            }
        }
        self.steps.splice(0..0, adopted);
    }

    /// The names of the tokens that only a set or context left out of
    /// `permutation` writes, with which one, for a reference that resolves
    /// nowhere in it.
    pub fn elsewhere(
        &self,
        permutation: &Permutation,
        resolver: &Value,
        files: &BTreeMap<String, Value>,
    ) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let mut note = |sources: &[Source], what: String| {
            let mut alone = Merged::new();
            for s in sources {
                merge_source(&mut alone, s, resolver, files);
            }
            let mut names = Vec::new();
            token_names(&alone.doc, &mut Vec::new(), &mut names);
            for n in names {
                out.entry(n).or_insert_with(|| what.clone());
            }
        };
        for (m, modifier) in self.modifiers.iter().enumerate() {
            for (c, (context, sources)) in modifier.contexts.iter().enumerate() {
                if c != permutation[m] {
                    note(
                        sources,
                        format!(
                            "context `{context}` of modifier `{}`, which this permutation leaves out",
                            modifier.name
                        ),
                    );
                }
            }
        }
        for (name, sources) in &self.unused_sets {
            note(
                sources,
                format!("set `{name}`, which `resolutionOrder` does not list"),
            );
        }
        out
    }
}

/// The dotted names of every token of a tree.
fn token_names(v: &Value, path: &mut Vec<String>, out: &mut Vec<String>) {
    let Some(o) = v.as_object() else {
        return;
    };
    if o.contains_key("$value") {
        out.push(path.join("."));
        return;
    }
    for (k, child) in o {
        if !k.starts_with('$') {
            path.push(k.clone());
            token_names(child, path, out);
            path.pop();
        }
    }
}

/// The targets of every `{a.b}` reference written in a tree.
fn references(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            if let Some(target) = crate::spec::tokens::parse_reference(s) {
                out.insert(target.to_string());
            }
        }
        Value::Array(items) => items.iter().for_each(|x| references(x, out)),
        Value::Object(o) => o.values().for_each(|x| references(x, out)),
        _ => {}
    }
}

fn merge_source(
    merged: &mut Merged,
    s: &Source,
    resolver: &Value,
    files: &BTreeMap<String, Value>,
) {
    let (file, pointer, tokens) = match &s.from {
        From::File { path, fragment } => {
            let Some(Value::Object(o)) = files.get(path).and_then(|doc| doc.pointer(fragment))
            else {
                return;
            };
            (Some(path.clone()), fragment.clone(), o)
        }
        From::Inline(pointer) => {
            let Some(Value::Object(o)) = resolver.pointer(pointer) else {
                return;
            };
            (None, pointer.clone(), o)
        }
    };
    let Value::Object(root) = &mut merged.doc else {
        return;
    };
    let at = Origin {
        file: &file,
        pointer: &pointer,
    };
    merge_into(
        root,
        "",
        tokens,
        at,
        &mut merged.origins,
        &mut merged.budget,
    );
}

/// Where a source's members are written.
#[derive(Clone, Copy)]
struct Origin<'a> {
    file: &'a Option<String>,
    pointer: &'a str,
}

/// JSON values in `v`, itself included.
fn values_in(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(values_in).sum(),
        Value::Object(o) => o.values().map(values_in).sum(),
        _ => 0,
    }
}

/// Merges `source` (written at `at`) into `target` (at `into` in the
/// merged tree): groups member by member, tokens and `$` members replaced
/// whole; each member and value copied counts against `budget`, and the
/// merge stops when it is spent.
fn merge_into(
    target: &mut Map<String, Value>,
    into: &str,
    source: &Map<String, Value>,
    at: Origin<'_>,
    origins: &mut BTreeMap<String, (Option<String>, String)>,
    budget: &mut usize,
) {
    let file = at.file;
    for (k, v) in source {
        if k == "$schema" && into.is_empty() {
            continue;
        }
        let cost = match v.is_object() && v.get("$value").is_none() {
            true => 1,
            false => values_in(v),
        };
        if cost > *budget {
            *budget = 0;
            return;
        }
        *budget -= cost;
        crate::spec::limits::checkpoint();
        let (to, from) = (join(into, k), join(at.pointer, k));
        let is_group = v.as_object().is_some_and(|o| !o.contains_key("$value"));
        if k.starts_with('$') || !is_group {
            // Whatever was written under this name before is gone (only a
            // group has members written below it).
            if target.get(k).is_some_and(Value::is_object) {
                let below = format!("{to}/");
                let stale: Vec<String> = origins
                    .range(below.clone()..)
                    .take_while(|(p, _)| p.starts_with(&below))
                    .map(|(p, _)| p.clone())
                    .collect();
                for p in stale {
                    origins.remove(&p);
                }
            }
            target.insert(k.clone(), v.clone());
            origins.insert(to, (file.clone(), from));
            continue;
        }
        let Value::Object(group) = v else { continue };
        let slot = target
            .entry(k.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        let is_token = slot.as_object().is_none_or(|o| o.contains_key("$value"));
        if is_token {
            *slot = Value::Object(Map::new());
        }
        if is_token || !origins.contains_key(&to) {
            origins.insert(to.clone(), (file.clone(), from.clone()));
        }
        if let Value::Object(slot) = slot {
            let at = Origin {
                file,
                pointer: &from,
            };
            merge_into(slot, &to, group, at, origins, budget);
        }
    }
}

#[cfg(test)]
mod tests;
