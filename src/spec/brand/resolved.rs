//! A brand whose tokens are a resolver document (`tokens.resolver.json`):
//! the files it names read and limited like tokens.json, the default
//! permutation parsed into the brand's tokens, and every other context
//! merged and checked too, its errors named by context. Diagnostics point
//! into the file where each token was written.

use super::{check_css_names, enforce_limits, read_json};
use crate::spec::diag::{Code, Diagnostic, FileDiags, Severity};
use crate::spec::files::BrandFiles;
use crate::spec::formats::{self, Converted, Format};
use crate::spec::limits::MAX_CONTEXT_TOKENS;
use crate::spec::tokens::modes::{self, Written};
use crate::spec::tokens::resolver::{self, Permutation, Resolver, Source, MAX_MERGED_VALUES};
use crate::spec::tokens::{parse_tokens, Token, TokenSet};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// What every permutation is merged from.
struct Input<'t> {
    slug: &'t str,
    /// The resolver document's path in the brand folder.
    path: &'t str,
    /// The files read by a format's reader: where each token was written.
    converted: BTreeMap<String, Converted>,
    /// The resolver itself, when a reader made it (Figma's variables).
    made: Option<&'t Converted>,
    resolver: Resolver,
    doc: Value,
    /// The brand's token files by path in the folder, parsed.
    files: BTreeMap<String, Value>,
    /// Each file's text by its path from the content root, to place diagnostics.
    texts: BTreeMap<String, &'t str>,
}

/// The brand's tokens (its default permutation), with every problem of
/// the resolver, its files and each of its contexts pushed into `out`.
/// The resolver is at `path` in the brand folder (`tokens.resolver.json`
/// unless brand.json names another); its sources are read in `format`, or
/// each in the format its content shows.
pub(super) fn read_resolved(
    files: &BrandFiles,
    path: &str,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let bytes = files.get(path)?;
    let (mut doc, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file.clone());
    enforce_limits(&mut doc, &mut d);
    read_resolver(files, path, doc, text, None, d, format, out)
}

/// A resolver document read: the one in the file at `path` (whose text is
/// `text`), or the one a format's reader made of that file (`made`: its
/// diagnostics are placed where the reader read each token).
#[allow(clippy::too_many_arguments)]
pub(super) fn read_resolver(
    files: &BrandFiles,
    path: &str,
    doc: Value,
    text: &str,
    made: Option<&Converted>,
    mut d: FileDiags<'_>,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let mut texts = BTreeMap::from([(file.clone(), text)]);
    for f in made.iter().flat_map(|c| &c.files) {
        texts.insert(format!("{slug}/{}", f.path), f.text.as_str());
    }
    // Where a made resolver's pointer was written: the file and pointer.
    let made_place = |c: &Converted, p: &str| {
        let (f, p) = c.place(p);
        (f.map_or_else(|| file.clone(), |f| format!("{slug}/{f}")), p)
    };
    // What is said of the resolver, in its file as written.
    let finish = |d: FileDiags<'_>, out: &mut Vec<Diagnostic>| match made {
        Some(c) => d.finish_mapped(|p| made_place(c, p), &texts, |_| {}, out),
        None => d.finish(Some(text), out),
    };
    let Some(mut resolver) = resolver::read(&doc, &mut d) else {
        finish(d, out);
        return None;
    };
    // Its files are named relative to it.
    resolver.rebase(path.rsplit_once('/').map_or("", |(dir, _)| dir));
    let mut input = Input {
        slug,
        path,
        converted: BTreeMap::new(),
        made,
        resolver,
        doc,
        files: BTreeMap::new(),
        texts: texts.clone(),
    };
    for path in input.resolver.files() {
        let Some(bytes) = files.get(path) else {
            continue;
        };
        let file = format!("{slug}/{path}");
        if let Some((mut doc, text)) = read_json(bytes, slug, &file, out) {
            let mut fd = FileDiags::new(slug, file.clone());
            enforce_limits(&mut doc, &mut fd);
            // A source in another format is read by its reader first.
            let source_format = match format.map_or_else(|| formats::detect(&doc), Ok) {
                Ok(f) => Some(f),
                Err(why) => {
                    fd.push(Code::UndetectedFormat, "", why);
                    None
                }
            };
            if source_format == Some(Format::Theo) {
                let file = |p: &str| files.get(p).and_then(|b| serde_json::from_slice(b).ok());
                formats::theo::import_aliases(&mut doc, path, &file, &mut fd);
            }
            match source_format {
                Some(Format::Dtcg) => {
                    input.files.insert(path.to_string(), doc);
                }
                Some(f) => {
                    if let Some(c) = formats::convert(f, &doc, &mut fd) {
                        input.files.insert(path.to_string(), c.doc.clone());
                        input.converted.insert(path.to_string(), c);
                    }
                }
                None => {}
            }
            fd.finish(Some(text), out);
            input.texts.insert(file, text);
        }
    }
    // A Style Dictionary token with children (now its group's `$root`) may
    // be named from another source file: such references name the root.
    let mut roots = HashSet::new();
    for (path, doc) in &input.files {
        if input.converted.contains_key(path) {
            roots_in(doc, &mut Vec::new(), &mut roots, 0);
        }
    }
    if !roots.is_empty() {
        for (path, doc) in input.files.iter_mut() {
            if input.converted.contains_key(path) {
                formats::style_dictionary::rewrite_references(doc, &roots);
            }
        }
    }
    input.resolver.check_sources(&input.files, &mut d);
    input
        .resolver
        .adopt_referred_sets(&input.doc, &input.files, &mut d);
    finish(d, out);
    // An error in a token of a source in another format leaves that token
    // out (DESIGN 17), and the contexts are checked again without it.
    let mut left_out: Vec<Diagnostic> = Vec::new();
    for reading in 1.. {
        let mut found = Vec::new();
        let set = every_context(&input, &finish, &mut found);
        let bad: Vec<(String, String, Diagnostic)> = found
            .iter()
            .filter(|d| d.severity() == Severity::Error && reading < formats::MAX_READINGS)
            .filter_map(|d| {
                let file = d.file.strip_prefix(&format!("{slug}/"))?;
                let pointer = input.converted.get(file)?.token_at(None, &d.pointer)?;
                Some((file.to_string(), pointer, d.clone()))
            })
            .collect();
        if bad.is_empty() {
            out.extend(left_out);
            out.extend(found);
            return set;
        }
        for (file, pointer, mut d) in bad {
            if let Some(c) = input.converted.get_mut(&file) {
                c.remove(&pointer);
            }
            if let Some(doc) = input.files.get_mut(&file) {
                formats::remove_pointer(doc, &pointer);
            }
            d.code = d.code.left_out();
            d.message.push_str("; ");
            d.message.push_str(formats::LEFT_OUT);
            if !left_out.contains(&d) {
                left_out.push(d);
            }
        }
    }
    None
}

/// The default permutation and every context checked; the brand's tokens
/// with their modes.
fn every_context(
    input: &Input<'_>,
    finish: &dyn Fn(FileDiags<'_>, &mut Vec<Diagnostic>),
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = input.slug;
    let default = input.resolver.default_permutation();
    let mut set = check(input, &default, out);
    let seen: HashSet<(String, String, String)> = out
        .iter()
        .map(|d| (d.file.clone(), d.pointer.clone(), d.message.clone()))
        .collect();
    let mut written: Vec<Written> = input
        .resolver
        .modifiers
        .iter()
        .map(|m| Written {
            name: m.name.clone(),
            default: m.default,
            contexts: m
                .contexts
                .iter()
                .map(|(n, _)| (n.clone(), Vec::new()))
                .collect(),
        })
        .collect();
    let contexts = input.resolver.each_context();
    // Each context is merged and checked whole: charged before any is.
    let per_context = set.as_ref().map_or(0, |s| s.tokens.len());
    let mut charged = 0;
    // Past the budget: an error at the resolver's modifiers, and no brand.
    let over_budget = |what: String, out: &mut Vec<Diagnostic>| {
        let mut d = FileDiags::new(slug, format!("{slug}/{}", input.path));
        d.push(
            Code::TooManyContexts,
            "/modifiers",
            format!("{what}; split the brand, or move tokens that do not vary out of what the contexts merge"),
        );
        finish(d, out);
    };
    if contexts.len() * per_context > MAX_CONTEXT_TOKENS {
        over_budget(
            format!(
                "{} contexts besides the default, each of {per_context} tokens, are {} tokens to check, over the budget of {MAX_CONTEXT_TOKENS} tokens checked across contexts",
                contexts.len(),
                contexts.len() * per_context
            ),
            out,
        );
        return None;
    }
    for (m, c, permutation) in contexts {
        crate::spec::limits::checkpoint();
        let modifier = &input.resolver.modifiers[m];
        let context = format!(
            "context `{}` of modifier `{}`",
            modifier.contexts[c].0, modifier.name
        );
        let mut found = Vec::new();
        let here = check(input, &permutation, &mut found);
        charged += here.as_ref().map_or(0, |h| h.tokens.len());
        if charged > MAX_CONTEXT_TOKENS {
            over_budget(
                format!("the contexts add up to more than {MAX_CONTEXT_TOKENS} tokens to check (the budget on tokens checked across contexts), {context} among them"),
                out,
            );
            return None;
        }
        if let (Some(default), Some(here)) = (&set, &here) {
            let sources = &modifier.contexts[c].1;
            written[m].contexts[c].1 =
                modes::split(default, here, |t| writes(sources, input.path, t));
        }
        // Only errors a context adds, named by it: the rest are reported
        // once, above.
        out.extend(
            found
                .into_iter()
                .filter(|d| {
                    d.severity() == Severity::Error
                        && !seen.contains(&(d.file.clone(), d.pointer.clone(), d.message.clone()))
                })
                .map(|mut d| {
                    d.message.push_str(&format!(" (in {context})"));
                    d
                }),
        );
    }
    if let Some(set) = set.as_mut() {
        set.modes = modes::settle(written);
        if let Some(made) = input.made {
            place_made(set, made);
        }
    }
    let mut d = FileDiags::new(slug, format!("{slug}/{}", input.path));
    check_mode_names(&input.resolver, &mut d);
    let fatal = d.has_errors();
    finish(d, out);
    set.filter(|_| !fatal)
}

/// Each modifier and context must have a name that is safe as an HTML
/// attribute (`data-theme="dark"`), and no two may share one.
fn check_mode_names(r: &Resolver, d: &mut FileDiags<'_>) {
    let mut modifiers = BTreeMap::new();
    for m in &r.modifiers {
        let at = crate::spec::json::join("/modifiers", &m.name);
        check_ident(&m.name, "modifier", &at, &mut modifiers, d);
        let mut contexts = BTreeMap::new();
        for (c, _) in &m.contexts {
            let at = crate::spec::json::join(&crate::spec::json::join(&at, "contexts"), c);
            check_ident(c, "context", &at, &mut contexts, d);
        }
    }
}

fn check_ident(
    name: &str,
    what: &str,
    at: &str,
    seen: &mut BTreeMap<String, String>,
    d: &mut FileDiags<'_>,
) {
    match modes::css_ident(name) {
        None => d.push_at_key(Code::InvalidModeName, at, format!("{what} `{name}` has no name that is safe as an HTML attribute in kebab case (ASCII letters, digits and hyphens); rename it")),
        Some(ident) => {
            if let Some(other) = seen.insert(ident.clone(), name.to_string()) {
                d.push_at_key(Code::InvalidModeName, at, format!("{what}s `{other}` and `{name}` are both `{ident}` in CSS and HTML; rename one"));
            }
        }
    }
}

/// The dotted names of the groups in `v` that have a `$root` token.
fn roots_in(v: &Value, path: &mut Vec<String>, out: &mut HashSet<String>, depth: usize) {
    let Some(o) = v.as_object() else { return };
    if depth > crate::spec::limits::MAX_JSON_DEPTH || o.contains_key("$value") {
        return;
    }
    if o.contains_key("$root") && !path.is_empty() {
        out.insert(path.join("."));
    }
    for (k, child) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
        path.push(k.clone());
        roots_in(child, path, out, depth + 1);
        path.pop();
    }
}

/// Every token of a resolver a reader made, placed where the reader read
/// it.
fn place_made(set: &mut TokenSet, made: &Converted) {
    let contexts = set
        .modes
        .iter_mut()
        .flat_map(|m| m.contexts.iter_mut())
        .flat_map(|c| c.tokens.iter_mut());
    for t in set.tokens.iter_mut().chain(contexts) {
        let (file, pointer) = made.place(&t.pointer);
        if let Some(f) = file {
            t.file = Some(f.to_string());
        }
        t.pointer = pointer;
    }
}

/// True when `t`, as merged, was written by one of `sources`.
fn writes(sources: &[Source], resolver_path: &str, t: &Token) -> bool {
    let within = |pointer: &str, root: &str| {
        root.is_empty()
            || pointer == root
            || pointer
                .strip_prefix(root)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    sources.iter().any(|s| match &s.from {
        resolver::From::File { path, fragment } => {
            t.file.as_deref() == Some(path.as_str()) && within(&t.pointer, fragment)
        }
        resolver::From::Inline(at) => {
            t.file.as_deref() == Some(resolver_path) && within(&t.pointer, at)
        }
    })
}

/// Merges and parses one permutation; its diagnostics, placed in the files
/// their tokens came from, go to `out`.
fn check(
    input: &Input<'_>,
    permutation: &Permutation,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = input.slug;
    let merged = input.resolver.merge(permutation, &input.doc, &input.files);
    let resolver_file = format!("{slug}/{}", input.path);
    let mut d = FileDiags::new(slug, resolver_file.clone());
    if merged.over_budget() {
        d.push(
            Code::TooManyValues,
            "",
            format!("the sources of a permutation add up to more than {MAX_MERGED_VALUES} JSON values, so they are not merged (is a file listed many times?)"),
        );
        d.finish_mapped(
            |_| (resolver_file.clone(), String::new()),
            &input.texts,
            |_| {},
            out,
        );
        return None;
    }
    let mut set = parse_tokens(&merged.doc, &mut d);
    if let Some(set) = &set {
        check_css_names(set, &mut d);
    }
    let elsewhere = match d.has_errors() {
        true => input
            .resolver
            .elsewhere(permutation, &input.doc, &input.files),
        false => BTreeMap::new(),
    };
    // In the file as written: a converted source's own member names.
    let source = |file: Option<&str>, pointer: String| {
        let reader = match file {
            Some(f) => input.converted.get(f),
            None => input.made,
        };
        match reader {
            Some(c) => c.source_pointer(&pointer),
            None => pointer,
        }
    };
    let place = |pointer: &str| {
        let (file, pointer) = merged.origin(pointer);
        if let (None, Some(made)) = (file, input.made) {
            let (f, p) = made.place(&pointer);
            return (
                f.map_or_else(|| resolver_file.clone(), |f| format!("{slug}/{f}")),
                p,
            );
        }
        let pointer = source(file, pointer);
        let file = match file {
            Some(f) => format!("{slug}/{f}"),
            None => resolver_file.clone(),
        };
        (file, pointer)
    };
    let edit = |d: &mut Diagnostic| {
        let dangling = d.code == Code::DanglingReference;
        let target = d.target.as_deref().filter(|_| dangling);
        if let Some(there) = target.and_then(|t| elsewhere.get(t)) {
            d.message
                .push_str(&format!("; it is defined only in {there}"));
        }
    };
    d.finish_mapped(place, &input.texts, edit, out);
    // Each token says where it is written, for what surfaces report of it.
    if let Some(set) = set.as_mut() {
        for t in &mut set.tokens {
            let (file, pointer) = merged.origin(&t.pointer);
            // A made resolver's own pointers are kept until its contexts
            // are split by them (`writes`), then placed (`place_made`).
            t.pointer = match (file, input.made) {
                (None, Some(_)) => pointer,
                _ => source(file, pointer),
            };
            t.file = Some(file.unwrap_or(input.path).to_string());
        }
    }
    set
}
