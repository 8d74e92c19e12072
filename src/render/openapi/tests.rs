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
    // How a brand's modes are served, and spec.json's description of them.
    let css = &doc["paths"]["/brand/{slug}/tokens.css"]["get"]["description"];
    assert!(
        css.as_str()
            .unwrap()
            .contains("[data-<modifier>=\"<context>\"]"),
        "{css}"
    );
    let spec = &doc["components"]["schemas"]["Spec"]["properties"];
    assert!(
        spec["modes"]["items"]["properties"]["attribute"].is_object(),
        "{spec}"
    );
}

/// The document and the router cannot disagree: every path it
/// describes parses into the route that answers it, and that route
/// takes every method the document gives it.
#[test]
fn every_described_path_is_answered_by_its_route_with_its_methods() {
    let examples = Examples {
        prompts: vec![("acme".into(), Vec::new())],
        ..Examples::default()
    };
    let doc: Value =
        serde_json::from_str(&render(&Context::new("https://b.example"), &examples)).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() > 20, "{}", paths.len());
    for (path, item) in paths {
        let concrete = path
            .replace("{slug}", "acme")
            .replace("{version}", "1.2.0")
            .replace("{range}", "1.0.0...current")
            .replace("{file}", "logo.svg");
        let route = url::Route::parse(&concrete);
        let allowed = route.methods();
        for method in item.as_object().unwrap().keys() {
            assert!(
                allowed.split(", ").any(|m| m.eq_ignore_ascii_case(method)),
                "{path}: {method} is described, {route:?} takes {allowed}"
            );
        }
    }
}

#[test]
fn the_shared_page_assets_are_described_by_the_names_the_pages_use() {
    let mut ctx = Context::new("https://b.example");
    for live in [false, true] {
        ctx.live_reload = live;
        let doc: Value = serde_json::from_str(&render(&ctx, &Examples::default())).unwrap();
        let described: Vec<&String> = doc["paths"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|p| p.starts_with(url::PAGE_ASSETS))
            .collect();
        let served: Vec<&str> = crate::render::html::assets::all(&ctx)
            .map(|a| a.path.as_str())
            .collect();
        assert_eq!(described.len(), served.len(), "{described:?}");
        for asset in crate::render::html::assets::all(&ctx) {
            let op = &doc["paths"][&asset.path]["get"];
            assert!(
                op["responses"]["200"]["content"][asset.media_type].is_object(),
                "{}",
                asset.path
            );
            assert!(op["description"].as_str().unwrap().contains("immutable"));
        }
    }
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
