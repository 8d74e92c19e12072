use super::*;
use serde_json::{json, Value};

fn read(text: &str, syntax: Syntax) -> Value {
    let json = to_json(text, syntax).unwrap();
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

#[test]
fn jsonc_and_json5_read_as_their_json() {
    let text = "// tokens\n{\n  /* brand */ color: {\n    'primary': { $value: '#0af', $type: \"color\", },\n    size: +.5, hex: 0x10, exp: 1e2,\n  },\n}\n";
    assert_eq!(
        read(text, Syntax::Json5),
        json!({"color": {"primary": {"$value": "#0af", "$type": "color"}, "size": 0.5, "hex": 16, "exp": 100.0}})
    );
}

#[test]
fn every_value_keeps_its_line_and_where_it_can_its_column() {
    let text = "{\n  // a\n  a: 'x',\n  \"b\": [1,\n    2],\n}";
    let json = to_json(text, Syntax::Json5).unwrap();
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[2].contains("\"a\""), "{json}");
    assert_eq!(
        lines[3].find("\"b\""),
        text.lines().nth(3).unwrap().find("\"b\"")
    );
    assert!(lines[4].trim_start().starts_with('2'));
}

#[test]
fn yaml_reads_as_its_json_under_the_core_schema() {
    let text = "\u{feff}color:\n  primary:\n    $value: '#0af'\n    $type: color\n  on: yes\n  n: 12\n  f: 1.5e1\n  none: ~\n  list: [a, 2]\n";
    assert_eq!(
        read(text, Syntax::Yaml),
        json!({"color": {"primary": {"$value": "#0af", "$type": "color"}, "on": "yes", "n": 12, "f": 15.0, "none": null, "list": ["a", 2]}})
    );
}

#[test]
fn yaml_values_keep_their_lines() {
    let text = "a:\n  b:\n    c: 1\n  d: x\n";
    let json = to_json(text, Syntax::Yaml).unwrap();
    let lines: Vec<&str> = json.lines().collect();
    assert!(
        lines[2].contains("\"c\"") && lines[2].contains('1'),
        "{json}"
    );
    // The key's quote just before it; the value where it is.
    let source = text.lines().nth(2).unwrap();
    assert_eq!(
        lines[2].find("\"c\"").map(|i| i + 1),
        source.find('c'),
        "{json}"
    );
    assert_eq!(lines[2].find('1'), source.find('1'), "{json}");
    assert!(lines[3].contains("\"d\""), "{json}");
}

#[test]
fn yaml_aliases_repeat_their_anchor_and_count_in_full() {
    let text = "base: &b {x: 1, y: [2, 3]}\ncopy: *b\n";
    assert_eq!(
        read(text, Syntax::Yaml),
        json!({"base": {"x": 1, "y": [2, 3]}, "copy": {"x": 1, "y": [2, 3]}})
    );
    // A billion laughs stops at the budget.
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    let e = to_json(&bomb, Syntax::Yaml).unwrap_err();
    assert!(e.message.contains("aliases"), "{e:?}");
}

#[test]
fn errors_name_their_line_and_column() {
    let e = to_json("a:\n  b: [1, 2\n", Syntax::Yaml).unwrap_err();
    assert!(e.line >= 2, "{e:?}");
    let e = to_json("{\n  a: 'x\n}", Syntax::Json5).unwrap_err();
    assert_eq!((e.line, e.column), (2, 6), "{e:?}");
}

#[test]
fn names_and_stems() {
    assert_eq!(Syntax::of("t.tokens.yml"), Some(Syntax::Yaml));
    assert_eq!(Syntax::of("a.json5"), Some(Syntax::Json5));
    assert_eq!(Syntax::of(".json"), None);
    assert_eq!(Syntax::of("a.txt"), None);
    assert_eq!(stem("light.tokens.yaml"), "light.tokens");
    assert_eq!(stem("a.json"), "a");
}

/// The shortcut over plain JSON says what the walk through the strings
/// says, for texts with and without each relaxed form, inside strings and
/// out.
#[test]
fn the_plain_json_shortcut_agrees_with_the_walk() {
    let texts = [
        "{\"a\": 1, \"b\": [1, 2]}",
        "{\"a\": 1,}",
        "{\"a\": [1, 2 ,\n ]}",
        "{\"a\": \", }\"}",
        "{\"a\": \"x/y\", \"b\": \"it's\"}",
        "{\"a\": 1} // note",
        "{/* c */ \"a\": 1}",
        "{'a': 1}",
        "{\"a\": \"\\\", ]\"}",
        "{\"url\": \"https://x.example\"}",
        "{\"a\": 1, \"b\": 2}\n",
        ",",
        "",
        "[1,\t\r\n]",
    ];
    for text in texts {
        assert_eq!(maybe_relaxed(text), relaxed_outside_strings(text), "{text}");
    }
}
