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

#[test]
fn a_bare_line_height_above_3_is_pixels_and_one_at_or_below_a_ratio_each_with_a_warning() {
    // Issue 59: a 16 px body with line height `24` got a 384 px line.
    let doc = json!({
        "lh": {
            "body": {"value": "24", "type": "lineHeights"},
            "tight": {"value": 1.25, "type": "lineHeights"},
            "base": {"value": "16", "type": "lineHeights"},
            "loose": {"value": "{lh.base} * 1.5", "type": "lineHeights"},
            "pct": {"value": "150%", "type": "lineHeights"}
        },
        "text": {"body": {"value": {"fontFamily": "Inter", "fontSize": "16", "lineHeight": "24"}, "type": "typography"}}
    });
    let mut d = FileDiags::new("b", "b/t.json");
    let c = read(&doc, false, &mut d);
    let lh = &c.doc["lh"];
    assert_eq!(
        lh["body"],
        json!({"$type": "dimension", "$value": {"value": 24.0, "unit": "px"}})
    );
    assert_eq!(lh["tight"], json!({"$type": "number", "$value": 1.25}));
    assert_eq!(lh["loose"]["$value"], json!({"value": 24.0, "unit": "px"}));
    assert_eq!(lh["pct"]["$value"], json!(1.5));
    assert_eq!(
        c.doc["text"]["body"]["$value"]["lineHeight"],
        json!({"value": 24.0, "unit": "px"})
    );
    let mut out = Vec::new();
    d.finish(None, &mut out);
    let mut warned: Vec<(&str, &str)> = out
        .iter()
        .filter(|x| x.code == Code::BareLineHeight)
        .map(|x| (x.pointer.as_str(), x.message.as_str()))
        .collect();
    warned.sort();
    let at: Vec<&str> = warned.iter().map(|w| w.0).collect();
    assert_eq!(
        at,
        [
            "/lh/base/value",
            "/lh/body/value",
            "/lh/tight/value",
            "/text/body/value/lineHeight"
        ],
        "{out:?}"
    );
    assert!(warned[1].1.contains("read as 24px"), "{}", warned[1].1);
    assert!(
        warned[2].1.contains("1.25 times the font size"),
        "{}",
        warned[2].1
    );
}
