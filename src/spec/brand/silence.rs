//! What brand.json's `diagnostics` member says: warnings a brand has
//! chosen not to be shown, by code (`{"MQ1407": "off"}`).
//!
//! Silencing is for the noise of a real export, never for what stops a
//! brand: an error cannot be silenced, and neither can the warning that
//! says an entry was refused. A silenced warning is not dropped without a
//! trace either: it is counted, per code, where the brand's diagnostics are
//! reported (`/status`, `marque check`). Pure: the entries are read from
//! the brand's files, and the lists come in and go out as values.

use crate::spec::diag::{Code, Diagnostic, FileDiags, Severity};
use crate::spec::files::BrandFiles;
use crate::spec::json::join;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Diagnostics silenced, counted by code.
pub type Silenced = BTreeMap<Code, usize>;

/// The one value an entry may have.
const OFF: &str = "off";

/// Each entry of a `diagnostics` member: its key, and the code it
/// silences or why it silences nothing.
fn entries(member: &Value) -> Vec<(&str, Result<Code, String>)> {
    let Some(map) = member.as_object() else {
        // Not an object: the schema check reports it.
        return Vec::new();
    };
    map.iter()
        .map(|(key, value)| (key.as_str(), entry(key, value)))
        .collect()
}

fn entry(key: &str, value: &Value) -> Result<Code, String> {
    let Some(code) = Code::parse(key) else {
        return Err(format!(
            "`{key}` is not a diagnostic code marque has, so it silences nothing; codes are written as `MQ1407` (the list: docs/reference/diagnostics.md)"
        ));
    };
    if code.severity() == Severity::Error {
        return Err(format!(
            "{code} ({}) is an error, and errors cannot be silenced: the brand is not published while it has one; fix what it says",
            code.name()
        ));
    }
    if code == Code::SilencingIgnored {
        return Err(format!(
            "{code} cannot be silenced: it is how a silencing entry that does nothing is found"
        ));
    }
    if value.as_str() != Some(OFF) {
        return Err(format!(
            "the value of `{key}` is {value}; the one value an entry may have is \"{OFF}\" (to see {code} again, remove the entry)"
        ));
    }
    Ok(code)
}

/// Reports, in brand.json, every entry of `diagnostics` that has no effect.
pub(super) fn check(member: Option<&Value>, d: &mut FileDiags<'_>) {
    for (key, outcome) in member.map(entries).unwrap_or_default() {
        if let Err(why) = outcome {
            d.push_at_key(Code::SilencingIgnored, &join("/diagnostics", key), why);
        }
    }
}

/// The codes a brand's brand.json silences (none when it cannot be read:
/// reading it reports why).
pub fn codes(files: &BrandFiles) -> BTreeSet<Code> {
    let Some(doc) = files
        .get("brand.json")
        .and_then(|b| super::setting::brand_json_saying(b, "diagnostics"))
    else {
        return BTreeSet::new();
    };
    doc.get("diagnostics")
        .map(entries)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(_, outcome)| outcome.ok())
        .collect()
}

/// Splits `diagnostics` into those shown and the count of those silenced
/// by `codes`. Errors are always shown, whatever `codes` holds.
pub fn apply(codes: &BTreeSet<Code>, diagnostics: Vec<Diagnostic>) -> (Vec<Diagnostic>, Silenced) {
    let mut silenced = Silenced::new();
    if codes.is_empty() {
        return (diagnostics, silenced);
    }
    let shown = diagnostics
        .into_iter()
        .filter(|d| {
            let off = d.severity() == Severity::Warning && codes.contains(&d.code);
            if off {
                *silenced.entry(d.code).or_default() += 1;
            }
            !off
        })
        .collect();
    (shown, silenced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::file_diagnostic;
    use serde_json::json;

    fn diag(code: Code) -> Diagnostic {
        file_diagnostic(code, "acme", "acme/tokens.json", "m")
    }

    #[test]
    fn only_warnings_set_off_are_silenced() {
        let member = json!({
            "MQ1407": "off",
            "MQ1501": "off",
            "MQ9999": "off",
            "MQ1401": "on",
            "MQ1111": "off",
        });
        let kept: BTreeSet<Code> = entries(&member)
            .into_iter()
            .filter_map(|(_, o)| o.ok())
            .collect();
        assert_eq!(kept, BTreeSet::from([Code::StringType]));
        let refused: Vec<&str> = entries(&member)
            .into_iter()
            .filter(|(_, o)| o.is_err())
            .map(|(k, _)| k)
            .collect();
        assert_eq!(refused, ["MQ1501", "MQ9999", "MQ1401", "MQ1111"]);
    }

    #[test]
    fn silenced_warnings_are_counted_and_errors_always_shown() {
        let codes = BTreeSet::from([Code::StringType, Code::DanglingReference]);
        let list = vec![
            diag(Code::StringType),
            diag(Code::DanglingReference),
            diag(Code::StringType),
            diag(Code::LegacyStringForm),
        ];
        let (shown, silenced) = apply(&codes, list);
        let shown: Vec<Code> = shown.iter().map(|d| d.code).collect();
        assert_eq!(shown, [Code::DanglingReference, Code::LegacyStringForm]);
        assert_eq!(silenced, Silenced::from([(Code::StringType, 2)]));
        assert_eq!(
            serde_json::to_value(&silenced).unwrap(),
            json!({"MQ1407": 2})
        );
    }
}
