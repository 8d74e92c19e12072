//! `/openapi.json`: an OpenAPI 3.1 description of every path marque serves.
//!
//! Built from the tables the server itself uses: the brand surfaces and
//! their media types from [`Surface::ALL`], the demo's statuses from the
//! demo's refusals ([`crate::paths::Refusal`]), the JSON Schemas of spec.json and
//! changelog.json from [`super::schemas`]; the MCP endpoint is named, with
//! a link to its protocol, only when the server answers it. The parts written here by hand (headers, the
//! root documents, the webhook) are checked against the running server by
//! the tests and by Schemathesis (`just contract`).
//!
//! Rendered with each snapshot, so the examples name brands this server
//! actually publishes; nothing else in it depends on the content.

use super::schemas::{CHANGELOG_SCHEMA_PATH, SPEC_SCHEMA_PATH};
use super::{Context, Surface, SCHEMA_PATH};
use crate::paths as url;
use serde_json::{json, Map, Value};

mod components;
pub mod demo;

use components::components;
use demo::{demo_operation, PromptShape};

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
    codes_path(&mut paths);
    page_asset_paths(&mut paths, ctx);
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
            {"name": "apps", "description": "A brand's tokens for native apps: Android resources, an iOS asset catalogue, an npm package of each release"},
            {"name": "discovery", "description": "Documents about every brand"},
            {"name": "demo", "description": "Run a prompt of a brand's prompt kit"},
            {"name": "operations", "description": "Health, status, metrics, reload events and the git webhook"}
        ],
    });
    // Moved in, not interpolated: `json!` serialises what it is given into
    // a new value, a deep copy of a demo operation per brand.
    doc["paths"] = Value::Object(paths);
    doc["components"] = components(ctx, examples);
    // Every request may carry an access token (DESIGN.md §20): it opens
    // private brands, embargoed versions and protected previews.
    doc["components"]["securitySchemes"] = json!({"accessToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "An access token from the server's `--access-tokens` file (`marque token` makes one). Optional: without it, a private brand or a version under embargo answers as one that does not exist (404). With it, what only its holder sees is `Cache-Control: private, no-store`. A token that is valid nowhere counts as a failed attempt: after 10 in a minute, a client gets 429 with `Retry-After`. Browsers sign in at `/signin` for a session cookie instead."
    }});
    doc["security"] = json!([{}, {"accessToken": []}]);
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
        url::INDEX,
        get(document_get(
            "Index of every brand, for people",
            "discovery",
            "text/html; charset=utf-8",
            text(),
            &[],
        )),
    );
    put(
        url::BRANDS_JSON,
        get(document_get(
            "Every published brand with its version and links",
            "discovery",
            "application/json",
            r("schemas", "Brands"),
            &[],
        )),
    );
    put(
        url::LLMS_TXT,
        get(document_get(
            "Discovery file listing every brand (llmstxt.org)",
            "discovery",
            "text/plain; charset=utf-8",
            text(),
            &[],
        )),
    );
    put(
        url::OPENAPI,
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
    put(url::HEALTHZ, get(plain("Liveness", "The process answers")));
    let mut ready = plain("Readiness", "The first snapshot is served");
    ready["responses"]["503"] = json!({
        "description": "The first snapshot has not been built yet",
        "headers": {"Retry-After": r("headers", "Retry-After")},
        "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
    });
    put(url::READYZ, get(ready));
    put(
        url::STATUS,
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
    previews["description"] = json!("In git mode with `--preview-branches GLOB`, every matching branch is served under `/preview/<name>/…` (the branch name lower-cased, every character outside `a-z`, `0-9` and `-` made `-`) with every surface of every brand, compare (`/preview/<name>/brand/<slug>/compare/<a>...<b>`, its `current` the preview's) and the releases its changelogs link (`/preview/<name>/brand/<slug>@<version>/…`, the published release's documents), `Cache-Control: no-store` and `X-Robots-Tag: noindex`, and its prompt kit's demo at `POST /preview/<name>/api/brand-spec/<slug>/demo`. Otherwise `enabled` is false and the list is empty.");
    put(url::PREVIEWS_JSON, get(previews));
    put(
        url::METRICS,
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
        url::EVENTS,
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

/// `/codes`: every diagnostic code under its anchor (`/codes#mq1501`),
/// where the `helpUri` of `marque check --format sarif --public-url` points.
fn codes_path(paths: &mut Map<String, Value>) {
    let mut op = document_get(
        "Every diagnostic code: what it means and how to fix it",
        "discovery",
        "text/html; charset=utf-8",
        text(),
        &[],
    );
    op["description"] = json!("One page of this marque's diagnostic codes, each under its lower-case anchor (`/codes#mq1501`): the code, its name, its severity, what it means and how to fix it. SARIF from `marque check --format sarif --public-url <this server>` links each rule here (`helpUri`).");
    paths.insert(url::CODES.to_string(), get(op));
}

/// What every page shares, by the names the pages of `ctx` link to.
fn page_asset_paths(paths: &mut Map<String, Value>, ctx: &Context) {
    for asset in super::html::assets::all(ctx) {
        let what = if asset.path.ends_with(".css") {
            "The stylesheet every page shares"
        } else if asset.path == super::html::assets::live().path {
            "The live-reload script every page runs while marque watches a content folder"
        } else {
            "The script every page runs"
        };
        let mut op = document_get(what, "discovery", asset.media_type, text(), &[]);
        op["description"] = json!("Named by a hash of its bytes: a path never serves other bytes, so it is immutable (`Cache-Control: public, max-age=31536000, immutable`). The pages link to the name of this build of marque; another name answers 404.");
        paths.insert(asset.path.clone(), get(op));
    }
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
            Surface::TokensJson => r("schemas", "DtcgTokens"),
            Surface::TokensResolver => r("schemas", "DtcgResolver"),
            Surface::FamilyJson => r("schemas", "Family"),
            _ => text(),
        };
        let mut op = document_get(
            &format!("The {which} version's {}: {}", s.file(), s.label()),
            "surfaces",
            s.media_type(),
            schema,
            params,
        );
        let modes = match s {
            Surface::SpecJson => " For a brand with tokens.resolver.json, `modes` names each modifier, its `attribute` and default, and what each context sets apart; a colour pair's `inContexts` gives its contrast in each context that changes it.",
            Surface::SpecMd => " For a brand with modes, a Modes section tables what each context sets apart.",
            Surface::TokensCss => " For a brand with modes, each context follows `:root` as a rule `[data-<modifier>=\"<context>\"]`, for `<html>` or any element; a modifier with contexts light and dark declares `color-scheme` and follows `prefers-color-scheme` unless the page names a context.",
            Surface::TokensFigma => " For a brand with modes, a collection per modifier holds the tokens it changes, with a Figma mode per context.",
            Surface::DesignMd => " Google's DESIGN.md format (version `alpha`): YAML front matter with `colors` (the palette, keyed by the format's role names, and the colour pairs' colours, in sRGB hex), `typography`, `rounded`, `spacing` and a component per colour pair; then prose in the format's section order. Modes are prose under Colors.",
            Surface::FamilyJson => " `extends` names the brand this one extends (with the range it follows, if any, and the parent's version used), `chain` the parents it is built over, nearest first, and `dependents` the public brands that extend it directly. Every surface of a brand of a family is self-contained: its parents' tokens are resolved into it.",
            Surface::TailwindCss => " A Tailwind CSS v4 theme: `@theme` in Tailwind's namespaces (`--color-*`, `--font-*`, `--text-*` with `--line-height`, `--radius-*`, `--spacing-*`, `--shadow-*`, `--ease-*`), what has no namespace listed in the header comment; each non-default context is a `@custom-variant <modifier>-<context>` and a rule `[data-<modifier>=\"<context>\"]`, and a dark context is also `dark:`.",
            _ => "",
        };
        op["description"] = json!(format!("Served as `{}`.{modes}{immutable}", s.media_type()));
        paths.insert(url::brand_doc(&key, s.file()), get(op));
    }
    for o in crate::render::outputs::apps() {
        if o.serves == crate::render::outputs::Serves::Releases && pin.is_empty() {
            continue;
        }
        let (file, media, what) = (o.file, o.media_type, o.label);
        let mut op = document_get(
            &format!("The {which} version's {file}: {what}"),
            "apps",
            media,
            match o.is_binary() {
                true => json!({"type": "string", "format": "binary"}),
                false => text(),
            },
            params,
        );
        op["description"] = json!(format!(
            "Served as `{media}`. Deterministic: the same brand gives the same bytes.{immutable}"
        ));
        paths.insert(url::brand_doc(&key, file), get(op));
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
    paths.insert(url::brand(&key), get(page));
    paths.insert(
        url::brand(&key) + "/",
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
        url::embed(&key),
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
    paths.insert(url::assets(&key) + "{file}", get(asset));
    if pin.is_empty() {
        paths.insert(url::COMPARE_PATTERN.into(), get(compare()));
        // The changelog's forms, from the registry: one per brand, beside
        // its current version.
        let changelogs = crate::render::outputs::OUTPUTS
            .iter()
            .filter(|o| o.kind == crate::render::outputs::Kind::Changelog);
        for o in changelogs {
            let schema = match o.media_type {
                "application/json" => r("schemas", "Changelog"),
                _ => text(),
            };
            let mut op = document_get(
                &format!("The {which} version's {}: {}", o.file, o.label),
                "surfaces",
                o.media_type,
                schema,
                params,
            );
            op["description"] = json!(format!(
                "Served as `{}`: {}. Only beside the current version: a release does not list the releases after it.",
                o.media_type, o.purpose
            ));
            paths.insert(url::brand_doc(&key, o.file), get(op));
        }
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
                "description": "`<a>...<b>`, each side a released version or `current`, optionally followed by `.json` or `.md` to choose the format (else `Accept` chooses: `text/html`, a browser's, for a page with a swatch of each colour; `text/markdown`; or JSON)",
                "schema": {"type": "string", "pattern": "^.+\\.\\.\\..+$"},
                "example": "current...current.json"
            },
            {
                "name": "Accept", "in": "header",
                "description": "`text/html` for a page, `text/markdown` for Markdown, when the range has no suffix",
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
                    "text/markdown; charset=utf-8": {"schema": text()},
                    "text/html; charset=utf-8": {"schema": text()}
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
        let mut post = Map::new();
        post.insert("post".into(), demo_operation(slug, prompts));
        paths.insert(url::demo(slug), Value::Object(post));
    }
    paths.insert(
        url::HOOK_GIT.into(),
        json!({"post": {
            "tags": ["operations"],
            "summary": "Push webhook: fetch the served branch now",
            "description": "Git mode with `--webhook-secret` only. GitHub: `X-Hub-Signature-256: sha256=<hex>` (HMAC-SHA256 of the raw body); Gitea and Forgejo: `X-Gitea-Signature` or `X-Forgejo-Signature` (hex HMAC); GitLab: `X-Gitlab-Token`. The payload is only a hint: marque fetches and resolves the branch itself, and repeated deliveries coalesce into one fetch. A signed body is read in one of a few slots, at most two per client address, and must keep a minimum pace (`--webhook-body-rate` after `--webhook-body-grace`) or it gets 408.",
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
                "429": {
                    "description": "This client address already has its share of deliveries being read",
                    "headers": {"Retry-After": r("headers", "Retry-After")},
                    "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
                },
                "503": {
                    "description": "Too many deliveries are being read at once",
                    "headers": {"Retry-After": r("headers", "Retry-After")},
                    "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
                }
            }
        }}),
    );
    sign_in(paths);
}

/// The sign-in form and its answers: a browser's session for an access
/// token. A server without `--access-tokens` answers them 404.
fn sign_in(paths: &mut Map<String, Value>) {
    let off = json!({
        "description": "The server has no access tokens",
        "content": {"application/problem+json": {"schema": r("schemas", "Problem")}}
    });
    let page = |why: &str| json!({"description": why, "content": {"text/html": {"schema": {"type": "string"}}}});
    let to = json!({
        "description": "Where the browser goes on to, with the session cookie `marque_session` (`HttpOnly; SameSite=Lax; Path=/`, 12 hours, `Secure` behind TLS) or, for `/signout`, the cookie cleared",
        "headers": {
            "Location": r("headers", "Location"),
            "Set-Cookie": {"required": true, "schema": {"type": "string"}}
        }
    });
    paths.insert(
        url::SIGN_IN.into(),
        json!({
            "get": {
                "tags": ["operations"],
                "summary": "The sign-in form",
                "parameters": [{"name": "next", "in": "query", "description": "A path of this server to go on to after signing in", "schema": {"type": "string"}}],
                "responses": {"200": page("The form"), "404": off}
            },
            "post": {
                "tags": ["operations"],
                "summary": "Sign in with an access token",
                "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {
                    "type": "object",
                    "properties": {"token": {"type": "string"}, "next": {"type": "string"}},
                    "required": ["token"]
                }}}},
                "responses": {
                    "303": to,
                    "401": page("The token is valid nowhere: the form again, saying so (a failed attempt)"),
                    "404": off,
                    "413": r("responses", "Problem"),
                    "429": {
                        "description": "Too many failed attempts from this client: the form, saying when to try again",
                        "headers": {"Retry-After": r("headers", "Retry-After")},
                        "content": {"text/html": {"schema": {"type": "string"}}}
                    }
                }
            }
        }),
    );
    paths.insert(
        url::SIGN_OUT.into(),
        json!({"post": {
            "tags": ["operations"],
            "summary": "End the browser's session",
            "responses": {"303": to, "404": off}
        }}),
    );
}

#[cfg(test)]
mod tests;
