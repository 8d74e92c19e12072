//! `marque check --format sarif`: the diagnostics as a SARIF 2.1.0 log that
//! GitHub code scanning accepts (its "SARIF support for code scanning"
//! lists what it reads). One run of the tool `marque`, a rule per code the
//! run uses (made from the code table; its help text carries the fix, and,
//! given the public URL of a marque that serves the brands, `helpUri`
//! points at that server's `/codes` page), and a result per diagnostic, located in the file it
//! points into relative to the repository root (`%SRCROOT%`), with
//! fingerprints that follow it across commits.
//!
//! Pure: the diagnostics, where the content folder lies in the repository
//! and the text of each file come in; the document goes out. The log has
//! its own serde types: it is a published format.

use crate::spec::diag::{Code, Diagnostic, Family, Severity};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The schema a SARIF 2.1.0 log names (the one GitHub's docs give).
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base every result's location is relative to: the repository root.
pub const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    original_uri_base_ids: BTreeMap<&'static str, Base>,
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Base {
    description: Text,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<String>,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: &'static str,
    short_description: Text,
    full_description: Text,
    help: Help,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: [&'static str; 2],
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: MessageText<'a>,
    locations: [Location; 1],
    partial_fingerprints: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
struct MessageText<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
}

/// SARIF's level for a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The code's `helpUri`: its row of the `/codes` page of the marque at
/// `public_url`.
pub fn help_uri(code: Code, public_url: &str) -> String {
    format!(
        "{}{}#{}",
        public_url.trim_end_matches('/'),
        crate::paths::CODES,
        code.anchor()
    )
}

/// A family as a tag: `Family::LeftOut` → `left-out`.
fn tag(family: Family) -> &'static str {
    match family {
        Family::Source => "source",
        Family::Schema => "schema",
        Family::Versions => "versions",
        Family::Tokens => "tokens",
        Family::Readings => "readings",
        Family::References => "references",
        Family::Resolver => "resolver",
        Family::LeftOut => "left-out",
        Family::CssNames => "css-names",
        Family::Contrast => "contrast",
        Family::Assets => "assets",
        Family::Prompts => "prompts",
        Family::Formats => "formats",
        Family::Surfaces => "surfaces",
        Family::Limits => "limits",
        Family::Lint => "lint",
    }
}

fn rule(code: Code, public_url: Option<&str>) -> Rule {
    let help_uri = public_url.map(|u| help_uri(code, u));
    let mut markdown = format!(
        "**{code} `{}`** ({}): {}\n\nHow to fix it: {}",
        code.name(),
        code.severity().as_str(),
        code.means(),
        code.fix(),
    );
    if let Some(uri) = &help_uri {
        markdown.push_str(&format!("\n\n[The index of marque's codes]({uri})"));
    }
    Rule {
        id: code.as_str(),
        name: code.name(),
        short_description: Text {
            text: code.means().to_string(),
        },
        full_description: Text {
            text: format!("{} How to fix it: {}", code.means(), code.fix()),
        },
        help: Help {
            text: code.fix().to_string(),
            markdown,
        },
        help_uri,
        default_configuration: Configuration {
            level: level(code.severity()),
        },
        properties: RuleProperties {
            tags: ["marque", tag(code.family())],
            precision: "very-high",
            problem_severity: level(code.severity()),
        },
    }
}

/// A path as a relative URI reference: each byte outside the unreserved
/// characters and `/` percent-encoded.
fn uri_of(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The SARIF log of `diagnostics`. `root` is the content folder's path
/// from the repository root (`content/`, or empty when it is the root);
/// `source` gives the text of the file a diagnostic points into, when
/// there is one, for the fingerprint GitHub computes from it.
pub fn render<'d>(
    diagnostics: &'d [Diagnostic],
    root: &str,
    public_url: Option<&str>,
    source: impl Fn(&Diagnostic) -> Option<&'d str>,
) -> String {
    let used: BTreeSet<Code> = diagnostics.iter().map(|d| d.code).collect();
    let rules: Vec<Code> = used.into_iter().collect();
    let mut hashes: HashMap<&str, Vec<String>> = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut results = Vec::new();
    for d in diagnostics {
        let rule_index = rules.iter().position(|c| *c == d.code).unwrap_or(0);
        // A diagnostic of the whole content folder has no file of a brand.
        let path = match d.brand.is_empty() {
            true => root.trim_end_matches('/').to_string(),
            false => format!("{root}{}", d.file),
        };
        let uri = match path.is_empty() {
            true => "./".to_string(),
            false => uri_of(&path),
        };
        let mut fingerprints = BTreeMap::new();
        // What the result is about, where: stable when lines move or
        // the wording changes; repeats are numbered, as GitHub's are.
        let identity = format!("{}\0{path}\0{}", d.code, d.pointer);
        let n = seen.entry(identity.clone()).or_default();
        *n += 1;
        let digest = Sha256::digest(identity.as_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        fingerprints.insert("marque/v1", format!("{hex}:{n}"));
        if let Some(text) = source(d).filter(|_| !d.brand.is_empty()) {
            let lines = hashes.entry(text).or_insert_with(|| line_hashes(text));
            if let Some(h) = lines.get(d.line.max(1) as usize - 1) {
                fingerprints.insert("primaryLocationLineHash", h.clone());
            }
        }
        results.push(SarifResult {
            rule_id: d.code.as_str(),
            rule_index,
            level: level(d.severity()),
            message: MessageText { text: &d.message },
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri,
                        uri_base_id: SRCROOT,
                    },
                    region: Region {
                        start_line: d.line.max(1),
                        start_column: d.column.max(1),
                    },
                },
            }],
            partial_fingerprints: fingerprints,
        });
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "marque",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: public_url.map(str::to_string),
                    rules: rules.into_iter().map(|c| rule(c, public_url)).collect(),
                },
            },
            original_uri_base_ids: BTreeMap::from([(
                SRCROOT,
                Base {
                    description: Text {
                        text: "The root of the repository that holds the content folder".into(),
                    },
                },
            )]),
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    let mut out = serde_json::to_string_pretty(&log).expect("a SARIF log serializes");
    out.push('\n');
    out
}

/// The hash of each line of `text` (index 0 is line 1) that GitHub's
/// upload-sarif action computes as a result's `primaryLocationLineHash`
/// when a log has none (codeql-action `src/fingerprints.ts`): a rolling
/// hash, base 37 in wrapping 64-bit arithmetic, over the next 100
/// characters (UTF-16 code units) from the line's start, spaces and tabs
/// skipped and line ends read as `\n`; a line whose hash was seen before
/// gets the next count after the colon. Computing it here, from the same
/// text, gives GitHub the value it would compute itself.
pub fn line_hashes(text: &str) -> Vec<String> {
    const BLOCK: usize = 100;
    const BASE: u64 = 37;
    const END: u64 = 65535;
    let first_mod = (0..BLOCK).fold(1u64, |m, _| m.wrapping_mul(BASE));
    let mut window = [0u64; BLOCK];
    let mut starts: [Option<usize>; BLOCK] = [None; BLOCK];
    let mut hash = 0u64;
    let mut index = 0;
    let mut line = 0;
    let mut line_start = true;
    let mut after_cr = false;
    let mut counts: HashMap<u64, usize> = HashMap::new();
    let mut out: Vec<String> = Vec::new();
    let mut emit = |hash: u64, at: usize, out: &mut Vec<String>| {
        let n = counts.entry(hash).or_default();
        *n += 1;
        if out.len() < at {
            out.resize(at, String::new());
        }
        out[at - 1] = format!("{hash:x}:{n}");
    };
    let step = |c: u64, window: &mut [u64; BLOCK], hash: &mut u64, index: &mut usize| {
        let begin = window[*index];
        window[*index] = c;
        *hash = BASE
            .wrapping_mul(*hash)
            .wrapping_add(c)
            .wrapping_sub(first_mod.wrapping_mul(begin));
        *index = (*index + 1) % BLOCK;
    };
    let units = text.encode_utf16().map(u64::from).chain([END]);
    for mut c in units {
        let (space, tab, lf, cr) = (u64::from(b' '), u64::from(b'\t'), 10, 13);
        if c == space || c == tab || (after_cr && c == lf) {
            after_cr = false;
            continue;
        }
        after_cr = c == cr;
        if c == cr {
            c = lf;
        }
        if let Some(at) = starts[index].take() {
            emit(hash, at, &mut out);
        }
        if line_start {
            line_start = false;
            line += 1;
            starts[index] = Some(line);
        }
        if c == lf {
            line_start = true;
        }
        step(c, &mut window, &mut hash, &mut index);
    }
    for _ in 0..BLOCK {
        if let Some(at) = starts[index].take() {
            emit(hash, at, &mut out);
        }
        step(0, &mut window, &mut hash, &mut index);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::file_diagnostic;

    /// The hashes GitHub's own tests expect of these texts
    /// (codeql-action `src/fingerprints.test.ts`).
    #[test]
    fn line_hashes_are_the_ones_github_computes() {
        assert_eq!(line_hashes(""), ["c129715d7a2bc9a3:1"]);
        assert_eq!(
            line_hashes(" a\nb\n  \t\tc\n d"),
            [
                "271789c17abda88f:1",
                "54703d4cd895b18:1",
                "180aee12dab6264:1",
                "a23a3dc5e078b07b:1"
            ]
        );
        let expected = [
            "e9496ae3ebfced30:1",
            "fb7c023a8b9ccb3f:1",
            "ce8ba1a563dcdaca:1",
            "e20e36e16fcb0cc8:1",
            "b3edc88f2938467e:1",
            "c8e28b0b4002a3a0:1",
            "c129715d7a2bc9a3:1",
        ];
        for text in [
            " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
            " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
            " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
            " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
        ] {
            assert_eq!(line_hashes(text), expected, "{text:?}");
        }
        let repeated = line_hashes(&"Lorem ipsum dolor sit amet.\n".repeat(10));
        assert_eq!(repeated[0], "a7f2ff13bc495cf2:1");
        assert_eq!(repeated[5], "a7f2ff13bc495cf2:6");
        assert_eq!(repeated[6], "a7f2ff1481e87703:1");
        assert_eq!(repeated[10], "c129715d7a2bc9a3:1");
    }

    #[test]
    fn a_result_points_into_the_repository_with_its_rule_and_fingerprints() {
        let mut d = file_diagnostic(
            Code::InvalidVersion,
            "acme",
            "acme/brand.json",
            "version \"3.2\" is not a semantic version",
        );
        d.pointer = "/version".into();
        (d.line, d.column) = (2, 14);
        let warning = file_diagnostic(Code::UnusedVariable, "acme", "acme/a b.json", "unused");
        let text = "{\n  \"version\": \"3.2\"\n}\n";
        let diags = [d, warning];
        let log: serde_json::Value = serde_json::from_str(&render(
            &diags,
            "content/",
            Some("https://brand.example.com/"),
            |d| (d.file == "acme/brand.json").then_some(text),
        ))
        .unwrap();
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "MQ1201");
        assert_eq!(
            run["tool"]["driver"]["rules"][0]["helpUri"],
            "https://brand.example.com/codes#mq1201"
        );
        // Without a public URL, no link to a site that may not exist: the
        // help text carries the fix.
        let bare: serde_json::Value =
            serde_json::from_str(&render(&diags, "content/", None, |_| None)).unwrap();
        let rule = &bare["runs"][0]["tool"]["driver"]["rules"][0];
        assert!(rule.get("helpUri").is_none(), "{rule}");
        assert!(bare["runs"][0]["tool"]["driver"]
            .get("informationUri")
            .is_none());
        assert_eq!(rule["help"]["text"], Code::InvalidVersion.fix());
        let result = &run["results"][0];
        assert_eq!(result["level"], "error");
        assert_eq!(result["ruleIndex"], 0);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"]["uri"],
            "content/acme/brand.json"
        );
        assert_eq!(location["region"]["startLine"], 2);
        assert_eq!(
            result["partialFingerprints"]["primaryLocationLineHash"],
            line_hashes(text)[1]
        );
        let other = &run["results"][1];
        assert_eq!(other["ruleIndex"], 1);
        assert_eq!(other["level"], "warning");
        assert_eq!(
            other["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "content/acme/a%20b.json"
        );
        assert!(other["partialFingerprints"]["marque/v1"]
            .as_str()
            .unwrap()
            .ends_with(":1"));
    }
}
