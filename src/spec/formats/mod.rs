//! The formats teams keep (DESIGN 17): each reader turns its files into
//! the DTCG token tree the rest of marque reads, so nothing past this room
//! learns that formats exist. PURE: documents in, a tree and diagnostics
//! out.
//!
//! A reader reports what it normalises, and what has no safe reading, at
//! the place in its source file where it is written. The tree it returns
//! says, for every token, where in the source that token was written
//! ([`Converted::source_pointer`]), so what the token parser later finds
//! wrong points there too.

pub mod decisions;
pub mod figma_variables;
pub mod material_theme;
pub mod math;
pub mod path_modes;
pub mod plan;
pub mod sd_config;
pub mod style_dictionary;
pub mod theo;
pub mod tokens_studio;
pub mod value_modes;

use serde_json::{json, Map, Value};

/// A format of token files, with its name in `brand.json`'s `tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// DTCG 2025.10 token files or a resolver document (DESIGN 14).
    Dtcg,
    /// Tokens Studio for Figma: one file, or a folder it syncs.
    TokensStudio,
    /// Style Dictionary's legacy sources: `value`, `type`, `comment`.
    StyleDictionary,
    /// Salesforce Theo's raw JSON: `props`, `aliases`.
    Theo,
    /// The response of Figma's `GET /v1/files/:key/variables/local`.
    FigmaVariables,
    /// Figma's own per-collection, per-mode export.
    FigmaExport,
    /// Material Theme Builder's JSON export: six schemes, palettes.
    MaterialTheme,
}

impl Format {
    pub const ALL: [Format; 7] = [
        Format::Dtcg,
        Format::TokensStudio,
        Format::StyleDictionary,
        Format::Theo,
        Format::FigmaVariables,
        Format::FigmaExport,
        Format::MaterialTheme,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Dtcg => "dtcg",
            Format::TokensStudio => "tokens-studio",
            Format::StyleDictionary => "style-dictionary",
            Format::Theo => "theo",
            Format::FigmaVariables => "figma-variables",
            Format::FigmaExport => "figma-export",
            Format::MaterialTheme => "material-theme",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// Types only Tokens Studio writes (its own names for what DTCG calls
/// dimensions, and its composites).
const TOKENS_STUDIO_TYPES: &[&str] = &[
    "fontSizes",
    "lineHeights",
    "letterSpacing",
    "paragraphSpacing",
    "paragraphIndent",
    "spacing",
    "sizing",
    "borderRadius",
    "borderWidth",
    "boxShadow",
    "composition",
    "opacity",
    "fontFamilies",
    "fontWeights",
    "textCase",
    "textDecoration",
    "asset",
    "other",
];

/// What a document's content says of its format.
#[derive(Default)]
struct Signs {
    /// Tokens written with `$value`.
    dollar: usize,
    /// Tokens written with `value`.
    plain: usize,
    /// Something only Tokens Studio writes: one of its types, math, `$a.b`
    /// references, `$themes`/`$metadata`.
    tokens_studio: Option<String>,
    /// Something only Style Dictionary writes: `{a.b.value}` references, a
    /// `comment`, CTI `attributes`.
    style_dictionary: Option<String>,
    /// A `com.figma` extension on a token.
    figma: bool,
}

/// The format of one token document, from its content. The rules, in
/// order (docs/reference/tokens.md lists them): a `resolutionOrder` is a DTCG resolver;
/// `variables` and `variableCollections` (in `meta` or not) are Figma's
/// variables API; `props` is Theo; tokens with `$value` are DTCG, or
/// Figma's export when a token carries `com.figma` extensions, or Tokens
/// Studio when something only it writes is there; tokens with `value` are
/// Tokens Studio or Style Dictionary by what only one of them writes, and
/// Style Dictionary when neither (both read such a file the same). A file
/// with signs of both is an error naming both.
pub fn detect(doc: &Value) -> Result<Format, String> {
    let Some(o) = doc.as_object() else {
        return Err("a token file must be a JSON object".into());
    };
    if o.contains_key("resolutionOrder") {
        return Ok(Format::Dtcg);
    }
    let figma = |v: &Value| v.get("variables").is_some() && v.get("variableCollections").is_some();
    if figma(doc) || o.get("meta").is_some_and(figma) {
        return Ok(Format::FigmaVariables);
    }
    // Theo: props, or aliases only (a file others import).
    let only_aliases = (o.get("aliases").is_some_and(Value::is_object)
        || o.get("imports").is_some_and(Value::is_array))
        && o.keys()
            .all(|k| matches!(k.as_str(), "aliases" | "imports" | "global"));
    if o.contains_key("props") || only_aliases {
        return Ok(Format::Theo);
    }
    if material_theme::is_material_theme(o) {
        return Ok(Format::MaterialTheme);
    }
    let mut signs = Signs::default();
    if o.contains_key("$themes") || o.contains_key("$metadata") {
        signs.tokens_studio = Some("`$themes` or `$metadata`".into());
    }
    look(doc, "", &mut signs, 0);
    // Figma's native export names each file's mode at its root; a file of
    // a collection with no variables is only that.
    if o.get("$extensions").is_some_and(has_figma_extension) {
        if signs.dollar == 0 && signs.plain == 0 {
            return Ok(Format::FigmaExport);
        }
        signs.figma = true;
    }
    // No token anywhere, in no format's shape: one error that says so,
    // not one per member read as DTCG.
    if signs.dollar == 0
        && signs.plain == 0
        && signs.tokens_studio.is_none()
        && signs.style_dictionary.is_none()
        && has_data(doc, 0)
    {
        return Err(not_a_format());
    }
    match (signs.tokens_studio, signs.style_dictionary) {
        (Some(ts), Some(sd)) => Err(format!(
            "this file reads differently as tokens-studio ({ts}) and as style-dictionary ({sd}); name its format in brand.json's `tokens`"
        )),
        (Some(_), None) => Ok(Format::TokensStudio),
        (None, Some(_)) if signs.dollar == 0 => Ok(Format::StyleDictionary),
        _ if signs.dollar > 0 && signs.figma => Ok(Format::FigmaExport),
        _ if signs.dollar > 0 || signs.plain == 0 => Ok(Format::Dtcg),
        _ => Ok(Format::StyleDictionary),
    }
}

/// The error for a document in no format marque reads, listing those
/// it reads.
pub fn not_a_format() -> String {
    format!(
        "this is not a format marque reads: it holds no token (no `$value` or `value`) and none of the shapes marque knows. marque reads {}",
        READS.join("; ")
    )
}

/// True when a member outside `$` keys holds a value that is not an
/// object: data, where a tree of groups without tokens holds none.
fn has_data(v: &Value, depth: usize) -> bool {
    match v {
        Value::Object(o) if depth <= crate::spec::limits::MAX_JSON_DEPTH => o
            .iter()
            .filter(|(k, _)| !k.starts_with('$'))
            .any(|(_, c)| has_data(c, depth + 1)),
        Value::Object(_) => false,
        _ => depth > 0,
    }
}

/// The formats marque reads, as the error above lists them.
const READS: &[&str] = &[
    "DTCG 2025.10 token files and resolvers (`$value`)",
    "Tokens Studio (a file or a synced folder, `$themes`, `$metadata`)",
    "Style Dictionary sources (`value`, JSON, JSON5, YAML)",
    "Salesforce Theo (`props`, `aliases`)",
    "Figma's variables API response (`variables`, `variableCollections`)",
    "Figma's per-collection, per-mode export (`com.figma` extensions)",
    "Material Theme Builder's export (`schemes`, `palettes`)",
];

/// True when `$extensions` holds Figma's: `com.figma` (the variables
/// GitHub action's export), or `com.figma.<name>` keys (Figma's native
/// export: `com.figma.scopes`, `com.figma.modeName` …).
pub fn has_figma_extension(extensions: &Value) -> bool {
    extensions.as_object().is_some_and(|e| {
        e.keys()
            .any(|k| k == "com.figma" || k.starts_with("com.figma."))
    })
}

fn look(v: &Value, key: &str, signs: &mut Signs, depth: usize) {
    let Some(o) = v.as_object() else { return };
    if depth > crate::spec::limits::MAX_JSON_DEPTH {
        return;
    }
    let (value, ty) = match (o.get("$value"), o.get("value")) {
        (Some(v), _) => {
            signs.dollar += 1;
            (Some(v), o.get("$type"))
        }
        (None, Some(v)) if !v.is_object() || looks_like_token(o) => {
            signs.plain += 1;
            (Some(v), o.get("type"))
        }
        _ => (None, None),
    };
    // A note outside any token (`{"comment": "…", "deprecated": true}`).
    if value.is_none() && o.get("comment").is_some_and(Value::is_string) {
        signs
            .style_dictionary
            .get_or_insert(format!("a `comment` at `{key}`"));
    }
    if let Some(value) = value {
        if let Some(t) = ty
            .and_then(Value::as_str)
            .filter(|t| TOKENS_STUDIO_TYPES.contains(t))
        {
            signs
                .tokens_studio
                .get_or_insert(format!("type `{t}` at `{key}`"));
        }
        if let Some(s) = value.as_str() {
            if s.contains(".value}") {
                signs
                    .style_dictionary
                    .get_or_insert(format!("the reference `{s}` at `{key}`"));
            } else if o.contains_key("value") && (is_math(s) || s.starts_with('$')) {
                signs
                    .tokens_studio
                    .get_or_insert(format!("the expression `{s}` at `{key}`"));
            }
        }
        if o.contains_key("comment") || o.get("attributes").is_some_and(Value::is_object) {
            signs
                .style_dictionary
                .get_or_insert(format!("`comment` or `attributes` at `{key}`"));
        }
        if o.get("$extensions").is_some_and(has_figma_extension) {
            signs.figma = true;
        }
    }
    for (k, child) in o {
        if k != "$value" && k != "value" && k != "$extensions" {
            look(child, k, signs, depth + 1);
        }
    }
}

/// A `value` that is an object is a token's only when the object looks
/// like a composite value, not a group (a Style Dictionary token named
/// `value` inside a group is rare but legal).
fn looks_like_token(o: &serde_json::Map<String, Value>) -> bool {
    o.contains_key("type") || o.contains_key("comment") || o.contains_key("description")
}

/// Arithmetic with a reference in it (`{space.base} * 2`, `roundTo(…)`):
/// Tokens Studio's math.
fn is_math(s: &str) -> bool {
    s.contains('{')
        && !s.starts_with('{')
        && [" * ", " / ", " + ", " - "].iter().any(|op| s.contains(op))
        || ["roundTo(", "round(", "floor(", "ceil(", "min(", "max("]
            .iter()
            .any(|f| s.contains(f))
}

/// Takes the member at `pointer` out of `doc`.
pub fn remove_pointer(doc: &mut Value, pointer: &str) {
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return;
    };
    let key = key.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(o)) = doc.pointer_mut(parent) {
        o.remove(&key);
    }
}

/// The tokens of `doc` (a DTCG tree) that refer, directly or through
/// other tokens of `docs`, to a token named in `gone`: for each, the
/// index of its document, its pointer, and the name it refers to that is
/// gone (or that leads there). One pass over the graph of references, so
/// a chain of any depth over a bad token is left out at once (F5).
pub fn dependents(
    docs: &[&Value],
    gone: &std::collections::HashSet<String>,
) -> Vec<(usize, String, String)> {
    use std::collections::{HashMap, VecDeque};
    // Who refers to each name: (doc, pointer, its own name).
    let mut referrers: HashMap<String, Vec<(usize, String, String)>> = HashMap::new();
    for (i, doc) in docs.iter().enumerate() {
        let mut path = Vec::new();
        walk_tokens(doc, &mut path, &mut |path, value| {
            let name = path.join(".");
            let pointer: String = path
                .iter()
                .map(|t| format!("/{}", crate::spec::json::escape_token(t)))
                .collect();
            let mut refs = Vec::new();
            references_in(value, &mut refs);
            for r in refs {
                referrers
                    .entry(r)
                    .or_default()
                    .push((i, pointer.clone(), name.clone()));
            }
        });
    }
    let mut out = Vec::new();
    let mut seen: std::collections::HashSet<String> = gone.clone();
    let mut queue: VecDeque<String> = gone.iter().cloned().collect();
    while let Some(name) = queue.pop_front() {
        crate::spec::limits::stop::checkpoint();
        for (i, pointer, own) in referrers.get(&name).into_iter().flatten() {
            if seen.insert(own.clone()) {
                out.push((*i, pointer.clone(), name.clone()));
                queue.push_back(own.clone());
            }
        }
    }
    out
}

/// Calls `f` with the path and `$value` of every token under `v`.
fn walk_tokens(v: &Value, path: &mut Vec<String>, f: &mut impl FnMut(&[String], &Value)) {
    let Value::Object(o) = v else {
        return;
    };
    if let Some(value) = o.get("$value") {
        f(path, value);
        return;
    }
    for (k, child) in o {
        if k.starts_with('$') {
            continue;
        }
        path.push(k.clone());
        walk_tokens(child, path, f);
        path.pop();
    }
}

/// Every `{name}` a value holds, in strings at any depth.
fn references_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(open) = rest.find('{') {
                let after = &rest[open + 1..];
                let Some(close) = after.find('}') else {
                    break;
                };
                let name = &after[..close];
                if !name.is_empty() && !name.contains('{') {
                    out.push(name.to_string());
                }
                rest = &after[close + 1..];
            }
        }
        Value::Array(a) => a.iter().for_each(|v| references_in(v, out)),
        Value::Object(o) => o.values().for_each(|v| references_in(v, out)),
        _ => {}
    }
}

/// The dotted name of the token at `pointer` in a DTCG tree.
pub fn token_name(pointer: &str) -> String {
    crate::spec::json::tokens(pointer).join(".")
}

/// How many times an export is read again, each time without the tokens
/// the last reading found errors in (and so, next, without what refers to
/// them).
pub const MAX_READINGS: usize = 12;

/// What a diagnostic about one token of an export adds: that token alone
/// is left out (DESIGN 17: one bad token never sinks an export).
/// Above this, a bare line height of Tokens Studio or Figma is pixels; at
/// or below it, a multiple of the font size. No text is set at more than
/// three times its size, and no line is 3 px tall: the two readings never
/// meet. sd-transforms keeps every bare line height a multiple (a 16 px
/// body with `24` gets a 384 px line); marque does not follow it there.
pub const LINE_HEIGHT_RATIO_MAX: f64 = 3.0;

/// A bare line height `n` as DTCG: its type and value, and the warning
/// that says how it was read.
pub fn bare_line_height(n: f64) -> (&'static str, Value, String) {
    if n > LINE_HEIGHT_RATIO_MAX {
        let why = format!("a bare line height of {n} is read as {n}px (above {LINE_HEIGHT_RATIO_MAX}, pixels; sd-transforms would make it {n} times the font size); write the unit to say so");
        ("dimension", json!({"value": n, "unit": "px"}), why)
    } else {
        let why = format!("a bare line height of {n} is read as {n} times the font size ({LINE_HEIGHT_RATIO_MAX} or below, a ratio); write `{n}px` if it is pixels");
        ("number", json!(n), why)
    }
}

pub const LEFT_OUT: &str = "this token is left out, and the rest publishes without it";

/// A document in DTCG form, and where each of its tokens came from.
pub struct Converted {
    pub doc: Value,
    /// Each token's pointer in `doc`, and in the source, sorted by the first.
    tokens: Vec<(String, String)>,
    /// How a member of a token is called in the source (`$value` → `value`).
    members: &'static [(&'static str, &'static str)],
    /// A folder's files, when put together from them; what the reader decided of its sets.
    pub files: Vec<SourceFile>,
    pub plan: Option<decisions::Plan>,
}

/// A file of a folder read as one source.
pub struct SourceFile {
    /// The pointer the file's content has in the source.
    pub prefix: String,
    /// Its path in the brand folder; `within`, the part read (or empty).
    pub path: String,
    pub within: String,
    pub text: String,
}

impl Converted {
    pub fn new(
        doc: Value,
        mut tokens: Vec<(String, String)>,
        members: &'static [(&'static str, &'static str)],
    ) -> Converted {
        tokens.sort();
        Converted {
            doc,
            tokens,
            members,
            files: Vec::new(),
            plan: None,
        }
    }

    /// Where a pointer into [`Converted::doc`] was written: the file (for
    /// a folder's) and the pointer in it.
    pub fn place(&self, pointer: &str) -> (Option<&str>, String) {
        self.split(&self.source_pointer(pointer))
    }

    /// The pointer in [`Converted::doc`] of the token that the place
    /// `pointer` in the source file `file` (`None`: the one source file)
    /// is in, if it is in one: the innermost still there, of every place
    /// the source token is written (the base, a context restoring it), so
    /// that a reading finds the copy the last one did not take out.
    pub fn token_at(&self, file: Option<&str>, pointer: &str) -> Option<String> {
        let mut found: Vec<(&String, &str)> = self
            .tokens
            .iter()
            .filter_map(|(doc, source)| {
                let (f, p) = self.split(source);
                let rest = pointer.strip_prefix(p.as_str())?;
                (f == file && (rest.is_empty() || rest.starts_with('/'))).then_some((doc, rest))
            })
            .collect();
        found.reverse(); // of those as near, the last listed first, as before
        found.sort_by_key(|(_, rest)| rest.len());
        found.into_iter().find_map(|(at, rest)| {
            let mut pointer = format!("{at}{rest}");
            while self
                .doc
                .pointer(&pointer)
                .is_none_or(|v| v.get("$value").is_none())
            {
                if pointer.len() <= at.len() {
                    return None;
                }
                pointer.truncate(pointer.rfind('/')?);
            }
            Some(pointer)
        })
    }

    /// Takes the token at `pointer` out of [`Converted::doc`].
    pub fn remove(&mut self, pointer: &str) {
        remove_pointer(&mut self.doc, pointer);
    }

    /// A pointer into the source, as the file of a folder's it is in and
    /// the pointer in that file.
    pub fn split(&self, pointer: &str) -> (Option<&str>, String) {
        for f in &self.files {
            if let Some(rest) = pointer.strip_prefix(f.prefix.as_str()) {
                if rest.is_empty() || rest.starts_with('/') {
                    return (Some(f.path.as_str()), format!("{}{rest}", f.within));
                }
            }
        }
        (None, pointer.to_string())
    }

    /// The pointer of every token in [`Converted::doc`].
    pub fn token_pointers(&self) -> impl Iterator<Item = &str> {
        self.tokens.iter().map(|(p, _)| p.as_str())
    }

    /// Where a pointer into [`Converted::doc`] was written in the source:
    /// inside a token, the same place in the token the source wrote;
    /// elsewhere, as it is.
    pub fn source_pointer(&self, pointer: &str) -> String {
        let i = self.tokens.partition_point(|(p, _)| p.as_str() <= pointer);
        let found = self.tokens[..i].iter().rev().find(|(p, _)| {
            pointer == p
                || pointer
                    .strip_prefix(p.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        let Some((at, source)) = found else {
            return pointer.to_string();
        };
        let rest = &pointer[at.len()..];
        let mut parts = rest.splitn(3, '/').skip(1);
        let Some(member) = parts.next() else {
            return source.clone();
        };
        let member = self
            .members
            .iter()
            .find(|(ours, _)| *ours == member)
            .map_or(member, |(_, theirs)| theirs);
        // A member the source writes at the token's own place is "".
        let at = match member {
            "" => source.clone(),
            m => format!("{source}/{m}"),
        };
        match parts.next() {
            Some(tail) => format!("{at}/{tail}"),
            None => at,
        }
    }
}

/// Puts `token` at `path` in `tree`, groups made on the way; a token where
/// a group goes is that group's own (`$root`), as is a token written at a
/// group's place.
pub(crate) fn insert(tree: &mut Map<String, Value>, path: &[String], token: Value) {
    let Some((last, groups)) = path.split_last() else {
        return;
    };
    let mut at = tree;
    for g in groups {
        let next = at
            .entry(g.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if next.get("$value").is_some() {
            let token = std::mem::replace(next, Value::Object(Map::new()));
            if let Some(o) = next.as_object_mut() {
                o.insert("$root".into(), token);
            }
        }
        let Some(o) = next.as_object_mut() else {
            return;
        };
        at = o;
    }
    match at.get_mut(last) {
        Some(Value::Object(group)) if group.get("$value").is_none() && !group.is_empty() => {
            group.insert("$root".into(), token);
        }
        _ => {
            at.insert(last.clone(), token);
        }
    }
}

/// An sRGB colour (channels 0 to 1) as a DTCG colour object, its alpha
/// written when below 1.
pub(crate) fn srgb(rgb: [f64; 3], alpha: f64) -> Value {
    let round = |x: f64| (x * 1e6).round() / 1e6;
    // The hex of the components as written, so the two agree.
    let rgb = rgb.map(round);
    let mut c = serde_json::json!({
        "colorSpace": "srgb",
        "components": rgb,
        "hex": crate::color::hex(rgb, 1.0),
    });
    if alpha < 1.0 {
        c["alpha"] = serde_json::json!(round(alpha));
    }
    c
}

/// Reads `doc`, a file in `format`, into DTCG form, its diagnostics in
/// `d` at places in `doc`. Every format is read; the `Option` is kept for
/// a reader that finds nothing it can read.
pub fn convert(
    format: Format,
    doc: &Value,
    d: &mut crate::spec::diag::FileDiags<'_>,
) -> Option<Converted> {
    match format {
        // Figma's export is DTCG with `com.figma` extensions: the tolerant
        // reading takes it (its modes, by file name, need a resolver).
        Format::Dtcg => path_modes::read(doc)
            .or_else(|| value_modes::read(doc, d))
            .or_else(|| Some(Converted::new(doc.clone(), Vec::new(), &[]))),
        Format::FigmaExport => {
            path_modes::read(doc).or_else(|| Some(Converted::new(doc.clone(), Vec::new(), &[])))
        }
        Format::StyleDictionary => Some(path_modes::over(style_dictionary::read(doc, d))),
        Format::Theo => Some(theo::read(doc, d)),
        Format::FigmaVariables => Some(figma_variables::read(doc, d)),
        Format::TokensStudio => Some(tokens_studio::read(doc, false, d)),
        Format::MaterialTheme => Some(material_theme::read(doc, d)),
    }
}

#[cfg(test)]
mod tests;
