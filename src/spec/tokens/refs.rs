//! Aliases: every `{group.token}` reference must name a token of the right
//! type, and every alias chain must end at a literal value within
//! [`MAX_ALIAS_DEPTH`] links, without a cycle.
//!
//! Chains are followed once for the whole set ([`follow`]), each link at most
//! once, so checking is linear in the number of tokens however the aliases
//! are arranged (a 10,000-link chain included).

use super::{css, Item, StrokeStyle, TokenSet, TokenType, TokenValue};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::limits::MAX_ALIAS_DEPTH;

/// Where one node's link leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The node is the end of its chain.
    End,
    /// The node links to another node.
    To(usize),
    /// The node links to something that does not exist.
    Missing,
}

/// How a node's chain ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// At node `at`, after `depth` links.
    End { at: usize, depth: usize },
    /// At a link to nothing.
    Missing,
    /// The node is part of a cycle.
    Cycle,
    /// The node's chain runs into a cycle it is not part of.
    IntoCycle,
    /// At node `at` too, but after more than [`MAX_ALIAS_DEPTH`] links.
    TooDeep { at: usize, depth: usize },
}

impl Chain {
    /// The chain of a node that links to a node whose chain is `self`.
    fn behind(self) -> Chain {
        match self {
            Chain::End { at, depth } if depth < MAX_ALIAS_DEPTH => Chain::End {
                at,
                depth: depth + 1,
            },
            Chain::End { at, depth } | Chain::TooDeep { at, depth } => Chain::TooDeep {
                at,
                depth: depth + 1,
            },
            Chain::Cycle | Chain::IntoCycle => Chain::IntoCycle,
            Chain::Missing => Chain::Missing,
        }
    }
}

/// Follows every node's links to the end, each link once: linear time and
/// memory, no recursion.
pub fn follow(n: usize, step: impl Fn(usize) -> Step) -> Vec<Chain> {
    let mut out: Vec<Option<Chain>> = vec![None; n];
    let mut on_path = vec![false; n];
    let mut path = Vec::new();
    for start in 0..n {
        if out[start].is_some() {
            continue;
        }
        path.clear();
        let mut cur = start;
        // Walk forward until the chain ends, meets a known node, or loops.
        let mut tail = loop {
            on_path[cur] = true;
            path.push(cur);
            match step(cur) {
                Step::End => {
                    break Chain::End { at: cur, depth: 0 };
                }
                Step::Missing => break Chain::Missing,
                Step::To(next) => {
                    if let Some(known) = out[next] {
                        break known.behind();
                    }
                    if on_path[next] {
                        // Everything from `next` to the end of the path is the cycle.
                        let first = path.iter().position(|&p| p == next).unwrap_or(0);
                        for &p in &path[first..] {
                            out[p] = Some(Chain::Cycle);
                            on_path[p] = false;
                        }
                        path.truncate(first);
                        break Chain::IntoCycle;
                    }
                    cur = next;
                }
            }
        };
        // Unwind: the last node on the path gets `tail`, each earlier one the chain behind it.
        let mut first = true;
        while let Some(p) = path.pop() {
            if !first {
                tail = tail.behind();
            }
            first = false;
            out[p] = Some(tail);
            on_path[p] = false;
        }
    }
    out.into_iter()
        .map(|c| c.unwrap_or(Chain::Missing))
        .collect()
}

/// The chain of every token of a set: where its aliases lead.
pub fn resolve_chains(set: &TokenSet) -> Vec<Chain> {
    follow(set.tokens.len(), |i| {
        match set.tokens[i].value.alias_target() {
            Some(target) => match set.index_of(target) {
                Some(j) => Step::To(j),
                None => Step::Missing,
            },
            None => Step::End,
        }
    })
}

/// What is said of a reference to `target`, a token that does not exist.
/// The diagnostic carries `target` as data too
/// ([`FileDiags::push_reference`]), so a resolver brand can add which
/// context or set defines it.
pub fn dangling(target: &str) -> String {
    format!("reference `{{{target}}}` does not name a token")
}

/// Reports dangling references, references to the wrong type, cycles and
/// chains that are too long.
pub fn check_references(set: &TokenSet, diags: &mut FileDiags<'_>) {
    let chains = resolve_chains(set);
    let mut refs = Vec::new();
    for (token, chain) in set.tokens.iter().zip(chains) {
        refs.clear();
        let p = join(&token.pointer, "$value");
        collect_aliases(&token.value, token.ty, &p, &mut refs);
        for (target, want, pointer) in &refs {
            match set.get(target) {
                None if set.unparsed.contains(target) => {}
                None => {
                    diags.push_reference(Code::DanglingReference, pointer, dangling(target), target)
                }
                // A typography's line height may be a length (read with
                // MQ1411), so it may refer to one: a Tokens Studio line
                // height in pixels is a dimension.
                Some(t) if t.ty == TokenType::Dimension && pointer.ends_with("/lineHeight") => {}
                Some(t) if t.ty != *want => diags.push(
                    Code::ReferenceTypeMismatch,
                    pointer,
                    format!(
                        "reference `{{{target}}}` is a {} token; a {} is needed here",
                        t.ty.as_str(),
                        want.as_str()
                    ),
                ),
                Some(_) => {}
            }
        }
        if let TokenValue::String(text) = &token.value {
            check_string(set, token.ty, text, &p, diags);
        }
        match chain {
            Chain::Cycle => diags.push(
                Code::AliasCycle,
                &p,
                format!("alias cycle: `{}` refers back to itself", token.name()),
            ),
            Chain::IntoCycle => diags.push(
                Code::AliasCycle,
                &p,
                format!("`{}` refers to an alias cycle", token.name()),
            ),
            // One error per chain, at the link where it becomes too long.
            Chain::TooDeep { depth, .. } if depth == MAX_ALIAS_DEPTH + 1 => diags.push(
                Code::AliasChainTooLong,
                &p,
                format!(
                    "the alias chain from `{}` is longer than {MAX_ALIAS_DEPTH} links; point it closer to a value",
                    token.name()
                ),
            ),
            _ => {}
        }
    }
}

/// The `{references}` inside a string must each name a token, and the
/// string they make must read as a CSS value, or it is published quoted.
fn check_string(set: &TokenSet, ty: TokenType, text: &str, p: &str, diags: &mut FileDiags<'_>) {
    let refs = css::references_in(text);
    if refs.is_empty() {
        if ty != TokenType::String && !css::is_css_value(text) {
            diags.push(
                Code::QuotedInCss,
                p,
                format!(
                    "`{text}` is no CSS {} value; tokens.css publishes it as a quoted string",
                    ty.as_str()
                ),
            );
        }
        return;
    }
    let mut missing = false;
    for (_, target) in &refs {
        if set.get(target).is_none() && !set.unparsed.contains(*target) {
            diags.push_reference(
                Code::DanglingReference,
                p,
                format!("{} (inside the string)", dangling(target)),
                target,
            );
            missing = true;
        }
    }
    if missing {
        return;
    }
    match css::interpolate(text, set, css::Refs::Resolve, 0) {
        None => diags.push(
            Code::StringReferenceLoop,
            p,
            format!("the references inside this string lead to strings with references more than {} deep, or back to itself", css::MAX_STRING_DEPTH),
        ),
        Some(resolved) if !css::is_css_value(&resolved) => diags.push(
            Code::QuotedInCss,
            p,
            format!("with its references resolved this string is `{resolved}`, which is no CSS value; tokens.css publishes it as a quoted string, with the default's values, which do not follow modes"),
        ),
        Some(_) => {}
    }
}

/// Every alias inside a value, with the type it must have and where it is.
pub fn collect_aliases(
    v: &TokenValue,
    ty: TokenType,
    p: &str,
    out: &mut Vec<(String, TokenType, String)>,
) {
    let mut sub = |v: &TokenValue, ty, key: &str| collect_aliases(v, ty, &join(p, key), out);
    match v {
        TokenValue::Alias(t) | TokenValue::AliasWithAlpha { target: t, .. } => {
            out.push((t.clone(), ty, p.to_string()))
        }
        TokenValue::Composite(c) => {
            for (part, value) in c.parts() {
                sub(value, part.ty, part.key);
            }
        }
        TokenValue::Shadow(layers) => {
            for (i, item) in layers.iter().enumerate() {
                let lp = if layers.len() == 1 {
                    p.to_string()
                } else {
                    format!("{p}/{i}")
                };
                let l = match item {
                    Item::Alias(t) => {
                        out.push((t.clone(), TokenType::Shadow, lp));
                        continue;
                    }
                    Item::Literal(l) => l,
                };
                for (val, t, k) in [
                    (&l.color, TokenType::Color, "color"),
                    (&l.offset_x, TokenType::Dimension, "offsetX"),
                    (&l.offset_y, TokenType::Dimension, "offsetY"),
                    (&l.blur, TokenType::Dimension, "blur"),
                    (&l.spread, TokenType::Dimension, "spread"),
                ] {
                    collect_aliases(val, t, &join(&lp, k), out);
                }
            }
        }
        TokenValue::Gradient(stops) => {
            for (i, item) in stops.iter().enumerate() {
                let s = match item {
                    Item::Alias(t) => {
                        out.push((t.clone(), TokenType::Gradient, format!("{p}/{i}")));
                        continue;
                    }
                    Item::Literal(s) => s,
                };
                collect_aliases(&s.color, TokenType::Color, &format!("{p}/{i}/color"), out);
                collect_aliases(
                    &s.position,
                    TokenType::Number,
                    &format!("{p}/{i}/position"),
                    out,
                );
            }
        }
        TokenValue::StrokeStyle(StrokeStyle::Dashed { dash_array, .. }) => {
            for (i, d) in dash_array.iter().enumerate() {
                collect_aliases(d, TokenType::Dimension, &format!("{p}/dashArray/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chains(links: &[Option<usize>]) -> Vec<Chain> {
        follow(links.len(), |i| match links[i] {
            Some(j) if j < links.len() => Step::To(j),
            Some(_) => Step::Missing,
            None => Step::End,
        })
    }

    #[test]
    fn chains_end_loop_or_dangle() {
        // 0 -> 1 -> 2 (end); 3 <-> 4; 5 -> 3; 6 -> nowhere
        let got = chains(&[Some(1), Some(2), None, Some(4), Some(3), Some(3), Some(99)]);
        assert_eq!(
            got,
            vec![
                Chain::End { at: 2, depth: 2 },
                Chain::End { at: 2, depth: 1 },
                Chain::End { at: 2, depth: 0 },
                Chain::Cycle,
                Chain::Cycle,
                Chain::IntoCycle,
                Chain::Missing,
            ]
        );
    }

    #[test]
    fn a_long_chain_is_followed_once_and_cut_at_the_limit() {
        let n = 10_000;
        let links: Vec<Option<usize>> = (0..n).map(|i| (i > 0).then(|| i - 1)).collect();
        let got = chains(&links);
        assert_eq!(got[0], Chain::End { at: 0, depth: 0 });
        assert_eq!(
            got[MAX_ALIAS_DEPTH],
            Chain::End {
                at: 0,
                depth: MAX_ALIAS_DEPTH
            }
        );
        assert_eq!(
            got[MAX_ALIAS_DEPTH + 1],
            Chain::TooDeep {
                at: 0,
                depth: MAX_ALIAS_DEPTH + 1
            }
        );
        assert_eq!(
            got[n - 1],
            Chain::TooDeep {
                at: 0,
                depth: n - 1
            }
        );
    }
}
