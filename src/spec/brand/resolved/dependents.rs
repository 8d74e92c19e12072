//! What refers to a token left out goes with it, at any depth, in one
//! pass over the references (not a reading per level).

use super::{content_path, Input};
use crate::spec::diag::{Code, Diagnostic, FileDiags};
use crate::spec::formats;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// Leaves out, with a warning at each, every token of a source in another
/// format that refers (at any depth) to a token named in `gone`: one pass
/// over the references, not a reading per level.
pub(super) fn leave_out_dependents(
    input: &mut Input<'_>,
    gone: &HashSet<String>,
    out: &mut Vec<Diagnostic>,
) {
    let slug = input.slug;
    let names: Vec<String> = input.files.keys().cloned().collect();
    let docs: Vec<&Value> = input.files.values().collect();
    let dependents = formats::dependents(&docs, gone);
    // One placing pass per file, however many are left out of it.
    let mut by_file: BTreeMap<usize, Vec<(&String, &String)>> = BTreeMap::new();
    for (i, pointer, target) in &dependents {
        by_file.entry(*i).or_default().push((pointer, target));
    }
    for (i, left) in by_file {
        let file = &names[i];
        // Only a format read tolerantly leaves a token out; DTCG is strict.
        let Some(c) = input.converted.get(file) else {
            continue;
        };
        let path = content_path(slug, file);
        let mut d = FileDiags::new(slug, path.clone());
        for (pointer, target) in left {
            d.push(
                Code::LeftOutDependent,
                pointer,
                format!(
                    "it refers to `{{{target}}}`, which is left out; {}",
                    formats::LEFT_OUT
                ),
            );
        }
        d.finish_mapped(
            |p| {
                let (f, p) = c.place(p);
                (f.map_or_else(|| path.clone(), |f| content_path(slug, f)), p)
            },
            &input.texts,
            |_| {},
            out,
        );
    }
    for (i, pointer, _) in dependents {
        let file = &names[i];
        if let Some(c) = input.converted.get_mut(file) {
            c.remove(&pointer);
            if let Some(doc) = input.files.get_mut(file) {
                formats::remove_pointer(doc, &pointer);
            }
        }
    }
}
