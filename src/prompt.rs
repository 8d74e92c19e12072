//! Prompt templates of a brand's prompt kit: MiniJinja, checked strictly.
//!
//! Validation needs the set of variables a template reads, so that one used
//! but not declared is an error before any model is ever called.

use minijinja::{Environment, UndefinedBehavior};
use std::collections::BTreeSet;

/// Names MiniJinja provides itself; a template may use them without declaring.
const BUILTINS: &[&str] = &[
    "range",
    "dict",
    "namespace",
    "loop",
    "self",
    "super",
    "caller",
    "varargs",
    "kwargs",
];

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env
}

/// The top-level variables `template` reads, or the syntax error (with its line).
pub fn template_variables(template: &str) -> Result<BTreeSet<String>, String> {
    let env = environment();
    let tmpl = env
        .template_from_str(template)
        .map_err(|e| match e.line() {
            Some(line) => format!(
                "{} (template line {line})",
                e.detail().unwrap_or("syntax error")
            ),
            None => e.to_string(),
        })?;
    Ok(tmpl
        .undeclared_variables(false)
        .into_iter()
        .filter(|n| !BUILTINS.contains(&n.as_str()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_variables_a_template_reads() {
        let vars = template_variables("Write about {{ product }} for {{ audience|upper }}.{% for x in range(2) %}{{ x }}{% endfor %}").unwrap();
        assert_eq!(
            vars.into_iter().collect::<Vec<_>>(),
            ["audience", "product"]
        );
    }

    #[test]
    fn reports_syntax_errors_with_their_line() {
        let err = template_variables("line one\n{{ unclosed").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
    }
}

/// Renders a prompt template with `vars`, strictly: an undefined variable is an error.
pub fn render_template(
    template: &str,
    vars: &std::collections::BTreeMap<String, String>,
) -> Result<String, String> {
    let env = environment();
    let tmpl = env.template_from_str(template).map_err(|e| e.to_string())?;
    tmpl.render(vars).map_err(|e| e.to_string())
}

#[cfg(test)]
mod render_tests {
    use super::*;

    #[test]
    fn renders_with_variables_and_fails_on_undefined_ones() {
        let mut vars = std::collections::BTreeMap::new();
        vars.insert("product".to_string(), "a shell".to_string());
        assert_eq!(
            render_template("Sell {{ product }}.", &vars).unwrap(),
            "Sell a shell."
        );
        assert!(render_template("Sell {{ nope }}.", &vars).is_err());
    }

    #[test]
    fn values_are_data_not_template_code() {
        let mut vars = std::collections::BTreeMap::new();
        vars.insert("x".to_string(), "{{ 7 * 7 }}".to_string());
        assert_eq!(render_template("{{ x }}", &vars).unwrap(), "{{ 7 * 7 }}");
    }
}
