//! What changed in a brand's modes: modifiers and contexts added (minor)
//! or removed (major: a page that names one loses it), and each token a
//! context sets apart whose value there changed (a patch, like a value
//! change of the default), named `color.ink in theme=dark`.

use super::{shown, Builder, Kind, Level, Section, What};
use crate::spec::tokens::modes::{ModeContext, Modifier, View};
use crate::spec::tokens::TokenSet;
use std::collections::BTreeSet;

impl Builder {
    pub(super) fn modes(&mut self, old: &TokenSet, new: &TokenSet) {
        let find = |set: &TokenSet, name: &str| set.modes.iter().position(|m| m.name == name);
        for (m, modifier) in old.modes.iter().enumerate() {
            let Some(n) = find(new, &modifier.name) else {
                self.push(
                    Level::Major,
                    Section::Removed,
                    Kind::Modifier,
                    &modifier.name,
                    What::Removed,
                );
                continue;
            };
            let after = &new.modes[n];
            for (c, context) in modifier.contexts.iter().enumerate() {
                let label = format!("{}={}", modifier.name, context.name);
                match after.contexts.iter().position(|x| x.name == context.name) {
                    None => self.push(
                        Level::Major,
                        Section::Removed,
                        Kind::Context,
                        &label,
                        What::Removed,
                    ),
                    Some(d) if c != modifier.default || d != after.default => {
                        self.context_tokens(&label, (old, m, c), (new, n, d));
                    }
                    Some(_) => {}
                }
            }
            for context in after.contexts.iter().filter(|x| !has(modifier, &x.name)) {
                let label = format!("{}={}", modifier.name, context.name);
                self.push(
                    Level::Minor,
                    Section::Added,
                    Kind::Context,
                    &label,
                    What::Added,
                );
            }
        }
        for modifier in new.modes.iter().filter(|m| find(old, &m.name).is_none()) {
            self.push(
                Level::Minor,
                Section::Added,
                Kind::Modifier,
                &modifier.name,
                What::Added,
            );
        }
    }

    /// The tokens a context sets apart, in either version, whose value in
    /// that context changed.
    fn context_tokens(
        &mut self,
        label: &str,
        (old, om, oc): (&TokenSet, usize, usize),
        (new, nm, nc): (&TokenSet, usize, usize),
    ) {
        let names = |c: &ModeContext| c.tokens.iter().map(|t| t.name()).collect::<BTreeSet<_>>();
        let (before, after) = (&old.modes[om].contexts[oc], &new.modes[nm].contexts[nc]);
        let written: BTreeSet<String> = names(before).union(&names(after)).cloned().collect();
        if written.is_empty() {
            return;
        }
        let (was, is) = (old.view(om, oc), new.view(nm, nc));
        for name in written {
            let value = |v: View<'_>| v.get(&name).map(|t| shown(t, v.base()));
            let (a, b) = (value(was), value(is));
            if a == b {
                continue;
            }
            let what = What::TokenValue {
                before: a.unwrap_or_else(|| "nothing".into()),
                after: b.unwrap_or_else(|| "nothing".into()),
            };
            self.push(
                Level::Patch,
                Section::Changed,
                Kind::Token,
                &format!("{name} in {label}"),
                what,
            );
        }
    }
}

fn has(m: &Modifier, context: &str) -> bool {
    m.contexts.iter().any(|c| c.name == context)
}
