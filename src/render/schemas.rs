//! The JSON Schemas marque publishes for its own JSON outputs, next to the
//! brand.json schema it enforces: `spec.json` and `changelog.json`.
//!
//! spec.json is brand.json with computed fields added, so its schema is
//! derived from the brand.json schema (one document, patched where the
//! renderer adds a field) rather than written twice: a section added to
//! brand.json appears in both, and the tests validate every rendered
//! spec.json against the result.

use serde_json::{json, Map, Value};

/// Where each published schema lives.
pub const SPEC_SCHEMA_PATH: &str = "/schema/spec.schema.json";
pub const CHANGELOG_SCHEMA_PATH: &str = "/schema/changelog.schema.json";

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The schema of `spec.json`.
/// (brand.json's `diagnostics`, what the brand silences, is configuration
/// of marque, not of the brand: spec.json leaves it out, and so does this.)
pub fn spec_schema() -> Value {
    let mut s: Value = serde_json::from_str(crate::spec::schema::BRAND_SCHEMA)
        .expect("brand.schema.json is valid JSON");
    s["$id"] = json!(format!("https://marque.dev{SPEC_SCHEMA_PATH}"));
    s["title"] = json!("spec.json");
    s["description"] = json!(
        "A brand's canonical structured spec as marque serves it: brand.json with its \
         token references resolved into values, plus the brand's DTCG tokens, its links \
         and the revision it was rendered from."
    );
    let props = s["properties"].as_object_mut().expect("properties");
    props.retain(|key, _| key != "$schema" && key != "diagnostics");
    props.insert(
        "slug".into(),
        json!({"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64}),
    );
    props.insert(
        "revision".into(),
        json!({
            "type": ["string", "null"],
            "description": "git mode: the id of the brand folder's tree; null for a content folder"
        }),
    );
    props.insert(
        "links".into(),
        json!({
            "type": "object",
            "description": "Absolute URLs of the brand's surfaces",
            "additionalProperties": {"type": "string", "format": "uri"},
            "required": ["page", "specJson", "specMd", "tokensCss", "tokensFigmaJson", "tokensJson", "tokensResolverJson", "llmsTxt", "designMd", "tailwindCss", "familyJson", "tokensJs", "tokensDts", "androidZip", "androidValues", "iosZip", "figmaZip", "embed", "demo", "schema"]
        }),
    );
    props.insert("extends".into(), extends_schema());
    props.insert(
        "tokens".into(),
        json!({
            "type": "object",
            "description": "The brand's design tokens in the W3C Design Tokens Format (DTCG 2025.10), as tokens.json has them, except that every colour value has DTCG's `hex` member: the author's, or computed from the components (for a colour outside sRGB, its sRGB fallback, clipped to the gamut)"
        }),
    );
    props.insert(
        "modes".into(),
        json!({
            "type": "array",
            "description": "A brand with tokens.resolver.json: each modifier (theme, density, …) with its contexts. tokens.css applies a context with the attribute on <html> or any element: `<html data-theme=\"dark\">`. Absent for a brand with tokens.json.",
            "items": {
                "type": "object",
                "required": ["name", "attribute", "default", "colorScheme", "contexts"],
                "additionalProperties": false,
                "properties": {
                    "name": {"type": "string", "description": "The modifier's name in the resolver document"},
                    "attribute": {"type": "string", "pattern": "^data-[a-z0-9-]+$", "description": "The HTML attribute that picks a context"},
                    "default": {"type": "string", "description": "The context `tokens` holds"},
                    "colorScheme": {"type": "boolean", "description": "The contexts are light and dark: tokens.css declares color-scheme and follows prefers-color-scheme"},
                    "contexts": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "value", "tokens"],
                            "additionalProperties": false,
                            "properties": {
                                "name": {"type": "string"},
                                "value": {"type": "string", "pattern": "^[a-z0-9-]+$", "description": "The attribute's value for this context"},
                                "scheme": {"enum": ["light", "dark"]},
                                "tokens": {
                                    "type": "object",
                                    "description": "Each token whose value differs from the default's, by its dotted name: {\"$type\", \"$value\"} as DTCG 2025.10 writes them",
                                    "additionalProperties": {"type": "object", "required": ["$type", "$value"]}
                                }
                            }
                        }
                    }
                }
            }
        }),
    );
    let string = json!({"type": "string"});
    add_item_field(
        props,
        &["logo", "variants"],
        "url",
        json!({"type": "string", "format": "uri"}),
        true,
    );
    add_item_field(
        props,
        &["typography", "families"],
        "value",
        string.clone(),
        false,
    );
    add_item_field(
        props,
        &["typography", "styles"],
        "value",
        string.clone(),
        false,
    );
    add_item_field(props, &["color", "palette"], "value", string, false);
    add_item_field(
        props,
        &["color", "palette"],
        "hex",
        json!({
            "type": "string",
            "pattern": "^#[0-9a-f]{6}$",
            "description": "The colour as 6-digit sRGB hex; for a colour outside sRGB (oklch, display-p3, …) its fallback, clipped to the sRGB gamut"
        }),
        false,
    );
    add_item_field(
        props,
        &["color", "pairs"],
        "contrast",
        json!({"type": "number", "minimum": 1, "maximum": 21}),
        true,
    );
    add_item_field(
        props,
        &["color", "pairs"],
        "passes",
        json!({"type": "boolean"}),
        true,
    );
    add_item_field(
        props,
        &["color", "pairs"],
        "inContexts",
        json!({
            "type": "array",
            "description": "The pair in each context that changes either colour",
            "items": {
                "type": "object",
                "required": ["modifier", "context", "contrast", "passes"],
                "properties": {
                    "modifier": {"type": "string"},
                    "context": {"type": "string"},
                    "contrast": {"type": "number", "minimum": 1, "maximum": 21},
                    "passes": {"type": "boolean"}
                }
            }
        }),
        false,
    );
    let required = s["required"].as_array_mut().expect("required");
    for key in ["slug", "revision", "links", "tokens"] {
        required.push(json!(key));
    }
    s
}

/// `extends` as spec.json and family.json say it.
pub fn extends_schema() -> Value {
    json!({
        "type": "object",
        "description": "A brand of a family (DESIGN.md section 18): the brand it extends, and the version of it whose tokens are resolved into this brand's. Absent (spec.json) or null (family.json) for a brand that extends none.",
        "required": ["slug", "version"],
        "additionalProperties": false,
        "properties": {
            "slug": {"type": "string"},
            "range": {"type": "string", "description": "The semver range of the parent's releases it follows; absent when it follows the parent's head"},
            "version": {"type": "string", "description": "The parent's version used"}
        }
    })
}

/// The schema of `family.json`.
pub fn family_schema() -> Value {
    let member = |extra: Value| {
        let mut props = json!({
            "slug": {"type": "string"},
            "version": {"type": "string"},
            "url": {"type": "string", "format": "uri", "description": "The brand's API page at that version"}
        });
        if let (Some(p), Some(e)) = (props.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        json!({"type": "object", "required": ["slug", "version", "url"], "additionalProperties": false, "properties": props})
    };
    let mut extends = extends_schema();
    extends["type"] = json!(["object", "null"]);
    json!({
        "description": "Where a brand stands in its family (DESIGN.md section 18)",
        "type": "object",
        "required": ["slug", "version", "extends", "chain", "dependents"],
        "additionalProperties": false,
        "properties": {
            "slug": {"type": "string"},
            "version": {"type": "string"},
            "extends": extends,
            "chain": {"type": "array", "description": "The parents it is built over, nearest first, each at the version used", "items": member(json!({}))},
            "dependents": {"type": "array", "description": "The public brands that extend it directly, each with the range it names this brand by (absent: it follows the head) and its own version", "items": member(json!({"range": {"type": "string"}}))}
        }
    })
}

/// Adds `field` to the items of the array at `path` under the top-level
/// properties (a field the renderer computes).
fn add_item_field(
    props: &mut Map<String, Value>,
    path: &[&str],
    field: &str,
    schema: Value,
    required: bool,
) {
    let mut node = &mut props[path[0]];
    for key in &path[1..] {
        node = &mut node["properties"][*key];
    }
    let items = &mut node["items"];
    assert!(
        items["properties"].is_object(),
        "brand.schema.json has items at {path:?}"
    );
    items["properties"][field] = schema;
    if required {
        match items["required"].as_array_mut() {
            Some(r) => r.push(json!(field)),
            None => items["required"] = json!([field]),
        }
    }
}

/// The schema of `changelog.json`.
pub fn changelog_schema() -> Value {
    json!({
        "$schema": DIALECT,
        "$id": format!("https://marque.dev{CHANGELOG_SCHEMA_PATH}"),
        "title": "changelog.json",
        "description": "A brand's releases, generated from git tags <slug>@<version>, newest first by semver precedence.",
        "type": "object",
        "properties": {
            "brand": {"type": "string"},
            "unreleased": {
                "description": "Present when brand.json is at a version past the latest release, or the working head changes something since it",
                "type": ["object", "null"],
                "properties": {"version": {"type": "string"}, "changes": {"$ref": "#/$defs/changes"}},
                "required": ["version", "changes"],
                "additionalProperties": false
            },
            "releases": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "version": {"type": "string"},
                        "date": {"type": "string", "format": "date"},
                        "tag": {"type": "string"},
                        "commit": {"type": "string"},
                        "notes": {"type": "array", "items": {"type": "string"}},
                        "changes": {"$ref": "#/$defs/changes"}
                    },
                    "required": ["version", "date", "tag", "commit", "notes", "changes"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["brand", "releases"],
        "additionalProperties": false,
        "$defs": {"changes": change_list_schema()}
    })
}

/// The answer of `/brand/<slug>/compare/<a>...<b>` (`render::diff::render_json`).
pub fn comparison_schema() -> Value {
    let side = json!({
        "type": "object",
        "properties": {
            "ref": {"type": "string", "description": "What was asked for: a version, or `current`"},
            "version": {"type": "string", "description": "The version brand.json declares there"}
        },
        "required": ["ref", "version"],
        "additionalProperties": false
    });
    json!({
        "description": "The semantic diff between two versions of a brand",
        "type": "object",
        "properties": {
            "brand": {"type": "string"},
            "from": side,
            "to": side,
            "level": {
                "enum": ["major", "minor", "patch", null],
                "description": "The largest level of any change; null when nothing changed"
            },
            "changes": change_list_schema()
        },
        "required": ["brand", "from", "to", "level", "changes"],
        "additionalProperties": false
    })
}

/// The semantic changes of a release or a comparison (`spec::diff`).
pub fn change_list_schema() -> Value {
    json!({
        "description": "Semantic changes since the previous release: major (something a consumer could depend on disappears or changes type), minor (something is added or deprecated), patch (a value or a text changes)",
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "level": {"enum": ["major", "minor", "patch"]},
                "section": {"enum": ["added", "changed", "deprecated", "removed"]},
                "kind": {"enum": ["token", "css-property", "palette", "type-family", "type-style", "logo", "asset", "contrast-pair", "prompt", "prompt-variable", "text", "modifier", "context"]},
                "name": {"type": "string"},
                "summary": {"type": "string", "description": "One line of Markdown"}
            },
            "required": ["level", "section", "kind", "name", "summary"],
            "additionalProperties": false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_schema_adds_what_the_renderer_computes() {
        let s = spec_schema();
        let pair = &s["properties"]["color"]["properties"]["pairs"]["items"];
        assert_eq!(pair["properties"]["passes"]["type"], "boolean");
        assert!(pair["required"]
            .as_array()
            .unwrap()
            .contains(&json!("contrast")));
        assert!(s["required"].as_array().unwrap().contains(&json!("slug")));
        assert!(s["properties"].get("$schema").is_none());
    }
}
