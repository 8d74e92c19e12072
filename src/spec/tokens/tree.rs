//! The tree walk: groups and tokens in document order, each token with its
//! declared or inherited `$type`, then its `$value` parsed by that type.
//!
//! Three passes, so that every problem is reported at once: walk the tree
//! collecting tokens with their declared or inherited `$type`; give alias
//! tokens without a type the type of what they point at; then parse each
//! `$value` by its type.

use super::refs::{check_references, follow, Chain, Step};
use super::tolerant::infer_type;
use super::values::{fmt_num, parse_value};
use super::{parse_reference, Group, Token, TokenSet, TokenType, TokenValue, ROOT};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::limits::MAX_TOKENS;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// The type a token gets from its group chain.
#[derive(Debug, Clone, Copy)]
enum Inherit {
    Unset,
    Type(TokenType),
    /// A `$type` on the way was invalid (already reported).
    Invalid,
}

impl Inherit {
    fn or(self, own: Result<Option<TokenType>, ()>) -> Inherit {
        match own {
            Ok(Some(t)) => Inherit::Type(t),
            Ok(None) => self,
            Err(()) => Inherit::Invalid,
        }
    }
}

struct RawToken<'d> {
    path: Vec<String>,
    ty: Inherit,
    value: &'d Value,
    description: Option<String>,
    deprecated: Option<Value>,
    extensions: Option<Value>,
    /// A numeric `alpha` written beside `$value`, not in it.
    alpha: Option<f64>,
    pointer: String,
}

/// Parses tokens.json, pushing every problem into `diags`. `None` when the
/// document cannot be read as a whole (it is no object, or holds more than
/// [`MAX_TOKENS`] tokens); references into it are then not checked.
pub fn parse_tokens(doc: &Value, diags: &mut FileDiags<'_>) -> Option<TokenSet> {
    let doc = &super::extends::preprocess(doc, diags);
    let Some(root) = doc.as_object() else {
        diags.push(
            Code::TokensNotObject,
            "",
            "tokens.json must be a JSON object of token groups",
        );
        return None;
    };
    let mut raw = Vec::new();
    let mut groups = Vec::new();
    walk_group(
        root,
        &mut Vec::new(),
        Inherit::Unset,
        "",
        &mut raw,
        &mut groups,
        diags,
    );
    if raw.len() > MAX_TOKENS {
        diags.push(
            Code::TooManyTokens,
            "",
            format!(
                "tokens.json holds {} tokens; at most {MAX_TOKENS} are allowed",
                raw.len()
            ),
        );
        return None;
    }
    let mut unparsed: HashSet<String> = raw
        .iter()
        .filter(|t| matches!(t.ty, Inherit::Invalid))
        .map(|t| t.path.join("."))
        .collect();
    let types = alias_types(&raw);

    // Pass 3: typed values.
    let index: HashMap<String, usize> = raw
        .iter()
        .enumerate()
        .map(|(i, t)| (t.path.join("."), i))
        .collect();
    let mut tokens = Vec::new();
    for (i, t) in raw.into_iter().enumerate() {
        crate::spec::limits::checkpoint();
        let name = t.path.join(".");
        let value_pointer = join(&t.pointer, "$value");
        if unparsed.contains(&name) {
            continue;
        }
        let inferred = match types[i] {
            Some(_) => None,
            None => infer_type(t.value),
        };
        if let Some(ty) = inferred {
            diags.push(
                Code::InferredType,
                &t.pointer,
                format!("token `{name}` has no `$type`, on itself or an enclosing group; its value reads as a {}, so it is one", ty.as_str()),
            );
        }
        let Some(ty) = types[i].or(inferred) else {
            let target = t.value.as_str().and_then(parse_reference);
            if target.is_some_and(|n| unparsed.contains(n)) {
                unparsed.insert(name);
                continue;
            }
            unparsed.insert(name.clone());
            match target {
                Some(target) if !index.contains_key(target) => diags.push_reference(
                    Code::DanglingReference,
                    &value_pointer,
                    super::refs::dangling(target),
                    target,
                ),
                Some(_) => diags.push(
                    Code::MissingType,
                    &value_pointer,
                    "cannot tell this token's type: its alias chain has no `$type` (or is a cycle)",
                ),
                None => diags.push(
                    Code::MissingType,
                    &t.pointer,
                    format!("token `{name}` has no `$type`, on itself or an enclosing group"),
                ),
            }
            continue;
        };
        let Some(mut value) = parse_value(ty, t.value, &value_pointer, diags) else {
            unparsed.insert(name);
            continue;
        };
        if let Some(a) = t.alpha {
            let at = join(&t.pointer, "alpha");
            match &mut value {
                TokenValue::Color(c) => {
                    diags.push_at_key(Code::AlphaBesideValue, &at, format!("`alpha` beside `$value` is not DTCG 2025.10; it is read as the colour's alpha, {}, as the exporting tool meant it", fmt_num(a)));
                    c.alpha = a;
                }
                TokenValue::Alias(target) if ty == TokenType::Color => {
                    diags.push_at_key(Code::AlphaBesideValue, &at, format!("`alpha` beside `$value` is not DTCG 2025.10; it is read as the alpha of the colour `{{{target}}}` resolves to, {}, in place of its own, as the exporting tool meant it (the alias keeps following its target in every context)", fmt_num(a)));
                    value = TokenValue::AliasWithAlpha {
                        target: std::mem::take(target),
                        alpha: a,
                    };
                }
                _ => diags.push_at_key(Code::IgnoredMember, &at, "`alpha` beside `$value` is not DTCG 2025.10, and this token is no literal colour; it is ignored"),
            }
        }
        tokens.push(Token {
            path: t.path,
            ty,
            value,
            description: t.description,
            deprecated: t.deprecated,
            extensions: t.extensions,
            file: None,
            pointer: t.pointer,
        });
    }
    let set = TokenSet::new(tokens, groups, unparsed);
    check_references(&set, diags);
    Some(set)
}

/// Pass 2: each token's type, where an alias without a declared type takes
/// the type of the first typed token along its chain. Linear in the tokens.
fn alias_types(raw: &[RawToken<'_>]) -> Vec<Option<TokenType>> {
    let index: HashMap<String, usize> = raw
        .iter()
        .enumerate()
        .map(|(i, t)| (t.path.join("."), i))
        .collect();
    let chains = follow(raw.len(), |i| {
        let t = &raw[i];
        if matches!(t.ty, Inherit::Type(_)) {
            return Step::End;
        }
        match t.value.as_str().and_then(parse_reference) {
            Some(target) => match index.get(target) {
                Some(&j) => Step::To(j),
                None => Step::Missing,
            },
            None => Step::End,
        }
    });
    chains
        .into_iter()
        .map(|c| match c {
            Chain::End { at, .. } | Chain::TooDeep { at, .. } => match raw[at].ty {
                Inherit::Type(ty) => Some(ty),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn check_name(name: &str, pointer: &str, diags: &mut FileDiags<'_>) -> bool {
    if name.starts_with('$') {
        diags.push_at_key(Code::InvalidName, pointer, format!("unknown property `{name}`: names starting with `$` are reserved by the DTCG format"));
        return false;
    }
    if name.is_empty() || name.contains(['{', '}', '.']) {
        diags.push_at_key(Code::InvalidName, pointer, format!("invalid token or group name `{name}`: names must not be empty or contain `{{`, `}}` or `.`"));
        return false;
    }
    true
}

fn string_prop(
    obj: &Map<String, Value>,
    key: &str,
    pointer: &str,
    diags: &mut FileDiags<'_>,
) -> Option<String> {
    match obj.get(key) {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            diags.push(
                Code::InvalidTokenProperty,
                &join(pointer, key),
                format!("`{key}` must be a string"),
            );
            None
        }
    }
}

/// The `$type` an object declares: `Ok(None)` when it declares none, `Err`
/// when it declares an invalid one (reported here).
fn declared_type(
    obj: &Map<String, Value>,
    pointer: &str,
    diags: &mut FileDiags<'_>,
) -> Result<Option<TokenType>, ()> {
    let Some(v) = obj.get("$type") else {
        return Ok(None);
    };
    let p = join(pointer, "$type");
    match v.as_str().map(|s| (s, TokenType::parse(s))) {
        Some(("string", _)) | Some(("custom-string", _)) => {
            diags.push(Code::StringType, &p, format!("`$type` {v} is not a DTCG 2025.10 type; the token is read as a string (in CSS a quoted string or an identifier, in Figma a STRING variable)"));
            Ok(Some(TokenType::String))
        }
        Some((_, Some(t))) => Ok(Some(t)),
        Some((s, None)) => {
            let known: Vec<&str> = TokenType::ALL
                .iter()
                .filter(|t| **t != TokenType::String)
                .map(|t| t.as_str())
                .collect();
            let hint = crate::spec::diag::closest(s, known.iter().copied())
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            diags.push(
                Code::UnknownType,
                &p,
                format!("unknown `$type` \"{s}\"{hint}"),
            );
            Err(())
        }
        None => {
            diags.push(Code::UnknownType, &p, "`$type` must be a string");
            Err(())
        }
    }
}

/// Pass 1: groups and tokens in document order. Depth is bounded by the
/// nesting limit checked before parsing.
fn walk_group<'d>(
    obj: &'d Map<String, Value>,
    path: &mut Vec<String>,
    inherited: Inherit,
    pointer: &str,
    raw: &mut Vec<RawToken<'d>>,
    groups: &mut Vec<Group>,
    diags: &mut FileDiags<'_>,
) {
    let own_type = declared_type(obj, pointer, diags);
    let ty = inherited.or(own_type);
    let own_type = own_type.ok().flatten();
    if !path.is_empty() || obj.contains_key("$description") {
        groups.push(Group {
            path: path.clone(),
            description: string_prop(obj, "$description", pointer, diags),
            ty: own_type,
            extensions: obj.get("$extensions").cloned(),
            deprecated: obj.get("$deprecated").cloned(),
        });
    }
    for (key, child) in obj {
        // A document far over the token limit is not walked further.
        if raw.len() > MAX_TOKENS {
            return;
        }
        crate::spec::limits::checkpoint();
        let child_pointer = join(pointer, key);
        match key.as_str() {
            "$type" | "$description" | "$extensions" | "$deprecated" => continue,
            "$schema" if path.is_empty() => continue,
            // Resolved by `preprocess`; reaching here means it could not be.
            "$extends" => continue,
            _ => {}
        }
        // `$root` is a group's own token (DTCG 2025.10 §6.3), referenced as `{group.$root}`.
        if key != ROOT && !check_name(key, &child_pointer, diags) {
            continue;
        }
        let Some(child_obj) = child.as_object() else {
            diags.push(
                Code::NotTokenOrGroup,
                &child_pointer,
                format!("`{key}` must be a token (an object with `$value`) or a group (an object)"),
            );
            continue;
        };
        path.push(key.clone());
        if let Some(value) = child_obj.get("$value") {
            let mut alpha = None;
            for (k, v) in child_obj {
                if matches!(
                    k.as_str(),
                    "$value" | "$type" | "$description" | "$extensions" | "$deprecated"
                ) {
                    continue;
                }
                let at = join(&child_pointer, k);
                if k.starts_with('$') {
                    diags.push_at_key(
                        Code::UnknownProperty,
                        &at,
                        format!("unknown token property `{k}`"),
                    );
                } else if k == "alpha" && v.as_f64().is_some_and(|a| (0.0..=1.0).contains(&a)) {
                    // GitHub Primer writes a colour's alpha beside its value.
                    alpha = v.as_f64();
                } else {
                    diags.push_at_key(Code::IgnoredMember, &at, format!("`{k}` beside `$value` is not DTCG 2025.10 (tokens hold `$value`, groups hold tokens); it is ignored"));
                }
            }
            raw.push(RawToken {
                path: path.clone(),
                ty: ty.or(declared_type(child_obj, &child_pointer, diags)),
                value,
                description: string_prop(child_obj, "$description", &child_pointer, diags),
                deprecated: child_obj.get("$deprecated").cloned(),
                extensions: child_obj.get("$extensions").cloned(),
                alpha,
                pointer: child_pointer,
            });
        } else {
            walk_group(child_obj, path, ty, &child_pointer, raw, groups, diags);
        }
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::{Code, Diagnostic, Severity};
    use crate::spec::tokens::{DimUnit, Dimension, TokenValue};

    fn parse(text: &str) -> (TokenSet, Vec<Diagnostic>) {
        let doc: Value = serde_json::from_str(text).unwrap();
        let mut d = FileDiags::new("b", "b/tokens.json");
        let set = parse_tokens(&doc, &mut d).unwrap_or_default();
        let mut out = Vec::new();
        d.finish(Some(text), &mut out);
        (set, out)
    }

    fn errors(text: &str) -> Vec<String> {
        parse(text)
            .1
            .into_iter()
            .filter(|d| d.severity() == Severity::Error)
            .map(|d| format!("{} {} {}", d.code, d.pointer, d.message))
            .collect()
    }

    #[test]
    fn group_type_is_inherited_and_aliases_take_their_target_type() {
        let (set, diags) = parse(
            r#"{"color": {"$type": "color", "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0, 1]}}},
            "link": {"$value": "{color.blue}"}}"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(set.get("color.blue").unwrap().ty, TokenType::Color);
        assert_eq!(set.get("link").unwrap().ty, TokenType::Color);
        assert!(matches!(
            set.resolve(&set.get("link").unwrap().value).as_deref(),
            Some(TokenValue::Color(_))
        ));
    }

    #[test]
    fn legacy_strings_are_accepted_with_a_warning() {
        let (set, diags) = parse(
            r##"{"c": {"$type": "color", "$value": "#0b5fff"}, "d": {"$type": "dimension", "$value": "1.5rem"}, "t": {"$type": "duration", "$value": "120ms"}}"##,
        );
        assert_eq!(diags.len(), 3);
        assert!(diags.iter().all(|d| d.code == Code::LegacyStringForm));
        assert_eq!(
            set.get("d").unwrap().value,
            TokenValue::Dimension(Dimension {
                value: 1.5,
                unit: DimUnit::Rem
            })
        );
        let TokenValue::Color(c) = &set.get("c").unwrap().value else {
            panic!()
        };
        assert_eq!(c.hex.as_deref(), Some("#0b5fff"));
    }

    #[test]
    fn reports_cycles_dangling_references_and_type_mismatches() {
        let errs = errors(
            r#"{"a": {"$type": "color", "$value": "{b}"}, "b": {"$type": "color", "$value": "{a}"},
            "c": {"$type": "dimension", "$value": "{nope}"},
            "n": {"$type": "number", "$value": 1}, "d": {"$type": "dimension", "$value": "{n}"}}"#,
        );
        assert_eq!(
            errs,
            vec![
                "MQ1503 /a/$value alias cycle: `a` refers back to itself",
                "MQ1503 /b/$value alias cycle: `b` refers back to itself",
                "MQ1501 /c/$value reference `{nope}` does not name a token",
                "MQ1502 /d/$value reference `{n}` is a number token; a dimension is needed here",
            ]
        );
        // The token a dangling reference names travels as data.
        let (_, diags) = parse(r#"{"c": {"$type": "dimension", "$value": "{nope}"}}"#);
        assert_eq!(diags[0].code, Code::DanglingReference);
        assert_eq!(diags[0].target.as_deref(), Some("nope"));
    }

    #[test]
    fn rejects_bad_values_with_clear_messages() {
        let errs = errors(
            r#"{"x": {"$type": "colour", "$value": 1}, "w": {"$type": "fontWeight", "$value": "fat"},
            "e": {"$type": "cubicBezier", "$value": [2, 0, 1, 1]}, "u": {"$value": "soft"}, "bad.name": {"$type": "number", "$value": 1}}"#,
        );
        assert_eq!(
            errs,
            vec![
                "MQ1306 /x/$type unknown `$type` \"colour\"; did you mean `color`?",
                "MQ1302 /bad.name invalid token or group name `bad.name`: names must not be empty or contain `{`, `}` or `.`",
                "MQ1307 /w/$value unknown font weight \"fat\"; use a number from 1 to 1000 or a DTCG name such as \"bold\"",
                "MQ1307 /e/$value cubicBezier x coordinates (first and third numbers) must lie between 0 and 1",
                "MQ1305 /u token `u` has no `$type`, on itself or an enclosing group",
            ]
        );
    }

    #[test]
    fn composites_parse_with_aliased_parts() {
        let (set, diags) = parse(
            r#"{"size": {"$type": "dimension", "m": {"$value": {"value": 16, "unit": "px"}}},
            "font": {"$type": "fontFamily", "body": {"$value": ["Inter", "sans-serif"]}},
            "type": {"$type": "typography", "body": {"$value": {"fontFamily": "{font.body}", "fontSize": "{size.m}", "fontWeight": "regular", "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        let TokenValue::Composite(t) = &set.get("type.body").unwrap().value else {
            panic!()
        };
        assert_eq!(t.get("fontWeight"), Some(&TokenValue::FontWeight(400.0)));
        assert_eq!(t.get("fontSize"), Some(&TokenValue::Alias("size.m".into())));
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use crate::spec::diag::Severity;

    fn errors(text: &str) -> Vec<String> {
        let doc: Value = serde_json::from_str(text).unwrap();
        let mut d = FileDiags::new("b", "b/tokens.json");
        let _ = parse_tokens(&doc, &mut d);
        let mut out = Vec::new();
        d.finish(Some(text), &mut out);
        out.into_iter()
            .filter(|d| d.severity() == Severity::Error)
            .map(|d| format!("{}:{} {} {}", d.line, d.column, d.code, d.message))
            .collect()
    }

    #[test]
    fn a_hex_that_disagrees_with_its_components_is_an_error() {
        let errs = errors(
            r##"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.0824, 0.3765, 0.6275], "hex": "#1560a1"}}}"##,
        );
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0]
                .contains("MQ1309 hex #1560a1 does not match the components, which give #1560a0"),
            "{errs:?}"
        );
        assert!(errors(
            r##"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.0824, 0.3765, 0.6275], "hex": "#1560a0"}}}"##
        )
        .is_empty());
    }

    #[test]
    fn a_wide_gamut_hex_is_checked_only_inside_srgb() {
        // oklch(0.62 0.11 150) lies inside sRGB: its hex must match.
        let inside = r##"{"c": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [0.62, 0.11, 150], "hex": "#ff0000"}}}"##;
        assert_eq!(errors(inside).len(), 1);
        // A saturated display-p3 green lies outside sRGB: the hex is the author's fallback.
        let outside = r##"{"c": {"$type": "color", "$value": {"colorSpace": "display-p3", "components": [0, 1, 0], "hex": "#00ff00"}}}"##;
        assert!(errors(outside).is_empty());
    }

    #[test]
    fn a_ten_thousand_link_alias_chain_is_refused_quickly_with_one_error() {
        let mut doc = String::from(r#"{"chain": {"$type": "number", "t0": {"$value": 1}"#);
        for i in 1..10_000 {
            doc.push_str(&format!(
                r#", "t{i}": {{"$value": "{{chain.t{}}}"}}"#,
                i - 1
            ));
        }
        doc.push_str("}}");
        let started = std::time::Instant::now();
        let errs = errors(&doc);
        assert!(
            started.elapsed().as_secs_f64() < 1.0,
            "{:?}",
            started.elapsed()
        );
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].contains("longer than 64 links"), "{errs:?}");
    }
}
