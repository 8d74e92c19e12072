//! Positions in JSON text: the line and column where the value (or the key)
//! that an RFC 6901 pointer names starts.
//!
//! serde_json reports positions only for syntax errors; diagnostics about a
//! well-formed document (an unknown key, a bad version) need them too. They
//! are found lazily: validation records pointers, and one pass over the text
//! places them all, following only the branches of the document that hold a
//! wanted pointer. Time is linear in the text, memory in the pointers wanted,
//! whatever the document holds (a million-character key costs nothing extra).

use std::collections::HashMap;

/// A 1-based line and column in a source file. Columns count characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    pub const START: Pos = Pos { line: 1, column: 1 };
}

/// Which end of a member a position is wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Where the value starts.
    Value,
    /// Where the member's key starts (falls back to the value for array items and the root).
    Key,
}

/// The pointer of the first member, in document order, whose key repeats
/// an earlier key of the same object; `None` when none does (or the text
/// is not JSON, which is reported elsewhere). serde_json keeps the last of
/// two equal keys without a word, so this is asked of every brand.json.
pub fn first_duplicate_key(text: &str) -> Option<String> {
    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
    use std::cell::RefCell;
    /// The keys and indexes from the root to where the walk is: a pointer
    /// is made of them only for the duplicate found.
    struct Walk<'a> {
        path: &'a RefCell<Vec<String>>,
        found: &'a RefCell<Option<String>>,
    }
    impl Walk<'_> {
        fn under(&self, token: String) -> Walk<'_> {
            self.path.borrow_mut().push(token);
            Walk {
                path: self.path,
                found: self.found,
            }
        }
        fn out(&self) {
            self.path.borrow_mut().pop();
        }
    }
    impl<'de> DeserializeSeed<'de> for Walk<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Walk<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut i = 0usize;
            loop {
                let item = self.under(i.to_string());
                let more = seq.next_element_seed(item)?.is_some();
                self.out();
                if !more {
                    return Ok(());
                }
                i += 1;
            }
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut keys = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                let again = !keys.insert(key.clone());
                let value = self.under(key);
                if again && self.found.borrow().is_none() {
                    let pointer: String = self
                        .path
                        .borrow()
                        .iter()
                        .map(|t| format!("/{}", escape_token(t)))
                        .collect();
                    *self.found.borrow_mut() = Some(pointer);
                }
                map.next_value_seed(value)?;
                self.out();
            }
            Ok(())
        }
    }
    let (path, found) = (RefCell::new(Vec::new()), RefCell::new(None));
    let mut de = serde_json::Deserializer::from_str(text);
    Walk {
        path: &path,
        found: &found,
    }
    .deserialize(&mut de)
    .ok()?;
    found.into_inner()
}

/// Escapes one reference token for a JSON Pointer (RFC 6901 section 3).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// One escaped reference token as the name it stands for (`a~1b` → `a/b`).
pub fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Appends a token to a pointer.
pub fn join(pointer: &str, token: &str) -> String {
    // Every member of every merge and parse is named through here.
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    if token.contains(['~', '/']) {
        out.push_str(&escape_token(token));
    } else {
        out.push_str(token);
    }
    out
}

/// The unescaped reference tokens of a pointer (`/a~1b/0` → `["a/b", "0"]`).
pub fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(unescape_token)
        .collect()
}

/// An upper bound on the number of values in JSON text, found by counting
/// commas, colons and opening brackets outside strings: one pass, no
/// allocation, so it can refuse a file before parsing it.
pub fn count_values(text: &str) -> usize {
    1 + outside_strings(text)
        .filter(|(_, b)| matches!(b, b',' | b'[' | b'{'))
        .count()
}

/// The bytes of JSON text outside its strings, with their offsets: each
/// string's opening quote is one, what follows it up to and with its
/// closing quote is not. One pass, no allocation.
pub fn outside_strings(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    OutsideStrings {
        bytes: text.as_bytes(),
        at: 0,
    }
}

/// [`outside_strings`]: a string's content is skipped with `memchr`, to
/// its closing quote, so long descriptions cost little.
struct OutsideStrings<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Iterator for OutsideStrings<'_> {
    type Item = (usize, u8);

    fn next(&mut self) -> Option<(usize, u8)> {
        let i = self.at;
        let b = *self.bytes.get(i)?;
        self.at = i + 1;
        if b == b'"' {
            // Past the closing quote: the first `"` no backslash escapes.
            loop {
                let rest = self.bytes.get(self.at..).unwrap_or_default();
                match memchr::memchr2(b'"', b'\\', rest) {
                    Some(k) if rest[k] == b'\\' => self.at += k + 2,
                    Some(k) => {
                        self.at += k + 1;
                        break;
                    }
                    None => {
                        self.at = self.bytes.len();
                        break;
                    }
                }
            }
        }
        Some((i, b))
    }
}

/// A trie of the wanted pointers; each node records where it was seen.
#[derive(Default)]
struct Node {
    children: HashMap<String, usize>,
    value: Option<Pos>,
    key: Option<Pos>,
}

/// Finds the position of each `(pointer, anchor)` in `text`, which must be
/// valid JSON. A pointer that names nothing in the document gets the
/// position of its nearest ancestor that exists.
pub fn locate(text: &str, wanted: &[(&str, Anchor)]) -> Vec<Pos> {
    let mut nodes = vec![Node::default()];
    let mut ends = Vec::with_capacity(wanted.len());
    for (pointer, _) in wanted {
        let mut path = vec![0usize];
        let mut cur = 0;
        for t in tokens(pointer) {
            let next = match nodes[cur].children.get(&t) {
                Some(&n) => n,
                None => {
                    nodes.push(Node::default());
                    let n = nodes.len() - 1;
                    nodes[cur].children.insert(t, n);
                    n
                }
            };
            cur = next;
            path.push(cur);
        }
        ends.push(path);
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    Scanner::new(text, &mut nodes).run();
    wanted
        .iter()
        .zip(ends)
        .map(|((_, anchor), path)| {
            let last = *path.last().unwrap_or(&0);
            if *anchor == Anchor::Key {
                if let Some(p) = nodes[last].key {
                    return p;
                }
            }
            path.iter()
                .rev()
                .find_map(|&n| nodes[n].value)
                .unwrap_or(Pos::START)
        })
        .collect()
}

/// What the scanner is inside of.
enum Frame {
    /// An object; `node` is its trie node (or `None` when nothing under it is wanted).
    Object(Option<usize>),
    /// An array and the index of the next item.
    Array(Option<usize>, usize),
}

struct Scanner<'a, 'n> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    column: u32,
    nodes: &'n mut Vec<Node>,
}

impl<'a, 'n> Scanner<'a, 'n> {
    fn new(text: &'a str, nodes: &'n mut Vec<Node>) -> Scanner<'a, 'n> {
        Scanner {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            nodes,
        }
    }

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

    fn child(&self, node: Option<usize>, token: &str) -> Option<usize> {
        node.and_then(|n| self.nodes[n].children.get(token).copied())
    }

    /// Walks the whole document with an explicit stack (no recursion).
    fn run(&mut self) {
        let mut stack: Vec<Frame> = Vec::new();
        self.skip_ws();
        // The value that starts here belongs to `node`.
        let mut pending: Option<Option<usize>> = Some(Some(0));
        loop {
            if let Some(node) = pending.take() {
                self.skip_ws();
                if let Some(n) = node {
                    self.nodes[n].value = Some(self.pos());
                }
                match self.chars.peek() {
                    Some('{') => {
                        self.bump();
                        stack.push(Frame::Object(node));
                    }
                    Some('[') => {
                        self.bump();
                        stack.push(Frame::Array(node, 0));
                    }
                    Some('"') => self.skip_string(),
                    Some(_) => {
                        while matches!(self.chars.peek(), Some(c) if !matches!(c, ',' | '}' | ']' | ' ' | '\t' | '\n' | '\r'))
                        {
                            self.bump();
                        }
                    }
                    None => return,
                }
            }
            self.skip_ws();
            let Some(frame) = stack.last_mut() else {
                return;
            };
            match self.chars.peek().copied() {
                None => return,
                Some(',') => {
                    self.bump();
                }
                Some('}' | ']') => {
                    self.bump();
                    stack.pop();
                }
                Some(_) => match frame {
                    Frame::Object(node) => {
                        let node = *node;
                        let key_pos = self.pos();
                        let child = if node.is_some() {
                            let key = self.read_string();
                            self.child(node, &key)
                        } else {
                            self.skip_string();
                            None
                        };
                        if let Some(c) = child {
                            self.nodes[c].key = Some(key_pos);
                        }
                        self.skip_ws();
                        self.bump(); // ':'
                        pending = Some(child);
                    }
                    Frame::Array(node, i) => {
                        let child = node.and_then(|n| {
                            self.nodes[n].children.get(i.to_string().as_str()).copied()
                        });
                        *i += 1;
                        pending = Some(child);
                    }
                },
            }
        }
    }

    fn skip_string(&mut self) {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '"' => break,
                _ => {}
            }
        }
    }

    /// Reads a string literal and returns its decoded text.
    fn read_string(&mut self) -> String {
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
        serde_json::from_str(&raw).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_in_one_object_is_found_where_it_repeats() {
        let text = r#"{"a": {"x": 1, "y": [{"k": 1, "k": 2}]}, "v": "private", "v": "public"}"#;
        assert_eq!(first_duplicate_key(text).as_deref(), Some("/a/y/0/k"));
        let text = r#"{"visibility": "private", "name": "x", "visibility": "public"}"#;
        assert_eq!(first_duplicate_key(text).as_deref(), Some("/visibility"));
        assert_eq!(first_duplicate_key(r#"{"a": {"a": 1}, "b": [1, 1]}"#), None);
        assert_eq!(first_duplicate_key("{"), None);
    }

    #[test]
    fn outside_strings_skips_each_strings_content_and_closing_quote() {
        // The byte-by-byte reading it must agree with.
        let slow = |text: &str| {
            let (mut in_string, mut escaped) = (false, false);
            let mut out = Vec::new();
            for (i, b) in text.bytes().enumerate() {
                if in_string {
                    match b {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => in_string = false,
                        _ => {}
                    }
                    continue;
                }
                in_string = b == b'"';
                out.push((i, b));
            }
            out
        };
        let texts = [
            r#"{"a": "x/y", "b": 'c'}"#,
            r#"{"a\"b": "\\", "c": 1}"#,
            r#"{"q": "\"", "r": "\\\"x"}"#,
            r#"{"open": "no end"#,
            r#"{"ends in a backslash\"#,
            r#""""#,
            "",
            r#"[1, "é", {"k": "\u0022"}]"#,
        ];
        for text in texts {
            assert_eq!(
                outside_strings(text).collect::<Vec<_>>(),
                slow(text),
                "{text}"
            );
        }
    }

    fn at(text: &str, pointer: &str, anchor: Anchor) -> Pos {
        locate(text, &[(pointer, anchor)])[0]
    }

    fn p(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }

    #[test]
    fn places_values_and_keys_with_one_based_positions() {
        let text = "{\n  \"a\": 1,\n  \"b/c\": [true, {\"d\": \"x\\\"y\"}]\n}";
        assert_eq!(at(text, "", Anchor::Value), p(1, 1));
        assert_eq!(at(text, "/a", Anchor::Key), p(2, 3));
        assert_eq!(at(text, "/a", Anchor::Value), p(2, 8));
        assert_eq!(at(text, "/b~1c/0", Anchor::Value), p(3, 11));
        assert_eq!(at(text, "/b~1c/1/d", Anchor::Key), p(3, 18));
        assert_eq!(at(text, "/b~1c/1/d", Anchor::Value), p(3, 23));
        assert_eq!(
            at(text, "/b~1c/1", Anchor::Key),
            p(3, 17),
            "array items have no key"
        );
    }

    #[test]
    fn many_pointers_are_placed_in_one_pass() {
        let text = "{\"a\": {\"b\": 1, \"c\": [0, 1, {\"d\": 2}]}}";
        let got = locate(
            text,
            &[
                ("/a/b", Anchor::Value),
                ("/a/c/2/d", Anchor::Value),
                ("/a", Anchor::Key),
            ],
        );
        assert_eq!(got, vec![p(1, 13), p(1, 34), p(1, 2)]);
    }

    #[test]
    fn unknown_pointer_falls_back_to_nearest_ancestor() {
        let text = "{\"a\": {\"b\": 1}}";
        assert_eq!(
            at(text, "/a/zzz", Anchor::Value),
            at(text, "/a", Anchor::Value)
        );
        assert_eq!(at(text, "/nope/x", Anchor::Key), p(1, 1));
    }

    #[test]
    fn values_are_counted_without_parsing() {
        assert_eq!(count_values("1"), 1);
        assert!(count_values("[0,0,0]") >= 4);
        assert_eq!(
            count_values("{\"a,b[{\": \"x\\\",[\"}"),
            2,
            "brackets in strings do not count"
        );
        let big = format!("[{}0]", "0,".repeat(1000));
        assert!(count_values(&big) > 1000);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(at("{\"é\": \"ü\", \"k\": 2}", "/k", Anchor::Key), p(1, 12));
    }

    #[test]
    fn a_huge_key_off_the_wanted_path_is_skipped_not_kept() {
        let key = "k".repeat(1_000_000);
        let text = format!("{{\"{key}\": [0, 0, 0], \"x\": 1}}");
        let column = text.find(": 1}").unwrap() as u32 + 3;
        assert_eq!(at(&text, "/x", Anchor::Value), p(1, column));
    }
}
