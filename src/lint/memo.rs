//! PURE. What lint works out once a run rather than once a finding, kept
//! in the [`Index`](super::Index) (a codebase writes `16px`, or misspells
//! `--color-fg-default`, hundreds of times): what a literal value comes
//! to, and what a name no token has is. `sink` fills and reads it; it
//! names nothing of `sink`'s, so the index can hold it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The memos of one index.
#[derive(Debug, Default)]
pub struct Memo {
    /// By literal (see [`LitKey`]); `None` where no token has the value.
    pub(super) literals: Mutex<HashMap<LitKey, Option<Arc<Answer>>>>,
    /// By kind (0 CSS, 1 Android, 2 iOS, 3 Tailwind) and form, then by
    /// name (`utility:name` for Tailwind): a lookup copies no name.
    pub(super) names: Mutex<HashMap<(u8, u8), Names>>,
}

/// What names of one kind and form are, by name.
pub(super) type Names = HashMap<String, Arc<Unknown>>;

/// A literal's kind (0 colour, 1 dimension, 2 duration, 3 weight) and
/// exact value (its bits), the form the file names tokens in, the
/// utility of a Tailwind class, and ΔE (its bits).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct LitKey(
    pub(super) u8,
    pub(super) [u64; 4],
    pub(super) u8,
    pub(super) Option<String>,
    pub(super) u64,
);

/// What a literal value comes to: the findings' words, but for the
/// literal as written.
#[derive(Debug)]
pub(super) struct Answer {
    /// The distance to the nearest token colour, for a near one.
    pub(super) near: Option<f64>,
    /// The names to write instead, best first.
    pub(super) suggest: Vec<String>,
    /// The tokens listed with their contexts (and how many more).
    pub(super) listed: String,
    /// The one token `--fix` may write, where one may be.
    pub(super) only: Option<usize>,
}

/// What a name no token has is.
#[derive(Debug)]
pub(super) enum Unknown {
    /// Another spelling of a published name: a use of its token, and a
    /// note with the published spelling.
    Spelling {
        token: usize,
        message: String,
        instead: String,
    },
    /// A mistake: its message and suggestions.
    Mistake {
        message: String,
        suggest: Vec<String>,
    },
    /// The codebase's own (its first word is none of the brand's).
    Own,
}
