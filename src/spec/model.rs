//! The typed model of brand.json. Field names follow the file (camelCase);
//! `ext` members collect the `x-` keys that authors may add anywhere, which
//! are kept and published.
//!
//! Values only reach these types after the schema check in `schema.rs`
//! passed, so deserialising them cannot fail on shape.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub type Ext = Map<String, Value>;

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BrandDoc {
    #[serde(rename = "$schema", default, skip_serializing)]
    pub schema: Option<String>,
    pub name: String,
    pub version: String,
    pub updated: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// `private`: served to access-token holders only (DESIGN.md §20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// The brand this one extends (`core`, `core@^3.2`; DESIGN.md §18).
    #[serde(default, skip_serializing)]
    pub extends: Option<String>,
    /// Until this RFC 3339 moment, this version is served to access-token
    /// holders only (checked by `spec::brand`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embargo: Option<String>,
    /// Where the tokens are (read before the rest, by `spec::brand`).
    #[serde(default, skip_serializing)]
    pub tokens: Option<Value>,
    /// How its tokens are named where they are published (applied to the
    /// token set by `spec::brand`).
    #[serde(default, skip_serializing)]
    pub naming: Naming,
    /// Warnings silenced for this brand, by code (read by `spec::brand::silence`).
    #[serde(default, skip_serializing)]
    pub diagnostics: Option<Value>,
    #[serde(default)]
    pub voice: Voice,
    #[serde(default)]
    pub audience: Audience,
    #[serde(default)]
    pub logo: Logo,
    #[serde(default)]
    pub typography: Typography,
    #[serde(default)]
    pub color: ColorSection,
    #[serde(default)]
    pub applications: Vec<Application>,
    #[serde(default)]
    pub prompt_kit: PromptKit,
    #[serde(flatten)]
    pub ext: Ext,
}

/// brand.json `naming`: the names the team's own build gives its tokens.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Naming {
    /// The CSS custom-property prefix without `--` or the hyphen after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

impl Naming {
    /// Gives `tokens` this prefix, where brand.json says one; else they
    /// keep the one their source gave (a Style Dictionary config's CSS
    /// platform's, `spec::brand::named`), or none.
    pub fn prefix_tokens(&self, tokens: &mut crate::spec::tokens::TokenSet) {
        if let Some(prefix) = &self.prefix {
            tokens.prefix.clone_from(prefix);
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Voice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default)]
    pub traits: Vec<Trait>,
    #[serde(default)]
    pub vocabulary: Vocabulary,
    #[serde(default)]
    pub examples: Vec<VoiceExample>,
    #[serde(flatten)]
    pub ext: Ext,
}

impl Voice {
    /// True when brand.json says nothing of its voice (an imported brand).
    pub fn is_empty(&self) -> bool {
        self.summary.is_none()
            && self.traits.is_empty()
            && self.vocabulary.prefer.is_empty()
            && self.vocabulary.avoid.is_empty()
            && self.vocabulary.ext.is_empty()
            && self.examples.is_empty()
            && self.ext.is_empty()
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Trait {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub r#do: Vec<String>,
    #[serde(default)]
    pub dont: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Vocabulary {
    #[serde(default)]
    pub prefer: Vec<Preferred>,
    #[serde(default)]
    pub avoid: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preferred {
    pub term: String,
    #[serde(default)]
    pub instead_of: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct VoiceExample {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    pub good: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Audience {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default)]
    pub segments: Vec<Segment>,
    #[serde(flatten)]
    pub ext: Ext,
}

impl Audience {
    /// True when brand.json says nothing of its audience.
    pub fn is_empty(&self) -> bool {
        self.summary.is_none() && self.segments.is_empty() && self.ext.is_empty()
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Segment {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub needs: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Logo {
    #[serde(default)]
    pub variants: Vec<LogoVariant>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clear_space: Option<String>,
    #[serde(default)]
    pub misuse: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogoVariant {
    pub id: String,
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_width: Option<DimensionDoc>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq)]
pub struct DimensionDoc {
    pub value: f64,
    pub unit: DimUnitDoc,
}

/// The unit of a dimension in brand.json (`px` or `rem`, checked by the schema).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum DimUnitDoc {
    #[default]
    Px,
    Rem,
}

impl DimUnitDoc {
    pub fn as_str(self) -> &'static str {
        match self {
            DimUnitDoc::Px => "px",
            DimUnitDoc::Rem => "rem",
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Typography {
    #[serde(default)]
    pub families: Vec<FontRole>,
    #[serde(default)]
    pub styles: Vec<TextStyle>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct FontRole {
    pub role: String,
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct TextStyle {
    pub name: String,
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct ColorSection {
    #[serde(default)]
    pub palette: Vec<PaletteEntry>,
    #[serde(default)]
    pub pairs: Vec<ContrastPair>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct PaletteEntry {
    pub name: String,
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct ContrastPair {
    pub foreground: String,
    pub background: String,
    pub level: String,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Application {
    pub medium: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guidance: Option<String>,
    #[serde(default)]
    pub r#do: Vec<String>,
    #[serde(default)]
    pub dont: Vec<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct PromptKit {
    #[serde(default)]
    pub prompts: Vec<Prompt>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    pub template: String,
    #[serde(default)]
    pub variables: Vec<PromptVariable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(flatten)]
    pub ext: Ext,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptVariable {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default = "yes")]
    pub required: bool,
    #[serde(default = "default_max_length")]
    pub max_length: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    #[serde(flatten)]
    pub ext: Ext,
}

fn yes() -> bool {
    true
}

/// The default cap on a prompt variable's length, in characters.
pub const DEFAULT_MAX_LENGTH: u32 = 2000;

fn default_max_length() -> u32 {
    DEFAULT_MAX_LENGTH
}
