//! What a brand of a family reports (DESIGN.md section 18): a problem in
//! a parent's file, as it shows in this brand, says which parent and
//! through which others; the parent's own warnings are the parent's, and
//! a child that fails for its parents' files says so at its `extends`.

use crate::spec::diag::{Code, Diagnostic, FileDiags, Inherited, Severity};
use crate::spec::files::{BrandFiles, Parent};

impl Parent {
    /// The version of the parent the child is built over: the release
    /// chosen for its range, else what its brand.json says.
    pub fn version(&self) -> String {
        if let Some(v) = &self.release {
            return v.to_string();
        }
        self.files
            .get("brand.json")
            .and_then(|b| super::brand_json(b))
            .and_then(|doc| Some(doc.get("version")?.as_str()?.to_string()))
            .unwrap_or_default()
    }
}

/// Marks each diagnostic in a parent's file with where it comes from,
/// drops the parents' warnings, and says at `extends` when the parents'
/// files hold errors for this brand.
pub(super) fn mark_inherited(files: &BrandFiles, out: &mut Vec<Diagnostic>) {
    let parents = files.lineage.parents();
    if parents.is_empty() {
        return;
    }
    let own = format!("{}/", files.slug);
    let mut errors: Vec<&str> = Vec::new();
    out.retain_mut(|d| {
        if d.file.starts_with(&own) {
            return true;
        }
        let folder = d.file.split('/').next().unwrap_or_default();
        let Some(at) = parents.iter().position(|p| p.files.slug == folder) else {
            return true;
        };
        if d.severity() == Severity::Warning {
            return false;
        }
        d.inherited = Some(Inherited {
            brand: folder.to_string(),
            version: parents[at].version(),
            through: parents[..at].iter().map(|p| p.files.slug.clone()).collect(),
        });
        true
    });
    for d in out.iter().filter(|d| d.inherited.is_some()) {
        let brand = d.inherited.as_ref().map_or("", |i| i.brand.as_str());
        if !errors.contains(&brand) {
            errors.push(brand);
        }
    }
    if errors.is_empty() {
        return;
    }
    let named = errors
        .iter()
        .map(|b| format!("`{b}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut d = FileDiags::new(&files.slug, format!("{}/brand.json", files.slug));
    d.push(
        Code::ParentInvalid,
        "/extends",
        format!("the family does not resolve for this brand: files of {named} have errors as this brand extends them (below); it keeps its last good version"),
    );
    let text = files
        .get("brand.json")
        .and_then(|b| std::str::from_utf8(b).ok());
    let mut said = Vec::new();
    d.finish(text, &mut said);
    out.splice(0..0, said);
}
