//! brand.json `naming.prefix` (issue 59): the custom properties a brand
//! publishes carry the prefix its team's own build gives them, on every
//! surface that names one (tokens.css with its modes, shims and fallbacks,
//! the Figma variables' WEB code syntax, spec.md, marque lint), so a team
//! can swap its stylesheet for marque's without renaming. A prefix that
//! cannot start a custom property is MQ1112.

use crate::helpers::import;
use marque::render::{self, Context};
use marque::spec::brand::{parse_brand, BrandFiles};
use marque::spec::Brand;
use std::path::Path;
use std::process::Command;

const RESOLVER: &str = r##"{
  "version": "2025.10",
  "sets": {"base": {"sources": [{
    "color": {"$type": "color",
      "ink": {"$value": "#111111"},
      "paper": {"$value": "#ffffff"},
      "fg": {"$value": "{color.ink}"},
      "veil": {"$value": "{color.ink}", "alpha": 0.5},
      "old": {"$value": "{color.ink}", "$deprecated": "Use {color.fg} instead."}
    },
    "type": {
      "body": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": {"value": 16, "unit": "px"}, "fontWeight": 400, "lineHeight": 1.5, "letterSpacing": {"value": 0, "unit": "px"}}},
      "lead": {"$type": "typography", "$value": "{type.body}"}
    }
  }]}},
  "modifiers": {"theme": {"default": "light", "contexts": {
    "light": [],
    "dark": [{"color": {"$type": "color", "ink": {"$value": "#eeeeee"}}}]
  }}},
  "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
}"##;

fn brand_json(naming: &str) -> String {
    format!(r#"{{"name": "Named", "version": "1.0.0", "updated": "2026-01-01"{naming}}}"#)
}

fn parse(naming: &str) -> (Option<Brand>, Vec<marque::spec::Diagnostic>) {
    let doc = brand_json(naming);
    let files = BrandFiles::from_texts(
        "named",
        [
            ("brand.json", doc.as_bytes()),
            ("tokens.resolver.json", RESOLVER.as_bytes()),
        ],
    );
    parse_brand(&files, "2026-06-01".parse().unwrap())
}

fn brand(naming: &str) -> Brand {
    let (brand, diags) = parse(naming);
    brand.unwrap_or_else(|| panic!("{diags:?}"))
}

/// Every custom property `css` declares, and every one it refers to.
fn names(css: &str) -> (Vec<String>, Vec<String>) {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect()
    };
    let declared = css
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("--"))
        .filter(|l| l.contains(':'))
        .map(ident)
        .collect();
    let used = css.split("var(--").skip(1).map(ident).collect();
    (declared, used)
}

#[test]
fn a_prefix_names_every_custom_property_tokens_css_declares_or_refers_to() {
    let ctx = Context::new("http://x");
    let plain = render::tokens_css::render(&brand(""), &ctx);
    let css = render::tokens_css::render(&brand(r#", "naming": {"prefix": "ds"}"#), &ctx);
    let (declared, used) = names(&css);
    assert!(declared.len() > 10 && used.len() > 5, "{css}");
    for n in declared.iter().chain(&used) {
        assert!(n.starts_with("ds-"), "--{n} has no prefix in\n{css}");
    }
    // The same sheet as without a prefix, each name prefixed: the dark
    // context's rule, the deprecated token's shim, a composite alias's
    // parts and the fallback of a colour with alpha included.
    let (plain_declared, plain_used) = names(&plain);
    let prefixed = |v: &[String]| v.iter().map(|n| format!("ds-{n}")).collect::<Vec<_>>();
    assert_eq!(declared, prefixed(&plain_declared));
    assert_eq!(used, prefixed(&plain_used));
    assert!(css.contains("--ds-color-old: var(--ds-color-fg);"), "{css}");
    assert!(
        css.contains("--ds-type-lead-font-size: var(--ds-type-body-font-size);"),
        "{css}"
    );
    assert!(css.contains("[data-theme=\"dark\"]"), "{css}");
}

#[test]
fn figma_variables_and_spec_md_name_the_prefixed_property() {
    let brand = brand(r#", "naming": {"prefix": "acme-ui"}"#);
    let figma = render::figma::render(&brand, &Context::new("http://x")).body;
    assert!(
        figma.contains("var(--acme-ui-color-ink)"),
        "the WEB code syntax: {figma}"
    );
    assert!(!figma.contains("var(--color-"), "{figma}");
    let md = render::spec_md::render(&brand, &Context::new("http://x"));
    assert!(md.contains("`--acme-ui-color-ink`"), "{md}");
}

#[test]
fn a_prefix_that_cannot_start_a_custom_property_is_mq1112() {
    for bad in ["--ds", "ds-", "DS", "d s", ""] {
        let (brand, diags) = parse(&format!(r#", "naming": {{"prefix": "{bad}"}}"#));
        assert!(brand.is_none(), "{bad:?} was accepted");
        let d = diags
            .iter()
            .find(|d| d.code.to_string() == "MQ1112")
            .unwrap_or_else(|| panic!("{bad:?}: {diags:?}"));
        assert_eq!(d.pointer, "/naming/prefix");
    }
    let (_, diags) = parse(r#", "naming": {"prefix": "ds", "suffix": "x"}"#);
    assert!(
        diags.iter().any(|d| d.code.to_string() == "MQ1101"),
        "naming takes no other key: {diags:?}"
    );
}

/// marque lint reads a codebase's names by the brand's prefix: its own
/// `var(--ds-…)` is a token, and a literal is told the prefixed name.
#[test]
fn lint_finds_tokens_by_their_prefixed_names() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("named");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(
        folder.join("brand.json"),
        brand_json(r#", "naming": {"prefix": "ds"}"#),
    )
    .unwrap();
    std::fs::write(folder.join("tokens.resolver.json"), RESOLVER).unwrap();
    let code = dir.path().join("code");
    std::fs::create_dir(&code).unwrap();
    std::fs::write(
        code.join("app.css"),
        "a { color: var(--ds-color-fg); }\nb { background: #ffffff; }\nc { color: var(--ds-color-fgg); }\n",
    )
    .unwrap();
    let out = lint(&folder, &code);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let at = |line: u64| -> Vec<&serde_json::Value> {
        lines.iter().filter(|v| v["line"] == line).collect()
    };
    assert!(at(1).is_empty(), "--ds-color-fg is a token: {out}");
    assert!(
        at(2)
            .iter()
            .any(|v| v["suggest"][0] == "var(--ds-color-paper)"),
        "{out}"
    );
    assert!(
        at(3).iter().any(|v| v["subject"] == "--ds-color-fgg"),
        "a misspelt name under the prefix is found: {out}"
    );
}

fn lint(brand: &Path, cwd: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["lint", "--brand"])
        .arg(brand)
        .args(["--format", "json", "."])
        .current_dir(cwd)
        .env_remove("MARQUE_CONTENT")
        .env(
            "XDG_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("lint-cache"),
        )
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A Style Dictionary config as teams keep one: JSON5, at the repository
/// root, its CSS platform naming the prefix and its output folder.
const CONFIG: &str = r#"// Built with `npx style-dictionary build`
{
  source: ['tokens/**/*.json'],
  platforms: {
    js: { transformGroup: 'js', prefix: 'nope', buildPath: 'build/js/' },
    css: {
      transformGroup: 'css',
      prefix: 'acme',
      buildPath: 'build/css/',
      files: [{ destination: 'variables.css', format: 'css/variables' }],
    },
  },
}
"#;

#[test]
fn import_takes_the_prefix_from_the_teams_style_dictionary_config_and_runs_no_script() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("tokens/color")).unwrap();
    std::fs::write(
        root.join("tokens/color/base.json"),
        r##"{"color": {"ink": {"value": "#111111", "type": "color"}, "fg": {"value": "{color.ink.value}", "type": "color"}}}"##,
    )
    .unwrap();
    std::fs::write(root.join("config.json5"), CONFIG).unwrap();
    let input = root.join("tokens/color/base.json");
    let out = root.join("out");
    let brand_json = || -> serde_json::Value {
        let text = std::fs::read_to_string(out.join("acme/brand.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let args = [
        input.to_str().unwrap(),
        "--slug",
        "acme",
        "--out",
        out.to_str().unwrap(),
    ];
    let (ok, said) = import(&args);
    assert!(ok, "{said}");
    let config = root.canonicalize().unwrap().join("config.json5");
    assert!(
        said.contains(&format!(
            "custom properties are prefixed `--acme-` (brand.json naming.prefix), from the Style Dictionary config {}",
            config.display()
        )),
        "{said}"
    );
    assert_eq!(brand_json()["naming"]["prefix"], "acme");
    // The brand it wrote publishes the team's names.
    let folder = BrandFiles::from_texts(
        "acme",
        [
            (
                "brand.json",
                std::fs::read(out.join("acme/brand.json"))
                    .unwrap()
                    .as_slice(),
            ),
            (
                "tokens.json",
                std::fs::read(out.join("acme/tokens.json"))
                    .unwrap()
                    .as_slice(),
            ),
        ],
    );
    let (brand, diags) = parse_brand(&folder, "2030-01-01".parse().unwrap());
    let css = render::tokens_css::render(
        &brand.unwrap_or_else(|| panic!("{diags:?}")),
        &Context::new("http://x"),
    );
    assert!(
        css.contains("--acme-color-fg: var(--acme-color-ink);"),
        "{css}"
    );

    // The brand.json import keeps is the team's correction: it says first.
    let kept = out.join("acme/brand.json");
    let mut doc = brand_json();
    doc["naming"]["prefix"] = "team".into();
    std::fs::write(&kept, doc.to_string()).unwrap();
    let (ok, said) = import(&args);
    assert!(ok, "{said}");
    assert!(
        said.contains(&format!(
            "custom properties are prefixed `--team-` (brand.json naming.prefix), as {} says",
            kept.display()
        )),
        "{said}"
    );
    // One that says none is kept as it is, and the summary says what to add.
    doc.as_object_mut().unwrap().remove("naming");
    std::fs::write(&kept, doc.to_string()).unwrap();
    let (ok, said) = import(&args);
    assert!(ok, "{said}");
    assert!(
        said.contains(r#"is kept as it is: add "naming": {"prefix": "acme"} to it"#),
        "{said}"
    );
    assert!(brand_json().get("naming").is_none());

    // A config that is a program is named, never run, and gives no prefix.
    std::fs::remove_file(root.join("config.json5")).unwrap();
    std::fs::write(
        root.join("sd.config.js"),
        "require('fs').writeFileSync('ran', '')\n",
    )
    .unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    let (ok, said) = import(&args);
    assert!(ok, "{said}");
    assert!(said.contains("not run: "), "{said}");
    assert!(said.contains("sd.config.js is a program"), "{said}");
    assert!(!root.join("ran").exists());
    assert!(brand_json().get("naming").is_none(), "{said}");
}
