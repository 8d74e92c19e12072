//! The entries of `/status`: a published brand's, and an unpublished one's.
//! Their shape is a contract operators script against; change it only
//! by adding members.

use crate::spec::brand::silence::Silenced;
use crate::spec::Diagnostic;
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct BrandStatus<'a> {
    pub(super) slug: &'a str,
    pub(super) version: String,
    pub(super) updated: String,
    pub(super) state: &'static str,
    /// Its latest input is being checked and rendered: what is served
    /// (and `state`) is the version before.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) building: bool,
    /// Bytes its resources hold, all codings.
    pub(super) bytes: usize,
    #[serde(flatten)]
    pub(super) findings: Findings<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Unpublished<'a> {
    pub(super) slug: &'a str,
    /// Not published yet: it is being checked and rendered.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) building: bool,
    #[serde(flatten)]
    pub(super) findings: Findings<'a>,
}

/// What every entry says of a brand's diagnostics, published or not.
#[derive(Serialize)]
pub(super) struct Findings<'a> {
    pub(super) errors: usize,
    pub(super) warnings: usize,
    /// The diagnostics grouped by kind and counted.
    pub(super) kinds: Vec<crate::spec::diag::Kind>,
    pub(super) diagnostics: &'a [Diagnostic],
    /// Warnings its brand.json silences, counted by code.
    #[serde(skip_serializing_if = "none")]
    pub(super) silenced: &'a Silenced,
}

/// Nothing silenced: the member is left out.
fn none(s: &&Silenced) -> bool {
    s.is_empty()
}
