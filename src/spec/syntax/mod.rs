//! The syntaxes teams keep data files in, read as JSON: JSON itself (a
//! UTF-8 byte-order mark allowed), JSONC and JSON5 (comments, trailing
//! commas, single quotes, unquoted keys, hex numbers), and YAML 1.2 (core
//! schema: `yes` and `on` stay strings). Each is written again as JSON
//! text in which every value starts on the line it starts on in the file,
//! and in its column wherever JSON's own punctuation leaves room, so every
//! position a diagnostic gives is in the team's own file; everything that
//! reads JSON reads the result as it is.

use std::borrow::Cow;

mod json5;
mod yaml;

use json5::json5;
use yaml::yaml;

/// A file's syntax, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `.json`: JSON, and, when it is not, JSONC or JSON5 (which many
    /// tools write under `.json`).
    Json,
    /// `.jsonc` and `.json5`.
    Json5,
    /// `.yaml` and `.yml`.
    Yaml,
}

/// The names data files may end in.
const EXTENSIONS: &[(&str, Syntax)] = &[
    (".json", Syntax::Json),
    (".jsonc", Syntax::Json5),
    (".json5", Syntax::Json5),
    (".yaml", Syntax::Yaml),
    (".yml", Syntax::Yaml),
];

impl Syntax {
    /// The syntax of the file `name`, if it is a data file.
    pub fn of(name: &str) -> Option<Syntax> {
        EXTENSIONS
            .iter()
            .find(|(ext, _)| name.len() > ext.len() && name.ends_with(ext))
            .map(|(_, s)| *s)
    }

    /// What a message calls it.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Json => "JSON",
            Syntax::Json5 => "JSON5",
            Syntax::Yaml => "YAML",
        }
    }
}

/// True for a file marque may read as data (JSON, JSONC, JSON5, YAML).
pub fn is_data_file(name: &str) -> bool {
    Syntax::of(name).is_some()
}

/// `name` without its data file extension (`light.tokens.yaml` →
/// `light.tokens`).
pub fn stem(name: &str) -> &str {
    EXTENSIONS
        .iter()
        .find_map(|(ext, _)| name.strip_suffix(ext))
        .unwrap_or(name)
}

/// Why a file could not be read, and where (1-based; columns in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The most values a YAML file may hold once its aliases are expanded:
/// an alias repeats a whole subtree, so a small file could stand for a
/// huge one.
pub const MAX_EXPANDED_VALUES: usize = 2_000_000;

/// `text` without a leading UTF-8 byte-order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `text`, a file of `syntax`, as JSON text (see the module's doc). JSON
/// is returned as it is (a byte-order mark dropped); it is not checked
/// here, since its reader checks it.
pub fn to_json(text: &str, syntax: Syntax) -> Result<Cow<'_, str>, SyntaxError> {
    to_json_noting(text, syntax, &mut Vec::new())
}

/// [`to_json`], with what the file holds that is valid but likely a
/// mistake (a YAML value that a `#` made a comment) put in `notes`.
pub fn to_json_noting<'t>(
    text: &'t str,
    syntax: Syntax,
    notes: &mut Vec<SyntaxError>,
) -> Result<Cow<'t, str>, SyntaxError> {
    let text = without_bom(text);
    match syntax {
        Syntax::Json => Ok(Cow::Borrowed(text)),
        Syntax::Json5 => json5(text).map(Cow::Owned),
        Syntax::Yaml => yaml(text, notes).map(Cow::Owned),
    }
}

/// A `.json` file that is not JSON, read as JSONC or JSON5 if it is that.
pub fn relaxed(text: &str) -> Option<String> {
    let json = json5(without_bom(text)).ok()?;
    serde_json::from_str::<serde::de::IgnoredAny>(&json)
        .is_ok()
        .then_some(json)
}

/// True when a `.json` file may be JSONC or JSON5 rather than JSON: it
/// starts with a byte-order mark, or holds, outside its strings, a
/// comment, a single quote or a comma before a closing bracket. One pass,
/// so every JSON file can be asked.
pub fn maybe_relaxed(text: &str) -> bool {
    if text.starts_with('\u{feff}') {
        return true;
    }
    let bytes = text.as_bytes();
    // Every file of every brand is asked at each read: a file with no
    // slash, no single quote and no comma before a closing bracket (most
    // JSON) is plain without the walk through its strings.
    let trailing_comma = memchr::memchr_iter(b',', bytes).any(|at| {
        bytes[at + 1..]
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .is_some_and(|b| matches!(b, b'}' | b']'))
    });
    if !trailing_comma && memchr::memchr2(b'/', b'\'', bytes).is_none() {
        return false;
    }
    relaxed_outside_strings(text)
}

/// [`maybe_relaxed`]'s walk: a comment, a single quote or a trailing comma
/// outside the strings of `text`.
fn relaxed_outside_strings(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut comma = false;
    for (i, b) in super::json::outside_strings(text) {
        match b {
            b'"' => comma = false,
            b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => return true,
            b'\'' => return true,
            b',' => comma = true,
            b'}' | b']' if comma => return true,
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => comma = false,
        }
    }
    false
}

impl SyntaxError {
    /// The error as a diagnostic of the file `path` of the brand `slug`.
    pub fn diagnostic(&self, slug: &str, path: &str) -> super::Diagnostic {
        let syntax = Syntax::of(path).unwrap_or(Syntax::Json);
        self.as_diagnostic(
            super::diag::Code::InvalidJson,
            slug,
            path,
            format!("invalid {}: {}", syntax.name(), self.message),
        )
    }

    /// A note (see [`to_json_noting`]) as a warning of the file `path`.
    pub fn warning(&self, slug: &str, path: &str) -> super::Diagnostic {
        self.as_diagnostic(
            super::diag::Code::YamlCommentValue,
            slug,
            path,
            self.message.clone(),
        )
    }

    fn as_diagnostic(
        &self,
        code: super::diag::Code,
        slug: &str,
        path: &str,
        message: String,
    ) -> super::Diagnostic {
        let mut d = super::diag::file_diagnostic(code, slug, &format!("{slug}/{path}"), message);
        d.line = self.line.max(1);
        d.column = self.column.max(1);
        d
    }
}

/// `bytes`, the file at `path`, as JSON when it is a data file in
/// another syntax; `None` when it is to be read as it is (JSON, or not a
/// data file, or not UTF-8, which its reader says).
pub fn json_of(path: &str, bytes: &[u8]) -> Result<Option<String>, SyntaxError> {
    json_of_noting(path, bytes, &mut Vec::new())
}

/// [`json_of`], with notes as [`to_json_noting`] makes them.
pub fn json_of_noting(
    path: &str,
    bytes: &[u8],
    notes: &mut Vec<SyntaxError>,
) -> Result<Option<String>, SyntaxError> {
    let Some(syntax) = Syntax::of(path) else {
        return Ok(None);
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(None);
    };
    match syntax {
        Syntax::Json if !maybe_relaxed(text) => Ok(None),
        Syntax::Json => Ok(relaxed(text)),
        _ => to_json_noting(text, syntax, notes).map(|t| Some(t.into_owned())),
    }
}

/// JSON text being written, with where it has got to.
struct Out {
    text: String,
    line: u32,
    column: u32,
}

impl Out {
    fn new() -> Out {
        Out {
            text: String::new(),
            line: 1,
            column: 1,
        }
    }

    /// Moves to `line` and `column` of the source, as far as what is
    /// written already allows (lines always; columns where it is behind).
    fn at(&mut self, line: u32, column: u32) {
        while self.line < line {
            self.text.push('\n');
            self.line += 1;
            self.column = 1;
        }
        while self.column < column {
            self.text.push(' ');
            self.column += 1;
        }
    }

    /// Writes `s`, which holds no line break.
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.column += s.chars().count() as u32;
    }

    /// Writes `s` as a JSON string.
    fn string(&mut self, s: &str) {
        let quoted = serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        self.push(&quoted);
    }
}

#[cfg(test)]
mod tests;
