use super::*;
use crate::spec::diag::Code;
use serde_json::json;

fn read_ok(doc: &Value) -> Resolver {
    let mut d = FileDiags::new("acme", "acme/tokens.resolver.json");
    let r = read(doc, &mut d).unwrap();
    let mut out = Vec::new();
    d.finish(None, &mut out);
    assert!(out.is_empty(), "{out:#?}");
    r
}

#[test]
fn later_sources_win_and_groups_merge_member_by_member() {
    let resolver = json!({
        "version": "2025.10",
        "sets": {"base": {"sources": [{"$ref": "base.json"}]}},
        "modifiers": {"theme": {
            "contexts": {
                "light": [{"$ref": "light.json"}],
                "dark": [{"$ref": "dark.json#/color"}]
            },
            "default": "light"
        }},
        "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
    });
    let files: BTreeMap<String, Value> = [
        ("base.json", json!({"color": {"$type": "color", "ink": {"$value": "{color.bg}"}, "bg": {"$value": "#fff"}}})),
        ("light.json", json!({"color": {"accent": {"$value": "#00f"}}})),
        ("dark.json", json!({"color": {"color": {"bg": {"$value": "#000"}}}})),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let r = read_ok(&resolver);
    let light = r.merge(&r.default_permutation(), &resolver, &files);
    assert_eq!(light.doc["color"]["bg"]["$value"], "#fff");
    assert_eq!(light.doc["color"]["accent"]["$value"], "#00f");
    assert_eq!(light.doc["color"]["$type"], "color");
    let (_, c, dark) = &r.each_context()[0];
    assert_eq!(r.modifiers[0].contexts[*c].0, "dark");
    let dark = r.merge(dark, &resolver, &files);
    assert_eq!(dark.doc["color"]["bg"]["$value"], "#000");
    assert!(dark.doc["color"].get("accent").is_none());
    // Each member points into the file that wrote it.
    assert_eq!(
        dark.origin("/color/bg/$value"),
        (Some("dark.json"), "/color/color/bg/$value".to_string())
    );
    assert_eq!(
        dark.origin("/color/ink"),
        (Some("base.json"), "/color/ink".to_string())
    );
    assert_eq!(
        dark.origin("/color/$type"),
        (Some("base.json"), "/color/$type".to_string())
    );
    let elsewhere = r.elsewhere(&r.default_permutation(), &resolver, &files);
    assert_eq!(
        elsewhere.get("color.bg").map(String::as_str),
        Some("context `dark` of modifier `theme`, which this permutation leaves out")
    );
}

#[test]
fn a_resolver_is_read_strictly_where_there_is_no_safe_reading() {
    let mut d = FileDiags::new("acme", "acme/tokens.resolver.json");
    let doc = json!({
        "version": "2025.10",
        "modifiers": {"theme": {"contexts": {"light": [{"$ref": "../x.json"}, {"$ref": "https://e.x/t.json"}]}, "default": "dim"}},
        "resolutionOrder": [{"$ref": "#/modifiers/theme"}, {"$ref": "#/sets/none"}, 5]
    });
    read(&doc, &mut d);
    let mut out = Vec::new();
    d.finish(None, &mut out);
    // Each problem is a kind at a place, whatever its wording.
    let mut got: Vec<(Code, &str)> = out.iter().map(|d| (d.code, d.pointer.as_str())).collect();
    got.sort();
    assert_eq!(
        got,
        [
            // `5` is no step.
            (Code::InvalidResolver, "/resolutionOrder/2"),
            // `../x.json` leaves the folder; a URL is never read.
            (
                Code::UnknownResolverReference,
                "/modifiers/theme/contexts/light/0/$ref"
            ),
            (
                Code::UnknownResolverReference,
                "/modifiers/theme/contexts/light/1/$ref"
            ),
            // `#/sets/none` names no set.
            (Code::UnknownResolverReference, "/resolutionOrder/1/$ref"),
            // `default: dim` names no context.
            (Code::InvalidModifier, "/modifiers/theme/default"),
        ],
        "{out:#?}"
    );
}

#[test]
fn a_modifier_without_default_takes_its_first_context_with_a_warning() {
    let mut d = FileDiags::new("acme", "acme/tokens.resolver.json");
    let doc = json!({
        "version": "2025.10",
        "resolutionOrder": [{"type": "modifier", "name": "density", "contexts": {"compact": [{}], "comfy": [{}]}}]
    });
    let r = read(&doc, &mut d).unwrap();
    assert_eq!(r.default_permutation(), vec![0]);
    let mut out = Vec::new();
    d.finish(None, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].code, Code::NoDefaultContext, "{out:?}");
    assert_eq!(out[0].pointer, "/resolutionOrder/0", "{out:?}");
}

#[test]
fn a_set_left_out_of_resolution_order_is_merged_first_when_listed_sources_refer_to_it() {
    let resolver = json!({
        "version": "2025.10",
        "sets": {
            "fonts": {"sources": [{"$ref": "fonts.json"}]},
            "spare": {"sources": [{"$ref": "spare.json"}]},
            "base": {"sources": [{"$ref": "base.json"}]}
        },
        "resolutionOrder": [{"$ref": "#/sets/base"}]
    });
    let files: BTreeMap<String, Value> = [
        ("fonts.json", json!({"font": {"$type": "fontFamily", "body": {"$value": "Inter"}, "code": {"$value": "Menlo"}}})),
        ("spare.json", json!({"spare": {"$type": "number", "n": {"$value": 1}}})),
        ("base.json", json!({"font": {"code": {"$value": "Iosevka"}}, "text": {"$type": "fontFamily", "$value": "{font.body}"}})),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut r = read_ok(&resolver);
    let mut d = FileDiags::new("acme", "acme/tokens.resolver.json");
    r.adopt_referred_sets(&resolver, &files, &mut d);
    let mut out = Vec::new();
    d.finish(None, &mut out);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].pointer, "/sets/fonts");
    assert_eq!(out[0].code, Code::SetAdopted);
    // It names a token that refers to the set, so the author can find why.
    assert!(out[0].message.contains("`{font.body}`"), "{out:#?}");
    let merged = r.merge(&r.default_permutation(), &resolver, &files);
    assert_eq!(merged.doc["font"]["body"]["$value"], "Inter");
    assert_eq!(
        merged.doc["font"]["code"]["$value"], "Iosevka",
        "the adopted set is under everything listed"
    );
    assert!(
        merged.doc.get("spare").is_none(),
        "nothing refers to `spare`"
    );
}
