//! spec.json read as its consumers' tests need it: its tokens by name,
//! a colour in a context with aliases followed, the `#AARRGGBB` Android
//! writes for it, and the colours of an Android `tokens.xml`.

use serde_json::Value;
use std::collections::BTreeMap;

/// A spec.json's tokens (`$value` and `$type`) with their paths, in its
/// order. `$root` is a token (DTCG 2025.10's group's own value).
pub fn token_paths(tokens: &Value) -> Vec<(Vec<String>, Value)> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
        let Some(o) = v.as_object() else { return };
        if o.contains_key("$value") {
            out.push((path.clone(), v.clone()));
            return;
        }
        for (k, child) in o
            .iter()
            .filter(|(k, _)| !k.starts_with('$') || *k == "$root")
        {
            path.push(k.clone());
            walk(child, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(tokens, &mut Vec::new(), &mut out);
    out
}

/// A spec.json's tokens by dotted name.
pub fn by_name(tokens: &Value) -> BTreeMap<String, Value> {
    token_paths(tokens)
        .into_iter()
        .map(|(p, t)| (p.join("."), t))
        .collect()
}

/// What a colour is in `here` (a context's tokens) over `default`: its
/// `$value` object, aliases followed.
pub fn colour<'a>(
    name: &str,
    here: &'a BTreeMap<String, Value>,
    default: &'a BTreeMap<String, Value>,
) -> Option<&'a Value> {
    let mut name = name.to_string();
    for _ in 0..16 {
        let t = here.get(&name).or_else(|| default.get(&name))?;
        match &t["$value"] {
            Value::String(s) if s.starts_with('{') => {
                name = s.trim_matches(|c| c == '{' || c == '}').to_string()
            }
            v if v.is_object() && t["$type"] == "color" => return Some(v),
            _ => return None,
        }
    }
    None
}

/// `#AARRGGBB` of a spec.json colour (its sRGB hex and alpha).
pub fn argb(v: &Value) -> String {
    let hex = v["hex"]
        .as_str()
        .unwrap_or("")
        .trim_start_matches('#')
        .to_uppercase();
    let alpha = v.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
    format!("#{:02X}{hex}", (alpha * 255.0).round() as u8)
}

/// `<color name="…">…</color>` of a tokens.xml, by name.
pub fn colours_of(xml: &str) -> BTreeMap<String, String> {
    xml.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("<color name=\"")?;
            let (name, rest) = rest.split_once("\">")?;
            let value = rest.strip_suffix("</color>")?;
            Some((name.to_string(), value.to_string()))
        })
        .collect()
}
