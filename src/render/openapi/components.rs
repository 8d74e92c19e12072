//! The `components` of `/openapi.json`: the schemas of every body, the
//! shared parameters, headers and responses.

use super::demo::demo_responses;
use super::{r, Examples};
use crate::render::schemas::{changelog_schema, comparison_schema, spec_schema};
use crate::render::Context;
use serde_json::{json, Map, Value};

pub(super) fn components(ctx: &Context, examples: &Examples) -> Value {
    let mut c = components_base(ctx, examples);
    if let Some(responses) = c["responses"].as_object_mut() {
        demo_responses(responses);
    }
    c
}

fn components_base(ctx: &Context, examples: &Examples) -> Value {
    let schemas = schemas(examples);
    let slug = path_parameter(
        "slug",
        "The brand's folder name: lowercase words joined by single hyphens",
        json!({"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64}),
        examples.slugs.first(),
    );
    let version = path_parameter(
        "version",
        "A released version (semver) from a tag `<slug>@<version>`",
        json!({"type": "string"}),
        examples.versions.first(),
    );
    let file = path_parameter(
        "file",
        "The asset's path inside the brand's `assets/` folder; it may contain `/`",
        json!({"type": "string"}),
        examples.file.as_ref(),
    );
    json!({
        "schemas": schemas,
        "parameters": {
            "slug": slug,
            "version": version,
            "file": file,
            "If-None-Match": {
                "name": "If-None-Match", "in": "header",
                "description": "ETags the client holds; a match gives 304",
                "schema": {"type": "string"}
            },
            "Accept-Encoding": {
                "name": "Accept-Encoding", "in": "header",
                "description": "`br` or `gzip` (with q-values) chooses a precompressed coding",
                "schema": {"type": "string"}
            }
        },
        "headers": {
            "ETag": {"description": "Strong, from the hash of the body in this coding", "required": true, "schema": {"type": "string", "pattern": "^\"[0-9a-f]{32}(-gz|-br)?\"$"}},
            "Cache-Control": {"description": format!("`public, max-age={}` for current documents, `public, max-age=31536000, immutable` for released versions, `no-store` for status, `private, no-store` for what only an access token's holder sees", ctx.max_age), "required": true, "schema": {"type": "string"}},
            "Vary": {"description": "`Accept, Accept-Encoding` where the format is negotiated (a comparison without a `.md` or `.json` suffix); every answer under `/brand/` also varies on `Authorization, Cookie` (a private brand answers its token's holders only)", "required": true, "schema": {"enum": ["Accept-Encoding", "Accept, Accept-Encoding", "Accept-Encoding, Authorization, Cookie", "Accept, Accept-Encoding, Authorization, Cookie"]}},
            "Content-Encoding": {"description": "`br` or `gzip` when the client accepts it and it saves bytes", "schema": {"enum": ["br", "gzip"]}},
            "Access-Control-Allow-Origin": {"required": true, "schema": {"const": "*"}},
            "X-Content-Type-Options": {"required": true, "schema": {"const": "nosniff"}},
            "Content-Security-Policy": {"required": true, "schema": {"type": "string"}},
            "Location": {"required": true, "schema": {"type": "string"}},
            "Allow": {"required": true, "schema": {"type": "string"}},
            "Retry-After": {"description": "Seconds, never 0", "required": true, "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"}},
            "RateLimit": {"description": "IETF httpapi RateLimit header: remaining burst `r` and seconds `t` until it is full", "required": true, "schema": {"type": "string", "pattern": "^\"demo\";r=[0-9]+;t=[0-9]+$"}},
            "RateLimit-Policy": {"description": "Quota per 60-second window", "required": true, "schema": {"type": "string", "pattern": "^\"demo\";q=[0-9]+;w=60$"}}
        },
        "responses": {
            "NotModified": {
                "description": "The client's copy is current (`If-None-Match` matched); no body",
                "headers": {"ETag": r("headers", "ETag"), "Cache-Control": r("headers", "Cache-Control"), "Vary": r("headers", "Vary")}
            },
            "NotFound": {
                "description": "No such path, brand or version",
                "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
            },
            "Problem": {
                "description": "An RFC 9457 problem",
                "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
            }
        }
    })
}

/// A required path parameter, with an example this server publishes.
fn path_parameter(name: &str, description: &str, schema: Value, example: Option<&String>) -> Value {
    let mut p = json!({
        "name": name, "in": "path", "required": true,
        "description": description,
        "schema": schema
    });
    if let Some(e) = example {
        p["example"] = json!(e);
    }
    p
}

/// A published JSON Schema made into OpenAPI components: `$defs` become
/// schemas named `<prefix>.<def>` (their `$ref`s rewritten), and the
/// top-level `$schema` and `$id` go (a component is not a resource of its own).
fn embeddable(mut schema: Value, prefix: &str) -> (Value, Map<String, Value>) {
    fn rewrite(v: &mut Value, prefix: &str) {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(s)) = o.get_mut("$ref") {
                    if let Some(name) = s.strip_prefix("#/$defs/") {
                        *s = format!("#/components/schemas/{prefix}.{name}");
                    }
                }
                o.values_mut().for_each(|x| rewrite(x, prefix));
            }
            Value::Array(a) => a.iter_mut().for_each(|x| rewrite(x, prefix)),
            _ => {}
        }
    }
    let o = schema.as_object_mut().expect("a schema is an object");
    o.remove("$schema");
    o.remove("$id");
    let defs = match o.remove("$defs") {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    rewrite(&mut schema, prefix);
    let defs = defs
        .into_iter()
        .map(|(k, mut v)| {
            rewrite(&mut v, prefix);
            (format!("{prefix}.{k}"), v)
        })
        .collect();
    (schema, defs)
}

/// The JSON Schemas of every body marque serves or takes.
fn schemas(examples: &Examples) -> Map<String, Value> {
    let mut schemas = Map::new();
    let (spec, defs) = embeddable(spec_schema(), "Spec");
    schemas.insert("Spec".into(), spec);
    schemas.extend(defs);
    let (changelog, defs) = embeddable(changelog_schema(), "Changelog");
    schemas.insert("Changelog".into(), changelog);
    schemas.extend(defs);
    schemas.insert("Comparison".into(), comparison_schema());
    schemas.insert(
        "Previews".into(),
        json!({
            "type": "object",
            "properties": {
                "enabled": {"type": "boolean"},
                "branches": {"type": "string", "description": "The glob of `--preview-branches`"},
                "limit": {"type": "integer", "minimum": 1},
                "publishedBranch": {"type": "string"},
                "previews": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "pattern": "^[a-z0-9-]+$"},
                        "branch": {"type": "string"},
                        "commit": {"type": "string"},
                        "date": {"type": "string", "format": "date-time"},
                        "url": {"type": "string", "format": "uri"},
                        "brands": {"type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "slug": {"type": "string"},
                                "state": {"enum": ["added", "changed", "unchanged", "removed", "invalid", "building"]},
                                "level": {"enum": ["major", "minor", "patch", null]},
                                "summary": {"type": "string"},
                                "errors": {"type": "integer", "minimum": 0}
                            },
                            "required": ["slug", "state", "level", "summary", "errors"]
                        }}
                    },
                    "required": ["name", "branch", "commit", "date", "url", "brands"]
                }}
            },
            "required": ["enabled", "previews"]
        }),
    );
    schemas.insert(
        "Problem".into(),
        json!({
            "description": "RFC 9457 problem details",
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "title": {"type": "string"},
                "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "detail": {"type": "string"},
                "instance": {"type": "string"}
            },
            "required": ["type", "title", "status", "detail"]
        }),
    );
    demo_schemas(&mut schemas, examples);
    token_schemas(&mut schemas);
    schemas
}

/// The schemas of the demo (its request and answer) and of the documents
/// about all brands.
fn demo_schemas(schemas: &mut Map<String, Value>, examples: &Examples) {
    schemas.insert(
        "DemoProblem".into(),
        json!({
            "allOf": [r("schemas", "Problem")],
            "properties": {
                "errors": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"pointer": {"type": "string"}, "message": {"type": "string"}},
                    "required": ["pointer", "message"]
                }},
                "promptIds": {"type": "array", "items": {"type": "string"}},
                "missing": {"type": "array", "items": {"type": "string"}},
                "unknown": {"type": "array", "items": {"type": "string"}},
                "tooLong": {"type": "array", "items": {"type": "object"}},
                "invalid": {"type": "array", "items": {"type": "string"}}
            }
        }),
    );
    let mut request = json!({
        "type": "object",
        "properties": {
            "promptId": {"type": "string", "description": "The id of a prompt of the brand's prompt kit"},
            "variables": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "The prompt's variables, each a string within its maxLength"
            }
        },
        "required": ["promptId"],
        "additionalProperties": false
    });
    if let Some(demo) = &examples.demo {
        request["examples"] = json!([demo]);
    }
    schemas.insert("DemoRequest".into(), request);
    schemas.insert(
        "DemoResult".into(),
        json!({
            "type": "object",
            "properties": {
                "brand": {"type": "string"},
                "specVersion": {"type": "string"},
                "promptId": {"type": "string"},
                "provider": {"enum": ["openai", "anthropic", "dry-run"]},
                "model": {"type": "string"},
                "output": {"type": ["string", "null"]},
                "usage": {
                    "type": "object",
                    "properties": {
                        "inputTokens": {"type": "integer", "minimum": 0},
                        "outputTokens": {"type": "integer", "minimum": 0},
                        "estimated": {"type": "boolean", "description": "Dry run only: the counts are marque's estimate (about four characters a token)"}
                    },
                    "required": ["inputTokens", "outputTokens"]
                },
                "latencyMs": {"type": "integer", "minimum": 0},
                "messages": {
                    "description": "Dry run only: the messages a model would get",
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"role": {"enum": ["system", "user"]}, "content": {"type": "string"}},
                        "required": ["role", "content"]
                    }
                },
                "request": {
                    "description": "Dry run only: the request body an OpenAI-compatible chat completions API would get (model, messages, max_tokens, temperature, stream)",
                    "type": "object"
                }
            },
            "required": ["brand", "specVersion", "promptId", "provider", "model", "output", "usage", "latencyMs"]
        }),
    );
    schemas.insert(
        "Brands".into(),
        json!({
            "type": "object",
            "properties": {"brands": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "slug": {"type": "string"},
                    "name": {"type": "string"},
                    "version": {"type": "string"},
                    "updated": {"type": "string", "format": "date"},
                    "summary": {"type": "string"},
                    "links": {"type": "object", "additionalProperties": {"type": "string", "format": "uri"}}
                },
                "required": ["slug", "name", "version", "updated", "links"]
            }}},
            "required": ["brands"]
        }),
    );
    schemas.insert(
        "Status".into(),
        json!({
            "type": "object",
            "properties": {
                "ready": {"type": "boolean", "description": "built, every brand has had its first outcome, and every body has its gzip coding: what /readyz says"},
                "brotliPending": {"type": "boolean", "description": "brotli codings are still being added to a first build's bodies; until each has one, a client that takes `br` gets gzip"},
                "generation": {"type": "integer"},
                "revision": {"type": ["string", "null"], "description": "git mode: the commit being served"},
                "demoLimiter": {
                    "type": "object",
                    "description": "Which limiter decides the demo: `shared` (Redis), `local-fallback` (Redis configured but not answering), `local` (no Redis)",
                    "properties": {
                        "mode": {"enum": ["shared", "local-fallback", "local"]},
                        "redis": {"type": "boolean"},
                        "decidedByRedis": {"type": "integer", "minimum": 0},
                        "decidedLocally": {"type": "integer", "minimum": 0}
                    },
                    "required": ["mode", "redis"]
                },
                "brands": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "slug": {"type": "string"},
                        "state": {"enum": ["ok", "stale", "unpublished"]},
                        "building": {"type": "boolean", "description": "its latest change is still being checked and rendered; what is served is the version before"},
                        "kinds": {"type": "array", "items": r("schemas", "DiagnosticKind")},
                        "diagnostics": {"type": "array", "items": r("schemas", "Diagnostic")}
                    },
                    "required": ["slug", "state"]
                }},
                "unpublished": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "slug": {"type": "string"},
                        "kinds": {"type": "array", "items": r("schemas", "DiagnosticKind")},
                        "diagnostics": {"type": "array", "items": r("schemas", "Diagnostic")}
                    },
                    "required": ["slug"]
                }},
                "contentDiagnostics": {"type": "array", "items": r("schemas", "Diagnostic")}
            },
            "required": ["brands", "demoLimiter"]
        }),
    );
    diagnostic_schemas(schemas);
}

/// A diagnostic as /status reports it, and its kinds counted.
fn diagnostic_schemas(schemas: &mut Map<String, Value>) {
    let code = json!({
        "type": "string",
        "pattern": "^MQ[0-9]{4}$",
        "description": "The diagnostic's stable code (such as `MQ1201`): what kind of problem it is, whatever the message's wording. Its severity is always the code's. The README's index of codes says what each means and how to fix it"
    });
    let severity = json!({"enum": ["error", "warning"]});
    schemas.insert(
        "Diagnostic".into(),
        json!({
            "description": "One problem found in the content, with where it is",
            "type": "object",
            "properties": {
                "severity": severity,
                "code": code,
                "brand": {"type": "string", "description": "the brand's slug (empty for the content folder itself)"},
                "file": {"type": "string", "description": "the file, relative to the content root"},
                "pointer": {"type": "string", "description": "RFC 6901 JSON Pointer into the file (empty for the whole file)"},
                "line": {"type": "integer", "minimum": 1},
                "column": {"type": "integer", "minimum": 1},
                "message": {"type": "string"},
                "inherited": {
                    "type": "object",
                    "description": "A brand of a family (DESIGN.md section 18): the problem is in a file of the parent `brand`, at the `version` this brand is built over, reached through the parents in `through` (nearest this brand first)",
                    "required": ["brand", "version", "through"],
                    "properties": {
                        "brand": {"type": "string"},
                        "version": {"type": "string"},
                        "through": {"type": "array", "items": {"type": "string"}}
                    }
                }
            },
            "required": ["severity", "code", "brand", "file", "pointer", "line", "column", "message"]
        }),
    );
    schemas.insert(
        "DiagnosticKind".into(),
        json!({
            "description": "A brand's diagnostics of one kind (one code, one wording but for what it quotes), counted",
            "type": "object",
            "properties": {
                "severity": severity,
                "code": code,
                "message": {"type": "string", "description": "the message with what it quotes elided"},
                "count": {"type": "integer", "minimum": 1}
            },
            "required": ["severity", "code", "message", "count"]
        }),
    );
}

/// The token documents: the Figma body and the strict DTCG exports.
fn token_schemas(schemas: &mut Map<String, Value>) {
    schemas.insert("Family".into(), crate::render::schemas::family_schema());
    schemas.insert(
        "FigmaVariablesBody".into(),
        json!({
            "description": "A request body for Figma's POST /v1/files/{file_key}/variables, sendable as is",
            "type": "object",
            "properties": {
                "variableCollections": {"type": "array"},
                "variableModes": {"type": "array"},
                "variables": {"type": "array"},
                "variableModeValues": {"type": "array"}
            },
            "required": ["variableCollections", "variables", "variableModeValues"]
        }),
    );
    schemas.insert(
        "DtcgTokens".into(),
        json!({
            "description": "Design tokens in strict W3C DTCG format 2025.10 (the brand's default mode): groups of tokens, each with an explicit `$type` and `$value`, aliases as `{group.token}`. What 2025.10 has no form for (`string` tokens, lengths in em, %, vw or vh) is left out and listed among the brand's warnings in /status",
            "type": "object",
            "externalDocs": {"url": "https://www.designtokens.org/tr/2025.10/format/"}
        }),
    );
    schemas.insert(
        "DtcgResolver".into(),
        json!({
            "description": "Every mode of the brand's tokens as one self-contained DTCG Resolver Module 2025.10 document: the set `tokens` (the default mode) and, per modifier, each context with the tokens that differ there, inlined",
            "type": "object",
            "properties": {
                "version": {"const": "2025.10"},
                "sets": {"type": "object"},
                "modifiers": {"type": "object"},
                "resolutionOrder": {"type": "array"}
            },
            "required": ["version", "resolutionOrder"],
            "externalDocs": {"url": "https://www.designtokens.org/tr/2025.10/resolver/"}
        }),
    );
}
