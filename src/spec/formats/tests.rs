//! The formats' shared reading: detection and the converted document.

use super::*;
use serde_json::json;

#[test]
fn formats_are_told_apart_by_what_only_each_writes() {
    let cases = [
        (json!({"resolutionOrder": []}), Ok(Format::Dtcg)),
        (
            json!({"meta": {"variables": {}, "variableCollections": {}}}),
            Ok(Format::FigmaVariables),
        ),
        (json!({"props": {}, "aliases": {}}), Ok(Format::Theo)),
        (
            json!({"c": {"$type": "color", "$value": "#fff"}}),
            Ok(Format::Dtcg),
        ),
        (
            json!({"c": {"$type": "color", "$value": "#fff", "$extensions": {"com.figma": {}}}}),
            Ok(Format::FigmaExport),
        ),
        (
            json!({"s": {"type": "spacing", "value": "{base} * 2"}}),
            Ok(Format::TokensStudio),
        ),
        (
            json!({"c": {"value": "{a.b.value}"}}),
            Ok(Format::StyleDictionary),
        ),
        (
            json!({"c": {"type": "color", "value": "#fff"}}),
            Ok(Format::StyleDictionary),
        ),
    ];
    for (doc, want) in cases {
        assert_eq!(detect(&doc), want, "{doc}");
    }
    let both = json!({"a": {"type": "sizing", "value": "4"}, "b": {"value": "{a.value}"}});
    let err = detect(&both).unwrap_err();
    assert!(
        err.contains("tokens-studio") && err.contains("style-dictionary"),
        "{err}"
    );
}

#[test]
fn a_pointer_into_a_converted_token_names_the_member_the_source_wrote() {
    let c = Converted::new(
        json!({}),
        vec![("/color/brand/$root".into(), "/color/brand".into())],
        &[("$value", "value"), ("$description", "comment")],
    );
    assert_eq!(
        c.source_pointer("/color/brand/$root/$value"),
        "/color/brand/value"
    );
    assert_eq!(
        c.source_pointer("/color/brand/$root/$value/color"),
        "/color/brand/value/color"
    );
    assert_eq!(c.source_pointer("/color/brand/$root"), "/color/brand");
    assert_eq!(c.source_pointer("/other"), "/other");
}
