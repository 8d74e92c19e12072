//! MCP (the Model Context Protocol) at `/mcp`, over Streamable HTTP with the
//! official Rust SDK: every published brand's surfaces as resources, every
//! prompt of every prompt kit as a prompt, and five tools. Everything is
//! read from the snapshot being served when the call arrives, so a reload
//! or a push is visible to the next call; open sessions are told
//! (`notifications/resources/list_changed`, `…/prompts/list_changed`) when
//! a new snapshot is swapped in.
//!
//! Results are built as the JSON the protocol defines and read into the
//! SDK's types, which keeps this module a plain mapping from the snapshot
//! to the protocol.

pub mod reply;
pub mod sessions;
mod tools;

use super::AppState;
use crate::demo::limit::{ceil_secs, Decision};
use crate::demo::{bind, find_prompt, messages, DemoError};
use crate::paths;
use crate::render::outputs::{Kind, Output, Serves, OUTPUTS};
use crate::render::Surface;
use crate::snapshot::{DemoBrand, Snapshot};
use crate::spec::diag::clipped;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// Largest request body `/mcp` reads (the demo's limit is far below it).
pub const MAX_BODY: usize = 256 * 1024;

/// One MCP session's handler: the shared state, nothing of its own.
#[derive(Clone)]
pub struct Marque {
    app: AppState,
}

impl Marque {
    pub fn new(app: AppState) -> Marque {
        Marque { app }
    }

    /// The snapshot the request of `extensions` sees: its holder's (a
    /// token that is not valid, or a client over its failures, sees what
    /// public readers see).
    fn snapshot(&self, extensions: &rmcp::model::Extensions) -> Arc<Snapshot> {
        let site = self.app.site.load_full();
        self.seen(&site, extensions, |seen| seen.snapshot.clone())
    }

    /// What the request of `extensions` sees of `site` (see
    /// [`super::access::seen`]), given to `f`; a client over its failed
    /// tokens sees what public readers see.
    fn seen<T>(
        &self,
        site: &crate::snapshot::Site,
        extensions: &rmcp::model::Extensions,
        f: impl FnOnce(&super::access::Seen<'_>) -> T,
    ) -> T {
        let seen = extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| {
                let peer = parts
                    .extensions
                    .get::<axum::extract::ConnectInfo<SocketAddr>>()
                    .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
                super::access::seen(&self.app, site, &parts.headers, peer).ok()
            })
            .unwrap_or_else(|| super::access::anonymous(&self.app, site));
        f(&seen)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.app.public_url.trim_end_matches('/'))
    }
}

/// Reads protocol JSON into the SDK's type for it.
fn from_json<T: DeserializeOwned>(v: Value) -> Result<T, McpError> {
    serde_json::from_value(v).map_err(|e| McpError::internal_error(e.to_string(), None))
}

/// The snapshot path a resource URI names: only a URI of this server's
/// public URL, `<public URL>/brand/…`, names one.
fn path_of<'u>(uri: &'u str, public_url: &str) -> Option<&'u str> {
    let path = uri.strip_prefix(public_url.trim_end_matches('/'))?;
    path.starts_with("/brand/").then_some(path)
}

/// The requests of the protocol, by method: a request whose params do not
/// have the method's shape reaches [`Marque::on_custom_request`], and is
/// answered -32602 (invalid params), not -32601 (no such method).
const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
];

/// What a session's lists are made from: each brand and release it
/// sees, by the hash of its input. A notice is sent when this changes.
fn listed(snap: &Snapshot) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut keys: Vec<(&String, &[u8; 32])> =
        snap.models.iter().map(|(k, m)| (k, &m.input)).collect();
    keys.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    keys.hash(&mut h);
    for b in brands(snap) {
        (&b.slug, &b.version, b.prompts.len()).hash(&mut h);
    }
    h.finish()
}

/// Current brands, in slug order.
fn brands(snap: &Snapshot) -> Vec<&Arc<DemoBrand>> {
    let mut all: Vec<&Arc<DemoBrand>> = snap.demo.values().collect();
    all.sort_by(|a, b| a.slug.cmp(&b.slug));
    all
}

/// The body of a snapshot resource, as text.
fn text_of(snap: &Snapshot, path: &str) -> Option<String> {
    let r = snap.get(path)?;
    Some(String::from_utf8_lossy(&r.body()).into_owned())
}

/// spec.json of a current brand, parsed.
fn spec_of(snap: &Snapshot, slug: &str) -> Option<Value> {
    let body = text_of(snap, &paths::brand_doc(slug, "spec.json"))?;
    serde_json::from_str(&body).ok()
}

/// A tool result that the caller reads: text plus structured content.
fn tool_ok(structured: Value) -> CallToolResponse {
    CallToolResponse::Complete(CallToolResult::structured(structured))
}

/// A tool failure the caller reads (not a protocol error).
fn tool_error(message: impl Into<String>) -> CallToolResponse {
    CallToolResponse::Complete(CallToolResult::error(vec![
        rmcp::model::ContentBlock::text(message.into()),
    ]))
}

fn unknown_brand(snap: &Snapshot, slug: &str) -> String {
    let known: Vec<&str> = brands(snap).iter().map(|b| b.slug.as_str()).collect();
    // The list helps a model correct itself; past a screenful it is noise.
    let shown = known.len().min(50);
    let more = if known.len() > shown {
        format!(" and {} more (list_brands)", known.len() - shown)
    } else {
        String::new()
    };
    format!(
        "no brand named \"{}\" is published here; published: {}{more}",
        clipped(slug),
        known[..shown].join(", ")
    )
}

/// The message of a demo error, with what the caller can do about it.
fn demo_message(e: &DemoError) -> String {
    match e {
        DemoError::UnknownPrompt { valid, .. } => {
            format!("{e}; its prompts: {}", valid.join(", "))
        }
        _ => e.to_string(),
    }
}

impl ServerHandler for Marque {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_tools()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new(
                "marque",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Brand books published by marque. Read a brand's spec.md resource \
                 (or get_brand) before writing for it; its prompts are the brand's \
                 own prompt kit; find_tokens and check_contrast answer design questions; \
                 check_code checks styles you write against the brand's tokens before you commit them.",
            )
    }

    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, McpError> {
        let method = request.method.as_str();
        if METHODS.contains(&method) {
            return Err(McpError::invalid_params(
                format!("the params of {method} do not have the shape the protocol defines"),
                None,
            ));
        }
        Err(McpError::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("no method \"{}\"", clipped(method)),
            None,
        ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Sessions and list_changed notifications, as 2025-06-18 and
        // 2025-11-25 define them.
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // Tell this session of every new snapshot it sees a change in (as
        // its holder sees it: what is withheld from it never shows, even
        // as a notice), until it goes away.
        let mut generations = self.app.generations.clone();
        let mut stopping = self.app.stopping.clone();
        let holder = self.seen(&self.app.site.load_full(), &context.extensions, |s| {
            s.holder.clone()
        });
        let app = self.app.clone();
        let seen_by = move || {
            let site = app.site.load_full();
            listed(super::access::as_holder(&app, &site, holder.clone()).snapshot)
        };
        let peer = context.peer;
        tokio::spawn(async move {
            generations.mark_unchanged();
            let mut seen = seen_by();
            loop {
                tokio::select! {
                    changed = generations.changed() => {
                        if changed.is_err() {
                            return;
                        }
                    }
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let now = seen_by();
                if std::mem::replace(&mut seen, now) == seen {
                    continue;
                }
                if peer.notify_resource_list_changed().await.is_err()
                    || peer.notify_prompt_list_changed().await.is_err()
                {
                    return;
                }
            }
        });
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let snap = self.snapshot(&context.extensions);
        let mut resources = Vec::new();
        for b in brands(&snap) {
            // Every output of the registry that the brand has.
            for o in for_agents() {
                let (file, mime, what) = (o.file, o.mime(), o.purpose);
                let path = paths::brand_doc(&b.slug, file);
                let Some(r) = snap.get(&path) else {
                    continue;
                };
                resources.push(json!({
                    "uri": self.url(&path),
                    "name": format!("{}/{file}", b.slug),
                    "title": format!("{} {} {file}", b.slug, b.version),
                    "description": format!("{} {}: {what}", b.slug, b.version),
                    "mimeType": mime,
                    "size": r.len(),
                }));
            }
        }
        from_json(json!({ "resources": resources }))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let mut templates = Vec::new();
        // Every output of the registry, text or blob, at each key that
        // serves it: the current version's, a release's, or both.
        for o in for_agents() {
            let (file, mime, what) = (o.file, o.mime(), o.purpose);
            if o.serves != Serves::Releases {
                templates.push(json!({
                    "uriTemplate": self.url(&paths::brand_doc("{slug}", file)),
                    "name": format!("brand-{file}"),
                    "description": format!("A brand's {file}: {what}"),
                    "mimeType": mime,
                }));
            }
            if o.serves != Serves::Current {
                templates.push(json!({
                    "uriTemplate": self.url(&paths::brand_doc("{slug}@{version}", file)),
                    "name": format!("release-{file}"),
                    "description": format!("A released version's {file} (from a `<slug>@<version>` tag): {what}"),
                    "mimeType": mime,
                }));
            }
        }
        from_json(json!({ "resourceTemplates": templates }))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.clone();
        let snap = self.snapshot(&context.extensions);
        // Only a brand's own documents: /brand/<key>/<surface>.
        let path = path_of(&uri, &self.app.public_url);
        let output = path.and_then(output_of);
        let found = path.filter(|_| output.is_some()).and_then(|p| snap.get(p));
        let Some(r) = found else {
            return Err(McpError::resource_not_found(
                format!(
                    "no resource {}: a brand's URIs are {}/brand/<slug>/<file>, with a file resources/list names (spec.md, spec.json, tokens.css, …)",
                    clipped(&uri),
                    self.app.public_url,
                ),
                None,
            ));
        };
        let mime = r
            .content_type
            .to_str()
            .unwrap_or("text/plain")
            .split(';')
            .next()
            .unwrap_or("text/plain")
            .to_string();
        // An archive is a blob; every other document is text.
        let contents = match output.is_some_and(Output::is_binary) {
            true => json!({ "uri": uri, "mimeType": mime, "blob": base64(&r.body()) }),
            false => {
                let text = String::from_utf8_lossy(&r.body()).into_owned();
                json!({ "uri": uri, "mimeType": mime, "text": text })
            }
        };
        let result: ReadResourceResult = from_json(json!({ "contents": [contents] }))?;
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let snap = self.snapshot(&context.extensions);
        let mut prompts = Vec::new();
        for b in brands(&snap) {
            for p in &b.prompts {
                let arguments: Vec<Value> = p
                    .variables
                    .iter()
                    .map(|v| {
                        let mut a = json!({ "name": v.name, "required": v.required });
                        if let Some(d) = &v.description {
                            a["description"] = json!(d);
                        }
                        a
                    })
                    .collect();
                let mut prompt = json!({
                    "name": format!("{}/{}", b.slug, p.id),
                    "title": format!("{}: {}", b.slug, p.title.clone().unwrap_or_else(|| p.id.clone())),
                    "arguments": arguments,
                });
                if let Some(d) = &p.description {
                    prompt["description"] = json!(d);
                }
                prompts.push(prompt);
            }
        }
        prompts.push(json!({
            "name": CHECK_STYLES,
            "title": "Check styles against the brand before writing them",
            "description": "Tells you to write styles with the brand's token names and to run check_code on what you write before you commit it.",
            "arguments": [{"name": "slug", "description": "The brand's slug.", "required": true}],
        }));
        from_json(json!({ "prompts": prompts }))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let request = serde_json::to_value(&request).unwrap_or_default();
        let name = request["name"].as_str().unwrap_or_default();
        let args = strings(&request["arguments"]);
        let snap = self.snapshot(&context.extensions);
        if name == CHECK_STYLES {
            let slug = args.get("slug").map(String::as_str).unwrap_or_default();
            if tools::brand_of(&snap, slug).is_none() {
                return Err(McpError::invalid_params(unknown_brand(&snap, slug), None));
            }
            let result: GetPromptResult = from_json(json!({
                "description": "Check styles against the brand before writing them.",
                "messages": [{ "role": "user", "content": { "type": "text", "text": check_styles_text(slug) } }]
            }))?;
            return Ok(result.into());
        }
        let Some((slug, id)) = name.split_once('/') else {
            return Err(McpError::invalid_params(
                format!(
                    "prompt names are <brand>/<prompt>, not \"{}\"",
                    clipped(name)
                ),
                None,
            ));
        };
        let Some(brand) = snap.demo.get(slug) else {
            return Err(McpError::invalid_params(unknown_brand(&snap, slug), None));
        };
        let prepared = find_prompt(brand, id)
            .and_then(|p| Ok((p, bind(p, args)?)))
            .and_then(|(p, vars)| Ok((p, messages(brand, p, &vars)?)));
        let (prompt, (system, user)) =
            prepared.map_err(|e| McpError::invalid_params(demo_message(&e), None))?;
        let result: GetPromptResult = from_json(json!({
            "description": prompt.description.clone().unwrap_or_default(),
            "messages": [
                {
                    "role": "user",
                    "content": {
                        "type": "resource",
                        "resource": {
                            "uri": self.url(&paths::brand_doc(slug, "spec.md")),
                            "mimeType": "text/markdown",
                            "text": system,
                        }
                    }
                },
                { "role": "user", "content": { "type": "text", "text": user } }
            ]
        }))?;
        Ok(result.into())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        from_json(json!({ "tools": tools::tools() }))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args: Map<String, Value> = request.arguments.clone().unwrap_or_default();
        // Arguments the schema does not allow are the caller's mistake, told
        // as invalid params before any tool (or run_prompt's rate limit)
        // sees them; a wrong value of the right type stays a tool error.
        tools::check_arguments(request.name.as_ref(), &args)
            .map_err(|message| McpError::invalid_params(message, None))?;
        let snap = self.snapshot(&context.extensions);
        match request.name.as_ref() {
            "list_brands" => Ok(tools::list_brands(&snap)),
            "get_brand" => Ok(tools::get_brand(&snap, &args)),
            "find_tokens" => Ok(tools::find_tokens(&snap, &args)),
            "check_contrast" => Ok(tools::check_contrast(&snap, &args)),
            "check_code" => Ok(tools::check_code(&snap, &args)),
            "run_prompt" => Ok(self.run_prompt(&snap, &args, &context).await),
            other => Err(McpError::invalid_params(
                format!("no tool named \"{}\"; tools: list_brands, get_brand, find_tokens, check_contrast, check_code, run_prompt", clipped(other)),
                None,
            )),
        }
    }
}

/// The prompt that tells an agent to check before it writes styles.
const CHECK_STYLES: &str = "check-styles";

fn check_styles_text(slug: &str) -> String {
    format!(
        "You are writing code styled with the brand `{slug}`. Before you write or change any \
         colour, length, duration or font weight in CSS, Tailwind classes, JS/TS, Swift, Kotlin \
         or Android XML:\n\
         1. Use the brand's tokens by name (find_tokens with slug `{slug}` lists them, with \
         their CSS custom properties), never a literal value.\n\
         2. Call check_code with slug `{slug}`, the code and its language on what you wrote, \
         and apply every finding: write the name it suggests in place of a literal, correct a \
         name that does not exist to the nearest one, replace a deprecated token.\n\
         3. Call check_code again until it answers `clean: true`, then commit."
    )
}

/// A JSON object's members as strings (a non-string as its JSON text), as
/// prompt arguments and demo variables are; empty for anything else.
fn strings(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| {
                    let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    (k.clone(), text)
                })
                .collect()
        })
        .unwrap_or_default()
}

impl Marque {
    /// The client's address, as the demo endpoint sees it.
    fn client(&self, context: &RequestContext<RoleServer>) -> IpAddr {
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let peer = parts
            .and_then(|p| p.extensions.get::<axum::extract::ConnectInfo<SocketAddr>>())
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let none = axum::http::HeaderMap::new();
        let headers = parts.map_or(&none, |p| &p.headers);
        self.app.clients.address(peer, headers)
    }

    async fn run_prompt(
        &self,
        snap: &Snapshot,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let demo = &self.app.demo;
        if let Decision::Limited { retry_after } = demo
            .check(super::client::key_of(self.client(context)))
            .await
        {
            return tool_error(format!(
                "too many demo calls from your address; try again in {} s",
                ceil_secs(retry_after)
            ));
        }
        let (Some(slug), Some(prompt_id)) = (
            tools::str_arg(args, "slug"),
            tools::str_arg(args, "promptId"),
        ) else {
            return tool_error("give the brand's slug and a promptId of its prompt kit");
        };
        let Some(brand) = snap.demo.get(slug) else {
            return tool_error(unknown_brand(snap, slug));
        };
        let call = crate::demo::Call {
            prompt_id: prompt_id.to_string(),
            variables: strings(args.get("variables").unwrap_or(&Value::Null)),
        };
        let prepared = match demo.prepare(brand, call) {
            Ok(p) => p,
            Err(e) => return tool_error(demo_message(&e)),
        };
        let base = json!({
            "brand": prepared.brand,
            "specVersion": prepared.spec_version,
            "promptId": prepared.prompt_id,
            "provider": demo.client.kind.as_str(),
            "model": demo.client.model,
        });
        let request = prepared.request;
        if demo.client.kind == crate::demo::llm::ProviderKind::DryRun {
            let mut out = base;
            out["messages"] = json!([
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ]);
            return tool_ok(out);
        }
        let Some(_permit) = demo.permit().await else {
            return tool_error("too many demo calls are running; try again shortly");
        };
        match demo.client.complete(&request).await {
            Ok(c) => {
                let mut out = base;
                out["model"] = json!(c.model);
                out["output"] = json!(c.output);
                out["usage"] =
                    json!({"inputTokens": c.input_tokens, "outputTokens": c.output_tokens});
                tool_ok(out)
            }
            Err(e) => tool_error(format!("the language model did not answer: {e}")),
        }
    }
}

/// The output of the registry a brand's path names
/// (`/brand/<key>/tokens.css`, `/brand/<key>/android/values/tokens.xml`, …).
fn output_of(path: &str) -> Option<&'static Output> {
    path.strip_prefix("/brand/")
        .and_then(|rest| rest.split_once('/'))
        .and_then(|(_, file)| crate::render::outputs::named(file))
}

/// Every output of the registry, in the order MCP lists them: the
/// surfaces with prose for a system prompt first ([`Surface::FOR_AGENTS`]),
/// then the changelog and what apps take, in the registry's order.
fn for_agents() -> impl Iterator<Item = &'static Output> {
    let surfaces = Surface::FOR_AGENTS.into_iter().map(Surface::output);
    surfaces.chain(
        OUTPUTS
            .iter()
            .filter(|o| !matches!(o.kind, Kind::Surface(_))),
    )
}

/// Standard base64 with padding (RFC 4648), as MCP's `blob` is.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
