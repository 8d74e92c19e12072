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
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Inline Markdown text: folds line breaks (so content cannot start a
/// heading or a list), and backslash-escapes what would start HTML, a link,
/// an image, emphasis, code, an entity or a table cell. Characters that are
/// harmless where they stand (`!` not before `[`, `_` inside a word) are
/// left alone so the text reads naturally to a language model.
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
    let chars: Vec<char> = text.chars().collect();
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
            '#' | '>' | '+' | '-' | '=' => line_start && i == 0,
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
    fn only_web_and_relative_urls_pass() {
        assert_eq!(safe_url("https://x.example/a"), Some("https://x.example/a"));
        assert_eq!(safe_url("assets/logo.svg"), Some("assets/logo.svg"));
        assert_eq!(safe_url("/a:b"), Some("/a:b"));
        assert_eq!(safe_url("javascript:alert(1)"), None);
        assert_eq!(safe_url(" JAVASCRIPT:alert(1)"), None);
        assert_eq!(safe_url("data:text/html,x"), None);
    }
}
