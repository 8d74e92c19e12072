//! A brand whose every text field is hostile (markup, script, CSS that tries
//! to end a declaration, U+2028) renders inert in every surface.

use crate::helpers::*;
use crate::surfaces::{assert_figma_accepts, brands_of, ctx, parse_llms_txt, surfaces};
use marque::render;
use marque::spec::Brand;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

fn evil() -> Arc<Brand> {
    brands_of(&fixture()).into_iter().next().unwrap()
}

/// Tag names that appear in markup (`<name` or `</name`).
fn tags(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    for (i, _) in html.match_indices('<') {
        let rest = &html[i + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !name.is_empty() || bytes.get(i + 1) == Some(&b'!') {
            out.push(if name.is_empty() {
                "!".into()
            } else {
                name.to_ascii_lowercase()
            });
        }
    }
    out
}

#[test]
fn html_pages_show_hostile_text_as_text() {
    let brand = evil();
    let refs = vec![brand.as_ref()];
    for html in [
        render::html::render(&brand, &ctx()).body,
        render::html::render_index(&crate::surfaces::index_entries(&refs), &ctx()).body,
    ] {
        let found = tags(&html);
        let allowed = [
            "!", "html", "head", "meta", "title", "link", "style", "body", "header", "div", "h1",
            "h2", "h3", "p", "main", "section", "table", "thead", "tbody", "tr", "th", "td", "a",
            "code", "pre", "button", "article", "ul", "li", "strong", "br", "span", "img", "small",
            "footer", "script", "picture", "source", "form", "label", "input", "textarea",
            "output", "b", "nav",
        ];
        for t in &found {
            assert!(allowed.contains(&t.as_str()), "unexpected <{t}> in page");
        }
        // Only marque's own scripts: the embed preview (API page) and the copy helper.
        let scripts = found.iter().filter(|t| *t == "script").count();
        assert!(scripts <= 4, "{scripts} script tags");
        assert!(!html.contains("<img src=x"), "no element from content");
        // No script has a body: every one is a same-origin file of marque's
        // (the shared page script, the embed preview), so content never
        // reaches one.
        for script in html.split("<script").skip(1) {
            let open = script.split_once('>').unwrap().0;
            assert!(
                open.contains(" src=\"https://brand.example.com/"),
                "<script{open}>"
            );
            assert!(
                script[open.len() + 1..].starts_with("</script>"),
                "an inline script"
            );
        }
        assert!(
            html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"),
            "the name is shown as text"
        );
        // A <style> element (the brand page's theme) ends where marque ends it.
        for style in html.split("<style>").skip(1) {
            let style = style.split_once("</style>").unwrap().0;
            assert!(!style.contains('<'), "no markup inside the style element");
        }
    }
}

/// Strips comments and quoted strings from CSS, leaving its structure.
fn css_structure(css: &str) -> String {
    let mut out = String::new();
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            '"' | '\'' => {
                while let Some(n) = chars.next() {
                    if n == '\\' {
                        chars.next();
                    } else if n == c {
                        break;
                    } else {
                        assert_ne!(n, '\n', "a string in CSS never spans lines");
                    }
                }
                out.push('S');
            }
            c => out.push(c),
        }
    }
    out
}

#[test]
fn tokens_css_declares_exactly_the_tokens_and_nothing_else() {
    let brand = evil();
    let css = render::tokens_css::render(&brand, &ctx());
    let structure = css_structure(&css);
    assert_eq!(structure.matches('{').count(), 1, "{structure}");
    assert_eq!(structure.matches('}').count(), 1, "{structure}");
    let declarations = structure.matches(';').count();
    // color.ink, color.paper, font.evil, and type.evil's 5 parts plus its shorthand.
    assert_eq!(declarations, 9, "{structure}");
    assert!(
        !css.contains("</style"),
        "cannot close an enclosing style element"
    );
}

/// Tracks fenced code blocks line by line (CommonMark: a fence closes on a
/// run of at least as many backticks).
#[derive(Default)]
struct Fence {
    open: usize,
}

impl Fence {
    /// True when `line` is part of a fenced block (its fences included).
    fn code(&mut self, line: &str) -> bool {
        let run = line.chars().take_while(|c| *c == '`').count();
        if self.open == 0 {
            if run >= 3 {
                self.open = run;
                return true;
            }
            return false;
        }
        if run >= self.open && line[run..].trim().is_empty() {
            self.open = 0;
        }
        true
    }
}

/// A Markdown line with its code spans removed (escapes kept, so they can be checked).
fn strip_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            out.push(chars[i]);
            out.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if chars[i] == '`' {
            let run = chars[i..].iter().take_while(|x| **x == '`').count();
            let rest: String = chars[i + run..].iter().collect();
            if let Some(end) = rest.find(&"`".repeat(run)) {
                i += run + rest[..end].chars().count() + run;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[test]
fn spec_md_shows_hostile_text_without_markup_or_structure() {
    let md = render::spec_md::render(&evil(), &ctx());
    // Outside code, every `<` is escaped, and content never starts a line.
    let mut fence = Fence::default();
    for line in md.lines() {
        if fence.code(line) {
            continue;
        }
        let without_code = strip_code_spans(line);
        for (i, _) in without_code.match_indices('<') {
            let escaped = i > 0 && without_code.as_bytes()[i - 1] == b'\\';
            let autolink = without_code[i..].starts_with("<https://");
            assert!(escaped || autolink, "unescaped < in {line:?}");
        }
        assert!(
            !line.starts_with("# Not a heading"),
            "summary cannot open a heading"
        );
        for (i, _) in without_code.match_indices("](") {
            let escaped = i > 0 && without_code.as_bytes()[i - 1] == b'\\';
            assert!(escaped, "no live link: {line:?}");
        }
    }
    assert_eq!(fence.open, 0, "every fence is closed");
    let mut fence = Fence::default();
    let headings: Vec<&str> = md
        .lines()
        .filter(|l| !fence.code(l) && l.starts_with("# "))
        .collect();
    assert_eq!(headings.len(), 1, "one H1: {headings:?}");
}

#[test]
fn json_surfaces_round_trip_the_exact_text() {
    let brand = evil();
    let spec: Value = serde_json::from_str(&render::spec_json::render(&brand, &ctx())).unwrap();
    assert_eq!(spec["name"].as_str().unwrap(), brand.doc.name);
    assert!(spec["name"].as_str().unwrap().contains('\u{2028}'));
    assert_figma_accepts(&render::figma::render(&brand, &ctx()).body);
}

#[test]
fn embed_script_carries_the_data_as_an_inert_literal() {
    let js = render::embed::render(&evil(), &ctx(), marque::render::view::Access::Private);
    assert!(!js.contains("</script"), "cannot close a script element");
    assert!(!js.contains("<!--"));
    assert!(!js.contains('\u{2028}') && !js.contains('\u{2029}'));
    let literal = js
        .split_once("var card = ")
        .unwrap()
        .1
        .split_once(";\n")
        .unwrap()
        .0;
    let card: Value = serde_json::from_str(literal).unwrap();
    assert_eq!(card["name"].as_str().unwrap(), evil().doc.name);
    assert!(!js.contains("innerHTML"), "text is set as text");
}

#[test]
fn llms_txt_keeps_its_structure() {
    let brand = evil();
    let text = render::llms_txt::render(&brand, &ctx());
    let (title, summary, sections) = parse_llms_txt(&text);
    assert!(title.starts_with("Evil "));
    assert!(!summary.contains('\n'));
    let names: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(names, ["Spec", "Design tokens", "Prompts", "Optional"]);
    for (_, urls) in &sections {
        for u in urls {
            assert!(u.starts_with("https://brand.example.com/"), "{u}");
        }
    }
}

#[test]
fn every_surface_serves_over_http_and_the_svg_is_sandboxed() {
    let app = spawn_app(&fixture());
    for (name, _) in surfaces(&evil(), &ctx()) {
        let path = match name {
            "page.html" => "/brand/evil".to_string(),
            "embed.js" => "/embed/brand/evil".to_string(),
            file => format!("/brand/evil/{file}"),
        };
        assert_eq!(app.get(&path).status, 200, "{path}");
    }
    let svg = app.get("/brand/evil/assets/logo.svg");
    assert!(svg
        .header("content-security-policy")
        .unwrap()
        .contains("sandbox"));
}

/// tailwind.css: the theme block and nothing else (no rule or declaration
/// from content), and nothing that closes an enclosing style element.
#[test]
fn tailwind_css_declares_exactly_the_theme_and_nothing_else() {
    let css = render::tailwind::render(&evil(), &ctx());
    let structure = css_structure(&css);
    assert_eq!(structure.matches('{').count(), 1, "{structure}");
    assert_eq!(structure.matches('}').count(), 1, "{structure}");
    assert!(structure.contains("@theme {"), "{structure}");
    // color.ink, color.paper, font.evil, and type.evil's size, line
    // height, letter spacing and weight.
    assert_eq!(structure.matches(';').count(), 7, "{css}");
    assert!(!css.contains("</style"), "{css}");
}

/// DESIGN.md: hostile text stays inside its YAML strings and its Markdown
/// text: Google's own parser reads the brand's name back exactly, finds no
/// error, and the prose has one H1, no duplicate section and no live markup.
#[test]
fn design_md_keeps_hostile_text_inside_its_strings_and_its_prose() {
    let brand = evil();
    let text = render::design_md::render(&brand, &ctx());
    let body = &text[text[4..].find("\n---\n").unwrap() + 9..];
    let mut fence = Fence::default();
    let mut sections = std::collections::HashSet::new();
    for line in body.lines() {
        if fence.code(line) {
            continue;
        }
        let without_code = strip_code_spans(line);
        for (i, _) in without_code.match_indices('<') {
            assert!(
                i > 0 && without_code.as_bytes()[i - 1] == b'\\',
                "unescaped < in {line:?}"
            );
        }
        for (i, _) in without_code.match_indices("](") {
            assert!(
                i > 0 && without_code.as_bytes()[i - 1] == b'\\',
                "no live link: {line:?}"
            );
        }
        assert!(!line.starts_with("# Not a heading"), "{line:?}");
        if let Some(h) = line.strip_prefix("## ") {
            assert!(sections.insert(h.to_string()), "section {h:?} twice");
        }
    }
    assert_eq!(body.lines().filter(|l| l.starts_with("# ")).count(), 1);
    let Some(tool) = js_tool("design.md") else {
        return;
    };
    let linter = tool
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("@google/design.md/dist/linter/index.js");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("DESIGN.md");
    std::fs::write(&file, &text).unwrap();
    let script = format!(
        "const {{ lint }} = await import({});
         const r = lint(require('fs').readFileSync({}, 'utf8'));
         console.log(JSON.stringify({{ summary: r.summary, name: r.designSystem.name, findings: r.findings }}));",
        serde_json::to_string(&linter.display().to_string()).unwrap(),
        serde_json::to_string(&file.display().to_string()).unwrap(),
    );
    let out = std::process::Command::new("node")
        .args([
            "--input-type=commonjs",
            "-e",
            &format!("(async () => {{ {script} }})()"),
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    assert_eq!(report["name"].as_str(), Some(brand.doc.name.as_str()));
}

/// What opens a Markdown block at the start of a line (CommonMark): a
/// heading, a blockquote, a bullet or ordered list, a code fence, an HTML
/// block, a thematic break or a setext underline.
const BLOCK_STARTS: [&str; 16] = [
    "#", "## ", ">", "- ", "* ", "+ ", "1. ", "7) ", "```", "~~~", "<div>", "<!--", "---", "***",
    "___", "===",
];

/// The evil brand, its name, summary and first palette name starting with
/// `start` (the whole text when `alone`), and its second palette name too.
fn evil_starting_with(dir: &Path, start: &str, alone: bool) -> Arc<Brand> {
    copy_dir(&fixture(), dir);
    let file = dir.join("evil/brand.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let text = |tail: &str| match alone {
        true => start.to_string(),
        false => format!("{start}{tail}"),
    };
    doc["name"] = text(" Evil </script><div>x</div> #").into();
    doc["summary"] = text("Not a summary </script>\n# nor a heading").into();
    doc["color"]["palette"][0]["name"] = text(" Ink </script>").into();
    doc["color"]["palette"][1]["name"] = format!("{start}Paper").into();
    std::fs::write(&file, doc.to_string()).unwrap();
    brands_of(dir).into_iter().next().unwrap()
}

/// The kind of Markdown block `line` opens, if it opens one (CommonMark,
/// for a line at most three spaces in; marque writes none indented).
fn block_start(line: &str) -> Option<&'static str> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    let after = |n: usize| line[n..].chars().next().is_none_or(|c| c == ' ');
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let only = |c: char| {
        let s: String = line.chars().filter(|x| *x != ' ').collect();
        s.len() >= 3 && s.chars().all(|x| x == c)
    };
    if (1..=6).contains(&hashes) && after(hashes) {
        Some("heading")
    } else if line.starts_with('>') {
        Some("blockquote")
    } else if line.starts_with(['-', '*', '+']) && after(1) {
        Some("bullet list")
    } else if (1..=9).contains(&digits)
        && line[digits..].starts_with(['.', ')'])
        && after(digits + 1)
    {
        Some("ordered list")
    } else if line.starts_with("```") || line.starts_with("~~~") {
        Some("code fence")
    } else if line.starts_with('<')
        && line[1..].starts_with(|c: char| c.is_ascii_alphabetic() || "/!?".contains(c))
    {
        Some("HTML block")
    } else if only('-')
        || only('*')
        || only('_')
        || (!line.is_empty() && line.chars().all(|c| c == '='))
    {
        Some("thematic break or setext underline")
    } else {
        None
    }
}

/// CommonMark's backslash escapes undone: the text a reader sees.
fn unescaped(md: &str) -> String {
    let mut out = String::new();
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(n) if c == '\\' && n.is_ascii_punctuation() => {}
            _ => out.push(c),
        }
    }
    out
}

/// Each document's blocks as CommonMark reads them, with the parser the
/// DESIGN.md linter uses (micromark through `mdast-util-from-markdown`,
/// which npm `@google/design.md` installs), front matter included: for
/// each heading, blockquote, HTML (a block or inline), code, thematic
/// break, list, definition and YAML node, its type, depth, whether it is
/// ordered, the types of its ancestors and its text. `None` where the
/// tool is not installed.
fn commonmark_blocks(documents: &[String]) -> Option<Vec<Value>> {
    let tool = js_tool("design.md")?;
    let js_tools = tool.ancestors().nth(3).unwrap();
    let script = r#"
        import { readFileSync } from "node:fs";
        import { fromMarkdown } from "mdast-util-from-markdown";
        import { frontmatter } from "micromark-extension-frontmatter";
        import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
        import { toString } from "mdast-util-to-string";
        const kinds = ["heading", "blockquote", "html", "code", "thematicBreak", "list", "definition", "yaml"];
        const read = (text) => {
            const blocks = [];
            const walk = (node, parents) => {
                if (kinds.includes(node.type)) {
                    blocks.push({ type: node.type, depth: node.depth ?? null, ordered: node.ordered ?? null,
                                  in: parents, text: node.type === "yaml" ? node.value : toString(node) });
                }
                for (const child of node.children ?? []) walk(child, [...parents, node.type]);
            };
            walk(fromMarkdown(text, { extensions: [frontmatter(["yaml"])],
                                      mdastExtensions: [frontmatterFromMarkdown(["yaml"])] }), []);
            return blocks;
        };
        console.log(JSON.stringify(JSON.parse(readFileSync(0, "utf8")).map(read)));
    "#;
    let mut child = std::process::Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(js_tools)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let input = serde_json::to_vec(documents).unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// Content that starts with what opens a Markdown block (a palette name
/// `# Ink`, a name `> Evil`, a summary `1. …` or `<div>`) opens none in
/// DESIGN.md or llms.txt: every heading, list and quote is marque's own,
/// and the H1 and the summary read back as the brand wrote them, in a
/// CommonMark parser and in the llmstxt.org reference parser.
#[test]
fn text_that_starts_a_markdown_block_opens_none_in_design_md_or_llms_txt() {
    let sections = [
        "Overview",
        "Colors",
        "Modes",
        "Typography",
        "Layout",
        "Elevation & Depth",
        "Shapes",
        "Components",
        "Do's and Don'ts",
        "Logo",
        "Applications",
    ];
    let llms_sections = ["Spec", "Design tokens", "Prompts", "Optional"];
    let dir = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    for (i, start) in BLOCK_STARTS.iter().enumerate() {
        for alone in [false, true] {
            let brand = evil_starting_with(&dir.path().join(format!("{i}-{alone}")), start, alone);
            let design = render::design_md::render(&brand, &ctx());
            let llms = render::llms_txt::render(&brand, &ctx());
            let index = render::llms_txt::render_index(&[brand.as_ref()], &ctx());
            let case = format!("{start:?} (alone: {alone})");

            // DESIGN.md, line by line: each line that starts a block is
            // marque's own, and a list item's text starts none.
            let body = design[design[4..].find("\n---\n").unwrap() + 9..].trim_start();
            for (n, line) in body.lines().enumerate() {
                match line.strip_prefix("- ") {
                    Some(item) => assert_eq!(block_start(item), None, "{case}: {line:?}"),
                    None if n == 0 => assert!(line.starts_with("# "), "{case}: {line:?}"),
                    None if line.starts_with('#') => {
                        let heading = line.trim_start_matches('#').trim();
                        assert!(sections.contains(&heading), "{case}: {line:?}");
                    }
                    None => assert_eq!(block_start(line), None, "{case}: {line:?}"),
                }
            }
            // llms.txt: the H1, the summary, then marque's sections.
            let lines: Vec<&str> = llms.lines().collect();
            let title = lines[0].strip_prefix("# ").unwrap();
            assert_eq!(block_start(title), None, "{case}: {title:?}");
            assert!(lines[1].is_empty(), "{case}");
            let summary = lines[2].strip_prefix("> ").unwrap();
            assert_eq!(block_start(summary), None, "{case}: {summary:?}");
            for line in &lines[3..] {
                match line.strip_prefix("- ") {
                    Some(item) => assert!(item.starts_with('['), "{case}: {line:?}"),
                    None => match line.strip_prefix("## ") {
                        Some(h) => assert!(llms_sections.contains(&h), "{case}: {line:?}"),
                        None => assert_eq!(block_start(line), None, "{case}: {line:?}"),
                    },
                }
            }
            let name = render::escape::collapse_ws(&brand.doc.name);
            let summary = render::escape::collapse_ws(brand.doc.summary.as_deref().unwrap());
            cases.push((case, name, summary, design, llms, index));
        }
    }

    // llms.txt and /llms.txt as the llmstxt.org reference parser reads
    // them: the title and summary are the brand's, escapes aside.
    if python_can("import llms_txt.miniparse") {
        let files: Vec<String> = cases
            .iter()
            .flat_map(|(.., llms, index)| [llms.clone(), index.clone()])
            .collect();
        let parsed = crate::reference::reference_parse_all(&files);
        for ((case, name, summary, ..), pair) in cases.iter().zip(parsed.chunks(2)) {
            let [llms, index] = <&[Value; 2]>::try_from(pair).unwrap();
            assert_eq!(unescaped(llms["title"].as_str().unwrap()), *name, "{case}");
            assert_eq!(
                unescaped(llms["summary"].as_str().unwrap()),
                *summary,
                "{case}"
            );
            let names: Vec<&String> = llms["sections"].as_object().unwrap().keys().collect();
            assert_eq!(names, llms_sections, "{case}");
            let link = &index["sections"]["Brands"][0];
            assert_eq!(
                unescaped(link["title"].as_str().unwrap()),
                name.replace('[', "(").replace(']', ")"),
                "{case}"
            );
            assert_eq!(
                unescaped(link["desc"].as_str().unwrap()),
                *summary,
                "{case}"
            );
        }
    }

    // The same documents as a CommonMark parser reads them.
    let documents: Vec<String> = cases
        .iter()
        .flat_map(|(_, _, _, design, llms, index)| [design.clone(), llms.clone(), index.clone()])
        .collect();
    let Some(parsed) = commonmark_blocks(&documents) else {
        return;
    };
    for ((case, name, summary, ..), blocks) in cases.iter().zip(parsed.chunks(3)) {
        let [design, llms, index] = <&[Value; 3]>::try_from(blocks).unwrap();
        for (file, blocks) in [
            ("DESIGN.md", design),
            ("llms.txt", llms),
            ("/llms.txt", index),
        ] {
            for b in blocks.as_array().unwrap() {
                let ty = b["type"].as_str().unwrap();
                let nested = b["in"].as_array().unwrap().len() > 1;
                assert!(
                    ["heading", "list", "blockquote", "yaml"].contains(&ty),
                    "{case}: {file} has a {ty} block: {b}"
                );
                assert!(!nested, "{case}: {file} has a {ty} inside a block: {b}");
                assert_ne!(b["ordered"], true, "{case}: {file}: {b}");
            }
        }
        let headings = |blocks: &Value| -> Vec<(u64, String)> {
            blocks
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["type"] == "heading")
                .map(|b| {
                    (
                        b["depth"].as_u64().unwrap(),
                        b["text"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        };
        let of = |blocks: &Value, ty: &str| -> Vec<String> {
            blocks
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["type"] == ty)
                .map(|b| b["text"].as_str().unwrap().to_string())
                .collect()
        };
        let design_headings = headings(design);
        assert_eq!(design_headings[0], (1, name.clone()), "{case}");
        for (depth, text) in &design_headings[1..] {
            assert!(
                *depth > 1 && sections.contains(&text.as_str()),
                "{case}: {text:?}"
            );
        }
        assert_eq!(of(design, "yaml").len(), 1, "{case}: one front matter");
        assert!(of(design, "blockquote").is_empty(), "{case}");
        let llms_headings = headings(llms);
        assert_eq!(llms_headings[0], (1, name.clone()), "{case}");
        assert!(llms_headings[1..]
            .iter()
            .all(|(d, t)| *d == 2 && llms_sections.contains(&t.as_str())));
        assert_eq!(
            of(llms, "blockquote"),
            std::slice::from_ref(summary),
            "{case}"
        );
        assert_eq!(of(index, "blockquote").len(), 1, "{case}");
    }
}
