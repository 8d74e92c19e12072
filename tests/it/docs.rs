//! Docs that cannot rot. The README and the manual in `docs/` are held to
//! the product: every link between their pages and every `#anchor`
//! resolves, the configuration reference is the command line's own
//! definition, every `MARQUE_` variable the code reads is documented, the
//! commands in `console` blocks run (with `trycmd`) and print what the page
//! shows, and the systemd unit passes `systemd-analyze verify`.

use clap::CommandFactory;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under docs/, as paths from the root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of a page outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<String> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let ticks: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        if ticks.len() >= 3 {
            match &fence {
                None => {
                    fence = Some(ticks);
                    continue;
                }
                Some(open) if trimmed.trim_end() == open.as_str() => {
                    fence = None;
                    continue;
                }
                Some(_) => {}
            }
        }
        if fence.is_none() {
            out.push((i + 1, line));
        }
    }
    out
}

/// A line with its inline code spans taken out: a link written inside
/// backticks is an example, not a link.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('`') {
        out.push_str(&rest[..at]);
        let run = rest[at..].chars().take_while(|&c| c == '`').count();
        let after = &rest[at + run..];
        let closer = "`".repeat(run);
        match after.find(&closer) {
            Some(end) => rest = &after[end + run..],
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lower case, spaces made `-`, every
/// character but letters, digits, `-` and `_` dropped (after the inline
/// code's backticks and a link's target are gone).
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // A link keeps its text only.
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").and_then(|mid| {
            rest[open + mid..]
                .find(')')
                .map(|close| (open + mid, open + mid + close))
        }) {
            Some((mid, close)) => {
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..mid]);
                rest = &rest[close + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a page has: its headings' slugs (a repeated one with
/// `-1`, `-2`, as GitHub numbers them) and each `<a id="…">`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (_, line) in prose_lines(text) {
        if let Some(heading) = line
            .strip_prefix('#')
            .map(|h| h.trim_start_matches('#'))
            .filter(|h| h.starts_with(' '))
        {
            let base = slug(heading);
            let n = seen.entry(base.clone()).or_insert(0);
            out.insert(match *n {
                0 => base.clone(),
                k => format!("{base}-{k}"),
            });
            *n += 1;
        }
    }
    for (at, _) in text.match_indices("<a id=\"") {
        let rest = &text[at + 7..];
        out.insert(rest[..rest.find('"').unwrap()].to_string());
    }
    out
}

/// The targets of a line's Markdown links `[text](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    line.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &line[at + 2..];
            rest.find(')').map(|end| rest[..end].trim().to_string())
        })
        .collect()
}

#[test]
fn every_link_between_the_readme_and_the_manual_resolves() {
    let mut broken = Vec::new();
    let mut cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        let from = page.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let file = match path {
                    "" => page.clone(),
                    p => page.parent().unwrap().join(p),
                };
                if !file.exists() {
                    broken.push(format!("{from}:{n}: {target}: no such file"));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if file.extension().is_none_or(|e| e != "md") {
                    broken.push(format!(
                        "{from}:{n}: {target}: an anchor into a non-Markdown file"
                    ));
                    continue;
                }
                let file = file.canonicalize().unwrap();
                let known = cache
                    .entry(file.clone())
                    .or_insert_with(|| anchors(&read(&file)));
                if !known.contains(anchor) {
                    broken.push(format!("{from}:{n}: {target}: no such anchor"));
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} links found: the reader is broken"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn github_anchors_are_made_as_github_makes_them() {
    assert_eq!(
        slug("Strict exports: `tokens.json` and `tokens.resolver.json`"),
        "strict-exports-tokensjson-and-tokensresolverjson"
    );
    assert_eq!(
        slug("MQ10xx: The content folder and its files"),
        "mq10xx-the-content-folder-and-its-files"
    );
    assert_eq!(slug("TLS and [proxies](x.md)"), "tls-and-proxies");
    assert_eq!(slug("Do's and Don'ts"), "dos-and-donts");
    let twice = anchors("## Notes\n\n## Notes\n\n<a id=\"mq1201\"></a>\n");
    assert_eq!(
        twice.into_iter().collect::<Vec<_>>(),
        ["mq1201", "notes", "notes-1"]
    );
}

/// One table row per argument of a command: the flag (or the positional
/// argument) with its value, the environment variable, the default and
/// the `--help` text. Help and version are left out.
fn flag_rows(cmd: &clap::Command) -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut rows = String::from("| flag | environment | default | meaning |\n|---|---|---|---|\n");
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if id == "help" || id == "version" {
            continue;
        }
        let takes_value = arg.get_num_args().is_none_or(|n| n.takes_values())
            && !matches!(
                arg.get_action(),
                clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count
            );
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        let value = match (takes_value, values.is_empty()) {
            (false, _) => String::new(),
            (true, false) => values.join("|"),
            (true, true) => arg
                .get_value_names()
                .map(|n| n.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" "))
                .unwrap_or_else(|| id.to_uppercase()),
        };
        let flag = match arg.get_long() {
            Some(long) if value.is_empty() => format!("`--{long}`"),
            Some(long) => format!("`--{long} {value}`"),
            None => format!("`{value}`"),
        };
        let env = arg
            .get_env()
            .map(|e| format!("`{}`", e.to_string_lossy()))
            .unwrap_or_default();
        let default: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        let default = match default.as_slice() {
            [] => String::new(),
            [d] if d.is_empty() => "(empty)".to_string(),
            d => format!("`{}`", d.join(",")),
        };
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        rows.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(&flag),
            env,
            cell(&default),
            cell(help.trim())
        ));
    }
    rows
}

/// The configuration reference as the command line defines it: a section
/// per command, a row per flag.
fn configuration_reference() -> String {
    let mut cli = marque::config::Cli::command();
    cli.build();
    let mut out = String::new();
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        if name == "help" {
            continue;
        }
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        out.push_str(&format!(
            "\n### `marque {name}`\n\n{}\n\n{}",
            about.replace('\n', " "),
            flag_rows(sub)
        ));
    }
    out.push('\n');
    out
}

#[test]
fn the_configuration_reference_is_the_command_lines_definition() {
    let path = root().join("docs/reference/configuration.md");
    let page = read(&path);
    let start = page
        .find("<!-- flags:start")
        .expect("configuration.md has the generated flags");
    let start = start + page[start..].find("-->\n").unwrap() + "-->\n".len();
    let end = page.find("<!-- flags:end -->").unwrap();
    let expected = configuration_reference();
    assert!(
        page[start..end] == expected,
        "docs/reference/configuration.md is not the command line (src/config.rs); put this between its markers:\n{expected}"
    );
    assert!(expected.contains("`--npm-scope NPM_SCOPE` | `MARQUE_NPM_SCOPE`"));
}

/// Every `MARQUE_` variable named anywhere in the code, environment-only
/// ones (secrets) included, is in the configuration reference.
#[test]
fn every_marque_variable_the_code_reads_is_documented() {
    fn walk(dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = read(&path);
                for (at, _) in text.match_indices("MARQUE_") {
                    let name: String = text[at..]
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    out.insert(name);
                }
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(&root().join("src"), &mut names);
    assert!(names.len() > 40, "{names:?}");
    let page = read(&root().join("docs/reference/configuration.md"));
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !page.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/reference/configuration.md does not name {missing:?}"
    );
}

/// The commands in the docs' `console` blocks, run by trycmd: each
/// `$ marque …` line runs the binary this test was built with, in the
/// repository's root, on the bundled content (no network), and must print
/// what the block shows (`...` and `[..]` stand for what varies). A
/// fence with no language would be read as such a block too, so every
/// fence names its language.
#[test]
fn the_commands_the_docs_show_print_what_they_show() {
    let mut bare = Vec::new();
    for page in pages() {
        let text = read(&page);
        let mut open = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("```") {
                if !open && t.trim_end() == "```" {
                    bare.push(format!(
                        "{}:{}",
                        page.strip_prefix(root()).unwrap().display(),
                        i + 1
                    ));
                }
                open = !open;
            }
        }
    }
    assert!(
        bare.is_empty(),
        "fences without a language (write ```text for plain text): {bare:?}"
    );
    // The site `marque build` writes in a console block goes under target/.
    std::fs::create_dir_all(root().join("target/docs")).unwrap();
    trycmd::TestCases::new()
        .register_bin("marque", PathBuf::from(env!("CARGO_BIN_EXE_marque")))
        .env("NO_COLOR", "1")
        .case("README.md")
        .case("docs/**/*.md")
        .case("docs/cmd/*.trycmd");
}

/// The systemd unit of docs/operations/ passes `systemd-analyze verify`.
/// verify also checks that ExecStart's binary exists, and the unit names
/// where an install puts marque (/usr/local/bin/marque), so the test
/// verifies a copy whose ExecStart is the binary this test was built with;
/// every other line is the unit as documented.
#[test]
fn the_systemd_unit_passes_systemd_analyze_verify() {
    let unit = read(&root().join("docs/operations/marque.service"));
    assert!(unit.contains("ExecStart=/usr/local/bin/marque "), "{unit}");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("marque.service");
    std::fs::write(
        &copy,
        unit.replace(
            "ExecStart=/usr/local/bin/marque ",
            &format!("ExecStart={} ", env!("CARGO_BIN_EXE_marque")),
        ),
    )
    .unwrap();
    let out = std::process::Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(&copy)
        .output()
        .expect("systemd-analyze runs (Debian package systemd; .ci/deps installs it)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "systemd-analyze verify: {text}");
    assert!(
        !text.contains("marque.service"),
        "systemd-analyze verify says of the unit: {text}"
    );
}
