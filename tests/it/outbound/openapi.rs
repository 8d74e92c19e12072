//! What the forges publish of their APIs, held against what marque sends:
//! each request a local forge recorded must be an operation of GitHub's
//! or GitLab's published OpenAPI description (its method and path), use
//! only query parameters the operation has, and carry a body its schema
//! accepts (required properties, types, enums, lengths). The
//! descriptions are trimmed excerpts, in `tests/fixtures/openapi` with
//! their source (SOURCE.md).

use super::receiver::Got;
use marque::outbound::commit_status::Forge;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/openapi")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The excerpt of each forge's description.
fn description(forge: Forge) -> &'static Value {
    static GITHUB: OnceLock<Value> = OnceLock::new();
    static GITLAB: OnceLock<Value> = OnceLock::new();
    match forge {
        Forge::Gitlab => GITLAB.get_or_init(|| fixture("gitlab.json")),
        _ => GITHUB.get_or_init(|| fixture("github.json")),
    }
}

/// `{"$ref": "#/a/b"}` replaced by what it names, all the way down.
fn inline(doc: &Value, v: &Value) -> Value {
    match v {
        Value::Object(m) => match m.get("$ref").and_then(Value::as_str) {
            // GitHub's `components/parameters` are left out of the
            // excerpt: such a reference stays, and names its parameter.
            Some(r) => match doc.pointer(r.trim_start_matches('#')) {
                Some(target) => inline(doc, target),
                None => v.clone(),
            },
            None => Value::Object(m.iter().map(|(k, v)| (k.clone(), inline(doc, v))).collect()),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| inline(doc, v)).collect()),
        other => other.clone(),
    }
}

/// The description's path template that `path` (as sent, under the
/// API's base) is an instance of: segment by segment, `{name}` matching
/// any one segment (GitLab's `acme%2Fbrands` is one).
fn template<'a>(doc: &'a Value, path: &str) -> Option<&'a str> {
    let sent: Vec<&str> = path.split('/').collect();
    doc["paths"]
        .as_object()?
        .keys()
        .map(String::as_str)
        .find(|t| {
            let parts: Vec<&str> = t.split('/').collect();
            parts.len() == sent.len()
                && parts.iter().zip(&sent).all(|(p, s)| {
                    p == s || (p.starts_with('{') && p.ends_with('}') && !s.is_empty())
                })
        })
}

/// The schema of the request body of `op`: OpenAPI 3's `requestBody`
/// (GitHub), or Swagger 2's `in: body` parameter or `in: formData`
/// parameters (GitLab).
fn body_schema(op: &Value) -> Option<Value> {
    if let Some(s) = op.pointer("/requestBody/content/application~1json/schema") {
        return Some(s.clone());
    }
    let params = op["parameters"].as_array()?;
    if let Some(p) = params.iter().find(|p| p["in"] == "body") {
        return Some(p["schema"].clone());
    }
    let form: Vec<&Value> = params.iter().filter(|p| p["in"] == "formData").collect();
    (!form.is_empty()).then(|| {
        let properties: serde_json::Map<String, Value> = form
            .iter()
            .map(|p| {
                let mut s = p.as_object().unwrap().clone();
                for k in ["in", "name", "required", "description"] {
                    s.remove(k);
                }
                (p["name"].as_str().unwrap().to_string(), Value::Object(s))
            })
            .collect();
        let required: Vec<&Value> = form
            .iter()
            .filter(|p| p["required"] == true)
            .map(|p| &p["name"])
            .collect();
        json!({ "type": "object", "properties": properties, "required": required })
    })
}

/// Whether `got`, a request to `forge`'s API under `/api`, is one its
/// description has, with parameters and a body it accepts; else why not.
pub fn check(forge: Forge, got: &Got) -> Result<String, String> {
    let doc = description(forge);
    let rest = got
        .path
        .strip_prefix("/api")
        .ok_or_else(|| format!("{} is not under the API's base", got.path))?;
    let path = match forge {
        Forge::Gitlab => format!("/api/v4{rest}"),
        _ => rest.to_string(),
    };
    let t = template(doc, &path).ok_or_else(|| format!("{path} is no path of the description"))?;
    let method = got.method.to_lowercase();
    let op = inline(doc, &doc["paths"][t]);
    let op = op
        .get(&method)
        .ok_or_else(|| format!("{} {t} is no operation of the description", got.method))?;
    let params = op["parameters"].as_array().cloned().unwrap_or_default();
    for pair in got.query.split('&').filter(|p| !p.is_empty()) {
        let name = pair.split('=').next().unwrap_or_default();
        let named = |p: &Value| {
            let referred = p["$ref"].as_str().and_then(|r| r.rsplit('/').next());
            (p["in"] == "query" && p["name"] == name)
                || referred.is_some_and(|r| r.replace('-', "_") == name)
        };
        if !params.iter().any(named) {
            return Err(format!("{method} {t}: no query parameter {name}"));
        }
    }
    match (body_schema(op), got.body.is_empty()) {
        (Some(schema), false) => {
            let body: Value = serde_json::from_slice(&got.body)
                .map_err(|e| format!("{method} {t}: a body that is not JSON: {e}"))?;
            let validator = jsonschema::validator_for(&schema)
                .map_err(|e| format!("{method} {t}: the excerpt's schema: {e}"))?;
            let errors: Vec<String> = validator
                .iter_errors(&body)
                .map(|e| format!("{} at {}", e, e.instance_path))
                .collect();
            if !errors.is_empty() {
                return Err(format!("{method} {t}: {errors:?} in {body}"));
            }
        }
        (None, false) => return Err(format!("{method} {t} takes no body")),
        (Some(_), true) if op.pointer("/requestBody/required") == Some(&json!(true)) => {
            return Err(format!("{method} {t} needs a body"))
        }
        _ => {}
    }
    Ok(format!("{} {t}", got.method))
}

/// `check`, as an assertion, with what matched printed.
pub fn conforms(forge: Forge, got: &Got) {
    match check(forge, got) {
        Ok(op) => println!("{forge:?} OpenAPI: {op} (query {:?}) conforms", got.query),
        Err(why) => panic!("{forge:?} OpenAPI: {why}"),
    }
}

fn got(method: &str, path: &str, query: &str, body: Value) -> Got {
    Got {
        at: std::time::Instant::now(),
        method: method.into(),
        path: path.into(),
        query: query.into(),
        headers: Default::default(),
        body: match body {
            Value::Null => Vec::new(),
            b => b.to_string().into_bytes(),
        },
    }
}

/// The checker can fail: what each description refuses is refused.
#[test]
fn the_published_descriptions_refuse_what_their_apis_would() {
    let status = json!({ "state": "success", "target_url": "https://b.example/p", "description": "minor: 1 change · 0 errors", "context": "marque" });
    let gh = |m, p, q, b| check(Forge::Github, &got(m, p, q, b));
    assert!(gh(
        "POST",
        "/api/repos/acme/brands/statuses/abc",
        "",
        status.clone()
    )
    .is_ok());
    let mut wrong = status.clone();
    wrong["state"] = json!("failed");
    assert!(
        gh("POST", "/api/repos/acme/brands/statuses/abc", "", wrong).is_err(),
        "GitHub says failure, not failed"
    );
    assert!(
        gh(
            "POST",
            "/api/repos/acme/brands/statuses/abc",
            "",
            json!({ "context": "marque" })
        )
        .is_err(),
        "state is required"
    );
    assert!(
        gh(
            "PUT",
            "/api/repos/acme/brands/statuses/abc",
            "",
            status.clone()
        )
        .is_err(),
        "no PUT there"
    );
    assert!(
        gh("POST", "/api/repos/acme/brands/status/abc", "", status).is_err(),
        "no such path"
    );
    let eleven: serde_json::Map<String, Value> =
        (0..11).map(|i| (format!("k{i}"), json!(i))).collect();
    assert!(
        gh(
            "POST",
            "/api/repos/acme/app/dispatches",
            "",
            json!({ "event_type": "marque-release", "client_payload": eleven })
        )
        .is_err(),
        "ten top-level properties at most"
    );
    assert!(
        gh(
            "GET",
            "/api/repos/acme/brands/pulls",
            "head=acme%3Ax&colour=red",
            Value::Null
        )
        .is_err(),
        "no such parameter"
    );
    assert!(
        gh(
            "PATCH",
            "/api/repos/acme/brands/issues/comments/9",
            "",
            json!({})
        )
        .is_err(),
        "body is required"
    );
    let gl = |m, p, b| check(Forge::Gitlab, &got(m, p, "", b));
    assert!(
        gl(
            "POST",
            "/api/projects/acme%2Fbrands/statuses/abc",
            json!({ "state": "failure", "name": "marque" })
        )
        .is_err(),
        "GitLab says failed"
    );
    assert!(gl(
        "POST",
        "/api/projects/acme%2Fbrands/statuses/abc",
        json!({ "state": "failed", "name": "marque" })
    )
    .is_ok());
}
