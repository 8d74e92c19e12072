//! Every output of the registry (`marque::render::outputs::OUTPUTS`) is
//! described by every describer: OpenAPI (current and released), MCP's
//! resources, llms.txt, spec.json's links, spec.md's links, the API
//! page's endpoints, and a column of the consumer matrix. An output added
//! to the registry that one of them leaves out fails here, by name.

use super::columns::{COLUMNS, ELSEWHERE};
use crate::helpers::*;
use crate::surfaces::{brands_of, ctx};
use marque::render::openapi::{render as openapi, Examples};
use marque::render::outputs::{self, OUTPUTS};
use marque::render::{html, llms_txt, spec_json, spec_md};
use serde_json::{json, Value};

/// Every string of a JSON document, at any depth.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// What each describer leaves out of the outputs `brand` serves at the
/// current key or, `pinned`, at a release's.
fn left_out(brand: &marque::spec::Brand, pinned: bool, api: &Value) -> Vec<String> {
    let mut c = ctx();
    c.pin = pinned.then(|| brand.version.to_string());
    let llms = llms_txt::render(brand, &c);
    let page = html::render(brand, &c).body;
    let md = spec_md::render(brand, &c);
    let spec: Value = serde_json::from_str(&spec_json::render(brand, &c)).unwrap();
    let mut links = Vec::new();
    strings(&spec["links"], &mut links);
    let key = if pinned { "{slug}@{version}" } else { "{slug}" };
    let mut missing = Vec::new();
    for (out, file) in outputs::of_brand(brand, &c) {
        let url = c.brand_url(&brand.slug, &file);
        let at = format!("{}{}", brand.slug, if pinned { " (released)" } else { "" });
        let op = &api["paths"][format!("/brand/{key}/{}", out.file)]["get"];
        let checks = [
            (
                "OpenAPI",
                op["responses"]["200"]["content"][out.media_type].is_object(),
            ),
            ("spec.json's links", links.contains(&url)),
            ("spec.md", md.contains(&file)),
            ("the API page", page.contains(&format!("\"{url}\""))),
            (
                "llms.txt",
                out.file == "llms.txt" || llms.contains(&format!("]({url})")),
            ),
            (
                "the consumer matrix",
                COLUMNS.iter().any(|c| c.judges(out))
                    || ELSEWHERE.iter().any(|(file, _)| *file == out.file),
            ),
        ];
        for (describer, ok) in checks {
            if !ok {
                missing.push(format!("{at}: {describer} leaves out {file}"));
            }
        }
    }
    missing
}

#[test]
fn every_output_is_described_by_every_describer() {
    // The bundled brands, and Lumen Health with dark as its default, whose
    // other appearance is Android's values-notnight.
    let dark = tempfile::tempdir().unwrap();
    crate::apps::dark_default_lumen(dark.path());
    let contents = [example_content(), dark.path().to_path_buf()];
    let api: Value = serde_json::from_str(&openapi(&ctx(), &Examples::default())).unwrap();
    let mut missing = Vec::new();
    let mut described = std::collections::BTreeSet::new();
    let mut read_notnight = false;
    for content in &contents {
        let brands = brands_of(content);
        for brand in &brands {
            for pinned in [false, true] {
                missing.extend(left_out(brand, pinned, &api));
                let mut c = ctx();
                c.pin = pinned.then(|| brand.version.to_string());
                described.extend(outputs::of_brand(brand, &c).map(|(o, _)| o.file));
            }
        }
        // MCP lists every output the server answers GET for, each brand.
        let app = spawn_app(content);
        let sid = crate::mcp::session(&app, "127.0.0.1");
        let uris = crate::mcp::resource_uris(&app, &sid);
        for brand in &brands {
            for out in &OUTPUTS {
                let path = format!("/brand/{}/{}", brand.slug, out.file);
                let uri = format!("{}{path}", app.public_url);
                if app.get(&path).status == 200 && !uris.contains(&uri) {
                    missing.push(format!("{}: MCP leaves out {}", brand.slug, out.file));
                }
            }
        }
        // And reads what it lists by the registry's row: MCP once answered
        // -32002 for values-notnight, a row it did not know by its path.
        for uri in uris
            .iter()
            .filter(|u| u.ends_with(outputs::ANDROID_NOTNIGHT))
        {
            let read = crate::mcp::rpc(&app, &sid, "resources/read", json!({ "uri": uri }));
            let path = uri.strip_prefix(&app.public_url).unwrap();
            let text = read["result"]["contents"][0]["text"].as_str();
            if text != Some(app.get(path).text().as_str()) {
                missing.push(format!("MCP does not read {uri}: {read}"));
            }
            read_notnight = true;
        }
    }
    assert!(
        read_notnight,
        "the dark-default brand's values-notnight is listed"
    );
    // Every row is served by some brand above: a row no brand serves
    // would pass the loops unchecked.
    for out in &OUTPUTS {
        if !described.contains(out.file) {
            missing.push(format!("no brand checked serves {}", out.file));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
