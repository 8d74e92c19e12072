//! PURE. Hand-written lexers, one per family of syntax, that blank every
//! comment (each byte a space, line breaks kept, so offsets, lines and
//! columns stay those of the file) and, where a language has them, list
//! its string literals. They follow the languages' own rules for what
//! starts a comment: not inside a string, a template literal or (in JS) a
//! regular expression.

use std::ops::Range;

/// A string literal's contents (between its quotes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Str {
    pub range: Range<usize>,
    /// A JS template literal (`` `…` ``), which CSS-in-JS writes CSS in.
    pub template: bool,
}

/// A file with its comments blanked, and its strings.
#[derive(Debug, Default)]
pub struct Lexed {
    pub masked: String,
    pub strings: Vec<Str>,
}

fn blank(out: &mut [u8], range: Range<usize>) {
    for b in &mut out[range] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

fn into_string(bytes: Vec<u8>) -> String {
    // Only whole comments were blanked, and their delimiters are ASCII,
    // so every character is either kept or wholly replaced.
    String::from_utf8(bytes).expect("blanking whole comments keeps UTF-8")
}

/// The end of a quoted string starting at `i` (its quote): the index of
/// the closing quote, or the line's end.
fn quoted_end(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != q && b[j] != b'\n' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    j.min(b.len())
}

/// CSS (`/* */`), and with `line_comments`, SCSS and Less (`//` too, but
/// not in a `url(…)` or after a `:` as in `https://`).
pub fn css(text: &str, line_comments: bool) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = quoted_end(b, i) + 1,
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
                blank(&mut out, i..end);
                i = end;
            }
            b'/' if line_comments
                && b.get(i + 1) == Some(&b'/')
                && (i == 0 || b[i - 1] != b':')
                && !in_url(b, i) =>
            {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |e| i + e);
                blank(&mut out, i..end);
                i = end;
            }
            // On to the next byte that may start a string or a comment.
            _ => {
                i += 1 + memchr::memchr3(b'"', b'\'', b'/', &b[i + 1..]).unwrap_or(b.len() - i - 1)
            }
        }
    }
    into_string(out)
}

/// True when `i` is inside an unclosed `url(` on its line.
fn in_url(b: &[u8], i: usize) -> bool {
    let line_start = b[..i]
        .iter()
        .rposition(|c| *c == b'\n')
        .map_or(0, |p| p + 1);
    let line = &b[line_start..i];
    match find(line, 0, b"url(") {
        Some(p) => !line[p..].contains(&b')'),
        None => false,
    }
}

/// Where `needle` next occurs in `b` from `from`.
pub fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    memchr::memmem::find(&b[from..], needle).map(|p| p + from)
}

/// HTML, Vue, Svelte and XML: `<!-- -->`.
pub fn markup(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while let Some(start) = find(b, i, b"<!--") {
        let end = find(b, start + 4, b"-->").map_or(b.len(), |e| e + 3);
        blank(&mut out, start..end);
        i = end;
    }
    into_string(out)
}

/// Whether a `/` at this point starts a regular expression: after an
/// operator, an opening bracket or a keyword-like start, not after a
/// value (where it divides).
fn regex_may_start(prev: Option<u8>) -> bool {
    match prev {
        None => true,
        Some(c) => b"(,=:[!&|?{};+-*%<>~^".contains(&c),
    }
}

/// The bytes at which JS code may start a comment, a string, a template,
/// a regular expression, or change the depth of a template's `${…}`.
const CODE_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b"/\"'`{}";
    let mut k = 0;
    while k < stops.len() {
        t[stops[k] as usize] = true;
        k += 1;
    }
    t
};

/// JavaScript and TypeScript, with JSX: `//` and `/* */` comments;
/// `'…'`, `"…"` and template literals (their `${…}` read as code, to any
/// depth); regular expressions skipped.
pub fn script(text: &str) -> Lexed {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut strings = Vec::new();
    // Open template literals: (start of contents, brace depth of the
    // `${` expression being read inside it, if any).
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    let mut prev: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some((start, None)) = stack.last().copied() {
            // Inside a template's text.
            match c {
                b'\\' => i += 2,
                b'`' => {
                    stack.pop();
                    strings.push(Str {
                        range: start..i,
                        template: true,
                    });
                    prev = Some(b'`');
                    i += 1;
                }
                b'$' if b.get(i + 1) == Some(&b'{') => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = Some(0);
                    }
                    prev = Some(b'{');
                    i += 2;
                }
                // Plain text: on to the next byte that may end it.
                _ => {
                    i += 1 + memchr::memchr3(b'\\', b'`', b'$', &b[i + 1..])
                        .unwrap_or(b.len() - i - 1)
                }
            }
            continue;
        }
        if !CODE_STOPS[usize::from(c)] {
            // A run of plain code (names, operators, blanks): all it
            // changes is the last byte seen that is not blank.
            let run = i;
            while i < b.len() && !CODE_STOPS[usize::from(b[i])] {
                i += 1;
            }
            if let Some(p) = b[run..i].iter().rposition(|x| !x.is_ascii_whitespace()) {
                prev = Some(b[run + p]);
            }
            continue;
        }
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |e| i + e);
                blank(&mut out, i..end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
                blank(&mut out, i..end);
                i = end;
            }
            b'/' if regex_may_start(prev) => {
                i = regex_end(b, i) + 1;
                prev = Some(b'/');
            }
            b'"' | b'\'' => {
                let end = quoted_end(b, i);
                strings.push(Str {
                    range: i + 1..end,
                    template: false,
                });
                prev = Some(c);
                i = end + 1;
            }
            b'`' => {
                stack.push((i + 1, None));
                i += 1;
            }
            b'{' | b'}' => {
                if let Some((_, Some(depth))) = stack.last_mut() {
                    match (c, *depth) {
                        (b'}', 0) => {
                            // The `${…}` ends: back in the template's text.
                            if let Some(top) = stack.last_mut() {
                                top.1 = None;
                            }
                        }
                        (b'}', d) => *depth = d - 1,
                        _ => *depth += 1,
                    }
                }
                prev = Some(c);
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                prev = Some(c);
                i += 1;
            }
        }
    }
    Lexed {
        masked: into_string(out),
        strings,
    }
}

/// The closing `/` of a regular expression starting at `i` (or the line's end).
fn regex_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let mut class = false;
    while j < b.len() && b[j] != b'\n' {
        match b[j] {
            b'\\' => j += 1,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => return j,
            _ => {}
        }
        j += 1;
    }
    j.min(b.len().saturating_sub(1))
}

/// Swift and Kotlin: `//`, `/* */` (nesting, in both), `"…"` and
/// `"""…"""` strings.
pub fn native(text: &str) -> Lexed {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut strings = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |e| i + e);
                blank(&mut out, i..end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i..j);
                i = j;
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                let end = find(b, i + 3, b"\"\"\"").unwrap_or(b.len());
                strings.push(Str {
                    range: i + 3..end,
                    template: false,
                });
                i = end + 3;
            }
            b'"' => {
                let end = quoted_end(b, i);
                strings.push(Str {
                    range: i + 1..end,
                    template: false,
                });
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    Lexed {
        masked: into_string(out),
        strings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_and_strings_kept() {
        let css_text = "a { color: #fff; /* #000 */ }\n// #111\nb { background: url(http://x/#a) }";
        let m = css(css_text, true);
        assert!(m.contains("#fff") && !m.contains("#000") && !m.contains("#111"));
        assert!(m.contains("url(http://x/#a)"));
        assert_eq!(m.len(), css_text.len());
        let js = "const a = '#fff'; // '#000'\nconst r = /\\/\\//; const t = `c: ${x /* #111 */} #222`; /* é */";
        let l = script(js);
        assert!(!l.masked.contains("#000") && !l.masked.contains("#111"));
        assert!(l.masked.contains("#222"));
        let texts: Vec<&str> = l.strings.iter().map(|s| &js[s.range.clone()]).collect();
        assert_eq!(texts[0], "#fff");
        assert!(texts.iter().any(|t| t.ends_with("#222")));
        let sw = "/* a /* nested */ #000 */ let c = \"#fff\" // #111";
        let n = native(sw);
        assert!(!n.masked.contains("#000") && !n.masked.contains("#111"));
        assert_eq!(&sw[n.strings[0].range.clone()], "#fff");
        assert!(!markup("<!-- #000 --><b style='color: #fff'>").contains("#000"));
    }
}
