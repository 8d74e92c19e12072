//! A plan said in words: each modifier with what it was read from and its
//! contexts, the sets each applies, and the sets not read with why.

use super::Made;
use crate::spec::tokens::TokenSet;
use serde_json::Value;

/// The lines that say `made`, with each context's token count in `set`
/// (the brand read by the plan) where it is known.
pub fn explain(made: &Made, set: Option<&TokenSet>) -> Vec<String> {
    let doc = &made.doc;
    let mut lines = Vec::new();
    let sets = doc.get("sets").and_then(Value::as_object);
    let names: Vec<String> = sets
        .into_iter()
        .flatten()
        .map(|(name, s)| {
            let how = s.get("$extensions").and_then(|e| e.get(super::EXTENSION));
            match how
                .and_then(|h| h.get("sourceOnly"))
                .and_then(Value::as_bool)
            {
                Some(true) => format!("`{name}` (source only)"),
                _ => format!("`{name}`"),
            }
        })
        .collect();
    lines.push(format!(
        "sets, in the order they apply ({}, read as {}): {}",
        names.len(),
        made.format.as_str(),
        names.join(", ")
    ));
    let modifiers = doc.get("modifiers").and_then(Value::as_object);
    for (name, m) in modifiers.into_iter().flatten() {
        let description = m.get("description").and_then(Value::as_str).unwrap_or("");
        lines.push(format!("modifier `{name}`: {description}"));
        let default = m.get("default").and_then(Value::as_str);
        for (context, own) in m
            .get("contexts")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let own: Vec<String> = own
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r.get("$ref")?.as_str())
                .map(|r| {
                    let r = r.strip_prefix("#/sets/").unwrap_or(r);
                    format!("`{}`", crate::spec::json::unescape_token(r))
                })
                .collect();
            let count = set.and_then(|s| count_in(s, name, context));
            lines.push(format!(
                "  {context}{}: {}{}",
                if Some(context.as_str()) == default {
                    " (default)"
                } else {
                    ""
                },
                match own.is_empty() {
                    true => "no set of its own".to_string(),
                    false => own.join(", "),
                },
                count.map_or(String::new(), |n| format!("; {n} tokens")),
            ));
        }
    }
    if modifiers.is_none_or(|m| m.is_empty()) {
        inside(set, made.format, &mut lines);
    }
    for (name, why) in made.plan.iter().flat_map(|p| &p.not_read) {
        lines.push(format!("not read: `{name}`, {why}"));
    }
    lines
}

/// The modifiers a file keeps inside it (modes in its values or paths, a
/// Figma collection's modes, Material's schemes), read from `set`.
fn inside(set: Option<&TokenSet>, format: crate::spec::formats::Format, lines: &mut Vec<String>) {
    let Some(set) = set.filter(|s| !s.modes.is_empty()) else {
        let count = set.map_or(String::new(), |s| format!(" of {} tokens", s.tokens.len()));
        lines.push(format!("no modifier: one context{count}"));
        return;
    };
    for (m, modifier) in set.modes.iter().enumerate() {
        lines.push(format!(
            "modifier `{}`: read from inside the file, as {} keeps modes (in its values, its paths, a collection's modes or a scheme)",
            modifier.name,
            format.as_str()
        ));
        for (c, context) in modifier.contexts.iter().enumerate() {
            let default = if c == modifier.default {
                " (default)"
            } else {
                ""
            };
            let n = context_tokens(set, m, c);
            lines.push(format!("  {}{default}: {n} tokens", context.name));
        }
    }
}

/// The tokens of context `context` of modifier `modifier` in `set`.
fn count_in(set: &TokenSet, modifier: &str, context: &str) -> Option<usize> {
    let m = set.modes.iter().position(|m| m.name == modifier)?;
    let c = set.modes[m]
        .contexts
        .iter()
        .position(|c| c.name == context)?;
    Some(context_tokens(set, m, c))
}

/// How many tokens context `c` of modifier `m` publishes (the default's
/// are the set's own).
pub fn context_tokens(set: &TokenSet, m: usize, c: usize) -> usize {
    match c == set.modes[m].default {
        true => set.tokens.len(),
        false => set.context(m, c).tokens.len(),
    }
}
