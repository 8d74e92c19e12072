//! brand.json's prompt kit, checked: ids and variable names are
//! identifiers, every variable a template uses is declared, and each
//! template renders with its examples.

use super::check_id;
use crate::spec::diag::{quoted, Code, FileDiags};
use crate::spec::json::join;
use crate::spec::model::BrandDoc;
use crate::spec::schema::Checked;
use std::collections::{BTreeMap, HashSet};

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub(super) fn check_prompts(doc: &BrandDoc, checked: &Checked, d: &mut FileDiags<'_>) {
    let mut ids = HashSet::new();
    for (i, prompt) in doc.prompt_kit.prompts.iter().enumerate() {
        let base = format!("/promptKit/prompts/{i}");
        check_id(
            "prompt",
            &prompt.id,
            &join(&base, "id"),
            checked,
            &mut ids,
            d,
        );
        let mut declared = HashSet::new();
        for (j, var) in prompt.variables.iter().enumerate() {
            let vp = format!("{base}/variables/{j}");
            if checked.blocked(&join(&vp, "name")) {
                continue;
            }
            if !is_identifier(&var.name) {
                d.push(
                    Code::InvalidVariableName,
                    &join(&vp, "name"),
                    format!(
                        "variable name {} must be an identifier (letters, digits and _)",
                        quoted(&var.name)
                    ),
                );
            } else if !declared.insert(var.name.as_str()) {
                d.push(
                    Code::DuplicateVariable,
                    &join(&vp, "name"),
                    format!("variable \"{}\" is declared twice", var.name),
                );
            }
            if let Some(example) = &var.example {
                let len = example.chars().count();
                if len > var.max_length as usize && !checked.blocked(&join(&vp, "maxLength")) {
                    d.push(
                        Code::ExampleTooLong,
                        &join(&vp, "example"),
                        format!(
                            "the example of \"{}\" is {len} characters long, more than its maxLength of {}: the demo would refuse it",
                            var.name, var.max_length
                        ),
                    );
                }
            }
        }
        let tp = join(&base, "template");
        if checked.blocked(&tp) {
            continue;
        }
        match crate::prompt::template_variables(&prompt.template) {
            Err(e) => d.push(
                Code::TemplateSyntax,
                &tp,
                format!("template does not parse: {e}"),
            ),
            Ok(used) => {
                let undeclared: Vec<&String> = used
                    .iter()
                    .filter(|n| !declared.contains(n.as_str()))
                    .collect();
                for name in &undeclared {
                    d.push(
                        Code::UndeclaredVariable,
                        &tp,
                        format!("template uses `{name}`, which is not declared in `variables`"),
                    );
                }
                for (j, var) in prompt.variables.iter().enumerate() {
                    if !used.contains(&var.name) {
                        d.push(
                            Code::UnusedVariable,
                            &format!("{base}/variables/{j}/name"),
                            format!(
                                "variable \"{}\" is declared but the template never uses it",
                                var.name
                            ),
                        );
                    }
                }
                if undeclared.is_empty() {
                    check_template_renders(prompt, &tp, d);
                }
            }
        }
    }
}

/// A template must render with its examples, and with plain text in every
/// variable: the demo's values are always strings, so a filter that fails
/// on text (`{{ words|int + 1 }}` given "four") would fail a visitor's call.
fn check_template_renders(prompt: &crate::spec::model::Prompt, tp: &str, d: &mut FileDiags<'_>) {
    let examples: BTreeMap<String, String> = prompt
        .variables
        .iter()
        .map(|v| {
            (
                v.name.clone(),
                v.example.clone().unwrap_or_else(|| "text".into()),
            )
        })
        .collect();
    if let Err(e) = crate::prompt::render_template(&prompt.template, &examples) {
        d.push(
            Code::TemplateFails,
            tp,
            format!("template fails with the variables' examples: {e}"),
        );
        return;
    }
    let text: BTreeMap<String, String> = prompt
        .variables
        .iter()
        .map(|v| (v.name.clone(), "some text".to_string()))
        .collect();
    if let Err(e) = crate::prompt::render_template(&prompt.template, &text) {
        d.push(
            Code::TemplateFails,
            tp,
            format!("template fails when a variable holds ordinary text ({e}); variables are always strings, so use filters that accept any text"),
        );
    }
}
