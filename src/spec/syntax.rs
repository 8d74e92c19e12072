//! The syntaxes teams keep data files in, read as JSON: JSON itself (a
//! UTF-8 byte-order mark allowed), JSONC and JSON5 (comments, trailing
//! commas, single quotes, unquoted keys, hex numbers), and YAML 1.2 (core
//! schema: `yes` and `on` stay strings). Each is written again as JSON
//! text in which every value starts on the line it starts on in the file,
//! and in its column wherever JSON's own punctuation leaves room, so every
//! position a diagnostic gives is in the team's own file; everything that
//! reads JSON reads the result as it is.

use std::borrow::Cow;

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
    let (mut in_string, mut escaped, mut comma) = (false, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                comma = false;
            }
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

// ---------------------------------------------------------------- JSON5

/// JSON5 (and so JSONC) as JSON text. Its grammar is checked as far as
/// its tokens go; what is left (a missing colon, say) is found by the
/// JSON reader, at the same line.
fn json5(text: &str) -> Result<String, SyntaxError> {
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
    };
    let mut out = Out::new();
    // A comma is written only once a value follows it: JSON5 allows one
    // before a closing bracket, JSON does not.
    let mut comma: Option<(u32, u32)> = None;
    let mut depth = 0usize;
    loop {
        r.skip_space_and_comments()?;
        let (line, column) = (r.line, r.column);
        let Some(c) = r.peek() else {
            break;
        };
        match c {
            ',' => {
                r.bump();
                if comma.is_some() {
                    return Err(r.error_at(line, column, "two commas in a row"));
                }
                comma = Some((line, column));
                continue;
            }
            '}' | ']' => {
                comma = None;
                depth = depth.saturating_sub(1);
                r.bump();
                out.at(line, column);
                out.push(&c.to_string());
                continue;
            }
            _ => {}
        }
        if let Some((l, c)) = comma.take() {
            out.at(l, c);
            out.push(",");
        }
        match c {
            '{' | '[' | ':' => {
                if c != ':' {
                    depth += 1;
                }
                r.bump();
                out.at(line, column);
                out.push(&c.to_string());
            }
            '"' | '\'' => {
                let s = r.string(c)?;
                out.at(line, column);
                out.string(&s);
            }
            c if c.is_ascii_digit() || matches!(c, '+' | '-' | '.') => {
                let n = r.number()?;
                out.at(line, column);
                out.push(&n);
            }
            c if c.is_alphabetic() || matches!(c, '_' | '$' | '\\') => {
                let word = r.identifier();
                match word.as_str() {
                    "true" | "false" | "null" => {
                        out.at(line, column);
                        out.push(&word);
                    }
                    "Infinity" | "NaN" => {
                        return Err(r.error_at(line, column, "Infinity and NaN have no JSON form"))
                    }
                    // A key: its quote just before it, so that its value,
                    // after `":`, starts where it does in the file.
                    _ => {
                        out.at(line, column.saturating_sub(1).max(1));
                        out.string(&word);
                    }
                }
            }
            c => return Err(r.error_at(line, column, &format!("unexpected character `{c}`"))),
        }
    }
    if depth > 0 {
        return Err(r.error_at(r.line, r.column, "the file ends inside an object or array"));
    }
    Ok(out.text)
}

/// A cursor over JSON5 text.
struct Reader {
    chars: Vec<char>,
    i: usize,
    line: u32,
    column: u32,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error_at(&self, line: u32, column: u32, message: &str) -> SyntaxError {
        SyntaxError {
            line,
            column,
            message: message.to_string(),
        }
    }

    fn skip_space_and_comments(&mut self) -> Result<(), SyntaxError> {
        loop {
            match (self.peek(), self.chars.get(self.i + 1).copied()) {
                (Some(c), _) if c.is_whitespace() || c == '\u{feff}' => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    let (line, column) = (self.line, self.column);
                    self.bump();
                    self.bump();
                    loop {
                        match self.bump() {
                            Some('*') if self.peek() == Some('/') => {
                                self.bump();
                                break;
                            }
                            Some(_) => {}
                            None => {
                                return Err(self.error_at(line, column, "a comment is not closed"))
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// A string quoted by `quote`, decoded.
    fn string(&mut self, quote: char) -> Result<String, SyntaxError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut s = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(self.error_at(line, column, "a string is not closed"));
            };
            match c {
                c if c == quote => return Ok(s),
                '\n' => {
                    return Err(self.error_at(line, column, "a string is not closed on its line"))
                }
                '\\' => {
                    let Some(e) = self.bump() else {
                        return Err(self.error_at(line, column, "a string is not closed"));
                    };
                    match e {
                        'b' => s.push('\u{8}'),
                        'f' => s.push('\u{c}'),
                        'n' => s.push('\n'),
                        'r' => s.push('\r'),
                        't' => s.push('\t'),
                        'v' => s.push('\u{b}'),
                        '0' => s.push('\0'),
                        // A line continuation.
                        '\n' | '\u{2028}' | '\u{2029}' => {}
                        '\r' => {
                            if self.peek() == Some('\n') {
                                self.bump();
                            }
                        }
                        'x' => s.push(self.hex(2)?),
                        'u' => {
                            let high = self.hex(4)? as u32;
                            let code = if (0xD800..0xDC00).contains(&high)
                                && self.peek() == Some('\\')
                                && self.chars.get(self.i + 1) == Some(&'u')
                            {
                                self.bump();
                                self.bump();
                                let low = self.hex(4)? as u32;
                                0x10000
                                    + ((high - 0xD800) << 10)
                                    + (low.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                high
                            };
                            s.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        other => s.push(other),
                    }
                }
                c => s.push(c),
            }
        }
    }

    /// `n` hex digits, as the character they name.
    fn hex(&mut self, n: usize) -> Result<char, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let mut v = 0u32;
        for _ in 0..n {
            let d = self.peek().and_then(|c| c.to_digit(16));
            let Some(d) = d else {
                return Err(self.error_at(line, column, "an escape needs hex digits"));
            };
            self.bump();
            v = v * 16 + d;
        }
        Ok(char::from_u32(v).unwrap_or('\u{fffd}'))
    }

    /// A number, as JSON writes it.
    fn number(&mut self) -> Result<String, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let mut raw = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') {
                raw.push(c);
                self.bump();
            } else {
                break;
            }
        }
        let (sign, digits) = match raw.strip_prefix(['+', '-']) {
            Some(rest) => (if raw.starts_with('-') { "-" } else { "" }, rest),
            None => ("", raw.as_str()),
        };
        if let Some(hex) = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            return u64::from_str_radix(hex, 16)
                .map(|v| format!("{sign}{v}"))
                .map_err(|_| self.error_at(line, column, "not a number"));
        }
        if digits == "Infinity" || digits == "NaN" {
            return Err(self.error_at(line, column, "Infinity and NaN have no JSON form"));
        }
        match digits.parse::<f64>() {
            Ok(v) if v.is_finite() && !digits.is_empty() => {
                // JSON's own spelling when it is one (exact), else the value.
                let json = format!("{sign}{digits}");
                Ok(
                    if serde_json::from_str::<serde_json::Number>(&json).is_ok() {
                        json
                    } else {
                        let n = serde_json::Number::from_f64(if sign == "-" { -v } else { v });
                        n.map_or(json, |n| n.to_string())
                    },
                )
            }
            _ => Err(self.error_at(line, column, &format!("`{raw}` is not a number"))),
        }
    }

    /// An unquoted key, or `true`, `false`, `null`, `Infinity`, `NaN`.
    fn identifier(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || matches!(c, '_' | '$' | '\u{200c}' | '\u{200d}') {
                word.push(c);
                self.bump();
            } else if c == '\\' && self.chars.get(self.i + 1) == Some(&'u') {
                self.bump();
                self.bump();
                match self.hex(4) {
                    Ok(c) => word.push(c),
                    Err(_) => break,
                }
            } else {
                break;
            }
        }
        word
    }
}

// ----------------------------------------------------------------- YAML

/// YAML 1.2 (core schema) as JSON text: the first document; an alias is
/// the JSON of its anchor's node, counted in full against
/// [`MAX_EXPANDED_VALUES`].
fn yaml(text: &str, notes: &mut Vec<SyntaxError>) -> Result<String, SyntaxError> {
    use saphyr_parser::{Event, Parser};
    let mut out = Out::new();
    // Per open collection: is it a mapping, and how many entries
    // (keys and values, or items) it has had.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    // Anchors: their JSON, once their node ends; open ones by where they began.
    let mut anchors: std::collections::HashMap<usize, String> = Default::default();
    let mut open: Vec<(usize, usize, usize)> = Vec::new(); // (anchor, depth, start)
    let mut values = 0usize;
    let mut documents = 0;
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.lines().collect();
    // The line of the last key: an empty value after it may be a `#`
    // that YAML read as a comment.
    let mut key_line = 0usize;
    let error = |line: usize, col: usize, message: String| SyntaxError {
        line: line as u32,
        column: col as u32 + 1,
        message,
    };
    for event in Parser::new_from_str(text) {
        let (event, span) =
            event.map_err(|e| error(e.marker().line(), e.marker().col(), e.info().to_string()))?;
        let (line, col) = (span.start.line() as u32, span.start.col() as u32 + 1);
        // Before a node: the separator its place in the parent needs.
        let node = matches!(
            event,
            Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(..)
        );
        if node {
            if documents > 1 {
                return Err(error(
                    span.start.line(),
                    span.start.col(),
                    "a file holds one YAML document; this is a second".into(),
                ));
            }
            values += 1;
            if let Some((mapping, n)) = stack.last_mut() {
                let key = *mapping && *n % 2 == 0;
                if *mapping && !key {
                    out.push(":");
                } else if *n > 0 {
                    out.push(",");
                }
                *n += 1;
                if key && !matches!(event, Event::Scalar(..)) {
                    return Err(error(
                        span.start.line(),
                        span.start.col(),
                        "a key must be text, not a list or a mapping".into(),
                    ));
                }
            }
        }
        let key = stack.last().is_some_and(|(m, n)| *m && n % 2 == 1);
        match event {
            Event::DocumentStart(_) => documents += 1,
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                let mapping = matches!(event, Event::MappingStart(..));
                // A flow collection's bracket where it is; a block
                // mapping's before its first key, whose quote goes just
                // before the key (see below).
                let block = mapping && chars.get(span.start.index()) != Some(&'{');
                out.at(
                    line,
                    if block {
                        col.saturating_sub(2).max(1)
                    } else {
                        col
                    },
                );
                if anchor > 0 {
                    open.push((anchor, stack.len(), out.text.len()));
                }
                out.push(if mapping { "{" } else { "[" });
                stack.push((mapping, 0));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                let (mapping, n) = stack.pop().unwrap_or((false, 0));
                if mapping && n % 2 == 1 {
                    out.push(":null");
                }
                out.push(if mapping { "}" } else { "]" });
                while let Some(&(anchor, depth, start)) = open.last() {
                    if depth != stack.len() {
                        break;
                    }
                    open.pop();
                    anchors.insert(anchor, compact(&out.text[start..]));
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let plain = style == saphyr_parser::ScalarStyle::Plain
                    && tag.as_ref().is_none_or(|t| t.suffix != "str");
                // A plain key's quote goes just before it, so that its
                // value, after `":`, starts where it does in the file.
                if key && style == saphyr_parser::ScalarStyle::Plain {
                    out.at(line, col.saturating_sub(1).max(1));
                } else {
                    out.at(line, col);
                }
                let start = out.text.len();
                if key {
                    key_line = span.start.line();
                } else if plain && matches!(value.as_ref(), "" | "~") {
                    let said = lines.get(key_line.wrapping_sub(1)).copied().unwrap_or("");
                    if let Some(at) = said.find(": #").or_else(|| said.find(":\t#")) {
                        notes.push(SyntaxError {
                            line: key_line as u32,
                            column: said[..at].chars().count() as u32 + 3,
                            message: "this value is empty: an unquoted `#` starts a comment in YAML; quote it (`\"#fff\"`)".into(),
                        });
                    }
                }
                if key {
                    out.string(&value);
                } else if plain {
                    match core_schema(&value) {
                        Some(json) => out.push(&json),
                        None => out.string(&value),
                    }
                } else {
                    out.string(&value);
                }
                if anchor > 0 {
                    anchors.insert(anchor, out.text[start..].to_string());
                }
            }
            Event::Alias(anchor) => {
                let Some(json) = anchors.get(&anchor) else {
                    return Err(error(
                        span.start.line(),
                        span.start.col(),
                        "an alias names no anchor before it".into(),
                    ));
                };
                values += count(json);
                out.at(line, col);
                if key {
                    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
                    match v {
                        serde_json::Value::String(s) => out.string(&s),
                        _ => {
                            return Err(error(
                                span.start.line(),
                                span.start.col(),
                                "a key must be text".into(),
                            ))
                        }
                    }
                } else {
                    let json = json.clone();
                    out.push(&json);
                }
            }
            _ => {}
        }
        if values > MAX_EXPANDED_VALUES {
            return Err(error(
                span.start.line(),
                span.start.col(),
                format!("the file stands for more than {MAX_EXPANDED_VALUES} values once its aliases are expanded; it is not read"),
            ));
        }
    }
    if out.text.trim().is_empty() {
        out.push("null");
    }
    Ok(out.text)
}

/// The JSON a plain YAML scalar stands for under the core schema, when it
/// is not a string.
fn core_schema(s: &str) -> Option<String> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some("null".into()),
        "true" | "True" | "TRUE" => return Some("true".into()),
        "false" | "False" | "FALSE" => return Some("false".into()),
        _ => {}
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let negative = s.starts_with('-');
    if let Some(oct) = s.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok().map(|v| v.to_string());
    }
    if let Some(hex) = s.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(|v| v.to_string());
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let trimmed = digits.trim_start_matches('0');
        let n = if trimmed.is_empty() { "0" } else { trimmed };
        return Some(if negative && n != "0" {
            format!("-{n}")
        } else {
            n.to_string()
        });
    }
    let float = digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'));
    if float {
        let v: f64 = s.parse().ok()?;
        return serde_json::Number::from_f64(v).map(|n| n.to_string());
    }
    None
}

/// `json` on one line (an anchor's node, to repeat at an alias).
fn compact(json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(json)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| json.replace('\n', " "))
}

/// How many values `json` holds (an alias's cost).
fn count(json: &str) -> usize {
    super::json::count_values(json).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn read(text: &str, syntax: Syntax) -> Value {
        let json = to_json(text, syntax).unwrap();
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    #[test]
    fn jsonc_and_json5_read_as_their_json() {
        let text = "// tokens\n{\n  /* brand */ color: {\n    'primary': { $value: '#0af', $type: \"color\", },\n    size: +.5, hex: 0x10, exp: 1e2,\n  },\n}\n";
        assert_eq!(
            read(text, Syntax::Json5),
            json!({"color": {"primary": {"$value": "#0af", "$type": "color"}, "size": 0.5, "hex": 16, "exp": 100.0}})
        );
    }

    #[test]
    fn every_value_keeps_its_line_and_where_it_can_its_column() {
        let text = "{\n  // a\n  a: 'x',\n  \"b\": [1,\n    2],\n}";
        let json = to_json(text, Syntax::Json5).unwrap();
        let lines: Vec<&str> = json.lines().collect();
        assert_eq!(lines.len(), 6);
        assert!(lines[2].contains("\"a\""), "{json}");
        assert_eq!(
            lines[3].find("\"b\""),
            text.lines().nth(3).unwrap().find("\"b\"")
        );
        assert!(lines[4].trim_start().starts_with('2'));
    }

    #[test]
    fn yaml_reads_as_its_json_under_the_core_schema() {
        let text = "\u{feff}color:\n  primary:\n    $value: '#0af'\n    $type: color\n  on: yes\n  n: 12\n  f: 1.5e1\n  none: ~\n  list: [a, 2]\n";
        assert_eq!(
            read(text, Syntax::Yaml),
            json!({"color": {"primary": {"$value": "#0af", "$type": "color"}, "on": "yes", "n": 12, "f": 15.0, "none": null, "list": ["a", 2]}})
        );
    }

    #[test]
    fn yaml_values_keep_their_lines() {
        let text = "a:\n  b:\n    c: 1\n  d: x\n";
        let json = to_json(text, Syntax::Yaml).unwrap();
        let lines: Vec<&str> = json.lines().collect();
        assert!(
            lines[2].contains("\"c\"") && lines[2].contains('1'),
            "{json}"
        );
        // The key's quote just before it; the value where it is.
        let source = text.lines().nth(2).unwrap();
        assert_eq!(
            lines[2].find("\"c\"").map(|i| i + 1),
            source.find('c'),
            "{json}"
        );
        assert_eq!(lines[2].find('1'), source.find('1'), "{json}");
        assert!(lines[3].contains("\"d\""), "{json}");
    }

    #[test]
    fn yaml_aliases_repeat_their_anchor_and_count_in_full() {
        let text = "base: &b {x: 1, y: [2, 3]}\ncopy: *b\n";
        assert_eq!(
            read(text, Syntax::Yaml),
            json!({"base": {"x": 1, "y": [2, 3]}, "copy": {"x": 1, "y": [2, 3]}})
        );
        // A billion laughs stops at the budget.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = i - 1;
            bomb.push_str(&format!(
                "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
            ));
        }
        let e = to_json(&bomb, Syntax::Yaml).unwrap_err();
        assert!(e.message.contains("aliases"), "{e:?}");
    }

    #[test]
    fn errors_name_their_line_and_column() {
        let e = to_json("a:\n  b: [1, 2\n", Syntax::Yaml).unwrap_err();
        assert!(e.line >= 2, "{e:?}");
        let e = to_json("{\n  a: 'x\n}", Syntax::Json5).unwrap_err();
        assert_eq!((e.line, e.column), (2, 6), "{e:?}");
    }

    #[test]
    fn names_and_stems() {
        assert_eq!(Syntax::of("t.tokens.yml"), Some(Syntax::Yaml));
        assert_eq!(Syntax::of("a.json5"), Some(Syntax::Json5));
        assert_eq!(Syntax::of(".json"), None);
        assert_eq!(Syntax::of("a.txt"), None);
        assert_eq!(stem("light.tokens.yaml"), "light.tokens");
        assert_eq!(stem("a.json"), "a");
    }
}
