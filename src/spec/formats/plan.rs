//! A reading plan: how marque reads a team's own token files, written as
//! a DTCG resolver document over those files, so a team can see it, keep
//! it beside its sources and correct it by editing one file.
//!
//! - Each set names the team's file (or a part of one, `tokens.json#/core`),
//!   never a converted copy. Its `$extensions["app.marque"]` says how it is
//!   read: its `format`; `oneTree`, every set of the plan read together as
//!   one Tokens Studio document, so references (set names included) and
//!   math cross sets as the team's own build resolves them; and
//!   `sourceOnly`, a set that is referred to and never published.
//! - Sets apply in the order `sets` lists them (Tokens Studio's
//!   `tokenSetOrder`); `resolutionOrder` lists those always on, then each
//!   modifier.
//! - Each modifier's `description` says what it was read from: `$themes`,
//!   or the sets' names. Its first context is its default.
//! - What was left out, and the counts per context, are not in it: they
//!   would go stale in a committed file. `marque check --explain` says them.
//!
//! brand.json's `tokens` names a plan as it names any resolver; a plan
//! whose sets are read as one tree is read here back into the Tokens
//! Studio document it stands for ([`studio_doc`]), with `$themes` saying
//! exactly its modifiers, contexts and defaults, so nothing is inferred
//! again. PURE.

pub use super::decisions::{Modifier, Plan, Set, EXTENSION, MODE_WORDS, PLANNED};
use super::{tokens_studio, Format, SourceFile};

mod explain;
mod make;
use crate::spec::json::{join, unescape_token};
pub use explain::{context_tokens, explain};
pub use make::{make, rebase_files, relative, Made};
use serde_json::{json, Map, Value};

/// How a plan's set is read, from its `$extensions`.
fn how(set: &Value) -> Option<&Value> {
    set.get("$extensions")?.get(EXTENSION)
}

/// True when `doc` is a plan whose sets are read as one tree: one of its
/// sets says so.
pub fn is_one_tree(doc: &Value) -> bool {
    doc.get("sets")
        .and_then(Value::as_object)
        .is_some_and(|sets| {
            sets.values().any(|s| {
                how(s)
                    .and_then(|h| h.get("oneTree"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
            })
        })
}

/// The file and format of a plan of one whole file in a format that keeps
/// its own modes (a Figma export's paths, values with modes, Material's
/// schemes): its one set names the file whole, in a format the plan says,
/// and no modifier is written. Such a file is read as brand.json naming it
/// with that format reads it.
pub fn whole_file(doc: &Value) -> Option<(String, Format)> {
    let sets = doc.get("sets")?.as_object()?;
    let no_modifiers = doc
        .get("modifiers")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    let [(path, format)] = set_formats(doc).try_into().ok()?;
    (sets.len() == 1 && no_modifiers && !is_one_tree(doc) && !path.contains('#'))
        .then_some((path, format))
}

/// Each source a plan's set is read from (a path relative to the plan,
/// with a `#/pointer` where a part of the file is read) with the format it
/// says, for sets read one by one.
pub fn set_formats(doc: &Value) -> Vec<(String, Format)> {
    let mut out = Vec::new();
    for set in doc
        .get("sets")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|s| s.values())
    {
        let Some(format) = how(set)
            .and_then(|h| h.get("format"))
            .and_then(Value::as_str)
            .and_then(Format::parse)
        else {
            continue;
        };
        for s in set
            .get("sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                if !r.starts_with('#') {
                    out.push((r.to_string(), format));
                }
            }
        }
    }
    out
}

/// A problem in a plan: where (a pointer into it) and what.
pub type Problem = (String, String);

/// The Tokens Studio document a one-tree plan stands for: a member per
/// set (its source's content, read through `file`, which is given a path
/// relative to the plan), `$metadata.tokenSetOrder` the sets' order, and
/// `$themes` exactly the plan's modifiers, each context a theme selecting
/// the sets always on and its own (`source` for a source-only set), the
/// default first. Each set's file, with the pointer its content has in
/// the document, is in the list returned, for diagnostics.
pub fn studio_doc(
    plan: &Value,
    mut file: impl FnMut(&str) -> Option<(Value, String)>,
    problems: &mut Vec<Problem>,
) -> (Value, Vec<SourceFile>) {
    let empty = Map::new();
    let sets = plan
        .get("sets")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut doc = Map::new();
    let mut files = Vec::new();
    let mut source_only = Vec::new();
    // What the sets read, in all: a file read by two sets counts twice, so
    // a plan cannot make one file many times its size.
    let mut read = 0;
    for (name, set) in sets {
        let at = join("/sets", name);
        if how(set)
            .and_then(|h| h.get("sourceOnly"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
        {
            source_only.push(name.as_str());
        }
        let refs: Vec<&str> = set
            .get("sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("$ref").and_then(Value::as_str))
            .collect();
        let [reference] = refs.as_slice() else {
            problems.push((
                join(&at, "sources"),
                format!("set `{name}` of a plan read as one tree names one file (or one part of a file), as `{{\"$ref\": \"tokens/core.json\"}}`"),
            ));
            continue;
        };
        let (path, within) = reference.split_once('#').unwrap_or((reference, ""));
        let Some((content, text)) = file(path) else {
            problems.push((
                join(&join(&at, "sources"), "0"),
                format!("set `{name}` names `{path}`, which is not a file beside the plan"),
            ));
            continue;
        };
        read += text.len();
        if read > crate::spec::limits::MAX_BRAND_BYTES {
            problems.push((
                at,
                format!(
                    "the plan's sets read more than {} in all (a file read by several sets counts each time): it is not read",
                    crate::spec::limits::describe_bytes(crate::spec::limits::MAX_BRAND_BYTES)
                ),
            ));
            break;
        }
        let Some(part) = content.pointer(within) else {
            problems.push((
                join(&join(&at, "sources"), "0"),
                format!("set `{name}` names `{reference}`: `{within}` is not in `{path}`"),
            ));
            continue;
        };
        doc.insert(name.clone(), part.clone());
        files.push(SourceFile {
            prefix: tokens_studio::set_pointer(name),
            path: path.to_string(),
            within: within.to_string(),
            text,
        });
    }
    let order: Vec<Value> = doc.keys().map(|n| json!(n)).collect();
    // A plan that leaves the modes to be inferred (a Style Dictionary
    // config's files): the sets in order, and the mode names it gives.
    let how = plan.get("$extensions").and_then(|e| e.get(EXTENSION));
    if how.and_then(|h| h.get("infer")).and_then(Value::as_bool) == Some(true) {
        doc.insert("$metadata".into(), json!({"tokenSetOrder": order}));
        if let Some(words) = how.and_then(|h| h.get("modeWords")) {
            doc.insert(MODE_WORDS.into(), words.clone());
        }
        return (Value::Object(doc), files);
    }
    // The set a `{"$ref": "#/sets/…"}` names.
    let set_of = |r: &Value| {
        let r = r.get("$ref")?.as_str()?.strip_prefix("#/sets/")?;
        Some(unescape_token(r))
    };
    let steps = plan.get("resolutionOrder").and_then(Value::as_array);
    let always: Vec<String> = steps.into_iter().flatten().filter_map(set_of).collect();
    let selecting = |sets: &mut dyn Iterator<Item = String>| -> Map<String, Value> {
        sets.map(|set| {
            let status = match source_only.contains(&set.as_str()) {
                true => "source",
                false => "enabled",
            };
            (set, json!(status))
        })
        .collect()
    };
    let mut themes = Vec::new();
    let modifiers = plan.get("modifiers").and_then(Value::as_object);
    for (group, m) in modifiers.into_iter().flatten() {
        let contexts = m.get("contexts").and_then(Value::as_object);
        let default = m.get("default").and_then(Value::as_str);
        let mut ordered: Vec<(&String, &Value)> = contexts.into_iter().flatten().collect();
        ordered.sort_by_key(|(c, _)| Some(c.as_str()) != default);
        for (context, own) in ordered {
            let own = own.as_array().into_iter().flatten().filter_map(set_of);
            let selected = selecting(&mut always.iter().cloned().chain(own));
            themes.push(json!({"name": context, "group": group, "selectedTokenSets": selected}));
        }
    }
    // No modifier: one theme of the sets always on (a group of one theme
    // is no modifier), so source-only sets are kept unpublished.
    if themes.is_empty() {
        let selected = selecting(&mut always.iter().cloned());
        themes.push(json!({"name": "default", "group": "plan", "selectedTokenSets": selected}));
    }
    doc.insert("$themes".into(), Value::Array(themes));
    doc.insert("$metadata".into(), json!({"tokenSetOrder": order}));
    doc.insert(PLANNED.into(), json!(true));
    (Value::Object(doc), files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            sets: vec![
                Set {
                    name: "core".into(),
                    source_only: true,
                },
                Set {
                    name: "semantic/light".into(),
                    source_only: false,
                },
                Set {
                    name: "semantic/dark".into(),
                    source_only: false,
                },
            ],
            modifiers: vec![Modifier {
                name: "theme".into(),
                description: "from the sets' names".into(),
                contexts: vec![
                    ("light".into(), vec!["semantic/light".into()]),
                    ("dark".into(), vec!["semantic/dark".into()]),
                ],
            }],
            not_read: vec![],
        }
    }

    #[test]
    fn a_plan_is_a_resolver_over_the_files_and_reads_back_as_its_themes() {
        let doc = plan().to_resolver(Format::TokensStudio, "d", |s| format!("{s}.json"));
        assert_eq!(
            doc["sets"]["semantic/dark"]["sources"][0]["$ref"],
            "semantic/dark.json"
        );
        assert_eq!(
            doc["sets"]["core"]["$extensions"][EXTENSION]["sourceOnly"],
            true
        );
        assert_eq!(doc["resolutionOrder"][0]["$ref"], "#/sets/core");
        assert_eq!(
            doc["modifiers"]["theme"]["contexts"]["dark"][0]["$ref"],
            "#/sets/semantic~1dark"
        );
        assert!(is_one_tree(&doc));
        let mut problems = Vec::new();
        let (studio, files) = studio_doc(
            &doc,
            |p| Some((json!({"p": {"$value": p}}), String::new())),
            &mut problems,
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(files.len(), 3);
        assert_eq!(studio["semantic/dark"]["p"]["$value"], "semantic/dark.json");
        let themes = studio["$themes"].as_array().unwrap();
        assert_eq!(themes[0]["name"], "light");
        assert_eq!(themes[1]["selectedTokenSets"]["core"], "source");
        assert_eq!(themes[1]["selectedTokenSets"]["semantic/dark"], "enabled");
        assert!(themes[1]["selectedTokenSets"]
            .get("semantic/light")
            .is_none());
    }

    #[test]
    fn the_default_a_plan_names_comes_first_whatever_the_order_written() {
        let mut doc = plan().to_resolver(Format::TokensStudio, "d", |s| format!("{s}.json"));
        doc["modifiers"]["theme"]["default"] = json!("dark");
        let (studio, _) = studio_doc(&doc, |_| Some((json!({}), String::new())), &mut Vec::new());
        assert_eq!(studio["$themes"][0]["name"], "dark");
    }

    #[test]
    fn a_plan_cannot_read_one_file_many_times_its_size() {
        let mut doc = plan().to_resolver(Format::TokensStudio, "d", |_| "big.json".into());
        for i in 0..40 {
            doc["sets"][format!("copy{i}")] = doc["sets"]["core"].clone();
        }
        let big = "x".repeat(crate::spec::limits::MAX_BRAND_BYTES / 20);
        let mut problems = Vec::new();
        let (studio, _) = studio_doc(&doc, |_| Some((json!({}), big.clone())), &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].1.contains("read more than"), "{problems:?}");
        assert!(studio.as_object().unwrap().len() < 30);
    }

    #[test]
    fn a_set_naming_no_file_is_a_problem_at_its_source() {
        let doc = plan().to_resolver(Format::TokensStudio, "d", |s| format!("{s}.json"));
        let mut problems = Vec::new();
        studio_doc(
            &doc,
            |p| (p != "core.json").then(|| (json!({}), String::new())),
            &mut problems,
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, "/sets/core/sources/0");
    }
}
