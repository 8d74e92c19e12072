//! A position index for JSON text: maps every RFC 6901 pointer to the line
//! and column where its value (and, for object members, its key) starts.
//!
//! serde_json reports positions only for syntax errors; diagnostics about a
//! well-formed document (an unknown key, a bad version) need them too. The
//! text is parsed by serde_json first, so this scanner only ever sees valid
//! JSON and can stay small.

use std::collections::HashMap;

/// A 1-based line and column in a source file. Columns count characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// Where each value and each member key of a JSON document starts.
#[derive(Debug, Default, Clone)]
pub struct PosIndex {
    values: HashMap<String, Pos>,
    keys: HashMap<String, Pos>,
}

impl PosIndex {
    /// Indexes `text`, which must be valid JSON (parse it with serde_json first).
    pub fn new(text: &str) -> PosIndex {
        let mut scanner = Scanner {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            index: PosIndex::default(),
        };
        scanner.skip_ws();
        scanner.value(String::new());
        scanner.index
    }

    /// The position of the value at `pointer`, or of its nearest indexed ancestor.
    pub fn value(&self, pointer: &str) -> Pos {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.values.get(p) {
                return *pos;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return Pos { line: 1, column: 1 },
            }
        }
    }

    /// The position of the key of the member at `pointer` (falls back to its value).
    pub fn key(&self, pointer: &str) -> Pos {
        self.keys
            .get(pointer)
            .copied()
            .unwrap_or_else(|| self.value(pointer))
    }
}

/// Escapes one reference token for a JSON Pointer (RFC 6901 section 3).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Appends a token to a pointer.
pub fn join(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_token(token))
}

struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    column: u32,
    index: PosIndex,
}

impl Scanner<'_> {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while matches!(
            self.chars.peek(),
            Some(' ' | '\t' | '\n' | '\r' | '\u{feff}')
        ) {
            self.bump();
        }
    }

    fn value(&mut self, pointer: String) {
        self.index.values.insert(pointer.clone(), self.pos());
        match self.chars.peek() {
            Some('{') => self.object(pointer),
            Some('[') => self.array(pointer),
            Some('"') => {
                self.string();
            }
            _ => {
                while matches!(self.chars.peek(), Some(c) if !matches!(c, ',' | '}' | ']' | ' ' | '\t' | '\n' | '\r'))
                {
                    self.bump();
                }
            }
        }
    }

    fn object(&mut self, pointer: String) {
        self.bump();
        loop {
            self.skip_ws();
            match self.chars.peek() {
                Some('}') | None => {
                    self.bump();
                    return;
                }
                Some(',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let key_pos = self.pos();
            let key = self.string();
            let member = join(&pointer, &key);
            self.index.keys.insert(member.clone(), key_pos);
            self.skip_ws();
            self.bump(); // ':'
            self.skip_ws();
            self.value(member);
        }
    }

    fn array(&mut self, pointer: String) {
        self.bump();
        let mut i = 0usize;
        loop {
            self.skip_ws();
            match self.chars.peek() {
                Some(']') | None => {
                    self.bump();
                    return;
                }
                Some(',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            self.value(format!("{pointer}/{i}"));
            i += 1;
        }
    }

    /// Reads a string literal and returns its decoded text.
    fn string(&mut self) -> String {
        let start = self.pos();
        let mut raw = String::from("\"");
        self.bump();
        while let Some(c) = self.bump() {
            raw.push(c);
            match c {
                '\\' => {
                    if let Some(e) = self.bump() {
                        raw.push(e);
                    }
                }
                '"' => break,
                _ => {}
            }
        }
        let _ = start;
        serde_json::from_str(&raw).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_values_and_keys_with_one_based_positions() {
        let text = "{\n  \"a\": 1,\n  \"b/c\": [true, {\"d\": \"x\\\"y\"}]\n}";
        let idx = PosIndex::new(text);
        assert_eq!(idx.value(""), Pos { line: 1, column: 1 });
        assert_eq!(idx.key("/a"), Pos { line: 2, column: 3 });
        assert_eq!(idx.value("/a"), Pos { line: 2, column: 8 });
        assert_eq!(
            idx.value("/b~1c/0"),
            Pos {
                line: 3,
                column: 11
            }
        );
        assert_eq!(
            idx.key("/b~1c/1/d"),
            Pos {
                line: 3,
                column: 18
            }
        );
        assert_eq!(
            idx.value("/b~1c/1/d"),
            Pos {
                line: 3,
                column: 23
            }
        );
    }

    #[test]
    fn unknown_pointer_falls_back_to_nearest_ancestor() {
        let idx = PosIndex::new("{\"a\": {\"b\": 1}}");
        assert_eq!(idx.value("/a/zzz"), idx.value("/a"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let idx = PosIndex::new("{\"é\": \"ü\", \"k\": 2}");
        assert_eq!(
            idx.key("/k"),
            Pos {
                line: 1,
                column: 12
            }
        );
    }
}
