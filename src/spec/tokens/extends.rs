//! The two DTCG features that rewrite tokens.json before it is read: group
//! `$extends` (the referenced group's members, overridden by the local ones)
//! and JSON Pointer `$ref` objects. A `$ref` to a whole token (or its
//! `$value`) becomes a curly alias, so it stays a reference in every
//! surface; a `$ref` into part of a value becomes a copy of that part.
//!
//! Both copy parts of the document, so a few hundred bytes of `$extends`
//! could ask for an exponential amount of copying. Each group is resolved
//! once (memoized), and every value copied counts against
//! [`MAX_EXPANDED_VALUES`]: past it, the `$extends` or `$ref` that asked is
//! an error and nothing more is copied.

use super::parse_reference;
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::{escape_token, join};
use crate::spec::limits::{MAX_ALIAS_DEPTH, MAX_EXPANDED_VALUES};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

/// Resolves `$extends`, then `$ref`, within the copying budget. A document
/// that uses neither is returned as it is, without a copy.
pub fn preprocess<'d>(doc: &'d Value, diags: &mut FileDiags<'_>) -> Cow<'d, Value> {
    let (extends, refs) = uses(doc);
    if !extends && !refs {
        return Cow::Borrowed(doc);
    }
    let mut ext = Extends {
        doc,
        memo: HashMap::new(),
        in_progress: Vec::new(),
        cyclic: Default::default(),
        budget: MAX_EXPANDED_VALUES,
        over: false,
    };
    let mut out = doc.clone();
    if extends {
        ext.resolve_in(&mut out, "", diags);
    }
    if refs {
        let snapshot = out.clone();
        let mut refs = Refs {
            doc: &snapshot,
            budget: ext.budget,
            over: false,
        };
        refs.resolve(&mut out, "", 0, diags);
    }
    Cow::Owned(out)
}

/// Whether a document has any `$extends` and any `$ref` member (without recursion).
fn uses(doc: &Value) -> (bool, bool) {
    let (mut extends, mut refs) = (false, false);
    let mut stack = vec![doc];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                extends |= o.contains_key("$extends");
                refs |= o.contains_key("$ref");
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
        if extends && refs {
            break;
        }
    }
    (extends, refs)
}

/// The number of JSON values in `v` (itself included), counted without recursion.
pub fn size(v: &Value) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => {
                for (k, v) in o {
                    n += k.len() / BYTES_PER_VALUE;
                    stack.push(v);
                }
            }
            Value::String(s) => n += s.len() / BYTES_PER_VALUE,
            _ => {}
        }
    }
    n
}

/// A long string or key counts as one more value per this many bytes, so
/// the budget bounds the bytes copied, not only the values: a group holding
/// one 100 KB string is 3,200 values, not 2.
const BYTES_PER_VALUE: usize = 32;

/// Why a group cannot be extended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fail {
    /// The reference names no group (or a token).
    NotAGroup,
    /// The group extends itself, directly or through others (or too deeply).
    Cycle,
    /// Copying it would spend more than the budget.
    Budget,
}

struct Extends<'d> {
    doc: &'d Value,
    /// Each extended group, resolved once: its value and size, or why it cannot be.
    memo: HashMap<String, Result<(Arc<Value>, usize), Fail>>,
    /// Groups being resolved, to tell a cycle.
    in_progress: Vec<String>,
    /// Groups found to be part of a cycle.
    cyclic: std::collections::HashSet<String>,
    /// Values that may still be copied.
    budget: usize,
    /// The budget ran out (reported once).
    over: bool,
}

impl Extends<'_> {
    /// Resolves every `$extends` in `node` and below, in place.
    fn resolve_in(&mut self, node: &mut Value, pointer: &str, diags: &mut FileDiags<'_>) {
        let Some(obj) = node.as_object_mut() else {
            return;
        };
        if obj.contains_key("$value") {
            return;
        }
        if let Some(target) = obj.remove("$extends") {
            let p = join(pointer, "$extends");
            let base_pointer = target.as_str().and_then(parse_reference).map(|t| {
                let path: Vec<String> = t.split('.').map(escape_token).collect();
                format!("/{}", path.join("/"))
            });
            let base = base_pointer
                .ok_or(Fail::NotAGroup)
                .and_then(|bp| self.group(&bp))
                .and_then(|(base, n)| {
                    if self.spend(n) {
                        Ok(base)
                    } else {
                        Err(Fail::Budget)
                    }
                });
            match base {
                Ok(base) => {
                    // The one copy of the base that this use is charged for.
                    let mut merged = base.as_object().cloned().unwrap_or_default();
                    for (k, v) in std::mem::take(obj) {
                        match (merged.get_mut(&k), v) {
                            (Some(Value::Object(b)), Value::Object(local))
                                if !local.contains_key("$value") =>
                            {
                                for (lk, lv) in local {
                                    b.insert(lk, lv);
                                }
                            }
                            (_, v) => {
                                merged.insert(k, v);
                            }
                        }
                    }
                    *obj = merged;
                }
                Err(Fail::Budget) => {
                    if !std::mem::replace(&mut self.over, true) {
                        diags.push(
                            Code::ExpansionTooLarge,
                            &p,
                            format!("`$extends` would make tokens.json larger than {MAX_EXPANDED_VALUES} values; extend smaller groups"),
                        );
                    }
                }
                Err(Fail::NotAGroup | Fail::Cycle) => diags.push(
                    Code::InvalidExtends,
                    &p,
                    "`$extends` must name a group, as {group.name}, without a cycle",
                ),
            }
        }
        let keys: Vec<String> = obj.keys().cloned().collect();
        for k in keys {
            if let Some(child) = obj.get_mut(&k) {
                self.resolve_in(child, &join(pointer, &k), diags);
            }
        }
    }

    /// Takes `n` values from the budget, if it holds them.
    fn spend(&mut self, n: usize) -> bool {
        if self.over || n > self.budget {
            return false;
        }
        self.budget -= n;
        true
    }

    /// The group at `pointer` with its own `$extends` resolved, once per group.
    fn group(&mut self, pointer: &str) -> Result<(Arc<Value>, usize), Fail> {
        if let Some(done) = self.memo.get(pointer) {
            return done.clone();
        }
        if let Some(i) = self.in_progress.iter().position(|p| p == pointer) {
            self.cyclic.extend(self.in_progress[i..].iter().cloned());
            return Err(Fail::Cycle);
        }
        if self.in_progress.len() >= MAX_ALIAS_DEPTH {
            return Err(Fail::Cycle);
        }
        let base = self.doc.pointer(pointer).ok_or(Fail::NotAGroup)?;
        if !base.is_object() || base.get("$value").is_some() {
            return Err(Fail::NotAGroup);
        }
        if !self.spend(size(base)) {
            return Err(Fail::Budget);
        }
        self.in_progress.push(pointer.to_string());
        let mut value = base.clone();
        // Problems inside the base group are reported where the group itself is walked.
        let mut quiet = FileDiags::new("", "");
        self.resolve_in(&mut value, pointer, &mut quiet);
        self.in_progress.pop();
        let result = if self.cyclic.contains(pointer) {
            Err(Fail::Cycle)
        } else {
            let n = size(&value);
            Ok((Arc::new(value), n))
        };
        self.memo.insert(pointer.to_string(), result.clone());
        result
    }
}

struct Refs<'d> {
    doc: &'d Value,
    budget: usize,
    over: bool,
}

/// The dotted token name a pointer names, when it names a token or its `$value`.
fn token_name_of(doc: &Value, target: &str) -> Option<String> {
    let path = target.strip_suffix("/$value").unwrap_or(target);
    doc.pointer(path)?.get("$value")?;
    Some(crate::spec::json::tokens(path).join("."))
}

impl Refs<'_> {
    fn resolve(
        &mut self,
        node: &mut Value,
        pointer: &str,
        depth: usize,
        diags: &mut FileDiags<'_>,
    ) {
        match node {
            Value::Object(obj) => {
                if let Some(Value::String(r)) = obj.get("$ref").cloned() {
                    let p = join(pointer, "$ref");
                    let target = r.strip_prefix('#').unwrap_or("\u{0}");
                    // A token that is nothing but a `$ref` to another token is an alias token.
                    let token_level = !pointer.contains("/$value");
                    if let Some(name) = token_name_of(self.doc, target) {
                        let alias = Value::String(format!("{{{name}}}"));
                        obj.remove("$ref");
                        if token_level {
                            obj.insert("$value".into(), alias);
                        } else {
                            *node = alias;
                        }
                        return;
                    }
                    match self.doc.pointer(target) {
                        Some(v) if target.contains("/$value/") && depth < MAX_ALIAS_DEPTH => {
                            let n = size(v);
                            if self.over || n > self.budget {
                                if !std::mem::replace(&mut self.over, true) {
                                    diags.push(Code::ExpansionTooLarge, &p, format!("`$ref` copies would make tokens.json larger than {MAX_EXPANDED_VALUES} values"));
                                }
                                return;
                            }
                            self.budget -= n;
                            let mut copy = v.clone();
                            self.resolve(&mut copy, pointer, depth + 1, diags);
                            *node = copy;
                        }
                        _ => diags.push(Code::InvalidExtends, &p, format!("`$ref` \"{r}\" must be a JSON Pointer (#/…) to a token or to part of a token's $value")),
                    }
                    return;
                }
                let keys: Vec<String> = obj.keys().cloned().collect();
                for k in keys {
                    if let Some(child) = obj.get_mut(&k) {
                        self.resolve(child, &join(pointer, &k), depth, diags);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.resolve(item, &format!("{pointer}/{i}"), depth, diags);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(doc: Value) -> (Value, Vec<String>) {
        let mut d = FileDiags::new("b", "b/tokens.json");
        let out = preprocess(&doc, &mut d);
        let mut diags = Vec::new();
        d.finish(None, &mut diags);
        (
            out.into_owned(),
            diags.into_iter().map(|d| d.message).collect(),
        )
    }

    #[test]
    fn extends_merges_the_base_under_local_members() {
        let (out, errs) = run(serde_json::json!({
            "base": {"$type": "number", "a": {"$value": 1}, "b": {"$value": 2}},
            "child": {"$extends": "{base}", "b": {"$value": 3}}
        }));
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(out["child"]["a"]["$value"], 1);
        assert_eq!(out["child"]["b"]["$value"], 3);
        assert_eq!(out["child"]["$type"], "number");
    }

    #[test]
    fn a_long_string_counts_by_its_bytes() {
        // Ten levels of four groups, each extending the level below, over
        // one 128 KiB string: 4^10 copies of it unless bytes count.
        let mut doc = serde_json::json!({"g0": {"t": {"$type": "x".repeat(128 * 1024)}}});
        for level in 1..=10 {
            let group: serde_json::Map<String, Value> = (0..4)
                .map(|k| {
                    (
                        format!("k{k}"),
                        serde_json::json!({"$extends": format!("{{g{}}}", level - 1)}),
                    )
                })
                .collect();
            doc[format!("g{level}")] = Value::Object(group);
        }
        let mut diags = FileDiags::new("tokens.json", "");
        let out = preprocess(&doc, &mut diags);
        let bytes = serde_json::to_vec(&*out).unwrap().len();
        assert!(
            bytes < 32 * MAX_EXPANDED_VALUES + 1_000_000,
            "{bytes} bytes"
        );
        assert!(diags.has_errors());
    }

    #[test]
    fn an_exponential_extends_chain_stops_at_the_budget() {
        // 12 levels of 4 groups, each extending the whole level below: 4^12 copies if unbounded.
        let mut doc = serde_json::json!({"g0": {"$type": "number", "v": {"$value": 1}}});
        for l in 1..=12 {
            let mut level = serde_json::Map::new();
            for i in 0..4 {
                level.insert(
                    format!("k{i}"),
                    serde_json::json!({"$extends": format!("{{g{}}}", l - 1)}),
                );
            }
            doc[format!("g{l}")] = Value::Object(level);
        }
        let started = std::time::Instant::now();
        let (out, errs) = run(doc);
        assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
        assert!(size(&out) < 2 * MAX_EXPANDED_VALUES, "{}", size(&out));
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].contains("larger than"), "{errs:?}");
    }

    #[test]
    fn a_cycle_is_an_error_not_a_loop() {
        let (_, errs) = run(serde_json::json!({
            "a": {"$extends": "{b}"},
            "b": {"$extends": "{a}"}
        }));
        assert!(!errs.is_empty());
        assert!(
            errs.iter().all(|e| e.contains("without a cycle")),
            "{errs:?}"
        );
    }
}
