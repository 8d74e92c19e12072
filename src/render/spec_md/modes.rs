//! spec.md's modes: how a page picks each context, and a compact table per
//! modifier of every token a context sets apart, with its value in each
//! context (as CSS, aliases resolved in that context), so a model writing
//! dark-mode CSS has the values.

use super::{md, md_code, md_inline};
use crate::render::spec_json::Spec;
use crate::spec::tokens::css::{self, Refs};
use crate::spec::tokens::{TokenSet, TokenValue};
use crate::spec::Brand;
use std::collections::HashSet;
use std::fmt::Write;

pub(super) fn modes(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let set = &brand.tokens;
    if set.modes.is_empty() {
        return;
    }
    o.push_str("## Modes\n\nThe tokens above are the default. In tokens.css a context applies under the attribute on `<html>` or any element; contexts of different modifiers combine.\n\n");
    for modifier in &set.modes {
        let names: Vec<String> = modifier
            .contexts
            .iter()
            .enumerate()
            .map(|(c, ctx)| {
                let default = if c == modifier.default {
                    " (default)"
                } else {
                    ""
                };
                format!("{}{default}", md_code(&ctx.ident()))
            })
            .collect();
        let _ = write!(
            o,
            "- {}: {}, with {}",
            md(&modifier.name),
            names.join(", "),
            md_code(&format!("{}=\"…\"", modifier.attribute()))
        );
        if modifier.is_color_scheme() {
            o.push_str("; the colour scheme: without the attribute, tokens.css follows the reader's `prefers-color-scheme`");
        }
        o.push_str(".\n");
    }
    for (m, modifier) in set.modes.iter().enumerate() {
        let mut seen = HashSet::new();
        let rows: Vec<String> = modifier
            .contexts
            .iter()
            .flat_map(|c| c.tokens.iter().map(|t| t.name()))
            .filter(|name| seen.insert(name.clone()))
            .collect();
        if rows.is_empty() {
            continue;
        }
        // Column by column, one permutation at a time: a brand may have
        // dozens of contexts over thousands of tokens.
        let columns: Vec<Vec<String>> = (0..modifier.contexts.len())
            .map(|c| {
                let here = match c == modifier.default {
                    true => set,
                    false => set.context(m, c),
                };
                rows.iter().map(|name| value_of(here, name)).collect()
            })
            .collect();
        let _ = writeln!(o, "\n### {}\n", md(&modifier.name));
        let header: Vec<String> = modifier
            .contexts
            .iter()
            .map(|c| md_code(&c.ident()))
            .collect();
        let _ = writeln!(o, "| token | {} |", header.join(" | "));
        let _ = writeln!(o, "|---|{}", "---|".repeat(header.len()));
        for (r, name) in rows.iter().enumerate() {
            let cells: Vec<&str> = columns.iter().map(|col| col[r].as_str()).collect();
            let _ = writeln!(o, "| {} | {} |", md_code(name), cells.join(" | "));
        }
    }
    o.push('\n');
}

/// A token's value in a permutation, as CSS with aliases resolved; a
/// colour not written as hex with its sRGB hex after it.
fn value_of(set: &TokenSet, name: &str) -> String {
    let Some(v) = set.get(name).and_then(|t| set.resolve(&t.value)) else {
        return "–".into();
    };
    let css = css::value(&v, set, Refs::Resolve);
    match v.as_ref() {
        TokenValue::Color(c) if !css.starts_with('#') => {
            format!("{}, sRGB {}", md_inline(&css), super::srgb_hex(c))
        }
        _ => md_inline(&css),
    }
}
