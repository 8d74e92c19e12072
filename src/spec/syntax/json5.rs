//! JSON5, and so JSONC, as JSON text whose values keep their lines and,
//! where JSON's punctuation leaves room, their columns.

use super::{Out, SyntaxError};

/// JSON5 (and so JSONC) as JSON text. Its grammar is checked as far as
/// its tokens go; what is left (a missing colon, say) is found by the
/// JSON reader, at the same line.
pub(super) fn json5(text: &str) -> Result<String, SyntaxError> {
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
