//! The demo in the OpenAPI document: one operation per brand with a prompt
//! kit, whose body names exactly its prompts and their variables, and the
//! answers all of them share.

use super::{event, r};
use crate::paths::{Refusal, DEMO_MAX_BODY};
use serde_json::{json, Map, Value};

/// What a demo call must send for one prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptShape {
    pub id: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub variables: Vec<VariableShape>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariableShape {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
    pub max_length: u32,
    pub example: Option<String>,
}

impl From<&crate::spec::model::Prompt> for PromptShape {
    fn from(p: &crate::spec::model::Prompt) -> PromptShape {
        PromptShape {
            id: p.id.clone(),
            title: p.title.clone(),
            description: p.description.clone(),
            variables: p
                .variables
                .iter()
                .map(|v| VariableShape {
                    name: v.name.clone(),
                    description: v.description.clone(),
                    required: v.required,
                    max_length: v.max_length,
                    example: v.example.clone(),
                })
                .collect(),
        }
    }
}

/// The demo operation of one brand: its request body is one of its
/// prompts, each with exactly its variables (required names, `maxLength`),
/// so a generated client or a language model's tool definition can call it
/// from this document alone.
pub(super) fn demo_operation(slug: &str, prompts: &[PromptShape]) -> Value {
    let bodies: Vec<Value> = prompts
        .iter()
        .map(|p| {
            let mut properties = Map::new();
            for v in &p.variables {
                let mut var = json!({"type": "string", "maxLength": v.max_length});
                if v.required {
                    // Blank counts as missing (`prompt::is_blank`).
                    var["minLength"] = json!(1);
                    var["pattern"] = json!(crate::prompt::GIVEN);
                }
                if let Some(d) = &v.description {
                    var["description"] = json!(d);
                }
                if let Some(e) = &v.example {
                    var["examples"] = json!([e]);
                }
                properties.insert(v.name.clone(), var);
            }
            let required: Vec<&str> = p
                .variables
                .iter()
                .filter(|v| v.required)
                .map(|v| v.name.as_str())
                .collect();
            // Built by moving each part in: `json!` would copy a value it
            // is given, and there is an operation per brand.
            let mut variables = Map::new();
            variables.insert("type".into(), "object".into());
            variables.insert("properties".into(), Value::Object(properties));
            let has_required = !required.is_empty();
            variables.insert("required".into(), json!(required));
            variables.insert("additionalProperties".into(), false.into());
            let mut members = Map::new();
            members.insert("promptId".into(), json!({"const": p.id}));
            members.insert("variables".into(), Value::Object(variables));
            let mut body = Map::new();
            body.insert("type".into(), "object".into());
            body.insert("properties".into(), Value::Object(members));
            body.insert(
                "required".into(),
                if has_required {
                    json!(["promptId", "variables"])
                } else {
                    json!(["promptId"])
                },
            );
            body.insert("additionalProperties".into(), false.into());
            let title = p.title.clone().unwrap_or_else(|| p.id.clone());
            body.insert("title".into(), title.into());
            if let Some(d) = &p.description {
                body.insert("description".into(), d.clone().into());
            }
            Value::Object(body)
        })
        .collect();
    let ids: Vec<&str> = prompts.iter().map(|p| p.id.as_str()).collect();
    let mut responses = Map::new();
    responses.insert("200".into(), r("responses", "DemoResult"));
    for refusal in Refusal::ALL {
        let status = refusal.status();
        responses.insert(status.to_string(), r("responses", &format!("Demo{status}")));
    }
    let mut operation = json!({
        "tags": ["demo"],
        "operationId": format!("demo-{slug}"),
        "summary": format!("Run a prompt of {slug}'s prompt kit against a language model"),
        "description": format!("Prompts: {}. The system message is the brand's spec.md followed by the prompt's system text; the user message is the prompt's template with the variables. Every request counts against the client address's rate limit (GCRA, per IPv4 address or IPv6 /64), malformed ones too. The body is at most {} KiB.", ids.join(", "), DEMO_MAX_BODY / 1024),
        "requestBody": {
            "required": true,
            "content": {"application/json": {"schema": {"oneOf": []}}}
        },
    });
    operation["requestBody"]["content"]["application/json"]["schema"]["oneOf"] =
        Value::Array(bodies);
    operation["responses"] = Value::Object(responses);
    operation
}

/// The answers of every brand's demo operation, shared by them all.
pub(super) fn demo_responses(responses: &mut Map<String, Value>) {
    let rate_headers = json!({
        "RateLimit": r("headers", "RateLimit"),
        "RateLimit-Policy": r("headers", "RateLimit-Policy"),
    });
    let problem = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string"}, "title": {"type": "string"},
            "status": {"type": "integer"}, "detail": {"type": "string"}
        },
        "required": ["type", "title", "status", "detail"]
    });
    let stream = json!({"oneOf": [
        event("delta", json!({
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"]
        })),
        event("done", r("schemas", "DemoResult")),
        event("error", problem),
    ]});
    responses.insert(
        "DemoResult".into(),
        json!({
            "description": "The model's answer, or with no API key configured a dry run with the exact messages it would send. With `Accept: text/event-stream`, a stream of `delta` events (`{\"text\": …}`; a dry run streams a placeholder), then one `done` event with the body a JSON answer has, or one `error` event with a problem body",
            "headers": rate_headers,
            "content": {
                "application/json": {"schema": r("schemas", "DemoResult")},
                "text/event-stream": {"schema": stream}
            }
        }),
    );
    for refusal in Refusal::ALL {
        let (status, what) = (refusal.status(), refusal.describe());
        let mut headers = rate_headers.clone();
        if matches!(refusal, Refusal::RateLimited | Refusal::Busy) {
            headers["Retry-After"] = r("headers", "Retry-After");
        }
        if refusal == Refusal::Method {
            headers = json!({"Allow": r("headers", "Allow")});
        }
        responses.insert(
            format!("Demo{status}"),
            json!({
                "description": what,
                "headers": headers,
                "content": {"application/problem+json": {"schema": r("schemas", "DemoProblem")}}
            }),
        );
    }
}
