//! `marque lint` through the real binary: a fixture per language with one
//! finding of each kind seeded (exact, near, unknown name, deprecated, and
//! a literal in a comment that must not be found), SARIF against the
//! official schema, the baseline that only shrinks, `--fix` judged by
//! Chromium, and `check_code` through the MCP Python SDK.

use crate::diagnostics::{sarif_schema, schema_errors};
use crate::helpers::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint")
}

fn brand() -> String {
    fixtures()
        .join("content/harbor")
        .to_string_lossy()
        .into_owned()
}

/// Runs `marque lint` with `args`: exit code and stdout (stderr on failure).
/// Its index of the brand is kept under the tests' own folder, not the
/// user's cache.
fn lint(args: &[&str], cwd: &Path) -> (i32, String) {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lint-cache");
    lint_in(args, cwd, &cache)
}

/// [`lint`], its index kept in `cache` (`XDG_CACHE_HOME`).
fn lint_in(args: &[&str], cwd: &Path, cache: &Path) -> (i32, String) {
    let (code, stdout, stderr) = lint_run(args, cwd, cache);
    assert!(code == 0 || code == 1, "lint failed ({code}): {stderr}");
    (code, stdout)
}

/// Runs `marque lint` with `args`, its index kept in `cache`: exit code,
/// stdout and stderr.
fn lint_run(args: &[&str], cwd: &Path, cache: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("lint")
        .args(args)
        .current_dir(cwd)
        .env_remove("MARQUE_CONTENT")
        .env("XDG_CACHE_HOME", cache)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// JSON lines as `(file name, code, subject)`, and the lines themselves.
fn findings(stdout: &str) -> (BTreeSet<(String, String, String)>, Vec<Value>) {
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let set = lines
        .iter()
        .map(|v| {
            let file = v["file"].as_str().unwrap();
            let name = file.rsplit('/').next().unwrap().to_string();
            (
                name,
                v["code"].as_str().unwrap().to_string(),
                v["subject"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (set, lines)
}

/// What each fixture seeds: `(file, code, subject)`. Each file also has
/// the brand's blue in a comment, which is not here.
const SEEDED: &[(&str, &str, &str)] = &[
    ("styles.css", "MQ2501", "#0969da"),
    ("styles.css", "MQ2502", "rgb(10 106 219)"),
    ("styles.css", "MQ2503", "--color-harbr-500"),
    ("styles.css", "MQ2504", "--color-old-blue"),
    ("styles.css", "MQ2501", "180ms"),
    ("styles.css", "MQ2501", "650"),
    ("styles.css", "MQ2501", "12px"),
    ("styles.css", "MQ2501", "#0d1117"),
    ("theme.scss", "MQ2501", "hsl(212.5 92% 44.5%)"),
    ("theme.scss", "MQ2502", "#0a69da"),
    ("theme.scss", "MQ2503", "--color-inkk"),
    ("theme.scss", "MQ2504", "--color-old-blue"),
    ("theme.scss", "MQ2503", "bg-harbor-50"),
    ("widget.less", "MQ2501", "#0969DA"),
    ("widget.less", "MQ2502", "#0b69da"),
    ("widget.less", "MQ2503", "--color-paperr"),
    ("widget.less", "MQ2504", "--color-old-blue"),
    ("page.html", "MQ2501", "#0969da"),
    ("page.html", "MQ2502", "#0a69db"),
    ("page.html", "MQ2503", "bg-harbor-600"),
    ("page.html", "MQ2504", "text-old-blue"),
    ("Button.tsx", "MQ2501", "#0969da"),
    ("Button.tsx", "MQ2501", "12px"),
    ("Button.tsx", "MQ2501", "650"),
    ("Button.tsx", "MQ2502", "#0a69db"),
    ("Button.tsx", "MQ2503", "bg-harbor-501"),
    ("Button.tsx", "MQ2503", "tokens.color.harbor[\"510\"]"),
    ("Button.tsx", "MQ2504", "tokens.color[\"old-blue\"]"),
    ("Card.vue", "MQ2501", "#0969da"),
    ("Card.vue", "MQ2502", "#0a6ada"),
    ("Card.vue", "MQ2503", "--color-harbor-5000"),
    ("Card.vue", "MQ2504", "bg-old-blue"),
    ("Badge.svelte", "MQ2501", "oklch(53.99% 0.1906 257.48)"),
    ("Badge.svelte", "MQ2501", "12px"),
    ("Badge.svelte", "MQ2502", "#0b6bdc"),
    ("Badge.svelte", "MQ2503", "bg-harbor-7"),
    ("Badge.svelte", "MQ2504", "--color-old-blue"),
    (
        "Theme.swift",
        "MQ2501",
        "Color(red: 0.0353, green: 0.4118, blue: 0.8549)",
    ),
    ("Theme.swift", "MQ2502", "#0a6adb"),
    ("Theme.swift", "MQ2503", "color-harbor-50"),
    ("Theme.swift", "MQ2504", "color-old-blue"),
    ("Theme.kt", "MQ2501", "0xFF0969DA"),
    ("Theme.kt", "MQ2501", "16.dp"),
    ("Theme.kt", "MQ2502", "0xFF0A6ADB"),
    ("Theme.kt", "MQ2503", "R.color.color_harbor_50"),
    ("Theme.kt", "MQ2504", "R.color.color_old_blue"),
    ("colors.xml", "MQ2501", "#FF0969DA"),
    ("colors.xml", "MQ2502", "#ff0a6adb"),
    ("colors.xml", "MQ2503", "@color/color_harbor_50"),
    ("colors.xml", "MQ2504", "@color/color_old_blue"),
];

#[test]
fn every_language_gives_its_seeded_findings_and_nothing_else() {
    let code = fixtures().join("code");
    let (exit, out) = lint(
        &[
            "--brand",
            &brand(),
            "--format",
            "json",
            code.to_str().unwrap(),
        ],
        &fixtures(),
    );
    assert_eq!(exit, 1, "exact matches and unknown names are errors");
    let (found, lines) = findings(&out);
    let seeded: BTreeSet<(String, String, String)> = SEEDED
        .iter()
        .map(|(f, c, s)| (f.to_string(), c.to_string(), s.to_string()))
        .collect();
    let missed: Vec<_> = seeded.difference(&found).collect();
    let extra: Vec<_> = found.difference(&seeded).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "missed {missed:#?}\nfound and not seeded {extra:#?}"
    );
    assert_eq!(lines.len(), SEEDED.len(), "each seeded finding once");
    // No finding lies on a comment's line (each fixture's first lines).
    for v in &lines {
        let file = std::fs::read_to_string(fixtures().join(v["file"].as_str().unwrap())).unwrap();
        let line = file
            .lines()
            .nth(v["line"].as_u64().unwrap() as usize - 1)
            .unwrap();
        let at = v["column"].as_u64().unwrap() as usize - 1;
        let from: String = line.chars().skip(at).collect();
        assert!(
            from.starts_with(v["subject"].as_str().unwrap()),
            "{v} at {line}"
        );
    }
    let says = |file: &str, subject: &str| {
        lines
            .iter()
            .find(|v| v["file"].as_str().unwrap().ends_with(file) && v["subject"] == subject)
            .map(|v| v["message"].as_str().unwrap().to_string())
            .unwrap()
    };
    // Names in the file's language, the context that matches, the nearest name.
    assert!(says("styles.css", "#0969da").contains("var(--color-harbor-500)"));
    assert!(says("styles.css", "#0d1117").contains("(theme=dark)"));
    assert!(says("styles.css", "--color-harbr-500").contains("var(--color-harbor-500)"));
    assert!(says("page.html", "text-old-blue").contains("text-harbor-500"));
    assert!(says("Theme.kt", "0xFF0969DA").contains("colorResource(R.color.color_harbor_500)"));
    assert!(says("Theme.swift", "color-old-blue").contains("Color(\"color-harbor-500\")"));
    assert!(says("colors.xml", "#FF0969DA").contains("@color/color_harbor_500"));
    assert!(says("Button.tsx", "650").contains("tokens.font.weight.strong"));
}

#[test]
fn text_output_underlines_each_whole_literal_or_name() {
    let run = |format: &str| {
        lint(
            &["--brand", &brand(), "--format", format, "code"],
            &fixtures(),
        )
        .1
    };
    let (_, lines) = findings(&run("json"));
    let text = run("human");
    // Each frame's underline: the carets after the gutter of its source line.
    let underlines: Vec<usize> = text
        .lines()
        .filter(|l| l.trim_start().starts_with('|') && l.contains('^'))
        .map(|l| l.matches('^').count())
        .collect();
    assert_eq!(underlines.len(), lines.len(), "{text}");
    for (carets, v) in underlines.iter().zip(&lines) {
        let subject = v["subject"].as_str().unwrap();
        assert_eq!(*carets, subject.chars().count(), "{subject}\n{text}");
    }
    // Not a fixed width: the literals underlined are of many lengths.
    let widths: BTreeSet<usize> = underlines.iter().copied().collect();
    assert!(widths.len() > 5, "{widths:?}");
}

#[test]
fn sarif_is_valid_against_the_official_schema_and_names_each_rule() {
    let (exit, out) = lint(
        &["--brand", &brand(), "--format", "sarif", "code"],
        &fixtures(),
    );
    assert_eq!(exit, 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    let errors = schema_errors(&sarif_schema(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["MQ2501", "MQ2502", "MQ2503", "MQ2504"]);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), SEEDED.len());
    let first = &results[0]["locations"][0]["physicalLocation"];
    assert!(first["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .starts_with("code/"));
    assert!(results
        .iter()
        .all(|r| r["partialFingerprints"]["primaryLocationLineHash"].is_string()));
}

#[test]
fn a_baseline_accepts_what_it_lists_fails_on_new_findings_and_only_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let css = dir.path().join("app.css");
    std::fs::write(&css, "a { color: #0969da; }\nb { color: #0969da; }\n").unwrap();
    let harbor = brand();
    let base = |extra: &[&str]| {
        let mut args = vec![
            "--brand",
            harbor.as_str(),
            "--baseline",
            "lint-baseline.json",
        ];
        args.extend_from_slice(extra);
        args.push(".");
        lint(&args, dir.path())
    };
    // Created from what is found: everything accepted.
    assert_eq!(base(&["--update-baseline"]).0, 0);
    let file = dir.path().join("lint-baseline.json");
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(listed["findings"][0]["count"], 2);
    assert_eq!(base(&[]).0, 0);
    // A third use of the literal is new: it fails, and only it is reported.
    std::fs::write(
        &css,
        "a { color: #0969da; }\nb { color: #0969da; }\nc { color: #0969da; }\n",
    )
    .unwrap();
    let (exit, out) = base(&["--format", "json"]);
    assert_eq!((exit, out.lines().count()), (1, 1), "{out}");
    // Fixed down to one: the baseline shrinks to one...
    std::fs::write(&css, "a { color: #0969da; }\n").unwrap();
    assert_eq!(base(&["--update-baseline"]).0, 0);
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(listed["findings"][0]["count"], 1);
    // ...and never grows back: a second use fails even with --update-baseline.
    std::fs::write(&css, "a { color: #0969da; }\nb { color: #0969da; }\n").unwrap();
    assert_eq!(base(&["--update-baseline"]).0, 1);
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(listed["findings"][0]["count"], 1);
}

#[test]
fn a_kept_index_finds_what_reading_the_brand_finds_until_the_brand_changes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let harbor = dir.path().join("harbor");
    copy_dir(&fixtures().join("content/harbor"), &harbor);
    let harbor = harbor.to_string_lossy().into_owned();
    let code = fixtures().join("code");
    let code = code.to_string_lossy();
    let args = ["--brand", &harbor, "--unused", "--format", "json", &code];
    let cold = lint_in(&args, dir.path(), &cache);
    let kept: Vec<_> = std::fs::read_dir(cache.join("marque/lint"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "one index a brand folder: {kept:?}");
    assert!(!cold.1.is_empty());
    assert_eq!(
        lint_in(&args, dir.path(), &cache),
        cold,
        "read from the cache"
    );
    // A token's value changed (styles.css's 650 is no longer the strong
    // weight): the kept index is not the brand's any more.
    let base = std::path::PathBuf::from(&harbor).join("tokens/base.json");
    let text = std::fs::read_to_string(&base).unwrap();
    let strong = r#""strong": { "$value": 650 }"#;
    assert!(text.contains(strong));
    std::fs::write(
        &base,
        text.replace(strong, r#""strong": { "$value": 700 }"#),
    )
    .unwrap();
    let changed = lint_in(&args, dir.path(), &cache);
    let fresh = lint_in(&args, dir.path(), &dir.path().join("fresh"));
    assert_eq!(changed, fresh);
    assert_ne!(changed, cold);
    // A cache file cut short is no index: the brand is read again.
    std::fs::write(&kept[0], b"cut").unwrap();
    assert_eq!(lint_in(&args, dir.path(), &cache), fresh);
}

#[test]
fn unused_lists_every_token_no_file_names_at_its_definition() {
    let (_, out) = lint(
        &[
            "--brand",
            &brand(),
            "--unused",
            "--format",
            "json",
            "code/styles.css",
        ],
        &fixtures(),
    );
    let (_, lines) = findings(&out);
    let unused: Vec<(&str, &str)> = lines
        .iter()
        .filter(|v| v["code"] == "MQ2505")
        .map(|v| (v["subject"].as_str().unwrap(), v["file"].as_str().unwrap()))
        .collect();
    let names: Vec<&str> = unused.iter().map(|u| u.0).collect();
    // styles.css names only the deprecated blue (its literals are no use).
    assert_eq!(
        names,
        [
            "color.harbor.500",
            "color.harbor.100",
            "color.ink",
            "color.paper",
            "space.gap",
            "radius.card",
            "font.weight.strong",
            "motion.quick"
        ]
    );
    assert!(unused
        .iter()
        .all(|u| u.1.ends_with("harbor/tokens/base.json")));
    let ink = lines.iter().find(|v| v["subject"] == "color.ink").unwrap();
    assert_eq!(ink["line"], 8, "placed on its token");
}

#[test]
fn a_published_name_in_another_spelling_is_the_token_with_a_note_not_an_unknown_name() {
    let dir = tempfile::tempdir().unwrap();
    // As Primer's own CSS writes its token paths: camelCase, `_`, capitals.
    std::fs::write(
        dir.path().join("app.css"),
        "a { color: var(--Color-Harbor500); border-color: var(--color_old_blue); }\n\
         b { color: var(--color-harbr-500); }\n\
         c { --fontWeightStrong: 600; font-weight: var(--fontWeightStrong); }\n",
    )
    .unwrap();
    let (exit, out) = lint(
        &["--brand", &brand(), "--unused", "--format", "json", "."],
        dir.path(),
    );
    let (found, lines) = findings(&out);
    let in_app: BTreeSet<(String, String)> = found
        .iter()
        .filter(|f| f.0 == "app.css")
        .map(|f| (f.1.clone(), f.2.clone()))
        .collect();
    let want: BTreeSet<(String, String)> = [
        ("MQ2506", "--Color-Harbor500"),
        ("MQ2506", "--color_old_blue"),
        ("MQ2504", "--color_old_blue"),
        ("MQ2503", "--color-harbr-500"),
    ]
    .iter()
    .map(|(c, s)| (c.to_string(), s.to_string()))
    .collect();
    // `--fontWeightStrong` is declared by the codebase: its own, no note.
    assert_eq!(in_app, want, "{out}");
    assert_eq!(exit, 1, "the misspelt name is still an error");
    let note = lines
        .iter()
        .find(|v| v["subject"] == "--Color-Harbor500")
        .unwrap();
    assert_eq!(note["suggest"][0], "var(--color-harbor-500)");
    assert!(note["message"]
        .as_str()
        .unwrap()
        .contains("`color.harbor.500`"));
    // Named in another spelling is named: not unused.
    let unused: Vec<&str> = lines
        .iter()
        .filter(|v| v["code"] == "MQ2505")
        .map(|v| v["subject"].as_str().unwrap())
        .collect();
    assert!(!unused.contains(&"color.harbor.500"), "{unused:?}");
    assert!(unused.contains(&"color.harbor.100"), "{unused:?}");
}

#[test]
fn fix_rewrites_exact_unambiguous_matches_and_chromium_computes_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["button.css", "utilities.scss"] {
        std::fs::copy(fixtures().join("fix").join(f), dir.path().join(f)).unwrap();
    }
    let before = std::fs::read_to_string(dir.path().join("button.css")).unwrap();
    let (_, out) = lint(&["--brand", &brand(), "--fix", "."], dir.path());
    let after = std::fs::read_to_string(dir.path().join("button.css")).unwrap();
    assert!(out.contains("6 fixed"), "{out}");
    assert!(after.contains(".a { color: var(--color-harbor-500); background-color: var(--color-harbor-500); border: 2px solid var(--color-harbor-500); border-radius: var(--radius-card); }"), "{after}");
    // The ink differs by theme, the dark paper is no token in the light
    // theme, and a near colour is never rewritten.
    assert!(
        after.contains(
            ".b { color: #1f2328; background-color: #0a69db; border: 2px solid #0d1117; }"
        ),
        "{after}"
    );
    let scss = std::fs::read_to_string(dir.path().join("utilities.scss")).unwrap();
    assert!(
        scss.contains("@apply bg-harbor-500 rounded-card text-[#1f2328];"),
        "{scss}"
    );

    let Some((_one, b)) = crate::browser::locked() else {
        return;
    };
    let app = crate::browser::marque_for_browser(&fixtures().join("content"));
    // Each sheet in its own shadow root, so their selectors do not meet;
    // tokens.css's custom properties reach both from the page.
    let host = |id: &str, css: &str| {
        format!(
            "{{ const h = document.createElement('div'); h.id = '{id}'; document.body.append(h); const r = h.attachShadow({{mode: 'open'}}); r.innerHTML = {} + '<p class=\"a\">a</p><p class=\"b\">b</p>'; }}",
            serde_json::to_string(&format!("<style>{css}</style>")).unwrap()
        )
    };
    let dom = format!("{} {}", host("before", &before), host("after", &after));
    b.with_tokens_css(&app.public_url, "harbor", &dom);
    let computed = |id: &str| {
        b.js(&format!("var r = document.getElementById('{id}').shadowRoot; return ['.a', '.b'].map(function(s) {{ var c = getComputedStyle(r.querySelector(s)); return [c.color, c.backgroundColor, c.borderTopColor, c.borderTopLeftRadius]; }});"))
    };
    for dark in [false, true] {
        b.emulate_dark(dark);
        let (was, is) = (computed("before"), computed("after"));
        assert_eq!(was, is, "dark: {dark}");
        assert_eq!(is[0][0], "rgb(9, 105, 218)", "the custom property applied");
    }
}

#[test]
fn check_code_answers_an_mcp_client_and_a_prompt_says_to_call_it() {
    if !require(
        "the MCP Python SDK",
        python_can("import mcp.client.streamable_http"),
        "pip install 'mcp>=2.3,<3' (bash .ci/deps)",
    ) {
        return;
    }
    let app = spawn_app(&fixtures().join("content"));
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/support/mcp_check_code.py"
        ))
        .arg(format!("{}/mcp", app.public_url))
        .arg("harbor")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["tools"]
        .as_array()
        .unwrap()
        .contains(&"check_code".into()));
    let subjects = |key: &str| -> Vec<(String, String)> {
        report[key]["structured"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().into(),
                    f["subject"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let pair = |c: &str, s: &str| (c.to_string(), s.to_string());
    // Every context: the blue, the dark paper, the misspelled name; never the comment.
    assert_eq!(
        subjects("every"),
        [
            pair("MQ2501", "#0969da"),
            pair("MQ2503", "--color-harbr-500"),
            pair("MQ2501", "#0d1117")
        ]
    );
    let every = &report["every"]["structured"]["findings"];
    assert_eq!(every[0]["suggest"][0], "var(--color-harbor-500)");
    assert!(every[2]["message"].as_str().unwrap().contains("theme=dark"));
    // One mode: the dark paper only where it is that mode's value.
    assert_eq!(subjects("dark").len(), 3);
    assert_eq!(
        subjects("light"),
        [
            pair("MQ2501", "#0969da"),
            pair("MQ2503", "--color-harbr-500")
        ]
    );
    assert_eq!(report["clean"]["structured"]["clean"], true);
    assert_eq!(subjects("swift"), [pair("MQ2503", "color-harbor-50")]);
    assert_eq!(report["badLanguage"]["isError"], true);
    assert!(report["badLanguage"]["text"]
        .as_str()
        .unwrap()
        .contains("languages: css"));
    assert!(report["prompts"]
        .as_array()
        .unwrap()
        .contains(&"check-styles".into()));
    assert!(report["prompt"].as_str().unwrap().contains("check_code"));
    // DESIGN.md and llms.txt say it too.
    assert!(app
        .get("/brand/harbor/DESIGN.md")
        .text()
        .contains("marque lint"));
    assert!(app.get("/llms.txt").text().contains("call check_code"));
}

#[test]
fn a_brand_served_by_marque_is_linted_by_its_url_as_its_folder_is() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy_dir(&fixtures().join("content/harbor"), &content.join("harbor"));
    // The same brand publishing its names with a prefix (`--hb-…`).
    copy_dir(
        &fixtures().join("content/harbor"),
        &content.join("harbor-hb"),
    );
    let json = content.join("harbor-hb/brand.json");
    let text = std::fs::read_to_string(&json).unwrap();
    let text = text.replacen('{', r#"{ "naming": { "prefix": "hb" },"#, 1);
    std::fs::write(&json, text).unwrap();
    let app = spawn_app(&content);
    let code = fixtures().join("code");
    let code = code.to_string_lossy();
    let cache = dir.path().join("cache");
    for slug in ["harbor", "harbor-hb"] {
        let folder = content.join(slug).to_string_lossy().into_owned();
        let by_folder = lint_in(
            &["--brand", &folder, "--format", "json", &code],
            dir.path(),
            &cache,
        );
        assert!(by_folder.1.lines().count() > SEEDED.len() / 2, "{slug}");
        // The brand's page, or any of its surfaces, names it.
        for url in [
            format!("http://{}/brand/{slug}", app.addr),
            format!("http://{}/brand/{slug}/tokens.css", app.addr),
        ] {
            let by_url = lint_in(
                &["--brand", &url, "--format", "json", &code],
                dir.path(),
                &cache,
            );
            assert_eq!(by_url, by_folder, "{url}");
        }
    }
    // The prefix is the one tokens.css publishes.
    let (_, hb) = lint_in(
        &[
            "--brand",
            &format!("http://{}/brand/harbor-hb", app.addr),
            "--format",
            "json",
            &code,
        ],
        dir.path(),
        &cache,
    );
    assert!(hb.contains("var(--hb-color-harbor-500)"), "{hb}");
    // Unchanged, the brand's folder and its kept index are not written
    // again (the folder is written only where a file changed).
    // Every file under the cache folder, fetched brand folders included,
    // with when it was last written and its inode (a rename is a new one).
    let kept = || {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, std::time::SystemTime, u64)>) {
            use std::os::unix::fs::MetadataExt;
            for e in std::fs::read_dir(dir).unwrap() {
                let path = e.unwrap().path();
                let meta = std::fs::symlink_metadata(&path).unwrap();
                match meta.is_dir() {
                    true => walk(&path, out),
                    false => out.push((path, meta.modified().unwrap(), meta.ino())),
                }
            }
        }
        let mut v = Vec::new();
        walk(&cache.join("marque/lint"), &mut v);
        v.sort();
        assert!(
            v.iter().any(|(p, _, _)| p.ends_with("harbor/brand.json")),
            "{v:?}"
        );
        v
    };
    let before = kept();
    let url = format!("http://{}/brand/harbor", app.addr);
    lint_in(
        &["--brand", &url, "--format", "json", &code],
        dir.path(),
        &cache,
    );
    assert_eq!(kept(), before);
    // A slug the server does not have, and a URL that names no brand.
    let (status, _, err) = lint_run(
        &["--brand", &format!("http://{}/brand/nope", app.addr), &code],
        dir.path(),
        &cache,
    );
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("404"), "{err}");
    let (status, _, err) = lint_run(
        &[
            "--brand",
            &format!("http://{}/brands.json", app.addr),
            &code,
        ],
        dir.path(),
        &cache,
    );
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("not the URL of a brand"), "{err}");
}
