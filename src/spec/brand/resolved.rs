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
use crate::spec::tokens::resolver::{
    self, Merged, Permutation, Resolver, Source, MAX_MERGED_VALUES, RESOLVER_FILE,
};
use crate::spec::tokens::{parse_tokens, Token, TokenSet};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

mod dependents;
mod sources;
use dependents::leave_out_dependents;

/// What every permutation is merged from.
struct Input<'t> {
    slug: &'t str,
    /// The resolver document's path in the brand folder.
    path: String,
    /// The files read by a format's reader: where each token was written.
    converted: BTreeMap<String, Converted>,
    /// The resolver itself, when a reader made it (Figma's variables).
    made: Option<&'t Converted>,
    resolver: Resolver,
    doc: Value,
    /// The brand's token files by path in the folder (a parent's by its
    /// path from the child's folder, `../core/…`), parsed.
    files: BTreeMap<String, Value>,
    /// Each file's text by its path from the content root, to place diagnostics.
    texts: BTreeMap<String, &'t str>,
    /// Modifiers a child declares under a parent's name: their default is
    /// the parent's unless the child names one (no warning that it did not).
    shared: Vec<String>,
}

impl Input<'_> {
    /// The resolver document's path from the content root.
    fn file(&self) -> String {
        content_path(self.slug, &self.path)
    }

    /// What is said of the resolver, in its file as written.
    fn finish(&self, d: FileDiags<'_>, out: &mut Vec<Diagnostic>) {
        let file = self.file();
        match self.made {
            Some(c) => d.finish_mapped(
                |p| {
                    let (f, p) = c.place(p);
                    (
                        f.map_or_else(|| file.clone(), |f| content_path(self.slug, f)),
                        p,
                    )
                },
                &self.texts,
                |_| {},
                out,
            ),
            None => d.finish(self.texts.get(&file).copied(), out),
        }
    }
}

/// A path of the brand folder `slug` (or of a parent's, `../core/…`) from
/// the content root.
pub(crate) fn content_path(slug: &str, path: &str) -> String {
    match path.strip_prefix("../") {
        Some(sibling) => sibling.to_string(),
        None => format!("{slug}/{path}"),
    }
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
    d: FileDiags<'_>,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let layer = Layer {
        files,
        path: path.to_string(),
        doc,
        text,
        made,
        resolver: None,
        format,
    };
    let input = prepare(layer, d, out)?;
    resolve(input, out)
}

/// One brand's token files, as a resolver reads them.
pub(super) struct Layer<'t> {
    pub files: &'t BrandFiles,
    /// The resolver document's path (or the one file's, see `resolver`).
    pub path: String,
    pub doc: Value,
    pub text: &'t str,
    pub made: Option<&'t Converted>,
    /// The resolver, when it is not read from `doc` (a brand of one file).
    pub resolver: Option<Resolver>,
    pub format: Option<Format>,
}

/// The resolver read and its files read, converted and checked: what
/// every permutation is merged from.
fn prepare<'t>(
    layer: Layer<'t>,
    mut d: FileDiags<'_>,
    out: &mut Vec<Diagnostic>,
) -> Option<Input<'t>> {
    let Layer {
        files,
        path,
        doc,
        text,
        made,
        resolver,
        format,
    } = layer;
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let mut texts = BTreeMap::from([(file.clone(), text)]);
    for f in made.iter().flat_map(|c| &c.files) {
        texts.insert(format!("{slug}/{}", f.path), f.text.as_str());
    }
    let mut input = Input {
        slug,
        path: path.clone(),
        converted: BTreeMap::new(),
        made,
        resolver: Resolver::default(),
        doc,
        files: BTreeMap::new(),
        texts,
        shared: Vec::new(),
    };
    input.resolver = match resolver {
        Some(r) => r,
        None => {
            let Some(mut r) = resolver::read(&input.doc, &mut d) else {
                input.finish(d, out);
                return None;
            };
            // Its files are named relative to it.
            r.rebase(path.rsplit_once('/').map_or("", |(dir, _)| dir));
            r
        }
    };
    let named: Vec<String> = input
        .resolver
        .files()
        .into_iter()
        .map(String::from)
        .collect();
    // A plan says each set's format: it wins over the one given for all.
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let planned: BTreeMap<String, Format> = formats::plan::set_formats(&input.doc)
        .into_iter()
        .filter_map(|(p, f)| {
            let p = resolver::brand_path(p.split_once('#').map_or(p.as_str(), |(p, _)| p)).ok()?;
            Some((
                if dir.is_empty() {
                    p
                } else {
                    format!("{dir}/{p}")
                },
                f,
            ))
        })
        .collect();
    let notes = sources::read_sources(&mut input, files, named, format, &planned, out);
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
    formats::style_dictionary::resolve_comments_in(&mut input.files, &notes);
    input.resolver.check_sources(&input.files, &mut d);
    input
        .resolver
        .adopt_referred_sets(&input.doc, &input.files, &mut d);
    input.finish(d, out);
    Some(input)
}

/// A child's input over its parent's (see `resolver::family`): the
/// parent's files named from the child's folder, its inline sources
/// sources in its resolver document, and the two resolvers one.
fn combine<'t>(parent: Input<'t>, mut child: Input<'t>) -> Input<'t> {
    let at = |path: &str| resolver::sibling(parent.slug, path);
    let mut files: BTreeMap<String, Value> = parent
        .files
        .into_iter()
        .map(|(path, doc)| (at(&path), doc))
        .collect();
    files.entry(at(&parent.path)).or_insert(parent.doc);
    let converted = parent.converted.into_iter().map(|(path, c)| (at(&path), c));
    let (resolver, shared) = parent
        .resolver
        .as_parent(parent.slug, &parent.path)
        .extend(std::mem::take(&mut child.resolver));
    files.append(&mut child.files);
    child.files = files;
    child.converted = converted.chain(child.converted).collect();
    child.texts.extend(parent.texts);
    child.resolver = resolver;
    child.shared = parent.shared.into_iter().chain(shared).collect();
    child
}

/// The tokens of a brand of a family (DESIGN.md section 18): each
/// parent's files from the core down, then the brand's own, resolved as
/// one resolver (see `resolver::family`). What is wrong in a parent's
/// files is reported as it shows in this brand; a parent's warnings are
/// the parent's own, and not repeated here.
pub(super) fn read_family(files: &BrandFiles, out: &mut Vec<Diagnostic>) -> Option<TokenSet> {
    let mut family: Option<Input<'_>> = None;
    for parent in files.lineage.parents().iter().rev() {
        let mut theirs = Vec::new();
        let own = layer_of(&parent.files, &mut theirs);
        out.extend(
            theirs
                .into_iter()
                .filter(|d| d.severity() == Severity::Error),
        );
        let own = own?;
        family = Some(match family {
            None => own,
            Some(over) => combine(over, own),
        });
    }
    let mut mine = Vec::new();
    let own = layer_of(files, &mut mine);
    let input = own.zip(family).map(|(own, family)| combine(family, own));
    // A modifier named as a parent's keeps the parent's default unless it
    // names one: no warning that it took its first context.
    let shared = input
        .as_ref()
        .map(|i| i.shared.as_slice())
        .unwrap_or_default();
    out.extend(mine.into_iter().filter(|d| {
        d.code != Code::NoDefaultContext || !d.target.as_ref().is_some_and(|m| shared.contains(m))
    }));
    resolve(input?, out)
}

/// One brand's token files as a layer of a family: its resolver, or the
/// one file of its tokens as a resolver of one set, or (a brand that only
/// extends) nothing of its own.
fn layer_of<'t>(files: &'t BrandFiles, out: &mut Vec<Diagnostic>) -> Option<Input<'t>> {
    let slug = files.slug.as_str();
    let (path, format) = match super::setting::named(files, out) {
        super::setting::Named::Broken => return None,
        super::setting::Named::File { path, format } => (path, format),
        super::setting::Named::Default => {
            let resolver = files.get(RESOLVER_FILE).is_some();
            let tokens = files.get("tokens.json").is_some();
            match (resolver, tokens) {
                (true, true) => {
                    out.push(crate::spec::diag::file_diagnostic(
                        Code::TwoTokenFiles,
                        slug,
                        &format!("{slug}/{RESOLVER_FILE}"),
                        "the brand has both tokens.json and tokens.resolver.json: keep one (tokens.json for one set of tokens, the resolver for modes)",
                    ));
                    return None;
                }
                (true, false) => (RESOLVER_FILE.to_string(), None),
                (false, true) => ("tokens.json".to_string(), None),
                // Nothing of its own: the brand is its parents' tokens.
                (false, false) => {
                    let layer = Layer {
                        files,
                        path: "tokens.json".to_string(),
                        doc: Value::Object(Default::default()),
                        text: "",
                        made: None,
                        resolver: Some(Resolver::default()),
                        format: None,
                    };
                    return prepare(
                        layer,
                        FileDiags::new(slug, format!("{slug}/tokens.json")),
                        out,
                    );
                }
            }
        }
    };
    let file = format!("{slug}/{path}");
    let Some(bytes) = files.get(&path) else {
        out.extend(super::setting::not_a_file(files, &path, "a brand of a family reads its tokens from a resolver or one file: name a tokens.resolver.json that lists the folder's files"));
        return None;
    };
    let (mut doc, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file.clone());
    enforce_limits(&mut doc, &mut d);
    let resolver = match doc.get("resolutionOrder") {
        Some(_) => None,
        None => Some(Resolver::single(&path)),
    };
    let layer = Layer {
        files,
        path,
        doc,
        text,
        made: None,
        resolver,
        format,
    };
    prepare(layer, d, out)
}

/// The tokens of a resolver's input: every context merged and checked.
fn resolve(mut input: Input<'_>, out: &mut Vec<Diagnostic>) -> Option<TokenSet> {
    let slug = input.slug;
    // An error in a token of a source in another format leaves that token
    // out (DESIGN 17), and the contexts are checked again without it.
    let mut left_out: Vec<Diagnostic> = Vec::new();
    for reading in 1.. {
        let mut found = Vec::new();
        let set = every_context(&input, &mut found);
        let bad: Vec<(String, String, Diagnostic)> = found
            .iter()
            .filter(|d| d.severity() == Severity::Error && reading < formats::MAX_READINGS)
            .filter_map(|d| {
                let file = match d.file.strip_prefix(&format!("{slug}/")) {
                    Some(own) => own.to_string(),
                    None => format!("../{}", d.file),
                };
                let pointer = input.converted.get(&file)?.token_at(None, &d.pointer)?;
                Some((file, pointer, d.clone()))
            })
            .collect();
        if bad.is_empty() {
            out.extend(left_out);
            out.extend(found);
            return set;
        }
        let mut gone = HashSet::new();
        for (file, pointer, mut d) in bad {
            if let Some(c) = input.converted.get_mut(&file) {
                c.remove(&pointer);
            }
            if let Some(doc) = input.files.get_mut(&file) {
                formats::remove_pointer(doc, &pointer);
            }
            gone.insert(formats::token_name(&pointer));
            d.code = d.code.left_out();
            d.message.push_str("; ");
            d.message.push_str(formats::LEFT_OUT);
            if !left_out.contains(&d) {
                left_out.push(d);
            }
        }
        leave_out_dependents(&mut input, &gone, &mut left_out);
    }
    None
}

/// The default permutation and every context checked; the brand's tokens
/// with their modes.
fn every_context(input: &Input<'_>, out: &mut Vec<Diagnostic>) -> Option<TokenSet> {
    let slug = input.slug;
    let default = input.resolver.default_permutation();
    let common = input.resolver.merge_common(&input.doc, &input.files);
    let mut set = check(input, &common, &default, out);
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
            schemes: m.schemes.clone(),
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
        let mut d = FileDiags::new(slug, input.file());
        d.push(
            Code::TooManyContexts,
            "/modifiers",
            format!("{what}; split the brand, or move tokens that do not vary out of what the contexts merge"),
        );
        input.finish(d, out);
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
    // The contexts are checked at once where the runner has threads; what
    // each finds is taken in their order, so what is said does not depend
    // on which ran first.
    // Each context's tokens are split from the default's where they are
    // checked, so only what it sets apart is held until all are.
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let default = set.as_ref();
    let checked = crate::spec::limits::stop::each(
        &contexts,
        |(m, c, permutation)| {
            crate::spec::limits::checkpoint();
            let mut found = Vec::new();
            let here = check(input, &common, permutation, &mut found);
            let tokens = here.as_ref().map_or(0, |h| h.tokens.len());
            let sources = &input.resolver.modifiers[*m].contexts[*c].1;
            let apart = default.zip(here.as_ref()).map(|(default, here)| {
                modes::split(default, here, |t| writes(sources, &input.path, t))
            });
            (tokens, apart, found)
        },
        |(tokens, _, _)| {
            taken.fetch_add(*tokens, std::sync::atomic::Ordering::SeqCst) + tokens
                > MAX_CONTEXT_TOKENS
        },
    );
    for ((m, c, _), answer) in contexts.iter().zip(checked) {
        let (m, c) = (*m, *c);
        let modifier = &input.resolver.modifiers[m];
        let context = format!(
            "context `{}` of modifier `{}`",
            modifier.contexts[c].0, modifier.name
        );
        // Contexts are left unchecked only past the budget, which an
        // earlier one has then crossed.
        let (tokens, apart, found) = answer.unwrap_or_default();
        charged += tokens;
        if charged > MAX_CONTEXT_TOKENS {
            over_budget(
                format!("the contexts add up to more than {MAX_CONTEXT_TOKENS} tokens to check (the budget on tokens checked across contexts), {context} among them"),
                out,
            );
            return None;
        }
        if let Some(apart) = apart {
            written[m].contexts[c].1 = apart;
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
    let mut d = FileDiags::new(slug, input.file());
    check_mode_names(&input.resolver, &mut d);
    let fatal = d.has_errors();
    input.finish(d, out);
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
    common: &Merged,
    permutation: &Permutation,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = input.slug;
    let merged = input
        .resolver
        .merge_over(common, permutation, &input.doc, &input.files);
    let resolver_file = input.file();
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
                f.map_or_else(|| resolver_file.clone(), |f| content_path(slug, f)),
                p,
            );
        }
        let pointer = source(file, pointer);
        let file = match file {
            Some(f) => content_path(slug, f),
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
            t.file = Some(file.unwrap_or(&input.path).to_string());
        }
    }
    set
}
