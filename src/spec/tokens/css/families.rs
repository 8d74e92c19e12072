//! Font stacks over a brand font: a stack's names that are references.

use super::{has_references, MAX_STRING_DEPTH};
use crate::spec::tokens::{parse_reference, TokenSet, TokenValue};
use std::borrow::Cow;

/// A font stack's names, each name that is a whole `{reference}` to a
/// font family (`["{font.brand}", "Helvetica"]`, as Style Dictionary and
/// Tokens Studio sources write a stack over a brand font) replaced by that
/// family's names, as any reference resolves; a name that names no font
/// family stays as written.
pub fn families<'a>(names: &'a [String], set: &TokenSet, depth: usize) -> Cow<'a, [String]> {
    if depth > MAX_STRING_DEPTH || !names.iter().any(|n| parse_reference(n).is_some()) {
        return Cow::Borrowed(names);
    }
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let found = set.resolve_reference(n);
        match found.as_deref() {
            Some(TokenValue::FontFamily(inner)) => {
                out.extend(families(inner, set, depth + 1).iter().cloned())
            }
            Some(TokenValue::String(s)) if !has_references(s) => out.push(s.clone()),
            _ => out.push(n.clone()),
        }
    }
    Cow::Owned(out)
}
