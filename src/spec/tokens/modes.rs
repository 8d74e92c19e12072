//! A resolver brand's modes: for each modifier of its resolver document,
//! each context with the tokens whose value there differs from the
//! default permutation. Together with the default tokens they give every
//! permutation: start from the default, then apply each modifier's chosen
//! context in resolution order (aliases are resolved after, as the
//! resolver module says).

use super::{parse_reference, Token, TokenSet, TokenValue};
use crate::spec::limits::MAX_ALIAS_DEPTH;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// A way the tokens vary, as its resolver names it (`theme`, `density`).
#[derive(Debug, Clone)]
pub struct Modifier {
    pub name: String,
    /// Index of the default context in [`Modifier::contexts`].
    pub default: usize,
    /// Every context in document order; the default's tokens are empty.
    pub contexts: Vec<ModeContext>,
}

/// One context of a modifier (`dark`).
#[derive(Debug, Clone)]
pub struct ModeContext {
    pub name: String,
    /// The tokens this context writes whose type or value differs from the
    /// default permutation's (and those [`settle`] must keep), in document
    /// order.
    pub tokens: Vec<Token>,
    /// Each of `tokens` by its dotted name.
    index: HashMap<String, usize>,
    /// Its colour scheme where the resolver says it (see [`Self::scheme`]).
    declared_scheme: Option<&'static str>,
}

impl ModeContext {
    pub fn new(name: String, tokens: Vec<Token>) -> ModeContext {
        let index = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name(), i))
            .collect();
        ModeContext {
            name,
            tokens,
            index,
            declared_scheme: None,
        }
    }

    /// The colour scheme its resolver declares, if it does.
    pub fn declared_scheme(&self) -> Option<&'static str> {
        self.declared_scheme
    }

    /// The context with the colour scheme its resolver declares.
    pub fn with_scheme(mut self, scheme: Option<&'static str>) -> ModeContext {
        self.declared_scheme = scheme;
        self
    }

    /// The token named `name` that this context writes.
    pub fn get(&self, name: &str) -> Option<&Token> {
        self.index.get(name).map(|&i| &self.tokens[i])
    }
}

/// One context over the default tokens, without copying them: what the
/// context writes, else the default's. For the questions a few references
/// ask (a palette colour, a contrast pair, one token's value); a whole
/// permutation, with every composite's parts resolved in it, is
/// [`TokenSet::in_context`].
#[derive(Clone, Copy)]
pub struct View<'a> {
    set: &'a TokenSet,
    context: &'a ModeContext,
}

impl<'a> View<'a> {
    /// The default tokens under this context.
    pub fn base(&self) -> &'a TokenSet {
        self.set
    }

    /// The token named `name` in this context.
    pub fn get(&self, name: &str) -> Option<&'a Token> {
        self.context.get(name).or_else(|| self.set.get(name))
    }

    /// Follows aliases through this context to a literal value; `None` for
    /// a dangling reference or a chain longer than validation allows.
    /// The alpha beside the alias nearest `v` on its chain replaces the
    /// colour's own, as [`TokenSet::resolve`] reads it.
    pub fn resolve<'b>(&self, v: &'b TokenValue) -> Option<Cow<'b, TokenValue>>
    where
        'a: 'b,
    {
        let mut v = v;
        let mut alpha = None;
        for _ in 0..=MAX_ALIAS_DEPTH {
            if let TokenValue::AliasWithAlpha { alpha: a, .. } = v {
                alpha = alpha.or(Some(*a));
            }
            match v.alias_target() {
                Some(target) => v = &self.get(target)?.value,
                None => {
                    return Some(match alpha {
                        Some(a) => Cow::Owned(v.with_alpha(a)),
                        None => Cow::Borrowed(v),
                    })
                }
            }
        }
        None
    }

    /// The tokens this context writes.
    pub fn written(&self) -> &'a [Token] {
        &self.context.tokens
    }

    /// What a `{reference}` resolves to in this context.
    pub fn resolve_reference(&self, reference: &str) -> Option<Cow<'a, TokenValue>> {
        self.resolve(&self.get(parse_reference(reference)?)?.value)
    }
}

/// What a context's permutation `here` writes (`written` says whether the
/// context wrote a token last), in document order, each with whether it
/// differs from `default`.
pub fn split(
    default: &TokenSet,
    here: &TokenSet,
    written: impl Fn(&Token) -> bool,
) -> Vec<(Token, bool)> {
    here.tokens
        .iter()
        .filter(|t| written(t))
        .map(|t| {
            let same = default
                .get(&t.name())
                .is_some_and(|d| d.ty == t.ty && d.value == t.value);
            (t.clone(), !same)
        })
        .collect()
}

/// A modifier's name, default and context names, with each context's
/// [`split`].
pub struct Written {
    pub name: String,
    pub default: usize,
    /// Colour schemes the resolver declares, by context name.
    pub schemes: HashMap<String, &'static str>,
    pub contexts: Vec<(String, Vec<(Token, bool)>)>,
}

/// The modifiers with their contexts' tokens. A context keeps what it
/// writes that differs from the default, and what it writes equal to the
/// default when a context of another modifier changes it: in a permutation
/// of both, the later in resolution order wins, so both must say it.
pub fn settle(written: Vec<Written>) -> Vec<Modifier> {
    let changed_by: Vec<HashSet<String>> = written
        .iter()
        .map(|m| {
            m.contexts
                .iter()
                .flat_map(|(_, ts)| ts.iter().filter(|(_, d)| *d).map(|(t, _)| t.name()))
                .collect()
        })
        .collect();
    written
        .into_iter()
        .enumerate()
        .map(|(m, w)| Modifier {
            name: w.name,
            default: w.default,
            contexts: w
                .contexts
                .into_iter()
                .map(|(name, tokens)| {
                    let kept = tokens
                        .into_iter()
                        .filter(|(t, differs)| {
                            *differs
                                || changed_by
                                    .iter()
                                    .enumerate()
                                    .any(|(other, names)| other != m && names.contains(&t.name()))
                        })
                        .map(|(t, _)| t)
                        .collect();
                    let scheme = w.schemes.get(&name).copied();
                    ModeContext::new(name, kept).with_scheme(scheme)
                })
                .collect(),
        })
        .collect()
}

/// The name a modifier or context has in CSS and HTML: kebab case
/// (`light_ax` → `light-ax`, `xSmall` → `x-small`), for `data-<modifier>`
/// and its value. `None` when that is empty or not plain ASCII letters,
/// digits and hyphens, so the name could not be an attribute safely.
pub fn css_ident(name: &str) -> Option<String> {
    let ident = super::css::kebab(name);
    let safe = !ident.is_empty()
        && ident
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    safe.then_some(ident)
}

impl Modifier {
    /// Its name as a CSS identifier (validation refuses one that is not).
    pub fn ident(&self) -> String {
        css_ident(&self.name).unwrap_or_default()
    }

    /// `data-<name>`, the attribute that picks a context.
    pub fn attribute(&self) -> String {
        format!("data-{}", self.ident())
    }

    /// The modifier is the colour scheme: it has contexts `light` and
    /// `dark`, or its resolver declares a context dark and another light.
    pub fn is_color_scheme(&self) -> bool {
        let has = |n: &str| self.contexts.iter().any(|c| c.ident() == n);
        let declared = self.contexts.iter().any(|c| c.declared_scheme.is_some());
        (has("light") && has("dark"))
            || (declared
                && self.contexts.iter().any(|c| c.scheme() == "dark")
                && self.contexts.iter().any(|c| c.scheme() == "light"))
    }
}

impl ModeContext {
    /// The context's name as an attribute value.
    pub fn ident(&self) -> String {
        css_ident(&self.name).unwrap_or_default()
    }

    /// The scheme its resolver declares; else `dark` for a dark context
    /// (`dark`, `dark-hc`), else `light`.
    pub fn scheme(&self) -> &'static str {
        if let Some(s) = self.declared_scheme {
            return s;
        }
        let ident = self.ident();
        match ident == "dark" || ident.starts_with("dark-") {
            true => "dark",
            false => "light",
        }
    }
}

/// The sets [`TokenSet::context`] made, one slot per context of each
/// modifier. A copy of a set starts with none: a copy may be changed, and
/// what was made from the original would no longer be its contexts.
#[derive(Default)]
pub struct ContextSets(std::sync::OnceLock<Vec<Vec<std::sync::OnceLock<TokenSet>>>>);

impl Clone for ContextSets {
    fn clone(&self) -> ContextSets {
        ContextSets::default()
    }
}

impl std::fmt::Debug for ContextSets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContextSets")
    }
}

impl TokenSet {
    /// [`TokenSet::in_context`], made once per set and context and kept
    /// with the set. For a finished set, as the surfaces read it: a change
    /// to the tokens or modes after the first call is not seen.
    pub fn context(&self, m: usize, c: usize) -> &TokenSet {
        let slots = self.contexts.0.get_or_init(|| {
            self.modes
                .iter()
                .map(|modifier| {
                    modifier
                        .contexts
                        .iter()
                        .map(|_| Default::default())
                        .collect()
                })
                .collect()
        });
        slots[m][c].get_or_init(|| self.in_context(m, c))
    }

    /// The tokens of the permutation with context `c` of modifier `m` and
    /// every other modifier at its default: these tokens with what that
    /// context writes in place (or added), aliases resolved again. Without
    /// modes of its own.
    pub fn in_context(&self, m: usize, c: usize) -> TokenSet {
        let mut tokens = self.tokens.clone();
        for t in &self.modes[m].contexts[c].tokens {
            match self.index_of(&t.name()) {
                Some(i) => tokens[i] = t.clone(),
                None => tokens.push(t.clone()),
            }
        }
        let mut set = TokenSet::new(tokens, self.groups.clone(), self.unparsed.clone());
        set.prefix = self.prefix.clone();
        set
    }

    /// Context `c` of modifier `m` over these tokens, copying nothing.
    pub fn view(&self, m: usize, c: usize) -> View<'_> {
        View {
            set: self,
            context: &self.modes[m].contexts[c],
        }
    }

    /// The brand's own dark context: the `dark` context of its light/dark
    /// modifier, when that is not the default.
    pub fn dark_context(&self) -> Option<View<'_>> {
        let (m, modifier) = self
            .modes
            .iter()
            .enumerate()
            .find(|(_, m)| m.is_color_scheme())?;
        let c = modifier.contexts.iter().position(|c| c.ident() == "dark")?;
        (c != modifier.default).then(|| self.view(m, c))
    }

    /// Every non-default context, as `(modifier, context)` indices.
    pub fn contexts(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.modes.iter().enumerate().flat_map(|(m, modifier)| {
            (0..modifier.contexts.len())
                .filter(move |c| *c != modifier.default)
                .map(move |c| (m, c))
        })
    }

    /// The colours that aliases with an alpha paint in context `c` of
    /// modifier `m` where that differs from the default: each such token
    /// (as the context writes it, or the default's) with its colour there.
    /// Surfaces that cannot say "this alias at that alpha" (DTCG 2025.10,
    /// Figma, a browser without relative colours) write these literals.
    pub fn composited_in(&self, m: usize, c: usize) -> Vec<(&Token, TokenValue)> {
        let view = self.view(m, c);
        let written = view.written().iter();
        let defaults = self
            .tokens
            .iter()
            .filter(|t| view.context.get(&t.name()).is_none());
        written
            .chain(defaults)
            .filter(|t| matches!(t.value, TokenValue::AliasWithAlpha { .. }))
            .filter_map(|t| {
                let there = view.resolve(&t.value)?.into_owned();
                let here = self.get(&t.name()).and_then(|d| self.resolve(&d.value));
                (here.as_deref() != Some(&there)).then_some((t, there))
            })
            .collect()
    }

    /// The modifiers in whose contexts the colour an alias with an alpha
    /// paints differs from the default's (empty for any other token).
    pub fn composite_varies(&self, t: &Token) -> Vec<usize> {
        if !matches!(t.value, TokenValue::AliasWithAlpha { .. }) {
            return Vec::new();
        }
        let here = self.resolve(&t.value);
        let name = t.name();
        (0..self.modes.len())
            .filter(|&m| {
                (0..self.modes[m].contexts.len()).any(|c| {
                    let view = self.view(m, c);
                    let there = view.get(&name).and_then(|x| view.resolve(&x.value));
                    there != here
                })
            })
            .collect()
    }

    /// A context's label, `theme=dark`.
    pub fn label(&self, m: usize, c: usize) -> String {
        let modifier = &self.modes[m];
        format!("{}={}", modifier.name, modifier.contexts[c].name)
    }
}

/// Where names are looked up and aliases followed: the default tokens, or
/// one context over them.
pub trait Lookup {
    fn token(&self, name: &str) -> Option<&Token>;
    fn resolve_value<'v>(&'v self, v: &'v TokenValue) -> Option<Cow<'v, TokenValue>>;
}

impl Lookup for TokenSet {
    fn token(&self, name: &str) -> Option<&Token> {
        self.get(name)
    }

    fn resolve_value<'v>(&'v self, v: &'v TokenValue) -> Option<Cow<'v, TokenValue>> {
        self.resolve(v)
    }
}

impl Lookup for View<'_> {
    fn token(&self, name: &str) -> Option<&Token> {
        self.get(name)
    }

    fn resolve_value<'v>(&'v self, v: &'v TokenValue) -> Option<Cow<'v, TokenValue>> {
        self.resolve(v)
    }
}

#[cfg(test)]
mod tests {
    use super::TokenSet;

    /// The bundled brand with a dark context, as the server reads it.
    fn lumen() -> TokenSet {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let files = crate::source::dir::read_brand(&root, "lumen-health").expect("a brand");
        let (brand, _) = crate::spec::brand::parse_brand(&files, crate::clock::today());
        brand.expect("lumen-health is valid").tokens
    }

    fn values(set: &TokenSet) -> Vec<(String, String)> {
        let css = |t: &super::Token| {
            super::super::css::value(&t.value, set, super::super::css::Refs::Resolve)
        };
        set.tokens.iter().map(|t| (t.name(), css(t))).collect()
    }

    #[test]
    fn a_kept_context_is_the_context_made_anew() {
        let set = lumen();
        let (m, c) = set.contexts().next().expect("a dark context");
        let made = set.in_context(m, c);
        assert_eq!(values(set.context(m, c)), values(&made));
        assert_ne!(values(&made), values(&set), "the context changes values");
        // Asked again: the same set, not made again.
        assert!(std::ptr::eq(set.context(m, c), set.context(m, c)));
    }

    #[test]
    fn a_copy_keeps_no_context_of_the_original() {
        let set = lumen();
        let (m, c) = set.contexts().next().expect("a dark context");
        let dark = values(set.context(m, c));
        let mut copy = set.clone();
        // Changed after the copy: the copy's context follows the change.
        let i = copy
            .tokens
            .iter()
            .position(|t| matches!(t.value, super::TokenValue::Color(_)))
            .expect("a colour");
        let changed = set.context(m, c).tokens[i].clone();
        copy.modes[m].contexts[c]
            .tokens
            .retain(|t| t.name() != changed.name());
        assert_ne!(values(copy.context(m, c)), dark);
    }
}
