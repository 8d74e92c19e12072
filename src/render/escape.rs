//! Escaping for every output context. Content is untrusted text: a brand
//! name may contain `</script>`, a description `*/ } body {`. Each surface
//! passes content through the function for its context, and nothing else.

/// Text or attribute value inside HTML.
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for embedding in a `<script>` element or a JavaScript file: escapes
/// `<` (so `</script>` and `<!--` cannot appear), `>`, `&`, and U+2028/U+2029
/// (line terminators in older JavaScript).
pub fn json_for_script(value: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(value).expect("serialisable");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text for inside a CSS comment: `*/` cannot end the comment early and `<`
/// cannot start `</style>`. Line breaks fold to spaces.
pub fn css_comment(s: &str) -> String {
    collapse_ws(s).replace("*/", "* /").replace('<', "\u{2039}")
}

/// Folds runs of whitespace (including line breaks) into one space.
pub fn collapse_ws(s: &str) -> String {
    // Most text is one line of single spaces already: copied as it is,
    // without a list of its words (every text of every surface passes here).
    let mut after_space = true;
    let plain = s.chars().all(|c| {
        let fine = match c {
            ' ' => !after_space,
            c => !c.is_whitespace(),
        };
        after_space = c == ' ';
        fine
    }) && !s.ends_with(' ');
    if plain {
        return s.to_string();
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Markdown text that may start a line, or a list item's text, or a
/// heading's: folds line breaks (so content has one line to start), and
/// backslash-escapes what would start HTML, a link, an image, emphasis,
/// code, an entity or a table cell anywhere, and at its start what would
/// open a block: a heading (`#`), a blockquote (`>`), a list (`-`, `+`,
/// `*`, `1.`, `1)`), a thematic break or setext underline (`-`, `*`, `_`,
/// `=`), a code fence (`` ` ``, `~~~`) or an HTML block (`<`). A final
/// run of `#` after a space is escaped too, since it would close a heading
/// and vanish. CommonMark lets any ASCII punctuation be escaped, so each
/// backslash shows nothing but the character. Characters that are
/// harmless where they stand (`!` not before `[`, `_` inside a word, `~`
/// not three in a row, `2.5` at a line's start) are left alone so the text
/// reads naturally to a language model.
pub fn md(s: &str) -> String {
    md_at(s, true)
}

/// [`md`] for text that never starts a line (`#0a2742` after a colon is
/// not a heading), so fewer characters need a backslash.
pub fn md_inline(s: &str) -> String {
    md_at(s, false)
}

fn md_at(s: &str, line_start: bool) -> String {
    let text = collapse_ws(s);
    // Most text holds none of the characters below that could need a
    // backslash where they stand: it is copied as it is (spec.md and
    // DESIGN.md pass every text of every brand here).
    let bytes = text.as_bytes();
    let anywhere = |b: &u8| {
        matches!(
            b,
            b'\\' | b'<' | b'[' | b']' | b'*' | b'`' | b'|' | b'!' | b'&' | b'_'
        )
    };
    let opens = |b: &u8| matches!(b, b'#' | b'>' | b'+' | b'-' | b'=' | b'~') || b.is_ascii_digit();
    let at_edges = line_start && (bytes.first().is_some_and(opens) || bytes.last() == Some(&b'#'));
    if !at_edges && !bytes.iter().any(anywhere) {
        return text;
    }
    escaped(&text, line_start)
}

/// [`md_at`] for `text` (one line) that may need a backslash somewhere.
fn escaped(text: &str, line_start: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    // `12.` or `3)` then a space (or nothing) opens an ordered list: the
    // `.` or `)` takes the backslash, which keeps the number as written.
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let ordinal = (line_start
        && digits > 0
        && matches!(chars.get(digits), Some('.' | ')'))
        && chars.get(digits + 1).is_none_or(|c| *c == ' '))
    .then_some(digits);
    // `~~~` opens a fence; one `~` (about 20 px) is text.
    let fence = line_start && chars.starts_with(&['~', '~', '~']);
    // A heading's closing sequence: a final run of `#` after a space.
    let hashes = chars.iter().rev().take_while(|c| **c == '#').count();
    let closing = (line_start && hashes > 0 && hashes < chars.len())
        .then(|| chars.len() - hashes)
        .filter(|&i| chars[i - 1] == ' ');
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i == 0 { None } else { Some(chars[i - 1]) };
        let next = chars.get(i + 1).copied();
        let word = |x: Option<char>| x.is_some_and(char::is_alphanumeric);
        let escape = match c {
            '\\' | '<' | '[' | ']' | '*' | '`' | '|' => true,
            '!' => next == Some('['),
            // Only `&name;` or `&#123;` would be read as an entity.
            '&' => {
                let run = chars[i + 1..]
                    .iter()
                    .take_while(|n| n.is_ascii_alphanumeric() || **n == '#')
                    .count();
                run > 0 && chars.get(i + 1 + run) == Some(&';')
            }
            '_' => !(word(prev) && word(next)),
            '#' => (line_start && i == 0) || closing == Some(i),
            '>' | '+' | '-' | '=' => line_start && i == 0,
            '~' => fence && i == 0,
            '.' | ')' => ordinal == Some(i),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Markdown code span holding `s` literally.
pub fn md_code(s: &str) -> String {
    let s = collapse_ws(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if s.starts_with('`') || s.ends_with('`') {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

/// A URL from content, allowed only when it is `https:`, `http:` or a relative path.
pub fn safe_url(url: &str) -> Option<&str> {
    let trimmed = url.trim();
    let scheme_end = trimmed.find(':');
    let first_delim = trimmed.find(['/', '?', '#']);
    match scheme_end {
        Some(i) if first_delim.is_none_or(|d| i < d) => {
            let scheme = trimmed[..i].to_ascii_lowercase();
            (scheme == "https" || scheme == "http").then_some(trimmed)
        }
        _ => Some(trimmed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes_the_same_with_or_without_the_shortcut() {
        for s in [
            "plain words.",
            "1. first",
            "12) twelve",
            "# title",
            "title #",
            "- item",
            "+ x",
            "= x",
            "~~~ x",
            "a_b",
            "_a",
            "x & y",
            "&amp;",
            "a|b",
            "[x](y)",
            "!x",
            "<b>",
            "2.5 rem",
            "mid - dash",
            "héllo # wörld",
            "",
        ] {
            for line_start in [true, false] {
                let slow = escaped(&collapse_ws(s), line_start);
                assert_eq!(
                    md_at(s, line_start),
                    slow,
                    "{s:?} at line start {line_start}"
                );
            }
        }
    }

    #[test]
    fn whitespace_collapses_the_same_with_or_without_the_shortcut() {
        for s in [
            "",
            " ",
            "a",
            "a b",
            "a  b",
            " a",
            "a ",
            "a\tb",
            "a\u{a0}b",
            "a\nb",
            "x \r\n y",
            "héllo wörld",
            "\u{2028}",
            "one two three",
        ] {
            let words = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(collapse_ws(s), words, "{s:?}");
        }
    }

    #[test]
    fn css_comments_cannot_end_early() {
        assert_eq!(css_comment("*/ } body {"), "* / } body {");
    }

    #[test]
    fn html_escapes_markup() {
        assert_eq!(
            html("<img onerror=\"x\">&'"),
            "&lt;img onerror=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        let s = json_for_script(&"</script>\u{2028}");
        assert_eq!(s, "\"\\u003c/script\\u003e\\u2028\"");
        let back: String = serde_json::from_str(&s).unwrap();
        assert_eq!(back, "</script>\u{2028}");
    }

    #[test]
    fn markdown_text_is_inert() {
        assert_eq!(md("<b>x</b>\n# y | z"), "\\<b>x\\</b> # y \\| z");
        assert_eq!(md("# Title"), "\\# Title");
        assert_eq!(
            md("Wow! ![x](y) snake_case _em_ R&D &amp;"),
            "Wow! \\!\\[x\\](y) snake_case \\_em\\_ R&D \\&amp;"
        );
        assert_eq!(md_code("a`b"), "``a`b``");
    }

    #[test]
    fn markdown_text_cannot_open_a_block_at_a_line_start() {
        for (text, escaped) in [
            ("# Title", "\\# Title"),
            ("#Title", "\\#Title"),
            ("> quote", "\\> quote"),
            ("- item", "\\- item"),
            ("+ item", "\\+ item"),
            ("* item", "\\* item"),
            ("1. item", "1\\. item"),
            ("12) item", "12\\) item"),
            ("1.", "1\\."),
            ("2026. A year", "2026\\. A year"),
            ("```rust", "\\`\\`\\`rust"),
            ("~~~", "\\~~~"),
            ("<div>", "\\<div>"),
            ("---", "\\---"),
            ("***", "\\*\\*\\*"),
            ("___", "\\_\\_\\_"),
            ("===", "\\==="),
            ("Acme ##", "Acme \\##"),
            ("#", "\\#"),
        ] {
            assert_eq!(md(text), escaped, "{text:?}");
        }
        // What opens nothing is left as written.
        for text in ["1.5 × the grid", "~20 px", "C#", "Use #1", "R&D"] {
            assert_eq!(md(text), text);
        }
        // Inside a line, nothing opens a block.
        assert_eq!(md_inline("# 1. ~~~ x #"), "# 1. ~~~ x #");
    }

    #[test]
    fn only_web_and_relative_urls_pass() {
        assert_eq!(safe_url("https://x.example/a"), Some("https://x.example/a"));
        assert_eq!(safe_url("assets/logo.svg"), Some("assets/logo.svg"));
        assert_eq!(safe_url("/a:b"), Some("/a:b"));
        assert_eq!(safe_url("javascript:alert(1)"), None);
        assert_eq!(safe_url(" JAVASCRIPT:alert(1)"), None);
        assert_eq!(safe_url("data:text/html,x"), None);
    }
}
