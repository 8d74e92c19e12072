//! What tests of the lists of changes build changes with.

use super::{Change, Kind, Level, Section, What};

impl Change {
    /// A token removed, added or changed, for tests of what lists changes:
    /// `removes token `a``.
    pub fn of_token(level: Level, section: Section, name: &str) -> Change {
        let what = match section {
            Section::Removed => What::Removed,
            Section::Added => What::Added,
            Section::Changed => What::Changed,
            Section::Deprecated => What::TokenDeprecated,
        };
        Change {
            level,
            section,
            kind: Kind::Token,
            name: name.to_string(),
            what,
        }
    }
}
