//! The life of a token (DESIGN.md §18): `$deprecated` is `true` or a
//! string, and a `{reference}` inside the string names the token that
//! replaces it. Every surface says the same advice ("deprecated: use …"),
//! and tokens.css writes a deprecated token as a shim of its replacement
//! where the two agree in every context.

use super::{parse_reference, Token, TokenSet};
use serde_json::Value;
use std::collections::BTreeMap;

/// What a deprecated token says of itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Deprecation {
    /// Its `$deprecated` text, if it is one.
    pub note: Option<String>,
    /// The token that replaces it: the first `{reference}` of the text,
    /// when it names a token of the brand of the same type.
    pub replacement: Option<String>,
}

impl Deprecation {
    /// "deprecated: use `color.teal.700`", with the note after it when the
    /// note says more.
    pub fn advice(&self) -> String {
        match (&self.replacement, &self.note) {
            (Some(r), Some(n)) => format!("deprecated: use `{r}` ({n})"),
            (Some(r), None) => format!("deprecated: use `{r}`"),
            (None, Some(n)) => format!("deprecated: {n}"),
            (None, None) => "deprecated".to_string(),
        }
    }
}

/// The first `{reference}` in `text`.
fn first_reference(text: &str) -> Option<String> {
    let start = text.find('{')?;
    let end = start + text[start..].find('}')?;
    parse_reference(&text[start..=end]).map(str::to_string)
}

impl Token {
    /// Its deprecation, if `$deprecated` is `true` or a string (`false` is
    /// none). The replacement is named only when `set` has it, of the same type.
    pub fn deprecation(&self, set: &TokenSet) -> Option<Deprecation> {
        let note = match self.deprecated.as_ref()? {
            Value::Bool(true) => None,
            Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
            _ => return None,
        };
        let replacement = note
            .as_deref()
            .and_then(first_reference)
            .filter(|r| *r != self.name())
            .filter(|r| set.get(r).is_some_and(|t| t.ty == self.ty));
        Some(Deprecation { note, replacement })
    }
}

impl Token {
    /// Its description with a deprecation's advice first ("Deprecated:
    /// use `color.teal.700`. …"), where a tool shows a description.
    pub fn described(&self, set: &TokenSet) -> Option<String> {
        let advice = self.deprecation(set).map(|d| {
            let a = d.advice();
            let mut c = a.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        });
        match (advice, &self.description) {
            (Some(a), Some(text)) => Some(format!("{a}. {text}")),
            (Some(a), None) => Some(a),
            (None, text) => text.clone(),
        }
    }
}

impl TokenSet {
    /// Deprecated tokens that resolve to their replacement's value in the
    /// default and in every context of every modifier: each stands for its
    /// replacement (tokens.css writes it as `var(--<replacement>)`), by name.
    pub fn shims(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for t in &self.tokens {
            let Some(r) = t.deprecation(self).and_then(|d| d.replacement) else {
                continue;
            };
            let Some(target) = self.get(&r) else {
                continue;
            };
            let same = |a: &Token, b: &Token, set: &TokenSet| {
                let (a, b) = (set.resolve(&a.value), set.resolve(&b.value));
                a.is_some() && a == b
            };
            let mut agree = same(t, target, self);
            for (m, modifier) in self.modes.iter().enumerate() {
                for c in 0..modifier.contexts.len() {
                    if !agree {
                        break;
                    }
                    let view = self.view(m, c);
                    let (a, b) = (view.get(&t.name()), view.get(&r));
                    agree = match (a, b) {
                        (Some(a), Some(b)) => {
                            let (x, y) = (view.resolve(&a.value), view.resolve(&b.value));
                            x.is_some() && x == y
                        }
                        _ => false,
                    };
                }
            }
            if agree {
                out.insert(t.name(), r);
            }
        }
        out
    }
}
