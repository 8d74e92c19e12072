//! The plan of how marque reads what a brand names (a synced folder, a
//! token file in any format, a resolver or a Style Dictionary config),
//! written over the team's own files, relative to where the plan is kept.

use super::{Plan, EXTENSION};
use crate::spec::formats::{self, tokens_studio, Format};
use crate::spec::json::escape_token;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A plan made: the resolver document, and what was decided (the sets
/// and modifiers, the sets not read) where a reader decided it.
pub struct Made {
    pub doc: Value,
    pub plan: Option<Plan>,
    pub format: Format,
}

/// The plan of reading `named` (a file, or a folder) among `files` (every
/// data file under the root, by its path with `/`, parsed), in `format`
/// or the one detected, kept in the folder `plan_dir` (relative to the
/// root, empty for the root itself).
pub fn make(
    named: &str,
    format: Option<Format>,
    files: &BTreeMap<String, Value>,
    plan_dir: &str,
) -> Result<Made, String> {
    let rel = |path: &str| relative(plan_dir, path);
    let Some(doc) = files.get(named) else {
        let prefix = format!("{named}/");
        let docs: Vec<(String, Value)> = files
            .iter()
            .filter_map(|(p, v)| Some((p.strip_prefix(&prefix)?.to_string(), v.clone())))
            .collect();
        if docs.is_empty() {
            return Err(format!(
                "`{named}` is neither a token file nor a folder of them"
            ));
        }
        let doc = tokens_studio::folder_doc(&docs);
        let mut d = crate::spec::diag::FileDiags::new("", String::new());
        let plan = tokens_studio::read(&doc, true, &mut d)
            .plan
            .unwrap_or_default();
        let by_set: BTreeMap<&str, &str> = docs
            .iter()
            .map(|(p, _)| (tokens_studio::set_name(p), p.as_str()))
            .collect();
        let source = |set: &str| {
            rel(&format!(
                "{named}/{}",
                by_set.get(set).copied().unwrap_or(set)
            ))
        };
        let description = format!("How marque reads the Tokens Studio folder `{named}`: every set as one tree, in the order `sets` lists them.");
        let doc = plan.to_resolver(Format::TokensStudio, &description, source);
        return Ok(Made {
            doc,
            plan: Some(plan),
            format: Format::TokensStudio,
        });
    };
    if formats::sd_config::is_config(doc) || doc.get("resolutionOrder").is_some() {
        let mut made = resolver(named, format, doc, files, plan_dir)?;
        // The config's names and units, kept in the plan.
        let said = |key: &str| {
            doc.pointer(&format!("/$extensions/{EXTENSION}/{key}"))
                .cloned()
        };
        let (prefix, rem) = match formats::sd_config::is_config(doc) {
            true => (
                formats::sd_config::config_prefix(doc).map(Value::from),
                formats::sd_config::px_to_rem(doc).map(Value::from),
            ),
            false => (said("prefix"), said("pxToRem")),
        };
        for (key, v) in [("prefix", prefix), ("pxToRem", rem)] {
            if let Some(v) = v {
                made.doc["$extensions"][EXTENSION][key] = v;
            }
        }
        return Ok(made);
    }
    let format = match format.map_or_else(|| formats::detect(doc), Ok) {
        Ok(f) => f,
        Err(why) => return Err(format!("`{named}`: {why}")),
    };
    if format == Format::TokensStudio {
        let mut d = crate::spec::diag::FileDiags::new("", String::new());
        let plan = tokens_studio::read(doc, false, &mut d)
            .plan
            .unwrap_or_default();
        let whole = matches!(plan.sets.as_slice(), [s] if s.name == "tokens")
            && doc.get("tokens").is_none();
        let source = |set: &str| match whole {
            true => rel(named),
            false => format!("{}#/{}", rel(named), escape_token(set)),
        };
        let description = format!("How marque reads the Tokens Studio file `{named}`: every set as one tree, in the order `sets` lists them.");
        let doc = plan.to_resolver(Format::TokensStudio, &description, source);
        return Ok(Made {
            doc,
            plan: Some(plan),
            format,
        });
    }
    let description = format!(
        "How marque reads `{named}`: one file, in the format `{}`; any modes it keeps inside (modes in paths or values, collections, schemes) are read from it.",
        format.as_str()
    );
    let doc = json!({
        "version": "2025.10",
        "description": description,
        "sets": {"tokens": {"sources": [{"$ref": rel(named)}], "$extensions": {EXTENSION: {"format": format.as_str()}}}},
        "resolutionOrder": [{"$ref": "#/sets/tokens"}],
    });
    Ok(Made {
        doc,
        plan: None,
        format,
    })
}

/// A resolver (or a Style Dictionary config, the resolver over what it
/// names) as a plan: its sources relative to the plan, each set's format
/// said where one is given or detected from its file.
fn resolver(
    named: &str,
    format: Option<Format>,
    doc: &Value,
    files: &BTreeMap<String, Value>,
    plan_dir: &str,
) -> Result<Made, String> {
    let dir = named.rsplit_once('/').map_or("", |(d, _)| d);
    let under = |p: &str| match dir {
        "" => p.to_string(),
        d => format!("{d}/{p}"),
    };
    let mut doc = doc.clone();
    let mut description = format!("How marque reads the resolver `{named}`.");
    if formats::sd_config::is_config(&doc) {
        let rel: Vec<String> = files
            .keys()
            .filter(|f| f.as_str() != named)
            .filter_map(|f| match dir {
                "" => Some(f.clone()),
                d => f.strip_prefix(&format!("{d}/")).map(str::to_string),
            })
            .collect();
        let rel: Vec<&str> = rel.iter().map(String::as_str).collect();
        let has_value = |f: &str| {
            files
                .get(&under(f))
                .is_some_and(|v| v.to_string().contains("\"$value\""))
        };
        doc = formats::sd_config::resolver(&doc, &rel, has_value)
            .map_err(|e| format!("a Style Dictionary config whose {e}"))?;
        description = format!("How marque reads the Style Dictionary config `{named}`: its `include` then its `source`, read as data; its build is never run.");
    }
    // Files read as one tree whose modes are left to be found (a config's,
    // as read, or as `marque import` made it): the modes found, written.
    if doc.pointer(&format!("/$extensions/{EXTENSION}/infer")) == Some(&json!(true)) {
        let description = format!("How marque reads the Style Dictionary config `{named}`: its `include` then its `source`, read as data and as one tree; its build is never run.");
        return Ok(inferred(&doc, &description, files, &under, plan_dir));
    }
    let format = format.or_else(|| formats::sd_config::format_in(&doc));
    // Each set's format: the one given, else the first its files show.
    let sets = doc.get_mut("sets").and_then(Value::as_object_mut);
    for set in sets.into_iter().flat_map(|s| s.values_mut()) {
        let said = format.or_else(|| {
            set.get("sources")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("$ref")?.as_str())
                .filter(|r| !r.starts_with('#'))
                .map(|r| under(r.split_once('#').map_or(r, |(p, _)| p)))
                .find_map(|full| formats::detect(files.get(&full)?).ok())
        });
        if let (Some(f), Some(o)) = (said, set.as_object_mut()) {
            let ext = o.entry("$extensions").or_insert_with(|| json!({}));
            if let Some(e) = ext.as_object_mut() {
                e.entry(EXTENSION).or_insert_with(|| json!({}))["format"] = json!(f.as_str());
            }
        }
    }
    // Every file it names, from the plan's folder.
    rebase_files(&mut doc, |r| relative(plan_dir, &under(r)));
    if doc.get("description").is_none() {
        doc["description"] = json!(description);
    }
    // Modifiers a resolver declares: said to be so.
    if let Some(ms) = doc.get_mut("modifiers").and_then(Value::as_object_mut) {
        for m in ms.values_mut().filter_map(Value::as_object_mut) {
            m.entry("description")
                .or_insert_with(|| json!(format!("declared by `{named}`")));
        }
    }
    Ok(Made {
        doc,
        plan: None,
        format: format.unwrap_or(Format::Dtcg),
    })
}

/// The plan of a config's files read as one tree, its modes inferred: the
/// modifiers found, written out, so the plan says them.
fn inferred(
    doc: &Value,
    description: &str,
    files: &BTreeMap<String, Value>,
    under: &dyn Fn(&str) -> String,
    plan_dir: &str,
) -> Made {
    let (studio, sources) = super::studio_doc(
        doc,
        |p| Some((files.get(&under(p))?.clone(), String::new())),
        &mut Vec::new(),
    );
    let mut d = crate::spec::diag::FileDiags::new("", String::new());
    let plan = tokens_studio::read(&studio, true, &mut d)
        .plan
        .unwrap_or_default();
    let file_of: BTreeMap<String, String> = sources
        .iter()
        .map(|s| (s.prefix.clone(), s.path.clone()))
        .collect();
    let source = |set: &str| {
        let file = file_of.get(&tokens_studio::set_pointer(set));
        relative(plan_dir, &under(file.map_or(set, String::as_str)))
    };
    let doc = plan.to_resolver(Format::TokensStudio, description, source);
    Made {
        doc,
        plan: Some(plan),
        format: Format::TokensStudio,
    }
}

/// Every file a resolver document's sets, modifiers and order name
/// (`$ref` not to `#…`, a `#/pointer` after the file kept), as `to`
/// writes the file's path.
pub fn rebase_files(doc: &mut Value, to: impl Fn(&str) -> String) {
    fn walk(v: &mut Value, to: &dyn Fn(&str) -> String, depth: usize) {
        if depth > crate::spec::limits::MAX_JSON_DEPTH {
            return;
        }
        match v {
            Value::Object(o) => {
                if let Some(Value::String(r)) = o.get_mut("$ref") {
                    if !r.starts_with('#') {
                        *r = match r.split_once('#') {
                            Some((path, within)) => format!("{}#{within}", to(path)),
                            None => to(r),
                        };
                    }
                    return;
                }
                o.values_mut().for_each(|c| walk(c, to, depth + 1));
            }
            Value::Array(a) => a.iter_mut().for_each(|c| walk(c, to, depth + 1)),
            _ => {}
        }
    }
    for key in ["sets", "modifiers", "resolutionOrder"] {
        if let Some(v) = doc.get_mut(key) {
            walk(v, &to, 0);
        }
    }
}

/// `path` (from the root) as written from the folder `from` (from the
/// root): `../` for each folder of `from` not on the way.
pub fn relative(from: &str, path: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to[common..]);
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_written_from_the_plans_folder() {
        assert_eq!(relative("", "tokens/a.json"), "tokens/a.json");
        assert_eq!(relative("tokens", "tokens/a.json"), "a.json");
        assert_eq!(relative("plans", "tokens/a.json"), "../tokens/a.json");
    }

    #[test]
    fn a_folder_of_mode_sets_is_planned_as_a_modifier_inferred_from_their_names() {
        let files = BTreeMap::from([
            (
                "t/core.json".to_string(),
                json!({"blue": {"$type": "color", "$value": "#0000ff"}}),
            ),
            (
                "t/semantic/light.json".to_string(),
                json!({"bg": {"$type": "color", "$value": "#ffffff"}}),
            ),
            (
                "t/semantic/dark.json".to_string(),
                json!({"bg": {"$type": "color", "$value": "#000000"}}),
            ),
        ]);
        let made = make("t", None, &files, "").unwrap();
        let doc = made.doc;
        assert_eq!(
            doc["sets"]["semantic/dark"]["sources"][0]["$ref"],
            "t/semantic/dark.json"
        );
        assert_eq!(
            doc["sets"]["core"]["$extensions"]["app.marque"]["oneTree"],
            true
        );
        let theme = &doc["modifiers"]["theme"];
        assert_eq!(theme["default"], "light");
        assert!(
            theme["description"]
                .as_str()
                .unwrap()
                .contains("inferred from the sets' names"),
            "{theme}"
        );
        assert_eq!(doc["resolutionOrder"][0]["$ref"], "#/sets/core");
    }
}
