use super::*;

#[test]
fn rules_keep_custom_properties_with_their_media_query_and_skip_the_rest() {
    let css = r#"/* built */
:root { --a: #FFF; color: red; --b: var(--a, #000) }
@media (prefers-color-scheme: dark) { :root { --a: rgb(0 0 0); } }
.btn { padding: 4px }
@layer tokens { [data-theme="dark"], .dark { --a: "x;y" } }
@font-face { font-family: X; src: url(x.woff) }
"#;
    let r = rules(css);
    assert_eq!(r.len(), 3, "{r:?}");
    assert_eq!(r[0].selector, ":root");
    assert_eq!(
        r[0].declarations,
        [
            ("--a".to_string(), "#FFF".to_string()),
            ("--b".to_string(), "var(--a, #000)".to_string())
        ]
    );
    assert_eq!(r[1].media, "(prefers-color-scheme: dark)");
    assert_eq!(r[2].selector, "[data-theme=\"dark\"], .dark");
    assert_eq!(r[2].declarations[0].1, "\"x;y\"");
}

#[test]
fn values_compare_by_what_they_mean() {
    for (a, b) in [
        ("#FFF", "#ffffff"),
        ("rgba(0, 0, 0, 0.5)", "#00000080"),
        ("0px", "0"),
        ("1.50rem", "1.5rem"),
        ("'Inter', sans-serif", "Inter,sans-serif"),
        ("0 1px 2px rgb(0 0 0 / 0.2)", "0px 1px 2px rgba(0,0,0,0.2)"),
    ] {
        assert_eq!(normal(a), normal(b), "{a} and {b}");
    }
    for (a, b) in [
        ("#fff", "#fffffe"),
        ("16px", "1rem"),
        ("1.5", "24px"),
        // A string is not the function it spells: no transition takes it.
        (
            "\"cubic-bezier(0.4, 0, 0.2, 1)\"",
            "cubic-bezier(0.4, 0, 0.2, 1)",
        ),
    ] {
        assert_ne!(normal(a), normal(b), "{a} and {b}");
    }
}

#[test]
fn var_is_resolved_in_the_properties_in_effect() {
    let props: HashMap<String, String> = [
        ("--ink".to_string(), "#111".to_string()),
        ("--fg".to_string(), "var(--ink)".to_string()),
    ]
    .into();
    assert_eq!(resolve("var(--fg)", &props, 0), "#111");
    assert_eq!(resolve("0 0 var(--gone, 2px)", &props, 0), "0 0 2px");
    assert_eq!(resolve("var(--gone)", &props, 0), "var(--gone)");
}

#[test]
fn selectors_name_classes_attribute_values_and_the_colour_scheme() {
    assert_eq!(words(":root", ""), Vec::<String>::new());
    assert_eq!(words("html.theme-dark", ""), ["theme-dark"]);
    assert_eq!(words("[data-theme='dark'] :not(.x)", ""), ["dark"]);
    assert_eq!(words(":root", "(prefers-color-scheme: dark)"), ["dark"]);
}

#[test]
fn a_word_names_a_context_alone_after_a_dash_or_before_mode() {
    for w in [
        "dark",
        "theme-dark",
        "theme_dark",
        "darkmode",
        "dark-mode",
        "dark_mode",
    ] {
        assert!(names(w, "dark"), "{w}");
    }
    for w in ["darker", "undark", "mode", "darkmodes", "dark-moded"] {
        assert!(!names(w, "dark"), "{w}");
    }
    assert!(!names("mode", ""));
}
