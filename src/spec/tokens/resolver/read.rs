//! Reading a resolver document: `sets`, `modifiers` and
//! `resolutionOrder` into a [`Resolver`], every problem reported at once.
//!
//! Sets may name sets. Each set is expanded once, by its pointer, into the
//! list of its sources with a source that follows itself dropped (merging
//! a source again right after itself changes nothing, not even the order
//! of keys), so a graph of sets costs its size, not the number of paths
//! through it: eight levels of sets, each naming the next a hundred times,
//! are one list of one source. What a graph still adds up to is charged to
//! [`MAX_RESOLVER_SOURCES`] before anything is merged.

use super::{From, Modifier, Resolver, Source, Step, MAX_CONTEXTS};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::limits::{MAX_RESOLVER_SOURCES, MAX_SET_DEPTH};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};

/// What reading one document remembers: each set's sources once expanded,
/// the chain of sets being expanded, and the sources charged so far.
struct Sets<'v> {
    root: &'v Map<String, Value>,
    expanded: HashMap<String, Vec<Source>>,
    /// Pointers of the sets being expanded, outermost first.
    chain: Vec<String>,
    charged: usize,
    /// The budget was reported once; later references add nothing.
    spent: bool,
}

/// Reads a resolver document, reporting every problem in it.
pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Option<Resolver> {
    let Some(root) = doc.as_object() else {
        d.push(
            Code::InvalidResolver,
            "",
            "tokens.resolver.json must be a JSON object (a DTCG Resolver Module 2025.10 document)",
        );
        return None;
    };
    match root.get("version") {
        Some(Value::String(v)) if v == "2025.10" => {}
        None => d.push(
            Code::ResolverVersion,
            "",
            "no `version`: read as a DTCG Resolver Module 2025.10 document",
        ),
        Some(other) => d.push(
            Code::ResolverVersion,
            "/version",
            format!("version {other} is not \"2025.10\"; read as 2025.10"),
        ),
    }
    let empty = Map::new();
    let sets = object_at(root, "sets", d).unwrap_or(&empty);
    let modifiers = object_at(root, "modifiers", d).unwrap_or(&empty);
    let mut r = Resolver::default();
    let mut used_sets = BTreeSet::new();
    let mut expand = Sets {
        root,
        expanded: HashMap::new(),
        chain: Vec::new(),
        charged: 0,
        spent: false,
    };
    match root.get("resolutionOrder") {
        Some(Value::Array(order)) => {
            for (i, item) in order.iter().enumerate() {
                let at = format!("/resolutionOrder/{i}");
                step(&mut r, &mut expand, item, &at, &mut used_sets, d);
            }
        }
        Some(_) => d.push(
            Code::InvalidResolver,
            "/resolutionOrder",
            "`resolutionOrder` must be an array of sets and modifiers",
        ),
        None => {
            d.push(
                Code::NoResolutionOrder,
                "",
                "no `resolutionOrder`: the sets, then the modifiers, merge in the order they are written",
            );
            for name in sets.keys() {
                let item = serde_json::json!({ "$ref": format!("#/sets/{}", escape(name)) });
                step(&mut r, &mut expand, &item, "", &mut used_sets, d);
            }
            for name in modifiers.keys() {
                let item = serde_json::json!({ "$ref": format!("#/modifiers/{}", escape(name)) });
                step(&mut r, &mut expand, &item, "", &mut used_sets, d);
            }
        }
    }
    for (name, set) in sets {
        if !used_sets.contains(name) {
            let at = join("/sets", name);
            let sources = expand.set(set, &at, d);
            r.unused_sets.push((name.clone(), sources));
        }
    }
    let contexts: usize = r.modifiers.iter().map(|m| m.contexts.len()).sum();
    if contexts > MAX_CONTEXTS {
        d.push(
            Code::TooManyContexts,
            "/modifiers",
            format!(
                "the modifiers have {contexts} contexts in all; at most {MAX_CONTEXTS} are read"
            ),
        );
        return None;
    }
    Some(r)
}

fn escape(name: &str) -> String {
    crate::spec::json::escape_token(name)
}

fn object_at<'v>(
    root: &'v Map<String, Value>,
    key: &str,
    d: &mut FileDiags<'_>,
) -> Option<&'v Map<String, Value>> {
    match root.get(key)? {
        Value::Object(o) => Some(o),
        _ => {
            d.push(
                Code::InvalidResolver,
                &format!("/{key}"),
                format!("`{key}` must be an object"),
            );
            None
        }
    }
}

/// One item of `resolutionOrder`: a reference to a set or modifier, or one
/// written inline.
fn step(
    r: &mut Resolver,
    expand: &mut Sets<'_>,
    item: &Value,
    at: &str,
    used_sets: &mut BTreeSet<String>,
    d: &mut FileDiags<'_>,
) {
    let root = expand.root;
    let Some(o) = item.as_object() else {
        d.push(
            Code::InvalidResolver,
            at,
            "each step of `resolutionOrder` must be an object",
        );
        return;
    };
    if let Some(reference) = o.get("$ref") {
        let target = reference.as_str().and_then(|s| s.strip_prefix('#'));
        let parts: Vec<String> = target.map(crate::spec::json::tokens).unwrap_or_default();
        let ref_at = join(at, "$ref");
        match parts.as_slice() {
            [kind, name] if kind == "sets" => {
                let Some(set) = root.get("sets").and_then(|s| s.get(name)) else {
                    d.push(
                        Code::UnknownResolverReference,
                        &ref_at,
                        format!("there is no set `{name}` in `sets`"),
                    );
                    return;
                };
                used_sets.insert(name.clone());
                let sources = expand.set(set, &join("/sets", name), d);
                r.steps.push(Step::Set(sources));
            }
            [kind, name] if kind == "modifiers" => {
                let Some(m) = root.get("modifiers").and_then(|s| s.get(name)) else {
                    d.push(
                        Code::UnknownResolverReference,
                        &ref_at,
                        format!("there is no modifier `{name}` in `modifiers`"),
                    );
                    return;
                };
                modifier(r, expand, name, m, &join("/modifiers", name), &ref_at, d);
            }
            _ => d.push(
                Code::InvalidResolver,
                &ref_at,
                "a step's `$ref` must name a set (`#/sets/<name>`) or a modifier (`#/modifiers/<name>`)",
            ),
        }
        return;
    }
    let name = o.get("name").and_then(Value::as_str).unwrap_or_default();
    match o.get("type").and_then(Value::as_str) {
        Some("set") => {
            let sources = expand.set(item, at, d);
            r.steps.push(Step::Set(sources));
        }
        Some("modifier") if !name.is_empty() => modifier(r, expand, name, item, at, at, d),
        Some("modifier") => d.push(
            Code::InvalidResolver,
            at,
            "an inline modifier needs a `name`",
        ),
        _ => d.push(
            Code::InvalidResolver,
            at,
            "each step of `resolutionOrder` is a `$ref` to a set or modifier, or an object of `type` \"set\" or \"modifier\"",
        ),
    }
}

fn modifier(
    r: &mut Resolver,
    expand: &mut Sets<'_>,
    name: &str,
    m: &Value,
    at: &str,
    used_at: &str,
    d: &mut FileDiags<'_>,
) {
    if r.modifiers.iter().any(|x| x.name == name) {
        d.push(
            Code::InvalidModifier,
            used_at,
            format!("modifier `{name}` is in `resolutionOrder` twice"),
        );
        return;
    }
    let Some(contexts) = m.get("contexts").and_then(Value::as_object) else {
        d.push(
            Code::InvalidModifier,
            at,
            format!(
                "modifier `{name}` needs `contexts`: an object of context names and their sources"
            ),
        );
        return;
    };
    if contexts.is_empty() {
        d.push(
            Code::InvalidModifier,
            &join(at, "contexts"),
            format!("modifier `{name}` has no context"),
        );
        return;
    }
    let contexts: Vec<(String, Vec<Source>)> = contexts
        .iter()
        .map(|(c, sources)| {
            let at = join(&join(at, "contexts"), c);
            (c.clone(), expand.sources(sources, &at, d))
        })
        .collect();
    let named_default = matches!(m.get("default"), Some(Value::String(_)));
    let default = match m.get("default") {
        None => {
            // The modifier's name travels with it: in a family, a child's
            // modifier of a parent's name keeps the parent's default.
            d.push_reference(
                Code::NoDefaultContext,
                at,
                format!(
                    "modifier `{name}` has no `default`; its first context, `{}`, is the default",
                    contexts[0].0
                ),
                name,
            );
            0
        }
        Some(Value::String(c)) => match contexts.iter().position(|(n, _)| n == c) {
            Some(i) => i,
            None => {
                d.push(
                    Code::InvalidModifier,
                    &join(at, "default"),
                    format!("modifier `{name}` has no context `{c}` to be its default"),
                );
                return;
            }
        },
        Some(_) => {
            d.push(
                Code::InvalidModifier,
                &join(at, "default"),
                "`default` must name a context",
            );
            return;
        }
    };
    let here = contexts.iter().map(|(_, s)| s.clone()).collect();
    let schemes = declared_schemes(m);
    r.modifiers.push(Modifier {
        name: name.to_string(),
        contexts,
        default,
        named_default,
        schemes,
    });
    r.steps.push(Step::Modifier(r.modifiers.len() - 1, here));
}

impl Sets<'_> {
    /// The sources of a set object (`{"sources": […]}`) written at `at`.
    fn set(&mut self, set: &Value, at: &str, d: &mut FileDiags<'_>) -> Vec<Source> {
        match set.get("sources") {
            Some(sources) => self.sources(sources, &join(at, "sources"), d),
            None => {
                d.push(
                    Code::InvalidResolver,
                    at,
                    "a set needs `sources`: an array of files or tokens",
                );
                Vec::new()
            }
        }
    }

    /// A list of sources written at `at`, sets named in it expanded (each
    /// once), a source that follows itself once.
    fn sources(&mut self, sources: &Value, at: &str, d: &mut FileDiags<'_>) -> Vec<Source> {
        let Some(list) = sources.as_array() else {
            d.push(
                Code::InvalidResolver,
                at,
                "sources must be an array of `$ref`s and tokens",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, source) in list.iter().enumerate() {
            let at = format!("{at}/{i}");
            let Some(o) = source.as_object() else {
                d.push(
                    Code::InvalidResolver,
                    &at,
                    "a source must be an object: a `$ref` or tokens",
                );
                continue;
            };
            let Some(reference) = o.get("$ref") else {
                out.push(Source {
                    from: From::Inline(at.clone()),
                    at,
                });
                continue;
            };
            let ref_at = join(&at, "$ref");
            let Some(reference) = reference.as_str() else {
                d.push(Code::InvalidResolver, &ref_at, "`$ref` must be a string");
                continue;
            };
            if let Some(pointer) = reference.strip_prefix('#') {
                let Some(target) = pointer_in(self.root, pointer) else {
                    d.push(
                        Code::UnknownResolverReference,
                        &ref_at,
                        format!("`{reference}` names nothing in this document"),
                    );
                    continue;
                };
                if target.get("sources").is_some() {
                    let named = self.named_set(target, pointer, &ref_at, d);
                    out.extend(named);
                } else if target.is_object() {
                    out.push(Source {
                        from: From::Inline(pointer.to_string()),
                        at,
                    });
                } else {
                    d.push(
                        Code::UnknownResolverReference,
                        &ref_at,
                        format!("`{reference}` is not a set or tokens"),
                    );
                }
                continue;
            }
            let (path, fragment) = match reference.split_once('#') {
                Some((p, f)) => (p, f),
                None => (reference, ""),
            };
            match brand_path(path) {
                Ok(path) => out.push(Source {
                    from: From::File {
                        path,
                        fragment: fragment.to_string(),
                    },
                    at,
                }),
                Err(why) => d.push(
                    Code::UnknownResolverReference,
                    &ref_at,
                    format!("`{reference}`: {why}"),
                ),
            }
        }
        without_repeats(out)
    }

    /// The sources of the set at `pointer`, named at `ref_at`: expanded the
    /// first time, remembered after, and charged to the budget each time.
    fn named_set(
        &mut self,
        set: &Value,
        pointer: &str,
        ref_at: &str,
        d: &mut FileDiags<'_>,
    ) -> Vec<Source> {
        if self.spent {
            return Vec::new();
        }
        if let Some(i) = self.chain.iter().position(|p| p == pointer) {
            let mut names: Vec<&str> = self.chain[i..].iter().map(|p| set_name(p)).collect();
            names.push(set_name(pointer));
            d.push(
                Code::SetLoop,
                ref_at,
                format!(
                    "sets name each other in a loop (`{}`); a set cannot include itself",
                    names.join("` → `")
                ),
            );
            return Vec::new();
        }
        if self.chain.len() >= MAX_SET_DEPTH {
            d.push(
                Code::TooManySources,
                ref_at,
                format!(
                    "sets that name sets nest more than {MAX_SET_DEPTH} deep here (`{}` → …); at most {MAX_SET_DEPTH} levels are read",
                    self.chain.first().map(|p| set_name(p)).unwrap_or_default()
                ),
            );
            return Vec::new();
        }
        let sources = match self.expanded.get(pointer) {
            Some(known) => known.clone(),
            None => {
                crate::spec::limits::checkpoint();
                self.chain.push(pointer.to_string());
                let sources = self.set(set, pointer, d);
                self.chain.pop();
                self.expanded.insert(pointer.to_string(), sources.clone());
                sources
            }
        };
        if self.charged + sources.len() > MAX_RESOLVER_SOURCES {
            self.spent = true;
            d.push(
                Code::TooManySources,
                ref_at,
                format!(
                    "the sets and contexts name more than {MAX_RESOLVER_SOURCES} sources in all, counting a set each time it is named (the budget on a resolver's sources); name fewer sets, or fewer times"
                ),
            );
            return Vec::new();
        }
        self.charged += sources.len();
        sources
    }
}

/// A set's name from its pointer (`/sets/base` → `base`).
fn set_name(pointer: &str) -> &str {
    pointer.rsplit('/').next().unwrap_or(pointer)
}

/// `sources` with each source that follows itself left out: merged again
/// at once, it would write the same members, in the same places.
fn without_repeats(mut sources: Vec<Source>) -> Vec<Source> {
    sources.dedup_by(|later, earlier| later.from == earlier.from);
    sources
}

/// What `pointer` names in the document whose root members are `root`.
fn pointer_in<'v>(root: &'v Map<String, Value>, pointer: &str) -> Option<&'v Value> {
    let rest = pointer.strip_prefix('/')?;
    let (first, rest) = match rest.split_once('/') {
        Some((first, rest)) => (first, format!("/{rest}")),
        None => (rest, String::new()),
    };
    let first = first.replace("~1", "/").replace("~0", "~");
    root.get(&first)?.pointer(&rest)
}

/// A `$ref`'s path as a path of the brand folder, or why it cannot be one.
pub(crate) fn brand_path(path: &str) -> Result<String, &'static str> {
    if path.contains("://") || path.starts_with("//") {
        return Err("sources are files of the brand folder, never URLs");
    }
    if path.starts_with('/') || path.contains('\\') {
        return Err("sources are relative paths with `/`, inside the brand folder");
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("sources are inside the brand folder: no `..`"),
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("names no file");
    }
    Ok(parts.join("/"))
}

/// The colour scheme of each context, where the modifier's
/// `$extensions["app.marque"].colorScheme` names it (`light` or `dark`):
/// an import writes it from what the system says of each theme, so a
/// context named `y-night-hc` is dark.
fn declared_schemes(m: &Value) -> std::collections::HashMap<String, &'static str> {
    m.get("$extensions")
        .and_then(|e| e.get("app.marque"))
        .and_then(|e| e.get("colorScheme"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(c, s)| match s.as_str()? {
            "light" => Some((c.clone(), "light")),
            "dark" => Some((c.clone(), "dark")),
            _ => None,
        })
        .collect()
}
