//! What a reader decided of a team's files: the sets in the order they
//! apply, the modifiers with what each was read from, the sets not read;
//! and that as a resolver document over the team's files, the reading
//! plan. PURE.

use super::Format;
use crate::spec::json::join;
use serde_json::{json, Map, Value};

/// The key of marque's extensions.
pub const EXTENSION: &str = "app.marque";
/// The member of a Tokens Studio document that says `$themes` is a plan's:
/// exactly the system's themes, to be read as they are, nothing inferred.
pub const PLANNED: &str = "$marquePlan";
/// The member of a Tokens Studio document that lists words a config
/// gives as names of modes (its CSS files' selectors: `[data-theme=ocean]`).
pub const MODE_WORDS: &str = "$marqueModeWords";

/// How a reader read a team's files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// Every set read, in the order they apply.
    pub sets: Vec<Set>,
    pub modifiers: Vec<Modifier>,
    /// Sets found and not read, each with why.
    pub not_read: Vec<(String, String)>,
}

/// One set: a file of a synced folder, or a top-level group of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Set {
    pub name: String,
    /// Referred to, never published.
    pub source_only: bool,
}

/// One axis of modes.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    pub name: String,
    /// What it was read from.
    pub description: String,
    /// Each context with the sets only it applies; the default first.
    pub contexts: Vec<(String, Vec<String>)>,
}

impl Plan {
    /// The sets every context applies: those in no modifier's context.
    pub fn always(&self) -> impl Iterator<Item = &Set> {
        self.sets.iter().filter(|s| {
            !self
                .modifiers
                .iter()
                .any(|m| m.contexts.iter().any(|(_, own)| own.contains(&s.name)))
        })
    }

    /// The plan as a resolver document: each set's source is what
    /// `source` gives for its name (a path relative to the plan, with a
    /// `#/pointer` for a part of a file), read in `format`.
    pub fn to_resolver(
        &self,
        format: Format,
        description: &str,
        source: impl Fn(&str) -> String,
    ) -> Value {
        let mut sets = Map::new();
        for s in &self.sets {
            let mut how = json!({"format": format.as_str()});
            if format == Format::TokensStudio {
                how["oneTree"] = json!(true);
            }
            if s.source_only {
                how["sourceOnly"] = json!(true);
            }
            sets.insert(
                s.name.clone(),
                json!({"sources": [{"$ref": source(&s.name)}], "$extensions": {EXTENSION: how}}),
            );
        }
        let set_ref = |name: &str| json!({"$ref": join("#/sets", name)});
        let mut modifiers = Map::new();
        for m in &self.modifiers {
            let contexts: Map<String, Value> = m
                .contexts
                .iter()
                .map(|(c, own)| (c.clone(), own.iter().map(|s| set_ref(s)).collect()))
                .collect();
            modifiers.insert(
                m.name.clone(),
                json!({"description": m.description, "contexts": contexts, "default": m.contexts[0].0}),
            );
        }
        let mut order: Vec<Value> = self.always().map(|s| set_ref(&s.name)).collect();
        order.extend(
            self.modifiers
                .iter()
                .map(|m| json!({"$ref": join("#/modifiers", &m.name)})),
        );
        json!({
            "version": "2025.10",
            "description": description,
            "sets": sets,
            "modifiers": modifiers,
            "resolutionOrder": order,
        })
    }
}
