//! Consumers' own tools run on many documents in one process each: the
//! llmstxt.org reference parser (PyPI `llms-txt`) and Google's DESIGN.md
//! linter (npm `@google/design.md`, through its library's `lint`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `program args…`, writes `input` as JSON to its stdin, and reads a
/// JSON array of one `{"ok": …}` or `{"err": …}` per input back.
fn each(program: &str, args: &[&str], dir: &Path, input: &[String]) -> Vec<Result<Value, String>> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    // A tool that stops reading says why on stderr, which is reported below.
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(&serde_json::to_vec(input).unwrap());
    let out = child.wait_with_output().unwrap();
    let all: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{program} prints no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(all.len(), input.len(), "{program}: one answer each");
    all.into_iter()
        .map(|r| match r.get("ok") {
            Some(ok) => Ok(ok.clone()),
            None => Err(r["err"].as_str().unwrap_or("?").to_string()),
        })
        .collect()
}

/// `llms_txt.miniparse.parse_llms_txt` of each text, in one Python
/// process: what it reads, or the exception it raises.
pub fn parse_llms_txt_each(texts: &[String]) -> Vec<Result<Value, String>> {
    let script = "import sys, json\nfrom llms_txt.miniparse import parse_llms_txt\ndef one(t):\n    try:\n        return {'ok': parse_llms_txt(t)}\n    except Exception as e:\n        return {'err': repr(e)}\nprint(json.dumps([one(t) for t in json.load(sys.stdin)]))";
    each("python3", &["-c", script], Path::new("."), texts)
}

/// The DESIGN.md linter's report (`summary`, `findings`) on each text, in
/// one node process; `tool` is the `design.md` command `.ci/deps` installs.
pub fn lint_design_md_each(tool: &Path, texts: &[String]) -> Vec<Result<Value, String>> {
    let tools = tool.ancestors().nth(3).unwrap();
    let linter = tools.join("node_modules/@google/design.md/dist/linter/index.js");
    let script = r#"
        const { lint } = await import(LINTER);
        const one = (text) => {
            try {
                const r = lint(text);
                return { ok: { summary: r.summary, findings: r.findings } };
            } catch (e) {
                return { err: String(e) };
            }
        };
        // Not readFileSync(0): on a pipe that is not ready yet it throws
        // EAGAIN (seen here, one run in three).
        let input = "";
        for await (const chunk of process.stdin) input += chunk;
        console.log(JSON.stringify(JSON.parse(input).map(one)));
    "#
    .replace("LINTER", &serde_json::to_string(&linter).unwrap());
    each(
        "node",
        &["--input-type=module", "-e", &script],
        tools,
        texts,
    )
}
