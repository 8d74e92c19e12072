//! The five MCP tools: their schemas, the check of a call's arguments
//! against them, and answers read from the snapshot being served:
//! spec.json for a brand's sections, the typed token set the builder keeps
//! with each brand for its tokens and colours.

use super::{spec_of, text_of, tool_error, tool_ok, unknown_brand};
use crate::render::spec_json::resolved_value;
use crate::snapshot::Snapshot;
use crate::spec::diag::clipped;
use crate::spec::tokens::modes::Lookup;
use crate::spec::tokens::{parse_reference, Token, TokenValue};
use crate::spec::Brand;
use rmcp::model::CallToolResponse;
use serde_json::{json, Map, Value};
use std::sync::{Arc, LazyLock};

/// The tools, with their input and output schemas: what `tools/list`
/// answers and what [`check_arguments`] holds each call to.
pub(super) fn tools() -> &'static Value {
    static TOOLS: LazyLock<Value> = LazyLock::new(schemas);
    &TOOLS
}

fn schemas() -> Value {
    let object = |props: Value, required: &[&str]| json!({"type": "object", "properties": props, "required": required, "additionalProperties": false});
    json!([
        {
            "name": "list_brands",
            "title": "List brands",
            "description": "Every published brand: slug, name, version, date and summary.",
            "inputSchema": object(json!({}), &[]),
            "outputSchema": object(json!({"brands": {"type": "array", "items": {"type": "object"}}}), &["brands"]),
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "get_brand",
            "title": "Get a brand's spec",
            "description": "A brand's spec.json, or one section of it (voice, audience, logo, typography, color, applications, promptKit, tokens, links).",
            "inputSchema": object(json!({
                "slug": {"type": "string", "description": "The brand's slug, as list_brands gives it."},
                "section": {"type": "string", "description": "One top-level member of spec.json; all of it when absent."},
                "mode": {"type": "string", "description": "A context of a brand with modes, as modifier=context (theme=dark) or the context alone when only one modifier has it: adds `mode`, the tokens that context sets apart with their values there."}
            }), &["slug"]),
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "find_tokens",
            "title": "Find design tokens",
            "description": "A brand's design tokens by path prefix, type or text, with their resolved values and CSS custom properties. A deprecated token says `deprecated` (\"deprecated: use …\") and its `replacement`: choose the replacement.",
            "inputSchema": object(json!({
                "slug": {"type": "string"},
                "prefix": {"type": "string", "description": "A token path prefix, e.g. color.fjord"},
                "type": {"type": "string", "description": "A DTCG type, e.g. color, dimension, typography"},
                "text": {"type": "string", "description": "Text to find in a token's name, description or value"},
                "mode": {"type": "string", "description": "A context of a brand with modes (theme=dark, or dark): values as they are in it; the default when absent."}
            }), &["slug"]),
            "outputSchema": object(json!({
                "tokens": {"type": "array", "items": {"type": "object"}},
                "matched": {"type": "integer", "description": "Tokens that match; at most `limit` are listed."},
                "limit": {"type": "integer"}
            }), &["tokens", "matched", "limit"]),
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "check_contrast",
            "title": "Check contrast",
            "description": "The WCAG 2 contrast ratio of two colours (#hex or a brand's token reference such as {color.fjord.900}) and whether it passes AA and AAA.",
            "inputSchema": object(json!({
                "foreground": {"type": "string"},
                "background": {"type": "string"},
                "slug": {"type": "string", "description": "The brand whose tokens references name; needed only for references."}
            }), &["foreground", "background"]),
            "outputSchema": object(json!({
                "ratio": {"type": "number"}, "foreground": {"type": "string"}, "background": {"type": "string"},
                "aa": {"type": "boolean"}, "aaLarge": {"type": "boolean"}, "aaa": {"type": "boolean"}, "aaaLarge": {"type": "boolean"}
            }), &["ratio", "aa", "aaLarge", "aaa", "aaaLarge"]),
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "check_code",
            "title": "Check code against a brand's tokens",
            "description": "Lints a snippet of CSS, SCSS, Less, HTML, Vue, Svelte, JS/TS/JSX/TSX, Swift, Kotlin or Android XML against a brand, as `marque lint` does: literals that equal (or nearly equal) a token, with the names to write instead in that language; token names that do not exist, with the nearest; deprecated tokens, with their replacement. Call it before writing or committing styles.",
            "inputSchema": object(json!({
                "slug": {"type": "string"},
                "code": {"type": "string", "description": "The snippet to check."},
                "language": {"type": "string", "description": "css, scss, less, html, vue, svelte, js, ts, jsx, tsx, swift, kotlin or xml (Android resources)."},
                "mode": {"type": "string", "description": "A context of a brand with modes (theme=dark, or dark): match the values of that context only; every context when absent."}
            }), &["slug", "code", "language"]),
            "outputSchema": object(json!({
                "findings": {"type": "array", "items": {"type": "object"}},
                "clean": {"type": "boolean", "description": "True when nothing was found."}
            }), &["findings", "clean"]),
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "run_prompt",
            "title": "Run a prompt of a brand's kit",
            "description": "Runs a prompt of a brand's prompt kit against the configured language model (without one, returns the messages it would send). Rate-limited per client, as POST /api/brand-spec/<slug>/demo.",
            "inputSchema": object(json!({
                "slug": {"type": "string"},
                "promptId": {"type": "string"},
                "variables": {"type": "object", "additionalProperties": {"type": "string"}}
            }), &["slug", "promptId"]),
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        }
    ])
}

/// Checks a call's arguments against the tool's input schema: each must
/// be one the schema names (every schema has `additionalProperties:
/// false`) and of its type. The tools read arguments by name and treat
/// what they cannot read as absent, so without this check `mode: {"theme":
/// "dark"}` would answer the default's values as though they were asked
/// for. `Err` is the message of an invalid-params error: the argument, and
/// what was expected. A tool with no schema (one that does not exist) is
/// left to the caller.
pub(super) fn check_arguments(tool: &str, args: &Map<String, Value>) -> Result<(), String> {
    let Some(schema) = tools()
        .as_array()
        .and_then(|all| all.iter().find(|t| t["name"] == tool))
        .map(|t| &t["inputSchema"])
    else {
        return Ok(());
    };
    check_members(tool, "", args, schema)
}

/// Each member of `object` against the object schema `schema`; `path` is
/// where the object is (`variables.` for run_prompt's variables).
fn check_members(
    tool: &str,
    path: &str,
    object: &Map<String, Value>,
    schema: &Value,
) -> Result<(), String> {
    let properties = schema["properties"].as_object();
    for (name, value) in object {
        let member = match properties.and_then(|p| p.get(name)) {
            Some(member) => member,
            None => match &schema["additionalProperties"] {
                Value::Bool(false) => return Err(unknown_argument(tool, path, name, properties)),
                Value::Object(_) => &schema["additionalProperties"],
                _ => continue,
            },
        };
        let at = format!("{path}{}", clipped(name));
        let expected = member["type"].as_str().unwrap_or_default();
        if !has_type(value, expected) {
            return Err(format!(
                "argument \"{at}\" of {tool} must be {}, not {}",
                a(expected),
                a(type_of(value))
            ));
        }
        if let Value::Object(inner) = value {
            check_members(tool, &format!("{at}."), inner, member)?;
        }
    }
    Ok(())
}

/// The message for an argument the schema does not name, with the ones it
/// does (and the closest of them, for a typo).
fn unknown_argument(
    tool: &str,
    path: &str,
    name: &str,
    properties: Option<&Map<String, Value>>,
) -> String {
    let known: Vec<&str> = properties
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let hint = crate::spec::diag::closest(name, known.iter().copied())
        .map(|c| format!(" (did you mean \"{c}\"?)"))
        .unwrap_or_default();
    let takes = match known.is_empty() {
        true => "takes no arguments".to_string(),
        false => format!("takes {}", known.join(", ")),
    };
    format!(
        "{tool} has no argument \"{path}{}\"{hint}; it {takes}",
        clipped(name)
    )
}

/// Whether `value` is of the JSON Schema type `ty` (any, when the schema
/// names none).
fn has_type(value: &Value, ty: &str) -> bool {
    match ty {
        "string" => value.is_string(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "boolean" => value.is_boolean(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => true,
    }
}

/// The JSON Schema type of `value`, as a message names it.
fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A type with its article: "a string", "an object", "null".
fn a(ty: &str) -> String {
    match ty {
        "null" => ty.to_string(),
        t if t.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {t}"),
        t => format!("a {t}"),
    }
}

pub(super) fn str_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

pub(super) fn list_brands(snap: &Snapshot) -> CallToolResponse {
    let listed: Value = text_of(snap, crate::paths::BRANDS_JSON)
        .and_then(|b| serde_json::from_str(&b).ok())
        .unwrap_or(json!({"brands": []}));
    let brands = listed
        .get("brands")
        .cloned()
        .unwrap_or_else(|| listed.clone());
    tool_ok(json!({ "brands": brands }))
}

pub(super) fn get_brand(snap: &Snapshot, args: &Map<String, Value>) -> CallToolResponse {
    let Some(slug) = str_arg(args, "slug") else {
        return tool_error("give the brand's slug (list_brands lists them)");
    };
    let Some(spec) = spec_of(snap, slug) else {
        return tool_error(unknown_brand(snap, slug));
    };
    let mode = match str_arg(args, "mode") {
        None => None,
        Some(wanted) => {
            let Some(brand) = brand_of(snap, slug) else {
                return tool_error(unknown_brand(snap, slug));
            };
            match in_mode(&brand, wanted) {
                Ok(mode) => Some(mode),
                Err(e) => return tool_error(e),
            }
        }
    };
    let with_mode = |mut v: Value| {
        if let Some(mode) = &mode {
            v["mode"] = mode.clone();
        }
        v
    };
    match str_arg(args, "section") {
        None => tool_ok(with_mode(spec)),
        Some(section) => match spec.get(section) {
            Some(v) => tool_ok(with_mode(json!({ section: v }))),
            None => {
                let sections: Vec<&String> = spec
                    .as_object()
                    .map(|o| o.keys().collect())
                    .unwrap_or_default();
                let names: Vec<&str> = sections.iter().map(|s| s.as_str()).collect();
                tool_error(format!(
                    "spec.json has no section \"{}\"; sections: {}",
                    clipped(section),
                    names.join(", ")
                ))
            }
        },
    }
}

/// The typed brand the builder keeps for a published brand or release
/// (parsed on first use): MCP's tools read its token set, not served JSON.
pub(super) fn brand_of(snap: &Snapshot, key: &str) -> Option<Arc<Brand>> {
    snap.models.get(key)?.brand.brand()
}

/// Most tokens one find_tokens call returns.
const MAX_FOUND: usize = 200;

pub(super) fn find_tokens(snap: &Snapshot, args: &Map<String, Value>) -> CallToolResponse {
    let Some(slug) = str_arg(args, "slug") else {
        return tool_error("give the brand's slug (list_brands lists them)");
    };
    let Some(brand) = brand_of(snap, slug) else {
        return tool_error(unknown_brand(snap, slug));
    };
    let query = Query {
        prefix: str_arg(args, "prefix"),
        ty: str_arg(args, "type"),
        text: str_arg(args, "text").map(str::to_lowercase),
    };
    let set = &brand.tokens;
    match str_arg(args, "mode") {
        None => tool_ok(query.run(set.tokens.iter(), set, set)),
        Some(wanted) => match context_of(&brand, wanted) {
            // The context's tokens in place of the default's, then those
            // only the context has: its permutation, read through a view.
            Ok((m, c)) => {
                let view = set.view(m, c);
                let tokens = set
                    .tokens
                    .iter()
                    .map(|t| view.get(&t.name()).unwrap_or(t))
                    .chain(
                        view.written()
                            .iter()
                            .filter(|t| set.get(&t.name()).is_none()),
                    );
                tool_ok(query.run(tokens, &view, set))
            }
            Err(e) => tool_error(e),
        },
    }
}

/// What find_tokens is asked for.
struct Query<'a> {
    prefix: Option<&'a str>,
    ty: Option<&'a str>,
    text: Option<String>,
}

impl Query<'_> {
    /// The matching tokens, values resolved through `lookup`.
    /// A deprecated token says so, with its replacement (`set` is the brand's).
    fn run<'t>(
        &self,
        tokens: impl Iterator<Item = &'t Token>,
        lookup: &impl Lookup,
        set: &crate::spec::tokens::TokenSet,
    ) -> Value {
        let mut found = Vec::new();
        let mut matched = 0;
        for token in tokens {
            let name = token.name();
            if self
                .prefix
                .is_some_and(|p| !(name == p || name.starts_with(&format!("{p}."))))
            {
                continue;
            }
            if self.ty.is_some_and(|t| t != token.ty.as_str()) {
                continue;
            }
            let value = resolved_value(lookup, &token.value);
            if let Some(text) = &self.text {
                let description = token.description.as_deref().unwrap_or("");
                let haystack = format!("{name} {description} {value}").to_lowercase();
                if !haystack.contains(text.as_str()) {
                    continue;
                }
            }
            matched += 1;
            if found.len() < MAX_FOUND {
                let mut entry = json!({
                    "name": name,
                    "type": token.ty.as_str(),
                    "value": value,
                    "cssVariable": format!("--{}", set.var_name(&token.path)),
                });
                if let Some(d) = &token.description {
                    entry["description"] = json!(d);
                }
                if let Some(target) = token.value.alias_target() {
                    entry["alias"] = json!(format!("{{{target}}}"));
                }
                if let TokenValue::AliasWithAlpha { alpha, .. } = &token.value {
                    entry["alpha"] = json!(alpha);
                }
                if let Some(d) = token.deprecation(set) {
                    entry["deprecated"] = json!(d.advice());
                    if let Some(r) = &d.replacement {
                        entry["replacement"] = json!(r);
                    }
                }
                found.push(entry);
            }
        }
        json!({ "tokens": found, "matched": matched, "limit": MAX_FOUND })
    }
}

/// The (modifier, context) that `wanted` names: `theme=dark`, or `dark`
/// when one modifier alone has a context of that name.
fn context_of(brand: &Brand, wanted: &str) -> Result<(usize, usize), String> {
    let modes = &brand.tokens.modes;
    let all: Vec<String> = brand
        .tokens
        .contexts()
        .map(|(m, c)| brand.tokens.label(m, c))
        .collect();
    let (modifier, context) = match wanted.split_once('=') {
        Some((m, c)) => (Some(m), c),
        None => (None, wanted),
    };
    let found: Vec<(usize, usize)> = modes
        .iter()
        .enumerate()
        .filter(|(_, m)| modifier.is_none_or(|x| m.name == x))
        .flat_map(|(i, m)| {
            m.contexts
                .iter()
                .enumerate()
                .filter(|(_, c)| c.name == context)
                .map(move |(j, _)| (i, j))
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] if modes.is_empty() => Err(format!("brand \"{}\" has no modes", brand.slug)),
        [] => Err(format!(
            "no mode \"{}\"; modes: {}",
            clipped(wanted),
            all.join(", ")
        )),
        _ => Err(format!(
            "\"{}\" is a context of more than one modifier; name it as modifier=context",
            clipped(wanted)
        )),
    }
}

/// What `get_brand` adds for a mode: the context, its attribute, and each
/// token it sets apart with its value there, aliases resolved.
fn in_mode(brand: &Brand, wanted: &str) -> Result<Value, String> {
    let (m, c) = context_of(brand, wanted)?;
    let view = brand.tokens.view(m, c);
    let (modifier, context) = (&brand.tokens.modes[m], &brand.tokens.modes[m].contexts[c]);
    let tokens: Map<String, Value> = context
        .tokens
        .iter()
        .map(|t| (t.name(), resolved_value(&view, &t.value)))
        .collect();
    Ok(json!({
        "modifier": modifier.name,
        "context": context.name,
        "attribute": format!("{}=\"{}\"", modifier.attribute(), context.ident()),
        "tokens": tokens,
    }))
}

/// An sRGB colour and alpha from `#hex`, or a colour token of the brand
/// whose slug was given (`brand`: `None` when no brand of that slug is
/// published).
fn colour(
    snap: &Snapshot,
    slug: Option<&str>,
    brand: Option<&Brand>,
    s: &str,
) -> Result<([f64; 3], f64), String> {
    let s = s.trim();
    if s.starts_with('#') {
        return crate::color::parse_hex(s).ok_or_else(|| {
            format!(
                "\"{}\" is not a #rgb, #rrggbb or #rrggbbaa colour",
                clipped(s)
            )
        });
    }
    let Some(name) = parse_reference(s) else {
        return Err(format!(
            "\"{}\" is neither a #hex colour nor a token reference such as {{color.primary}}",
            clipped(s)
        ));
    };
    let Some(slug) = slug else {
        return Err(format!("give the brand's slug to resolve {}", clipped(s)));
    };
    let set = &brand.ok_or_else(|| unknown_brand(snap, slug))?.tokens;
    let token = set
        .get(name)
        .ok_or_else(|| format!("brand \"{}\" has no token {}", clipped(slug), clipped(s)))?;
    match set.resolve(&token.value).as_deref() {
        Some(TokenValue::Color(c)) => {
            match crate::color::to_srgb(&c.space, c.components.map(|x| x.value())) {
                Some(rgb) => Ok((rgb, c.alpha)),
                None => Err(format!(
                    "{s} is in colour space \"{}\", which marque cannot convert",
                    c.space
                )),
            }
        }
        _ => Err(format!("{s} is not a colour token")),
    }
}

/// The contrast of two colours (`#hex` or the brand's tokens) with the
/// verdict of each WCAG level, computed as brand validation computes it.
pub(super) fn check_contrast(snap: &Snapshot, args: &Map<String, Value>) -> CallToolResponse {
    use crate::spec::brand::level_minimum;
    let slug = str_arg(args, "slug");
    let (Some(fg), Some(bg)) = (str_arg(args, "foreground"), str_arg(args, "background")) else {
        return tool_error("give a foreground and a background colour");
    };
    let brand = slug.and_then(|s| brand_of(snap, s));
    let (fg_rgb, fg_alpha) = match colour(snap, slug, brand.as_deref(), fg) {
        Ok(c) => c,
        Err(e) => return tool_error(e),
    };
    let (bg_rgb, _) = match colour(snap, slug, brand.as_deref(), bg) {
        Ok(c) => c,
        Err(e) => return tool_error(e),
    };
    let ratio = crate::color::shown_contrast(fg_rgb, fg_alpha, bg_rgb);
    tool_ok(json!({
        "ratio": ratio,
        "foreground": crate::color::hex(fg_rgb, fg_alpha),
        "background": crate::color::hex(bg_rgb, 1.0),
        "aa": ratio >= level_minimum("AA"),
        "aaLarge": ratio >= level_minimum("AA-large"),
        "aaa": ratio >= level_minimum("AAA"),
        // AAA asks of large text what AA asks of body text.
        "aaaLarge": ratio >= level_minimum("AA"),
    }))
}

/// Most bytes of code one check_code call reads.
const MAX_CODE: usize = 256 * 1024;

/// check_code: a snippet linted against a brand, as `marque lint` lints a file.
pub(super) fn check_code(snap: &Snapshot, args: &Map<String, Value>) -> CallToolResponse {
    let (Some(slug), Some(code), Some(language)) = (
        str_arg(args, "slug"),
        str_arg(args, "code"),
        str_arg(args, "language"),
    ) else {
        return tool_error("give slug, code and language");
    };
    let Some((model, brand)) = snap
        .models
        .get(slug)
        .and_then(|m| Some((m, m.brand.brand()?)))
    else {
        return tool_error(unknown_brand(snap, slug));
    };
    let Some(lang) = crate::lint::Lang::parse(language) else {
        let known: Vec<&str> = crate::lint::Lang::ALL.iter().map(|(_, n)| *n).collect();
        return tool_error(format!(
            "no language \"{}\"; languages: {}",
            clipped(language),
            known.join(", ")
        ));
    };
    if code.len() > MAX_CODE {
        return tool_error(format!(
            "the code is over {} KiB: check it in parts",
            MAX_CODE / 1024
        ));
    }
    let only = match str_arg(args, "mode") {
        None => None,
        Some(wanted) => match context_of(&brand, wanted) {
            Ok(mc) => Some(mc),
            Err(e) => return tool_error(e),
        },
    };
    let index = |only| crate::lint::Index::in_contexts(&brand, "tokens.json", only);
    // Every context's index is kept with the model; one mode's is made for its call.
    let ix = match only {
        None => model.lint.get_or_init(|| Arc::new(index(None))).clone(),
        Some(_) => Arc::new(index(only)),
    };
    let found = crate::lint::lint_text(&ix, lang, code, &crate::lint::Options::default());
    let findings: Vec<Value> = found
        .findings
        .iter()
        .map(|f| {
            json!({
                "code": f.code,
                "severity": f.code.severity().as_str(),
                "line": f.line,
                "column": f.column,
                "subject": f.subject,
                "message": f.message,
                "suggest": f.suggest,
            })
        })
        .collect();
    tool_ok(json!({ "clean": findings.is_empty(), "findings": findings }))
}
