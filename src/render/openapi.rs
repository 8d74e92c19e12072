//! `/openapi.json`: an OpenAPI 3.1 description of every path marque serves.
//!
//! Built from the tables the server itself uses: the brand surfaces and
//! their media types from [`Surface::ALL`], the demo's statuses from the
//! demo's error table ([`demo::DEMO_STATUSES`]), the JSON Schemas of spec.json and
//! changelog.json from [`super::schemas`]; the MCP endpoint is named, with
//! a link to its protocol, only when the server answers it. The parts written here by hand (headers, the
//! root documents, the webhook) are checked against the running server by
//! the tests and by Schemathesis (`just contract`).
//!
//! Rendered with each snapshot, so the examples name brands this server
//! actually publishes; nothing else in it depends on the content.

use super::schemas::{
    changelog_schema, comparison_schema, spec_schema, CHANGELOG_SCHEMA_PATH, SPEC_SCHEMA_PATH,
};
use super::{Context, Surface, SCHEMA_PATH};
use serde_json::{json, Map, Value};

pub mod demo;

use demo::{demo_operation, demo_responses, PromptShape};

/// What the document's examples use: slugs and versions this server
/// publishes, and one demo call that runs.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Examples {
    pub slugs: Vec<String>,
    pub versions: Vec<String>,
    /// An asset of the first slug, relative to its `assets/` folder.
    pub file: Option<String>,
    /// `{"promptId": …, "variables": {…}}` of a prompt of the first slug.
    pub demo: Option<Value>,
    /// Every published brand with a prompt kit, and its prompts: each gets
    /// a demo operation whose body names exactly its prompts and variables.
    pub prompts: Vec<(String, Vec<PromptShape>)>,
}

pub fn render(ctx: &Context, examples: &Examples) -> String {
    let mut paths = Map::new();
    root_paths(&mut paths, ctx);
    brand_paths(&mut paths, "", "current");
    brand_paths(&mut paths, "@{version}", "released");
    operations(&mut paths, examples);
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "marque",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "Brand books as machine-readable surfaces, published from git.",
            "description": "Every brand's spec, design tokens, discovery file, API page and embed card, and a rate-limited prompt demo. Every GET surface is rendered and compressed when a snapshot is built: it has a strong ETag per coding (`If-None-Match` gives 304), `Cache-Control`, `Vary: Accept-Encoding`, CORS for any origin and `nosniff`; HEAD answers the same headers without a body and OPTIONS answers a CORS preflight (204). Unknown paths, brands and versions answer 404 with an RFC 9457 problem body; a path that exists answers other methods with 405 and `Allow`.",
            "license": {"name": "MIT", "identifier": "MIT"}
        },
        "servers": [{"url": ctx.public_url}],
        "tags": [
            {"name": "surfaces", "description": "A brand's documents, current and released"},
            {"name": "discovery", "description": "Documents about every brand"},
            {"name": "demo", "description": "Run a prompt of a brand's prompt kit"},
            {"name": "operations", "description": "Health, status, metrics, reload events and the git webhook"}
        ],
        "paths": paths,
        "components": components(ctx, examples),
    });
    if ctx.mcp {
        // Named, not described: see `operations`.
        if let Some(Value::String(d)) = doc.pointer_mut("/info/description") {
            d.push_str(" The Model Context Protocol server at `/mcp` is not described here: it speaks JSON-RPC in sessions over the Streamable HTTP transport (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports), which an MCP client, not an OpenAPI client, knows how to call.");
        }
    }
    serde_json::to_string_pretty(&doc).expect("serialisable") + "\n"
}

/// A `$ref` to a component.
fn r(kind: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{kind}/{name}") })
}

/// The headers every snapshot document carries, and the ETag ones.
fn document_headers(cacheable: bool) -> Value {
    let mut h = json!({
        "ETag": r("headers", "ETag"),
        "Cache-Control": r("headers", "Cache-Control"),
        "Vary": r("headers", "Vary"),
        "Access-Control-Allow-Origin": r("headers", "Access-Control-Allow-Origin"),
        "X-Content-Type-Options": r("headers", "X-Content-Type-Options"),
    });
    if cacheable {
        h["Content-Encoding"] = r("headers", "Content-Encoding");
    }
    h
}

/// A GET of a snapshot document: 200 with `media` and `schema`, 304, 404.
fn document_get(summary: &str, tag: &str, media: &str, schema: Value, params: &[&str]) -> Value {
    let mut parameters: Vec<Value> = params.iter().map(|p| r("parameters", p)).collect();
    parameters.push(r("parameters", "If-None-Match"));
    parameters.push(r("parameters", "Accept-Encoding"));
    json!({
        "tags": [tag],
        "summary": summary,
        "parameters": parameters,
        "responses": {
            "200": {
                "description": summary,
                "headers": document_headers(true),
                "content": { media: { "schema": schema } }
            },
            "304": r("responses", "NotModified"),
            "404": r("responses", "NotFound"),
        }
    })
}

fn get(op: Value) -> Value {
    json!({ "get": op })
}

fn text() -> Value {
    json!({"type": "string"})
}

fn root_paths(paths: &mut Map<String, Value>, ctx: &Context) {
    let mut put = |path: &str, item: Value| {
        paths.insert(path.to_string(), item);
    };
    put(
        "/",
        get(document_get(
            "Index of every brand, for people",
            "discovery",
            "text/html; charset=utf-8",
            text(),
            &[],
        )),
    );
    put(
        "/brands.json",
        get(document_get(
            "Every published brand with its version and links",
            "discovery",
            "application/json",
            r("schemas", "Brands"),
            &[],
        )),
    );
    put(
        "/llms.txt",
        get(document_get(
            "Discovery file listing every brand (llmstxt.org)",
            "discovery",
            "text/plain; charset=utf-8",
            text(),
            &[],
        )),
    );
    put(
        "/openapi.json",
        get(document_get(
            "This document",
            "discovery",
            "application/json",
            json!({"type": "object"}),
            &[],
        )),
    );
    for (path, what) in [
        (SCHEMA_PATH, "JSON Schema of brand.json, the source format"),
        (SPEC_SCHEMA_PATH, "JSON Schema of spec.json"),
        (CHANGELOG_SCHEMA_PATH, "JSON Schema of changelog.json"),
    ] {
        put(
            path,
            get(document_get(
                what,
                "discovery",
                "application/schema+json",
                json!({"type": "object"}),
                &[],
            )),
        );
    }
    let plain = |summary: &str, ok: &str| {
        json!({
            "tags": ["operations"],
            "summary": summary,
            "responses": {
                "200": {
                    "description": ok,
                    "headers": {"Cache-Control": r("headers", "Cache-Control")},
                    "content": {"text/plain; charset=utf-8": {"schema": {"const": "ok\n"}}}
                }
            }
        })
    };
    put("/healthz", get(plain("Liveness", "The process answers")));
    let mut ready = plain("Readiness", "The first snapshot is served");
    ready["responses"]["503"] = json!({
        "description": "The first snapshot has not been built yet",
        "headers": {"Retry-After": r("headers", "Retry-After")},
        "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
    });
    put("/readyz", get(ready));
    put(
        "/status",
        get(json!({
            "tags": ["operations"],
            "summary": "The serving revision, the last build and every brand's state and diagnostics",
            "responses": {
                "200": {
                    "description": "Status (never cached)",
                    "headers": document_headers(false),
                    "content": {"application/json": {"schema": r("schemas", "Status")}}
                },
                "304": r("responses", "NotModified"),
            },
            "parameters": [r("parameters", "If-None-Match"), r("parameters", "Accept-Encoding")]
        })),
    );
    let mut previews = document_get(
        "Branch previews: each previewed branch, its commit and what it changes",
        "discovery",
        "application/json",
        r("schemas", "Previews"),
        &[],
    );
    previews["description"] = json!("In git mode with `--preview-branches GLOB`, every matching branch is served under `/preview/<name>/…` (the branch name lower-cased, every character outside `a-z`, `0-9` and `-` made `-`) with every surface of every brand, `Cache-Control: no-store` and `X-Robots-Tag: noindex`, and its prompt kit's demo at `POST /preview/<name>/api/brand-spec/<slug>/demo`. Otherwise `enabled` is false and the list is empty.");
    put("/previews.json", get(previews));
    put(
        "/metrics",
        get(json!({
            "tags": ["operations"],
            "summary": "Prometheus metrics",
            "responses": {"200": {
                "description": "Text exposition format 0.0.4",
                "headers": {"Cache-Control": r("headers", "Cache-Control")},
                "content": {"text/plain; version=0.0.4; charset=utf-8": {"schema": text()}}
            }}
        })),
    );
    put(
        "/events",
        get(json!({
            "tags": ["operations"],
            "summary": "Server-sent events: one `snapshot` event now and one per new snapshot",
            "description": "Open pages reload on each event. Only while marque watches a content folder.",
            "responses": {
                "200": {
                    "description": "An endless event stream of `snapshot` events; `data` is the snapshot's generation",
                    "content": {"text/event-stream": {"schema": event("snapshot", json!({
                        "type": "object",
                        "properties": {"generation": {"type": "integer", "minimum": 0}},
                        "required": ["generation"]
                    }))}}
                },
                "404": r("responses", "NotFound"),
            }
        })),
    );
    let _ = ctx;
}

/// The GET paths of a brand; `pin` is `""` for the current version or
/// `"@{version}"` for a released one.
fn brand_paths(paths: &mut Map<String, Value>, pin: &str, which: &str) {
    let params: &[&str] = if pin.is_empty() {
        &["slug"]
    } else {
        &["slug", "version"]
    };
    let key = format!("{{slug}}{pin}");
    let immutable = if pin.is_empty() {
        ""
    } else {
        " Immutable: `Cache-Control: public, max-age=31536000, immutable`."
    };
    for s in Surface::ALL {
        let schema = match s {
            Surface::SpecJson => r("schemas", "Spec"),
            Surface::TokensFigma => r("schemas", "FigmaVariablesBody"),
            _ => text(),
        };
        let mut op = document_get(
            &format!("The {which} version's {}: {}", s.file(), s.label()),
            "surfaces",
            s.media_type(),
            schema,
            params,
        );
        op["description"] = json!(format!("Served as `{}`.{immutable}", s.media_type()));
        paths.insert(format!("/brand/{key}/{}", s.file()), get(op));
    }
    let mut page = document_get(
        &format!("The {which} version's API page, for people"),
        "surfaces",
        "text/html; charset=utf-8",
        text(),
        params,
    );
    page["responses"]["200"]["headers"]["Content-Security-Policy"] =
        r("headers", "Content-Security-Policy");
    if pin.is_empty() {
        page["responses"]["404"] = json!({
            "description": "No such brand; a brand that exists but is not published answers a browser (`Accept: text/html`) with a page listing its errors",
            "content": {
                "application/problem+json": {"schema": r("schemas", "Problem")},
                "text/html; charset=utf-8": {"schema": text()}
            }
        });
    }
    paths.insert(format!("/brand/{key}"), get(page));
    paths.insert(
        format!("/brand/{key}/"),
        get(json!({
            "tags": ["surfaces"],
            "summary": "Redirects to the API page without the trailing slash",
            "parameters": params.iter().map(|p| r("parameters", p)).collect::<Vec<_>>(),
            "responses": {
                "308": {
                    "description": "Permanent redirect",
                    "headers": {"Location": r("headers", "Location")}
                },
                "404": r("responses", "NotFound"),
            }
        })),
    );
    paths.insert(
        format!("/embed/brand/{key}"),
        get(document_get(
            &format!("The {which} version's embed script: renders a brand card into every element with `data-marque-brand`"),
            "surfaces",
            "text/javascript; charset=utf-8",
            text(),
            params,
        )),
    );
    let mut asset_params = params.to_vec();
    asset_params.push("file");
    let mut asset = document_get(
        &format!("A logo file or asset of the {which} version"),
        "surfaces",
        "application/octet-stream",
        json!({"type": "string", "contentMediaType": "application/octet-stream"}),
        &asset_params,
    );
    asset["description"] = json!("Served with the media type of its extension (SVG with a sandboxing `Content-Security-Policy`).");
    asset["responses"]["200"]["content"] = json!({"*/*": {"schema": {}}});
    paths.insert(format!("/brand/{key}/assets/{{file}}"), get(asset));
    if pin.is_empty() {
        paths.insert("/brand/{slug}/compare/{range}".into(), get(compare()));
        paths.insert(
            "/brand/{slug}/changelog.md".into(),
            get(document_get(
                "Releases from git tags, Keep a Changelog style",
                "surfaces",
                "text/markdown; charset=utf-8",
                text(),
                params,
            )),
        );
        paths.insert(
            "/brand/{slug}/changelog.json".into(),
            get(document_get(
                "Releases from git tags",
                "surfaces",
                "application/json",
                r("schemas", "Changelog"),
                params,
            )),
        );
    }
}

/// `/brand/{slug}/compare/{range}`: a document computed on first request.
fn compare() -> Value {
    json!({
        "tags": ["surfaces"],
        "summary": "The semantic diff between two versions of a brand",
        "description": "Tokens, CSS custom properties, palette, typography, logos, contrast pairs, prompts and texts added, changed or removed, each with the semver level it requires. Immutable (`public, max-age=31536000, immutable`) when both sides are releases.",
        "parameters": [
            r("parameters", "slug"),
            {
                "name": "range", "in": "path", "required": true,
                "description": "`<a>...<b>`, each side a released version or `current`, optionally followed by `.json` or `.md` to choose the format (else `Accept` chooses: `text/markdown`, or JSON)",
                "schema": {"type": "string", "pattern": "^.+\\.\\.\\..+$"},
                "example": "current...current.json"
            },
            {
                "name": "Accept", "in": "header",
                "description": "`text/markdown` for Markdown when the range has no suffix",
                "schema": {"type": "string"}
            },
            r("parameters", "If-None-Match"),
            r("parameters", "Accept-Encoding"),
        ],
        "responses": {
            "200": {
                "description": "The changes, newest side `b`",
                "headers": document_headers(true),
                "content": {
                    "application/json": {"schema": r("schemas", "Comparison")},
                    "text/markdown; charset=utf-8": {"schema": text()}
                }
            },
            "304": r("responses", "NotModified"),
            "404": r("responses", "NotFound"),
        }
    })
}

/// One server-sent event (as OpenAPI 3.1 reads a `text/event-stream`
/// schema: each event an object of `event` and `data`), its data JSON of
/// `data` schema.
fn event(name: &str, data: Value) -> Value {
    json!({
        "type": "object",
        "properties": {
            "event": {"const": name},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data},
            "id": {"type": "string"},
            "retry": {"type": "integer"}
        },
        "required": ["event", "data"]
    })
}

/// The operations that are not snapshot documents: each brand's demo, the
/// webhook. MCP is a session protocol over JSON-RPC that OpenAPI cannot
/// describe (its required `Accept`, one session per `initialize`), so it
/// is named in the document's description with a link to the protocol,
/// and left out of the operations (see the README).
fn operations(paths: &mut Map<String, Value>, examples: &Examples) {
    for (slug, prompts) in &examples.prompts {
        paths.insert(
            format!("/api/brand-spec/{slug}/demo"),
            json!({"post": demo_operation(slug, prompts)}),
        );
    }
    paths.insert(
        "/hooks/git".into(),
        json!({"post": {
            "tags": ["operations"],
            "summary": "Push webhook: fetch the served branch now",
            "description": "Git mode with `--webhook-secret` only. GitHub: `X-Hub-Signature-256: sha256=<hex>` (HMAC-SHA256 of the raw body); Gitea and Forgejo: `X-Gitea-Signature` or `X-Forgejo-Signature` (hex HMAC); GitLab: `X-Gitlab-Token`. The payload is only a hint: marque fetches and resolves the branch itself, and repeated deliveries coalesce into one fetch.",
            "parameters": [
                {"name": "X-Hub-Signature-256", "in": "header", "schema": {"type": "string", "pattern": "^sha256=[0-9a-f]{64}$"}},
                {"name": "X-Gitea-Signature", "in": "header", "schema": {"type": "string"}},
                {"name": "X-Forgejo-Signature", "in": "header", "schema": {"type": "string"}},
                {"name": "X-Gitlab-Token", "in": "header", "schema": {"type": "string"}}
            ],
            "requestBody": {"content": {"application/json": {"schema": {}}}},
            "responses": {
                "202": {
                    "description": "Verified; a fetch is scheduled",
                    "content": {"application/json": {"schema": {
                        "type": "object",
                        "properties": {"status": {"const": "accepted"}},
                        "required": ["status"]
                    }}}
                },
                "401": r("responses", "Problem"),
                "404": {
                    "description": "The webhook is off (not git mode, or no secret)",
                    "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
                },
                "408": r("responses", "Problem"),
                "413": r("responses", "Problem"),
                "503": {
                    "description": "Too many deliveries are being read at once",
                    "headers": {"Retry-After": r("headers", "Retry-After")},
                    "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
                }
            }
        }}),
    );
}

fn components(ctx: &Context, examples: &Examples) -> Value {
    let mut c = components_base(ctx, examples);
    if let Some(responses) = c["responses"].as_object_mut() {
        demo_responses(responses);
    }
    c
}

fn components_base(ctx: &Context, examples: &Examples) -> Value {
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
                                "state": {"enum": ["added", "changed", "unchanged", "removed", "invalid"]},
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
                "ready": {"type": "boolean"},
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
                        "state": {"enum": ["ok", "stale", "unpublished"]}
                    },
                    "required": ["slug", "state"]
                }}
            },
            "required": ["brands", "demoLimiter"]
        }),
    );
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
            "Cache-Control": {"description": format!("`public, max-age={}` for current documents, `public, max-age=31536000, immutable` for released versions, `no-store` for status", ctx.max_age), "required": true, "schema": {"type": "string"}},
            "Vary": {"description": "`Accept, Accept-Encoding` where the format is negotiated (a comparison without a `.md` or `.json` suffix)", "required": true, "schema": {"enum": ["Accept-Encoding", "Accept, Accept-Encoding"]}},
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_surface_is_described_current_and_released() {
        let doc: Value = serde_json::from_str(&render(
            &Context::new("https://b.example"),
            &Examples::default(),
        ))
        .unwrap();
        for s in Surface::ALL {
            for key in ["{slug}", "{slug}@{version}"] {
                let op = &doc["paths"][format!("/brand/{key}/{}", s.file())]["get"];
                assert!(
                    op["responses"]["200"]["content"][s.media_type()].is_object(),
                    "{key} {s:?}"
                );
            }
        }
        assert!(doc["paths"].get("/mcp").is_none());
    }

    #[test]
    fn mcp_is_named_with_its_protocol_only_when_it_answers_and_never_an_operation() {
        let mut ctx = Context::new("https://b.example");
        for mcp in [false, true] {
            ctx.mcp = mcp;
            let doc: Value = serde_json::from_str(&render(&ctx, &Examples::default())).unwrap();
            let named = doc["info"]["description"]
                .as_str()
                .unwrap()
                .contains("modelcontextprotocol.io");
            assert_eq!(named, mcp);
            assert!(doc["paths"].get("/mcp").is_none());
        }
    }

    #[test]
    fn embedded_schemas_refer_only_to_components() {
        let text = render(&Context::new("https://b.example"), &Examples::default());
        assert!(!text.contains("#/$defs/"));
        let doc: Value = serde_json::from_str(&text).unwrap();
        for (name, _) in doc["components"]["schemas"].as_object().unwrap() {
            assert!(!name.contains('/'));
        }
        assert!(doc["components"]["schemas"]["Spec.reference"].is_object());
    }
}
