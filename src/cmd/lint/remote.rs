//! `--brand <url>`: a brand as a marque server publishes it. Its spec.json
//! holds every token (aliases, deprecations and extensions kept), what
//! each context of each modifier sets apart, and the prefix its custom
//! properties are published with. Lint writes those back as a brand
//! folder (brand.json and tokens.resolver.json, or tokens.json) and reads
//! that as it reads any folder, so a served brand is linted as its own
//! folder would be, and an app's CI needs no copy of the brand repository.
//!
//! The folder is kept in lint's cache folder, one per URL, and written
//! only where a file changed, so an unchanged brand is known by its
//! folder's stamp on the next run (see `cache`). A private brand is asked
//! with `Authorization: Bearer $MARQUE_TOKEN`.

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// How long one request may take.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// True when `--brand` names a URL.
pub(super) fn is_url(spec: &str) -> bool {
    spec.starts_with("http://") || spec.starts_with("https://")
}

/// The brand's base URL (`…/brand/<slug>` or `…/brand/<slug>@<version>`)
/// in `url`, which may name the brand's page or any of its surfaces: the
/// first `brand` segment of its path and the key after it.
fn base(url: &str) -> Option<String> {
    let mut parsed = reqwest::Url::parse(url).ok()?;
    let segments: Vec<&str> = parsed.path_segments()?.collect();
    let at = segments.iter().position(|s| *s == "brand")?;
    let key = segments.get(at + 1).filter(|k| !k.is_empty())?;
    let path = format!("/{}/{key}", segments[..=at].join("/"));
    parsed.set_path(&path);
    parsed.set_query(None);
    parsed.set_fragment(None);
    Some(parsed.to_string())
}

/// Fetches the brand `url` names and writes it as a brand folder under
/// `folder` (lint's cache folder).
/// Returns the content folder it is in and its slug.
pub(super) fn fetch(url: &str, folder: &Path) -> Result<(PathBuf, String)> {
    let Some(base) = base(url) else {
        bail!("--brand {url}: not the URL of a brand on a marque server (…/brand/<slug>, or one of its surfaces)");
    };
    let base = base.as_str();
    let spec = get_json(&format!("{base}/spec.json"))
        .with_context(|| format!("--brand {url}: cannot read the brand's spec.json"))?;
    let slug = spec["slug"].as_str().unwrap_or_default().to_string();
    if !crate::spec::brand::is_slug(&slug) {
        bail!("--brand {url}: its spec.json names no valid slug");
    }
    let (files, tokens) = folder_of(&spec)?;
    let key = Sha256::digest(base.as_bytes());
    let root = folder.join("remote").join(crate::access::hex(&key[..8]));
    let dir = root.join(&slug);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot write {}", dir.display()))?;
    // A file left from another shape of the brand (tokens.json, then a
    // resolver) would be read beside the new one.
    for stale in ["tokens.json", "tokens.resolver.json"] {
        if stale != tokens {
            let _ = std::fs::remove_file(dir.join(stale));
        }
    }
    for (name, body) in files {
        if std::fs::read(dir.join(name)).ok().as_deref() != Some(body.as_bytes()) {
            // Whole or not at all, under a scratch name readers skip:
            // another run may be reading the folder.
            crate::cmd::import::write::replace(&dir, name, body.as_bytes())?;
        }
    }
    Ok((root, slug))
}

/// brand.json and the tokens file of the brand `spec` describes, with the
/// tokens file's name.
fn folder_of(spec: &Value) -> Result<(Vec<(&'static str, String)>, &'static str)> {
    let mut brand = Map::new();
    for key in ["name", "version", "updated", "summary", "naming"] {
        if let Some(v) = spec.get(key).filter(|v| !v.is_null()) {
            brand.insert(key.to_string(), v.clone());
        }
    }
    let tokens = spec.get("tokens").cloned().unwrap_or_else(|| json!({}));
    let modes = spec["modes"].as_array().cloned().unwrap_or_default();
    let (name, doc) = match modes.is_empty() {
        true => ("tokens.json", tokens),
        false => ("tokens.resolver.json", resolver(tokens, &modes)?),
    };
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let files = vec![
        ("brand.json", pretty(&Value::Object(brand))),
        (name, pretty(&doc)),
    ];
    Ok((files, name))
}

/// A resolver document of `tokens` (the default context) and `modes`, as
/// spec.json lists them: each context's tokens by dotted name.
fn resolver(tokens: Value, modes: &[Value]) -> Result<Value> {
    let mut modifiers = Map::new();
    let mut order = vec![json!({"$ref": "#/sets/tokens"})];
    for m in modes {
        let name = m["name"]
            .as_str()
            .context("a mode of spec.json has no name")?;
        let mut contexts = Map::new();
        for c in m["contexts"].as_array().into_iter().flatten() {
            let context = c["name"]
                .as_str()
                .context("a context of spec.json has no name")?;
            let mut tree = Map::new();
            for (dotted, token) in c["tokens"].as_object().into_iter().flatten() {
                let path: Vec<String> = dotted.split('.').map(str::to_string).collect();
                if path.len() > crate::spec::limits::MAX_JSON_DEPTH
                    || path.iter().any(String::is_empty)
                {
                    bail!("spec.json names a token `{dotted}` that no brand can have");
                }
                crate::spec::formats::insert(&mut tree, &path, token.clone());
            }
            let sources = match tree.is_empty() {
                true => Vec::new(),
                false => vec![Value::Object(tree)],
            };
            contexts.insert(context.to_string(), Value::Array(sources));
        }
        modifiers.insert(
            name.to_string(),
            json!({"contexts": contexts, "default": m["default"]}),
        );
        order.push(
            json!({"$ref": format!("#/modifiers/{}", crate::spec::json::escape_token(name))}),
        );
    }
    Ok(json!({
        "version": "2025.10",
        "sets": {"tokens": {"sources": [tokens]}},
        "modifiers": modifiers,
        "resolutionOrder": order,
    }))
}

/// GETs `url` as JSON, at most a brand's size, with the bearer token in
/// `MARQUE_TOKEN` if one is set.
fn get_json(url: &str) -> Result<Value> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .user_agent(concat!("marque-lint/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut request = client.get(url).header("Accept", "application/json");
        if let Ok(token) = std::env::var("MARQUE_TOKEN") {
            // Never in the clear across a network.
            let parsed = reqwest::Url::parse(url)?;
            let local = match parsed.host_str() {
                Some("localhost") => true,
                Some(h) => h
                    .trim_matches(['[', ']'])
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|a| a.is_loopback()),
                None => false,
            };
            if parsed.scheme() != "https" && !local {
                bail!("MARQUE_TOKEN is sent over https only (or to this machine): {url}");
            }
            request = request.bearer_auth(token.trim());
        }
        let mut response = request.send().await?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            body.extend_from_slice(&chunk);
            if body.len() > crate::spec::limits::MAX_BRAND_BYTES {
                bail!("{url}: larger than a brand may be");
            }
        }
        if !status.is_success() {
            // A marque server says why in an RFC 9457 problem's detail.
            let detail = serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|p| p["detail"].as_str().map(str::to_string))
                .unwrap_or_default()
                .chars()
                .filter(|c| !c.is_control())
                .take(300)
                .collect::<String>();
            bail!("{url}: {status} {detail}");
        }
        Ok(serde_json::from_slice(&body)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brands_base_is_found_in_its_page_or_any_surface() {
        let cases = [
            (
                "https://b.example/brand/acme",
                Some("https://b.example/brand/acme"),
            ),
            (
                "https://b.example/brand/acme/",
                Some("https://b.example/brand/acme"),
            ),
            (
                "http://127.0.0.1:8080/brand/acme/tokens.css",
                Some("http://127.0.0.1:8080/brand/acme"),
            ),
            (
                "https://b.example/x/brand/acme@1.2.0/spec.json",
                Some("https://b.example/x/brand/acme@1.2.0"),
            ),
            (
                "https://b.example/brand/acme?v=1#top",
                Some("https://b.example/brand/acme"),
            ),
            ("https://b.example/page?next=/brand/acme", None),
            ("https://b.example/brands.json", None),
            ("https://b.example/brand/", None),
            ("https://brand/acme", None),
            ("not a url", None),
        ];
        for (url, want) in cases {
            assert_eq!(base(url).as_deref(), want, "{url}");
        }
    }

    #[test]
    fn each_contexts_dotted_names_are_nested_under_its_modifier() {
        let modes = json!([{
            "name": "theme", "default": "light",
            "contexts": [
                {"name": "light", "tokens": {}},
                {"name": "dark", "tokens": {"color.bg": {"$type": "color", "$value": "#000000"}}}
            ]
        }]);
        let doc = resolver(json!({"color": {"bg": {}}}), modes.as_array().unwrap()).unwrap();
        assert_eq!(doc["modifiers"]["theme"]["contexts"]["light"], json!([]));
        assert_eq!(
            doc["modifiers"]["theme"]["contexts"]["dark"][0]["color"]["bg"]["$value"],
            "#000000"
        );
        assert_eq!(doc["resolutionOrder"][1]["$ref"], "#/modifiers/theme");
        // A token named as a group's place is that group's `$root`, as
        // marque reads and writes DTCG.
        let modes = json!([{"name": "theme", "default": "light", "contexts": [
            {"name": "dark", "tokens": {
                "color.bg": {"$type": "color", "$value": "#000000"},
                "color.bg.hover": {"$type": "color", "$value": "#111111"}
            }}
        ]}]);
        let doc = resolver(json!({}), modes.as_array().unwrap()).unwrap();
        let bg = &doc["modifiers"]["theme"]["contexts"]["dark"][0]["color"]["bg"];
        assert_eq!(bg["$root"]["$value"], "#000000");
        assert_eq!(bg["hover"]["$value"], "#111111");
        // A hostile server's names: deeper than any brand, or empty parts.
        for name in ["a.".repeat(10_000) + "a", "color..bg".to_string()] {
            let modes = json!([{"name": "theme", "default": "light", "contexts": [
                {"name": "dark", "tokens": {name: {"$type": "color", "$value": "#000000"}}}
            ]}]);
            assert!(resolver(json!({}), modes.as_array().unwrap()).is_err());
        }
    }
}
