//! Prompt templates of a brand's prompt kit: MiniJinja, checked strictly.
//!
//! Validation needs the set of variables a template reads, so that one used
//! but not declared is an error before any model is ever called. Rendering
//! runs with a fuel budget, so no template can loop for long.

use minijinja::{Environment, UndefinedBehavior};
use std::collections::{BTreeMap, BTreeSet};

/// A variable's value that says nothing: empty, or only spaces, tabs and
/// line breaks. A required variable with such a value is missing.
pub fn is_blank(s: &str) -> bool {
    s.trim_matches([' ', '\t', '\n', '\r']).is_empty()
}

/// [`is_blank`] as a JSON Schema pattern a value must match to be given
/// (one character that is not blank), for the OpenAPI document.
pub const GIVEN: &str = "[^ \t\n\r]";

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

/// Instructions one render may run: far above any real prompt, far below a stall.
const FUEL: u64 = 50_000;

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_fuel(Some(FUEL));
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

/// Renders a prompt template with `vars`, strictly: an undefined variable is
/// an error, and so is a filter that fails on a value, or running out of fuel.
pub fn render_template(template: &str, vars: &BTreeMap<String, String>) -> Result<String, String> {
    let env = environment();
    let tmpl = env.template_from_str(template).map_err(|e| describe(&e))?;
    tmpl.render(vars).map_err(|e| describe(&e))
}

/// MiniJinja's error in one line: what went wrong, and where in the template.
fn describe(e: &minijinja::Error) -> String {
    let what = e
        .detail()
        .map_or_else(|| e.kind().to_string(), str::to_string);
    match e.line() {
        Some(line) => format!("{what} (template line {line})"),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

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

    #[test]
    fn renders_with_variables_and_fails_on_undefined_ones() {
        let v = vars(&[("product", "a shell")]);
        assert_eq!(
            render_template("Sell {{ product }}.", &v).unwrap(),
            "Sell a shell."
        );
        assert!(render_template("Sell {{ nope }}.", &v).is_err());
    }

    #[test]
    fn values_are_data_not_template_code() {
        let v = vars(&[("x", "{{ 7 * 7 }}")]);
        assert_eq!(render_template("{{ x }}", &v).unwrap(), "{{ 7 * 7 }}");
    }

    #[test]
    fn a_filter_that_fails_on_text_is_an_error_not_a_panic() {
        let err = render_template("{{ words|int + 1 }}", &vars(&[("words", "four")]));
        assert!(err.is_err(), "{err:?}");
    }

    #[test]
    fn a_runaway_loop_runs_out_of_fuel() {
        let t = "{% for a in range(1000) %}{% for b in range(1000) %}x{% endfor %}{% endfor %}";
        let started = std::time::Instant::now();
        let err = render_template(t, &BTreeMap::new()).unwrap_err();
        assert!(err.contains("fuel"), "{err}");
        assert!(started.elapsed().as_secs() < 2);
    }

    #[test]
    fn blank_is_what_the_given_pattern_refuses() {
        // The pattern's class is exactly the characters is_blank trims.
        let class: Vec<char> = GIVEN
            .trim_start_matches("[^")
            .trim_end_matches(']')
            .chars()
            .collect();
        assert_eq!(class, [' ', '\t', '\n', '\r']);
        for blank in ["", " ", "\t\r\n "] {
            assert!(is_blank(blank), "{blank:?}");
        }
        for given in ["x", " x ", "\u{85}", "\u{3000}"] {
            assert!(!is_blank(given), "{given:?}");
        }
    }
}
