use super::*;

#[test]
fn sets_themes_types_and_math() {
    let doc = json!({
        "core": {
            "space": {"sm": {"value": "4", "type": "spacing"}, "lg": {"value": "{space.sm} * 2", "type": "spacing"}},
            "weight": {"value": "Semi Bold", "type": "fontWeights"},
            "lh": {"value": "130%", "type": "lineHeights"},
            "shadow": {"value": [{"x": "0", "y": "2", "blur": "4", "spread": "0", "color": "rgba(0,0,0,0.16)", "type": "dropShadow"}], "type": "boxShadow"},
            "old": {"value": "$space.sm", "type": "spacing"}
        },
        "compact": {"space": {"sm": {"value": "2", "type": "spacing"}}},
        "$themes": [
            {"name": "Default", "group": "density", "selectedTokenSets": {"core": "enabled"}},
            {"name": "Compact", "group": "density", "selectedTokenSets": {"core": "source", "compact": "enabled"}}
        ],
        "$metadata": {"tokenSetOrder": ["core", "compact"]}
    });
    let mut d = FileDiags::new("b", "b/t.json");
    let c = read(&doc, false, &mut d);
    let base = &c.doc["sets"]["tokens"]["sources"][0];
    assert_eq!(
        base["space"]["lg"]["$value"],
        json!({"value": 8.0, "unit": "px"})
    );
    assert_eq!(
        base["weight"],
        json!({"$type": "fontWeight", "$value": 600})
    );
    assert_eq!(base["lh"]["$value"], json!(1.3));
    assert_eq!(
        base["shadow"]["$value"][0]["blur"],
        json!({"value": 4.0, "unit": "px"})
    );
    assert_eq!(base["shadow"]["$value"][0]["color"]["alpha"], json!(0.16));
    assert_eq!(base["old"]["$value"], "{space.sm}");
    let compact = &c.doc["modifiers"]["density"]["contexts"]["Compact"][0];
    assert_eq!(
        compact["space"]["sm"]["$value"],
        json!({"value": 2.0, "unit": "px"})
    );
    // The expression written in `core` evaluates anew in Compact.
    assert_eq!(
        compact["space"]["lg"]["$value"],
        json!({"value": 4.0, "unit": "px"})
    );
    assert_eq!(
        c.source_pointer("/modifiers/density/contexts/Compact/0/space/lg/$value"),
        "/core/space/lg/value"
    );
}
