use super::*;

#[test]
fn summaries_become_html_with_code_spans() {
    assert_eq!(
        summary_html("removes token `a<b` (`--a`)"),
        "Removes token <code>a&lt;b</code> (<code>--a</code>)"
    );
    assert_eq!(summary_html("odd ` tick"), "Odd ` tick");
}

#[test]
fn changes_are_listed_under_their_headings_with_their_level() {
    let diff = Diff {
        changes: vec![
            Change::of_token(Level::Major, Section::Removed, "a"),
            Change::of_token(Level::Minor, Section::Added, "b"),
        ],
    };
    let side = |r: &str, v: &str| Side {
        reference: r.into(),
        version: v.into(),
    };
    let md = render_md(
        "Acme",
        &side("1.0.0", "1.0.0"),
        &side("current", "2.0.0"),
        &diff,
    );
    assert_eq!(
        md,
        "# Acme: 1.0.0 → current (2.0.0)\n\nA major change: 1 major, 1 minor, 0 patch.\n\n## Added\n\n- Adds token `b` (minor)\n\n## Removed\n\n- Removes token `a` (major)\n"
    );
    let json: serde_json::Value = serde_json::from_str(&render_json(
        "acme",
        &side("1.0.0", "1.0.0"),
        &side("current", "2.0.0"),
        &diff,
    ))
    .unwrap();
    assert_eq!(json["level"], "major");
    assert_eq!(json["to"]["ref"], "current");
    assert_eq!(json["changes"][0]["kind"], "token");
}

mod tokens {
    use super::*;
    use crate::spec::diff::*;
    use crate::spec::tokens::tree::parse_tokens;
    use crate::spec::tokens::TokenSet;
    use semver::Version;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    fn set(json: &str) -> TokenSet {
        let doc: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        let mut d = crate::spec::diag::FileDiags::new("acme", "acme/tokens.json");
        let s = parse_tokens(&doc, &mut d).unwrap();
        d.finish(None, &mut out);
        assert!(!crate::spec::diag::has_errors(&out), "{out:?}");
        s
    }

    fn changes_of(old: &str, new: &str) -> Vec<(Level, String)> {
        let (o, n) = (set(old), set(new));
        token_changes(&o, &n)
            .iter()
            .map(|c| (c.level, summary(c)))
            .collect()
    }

    #[test]
    fn a_token_with_the_same_value_under_a_new_name_is_a_rename() {
        let old = r##"{"color":{"$type":"color","brand":{"primary":{"$value":"#0a2742"}}}}"##;
        let new = r##"{"color":{"$type":"color","core":{"primary":{"$value":"#0a2742"}}}}"##;
        assert_eq!(
            changes_of(old, new),
            [(
                Level::Major,
                "renames token `color.brand.primary` to `color.core.primary` (`--color-brand-primary` becomes `--color-core-primary`)".to_string()
            )]
        );
    }

    #[test]
    fn a_token_with_another_value_under_a_new_name_is_a_removal_and_an_addition() {
        let old = r##"{"color":{"$type":"color","brand":{"primary":{"$value":"#0a2742"}}}}"##;
        let new = r##"{"color":{"$type":"color","core":{"primary":{"$value":"#0a2743"}}}}"##;
        let c = changes_of(old, new);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].0, Level::Major);
        assert!(c[0].1.starts_with("removes token `color.brand.primary`"));
        assert_eq!(
            c[1],
            (
                Level::Minor,
                "adds token `color.core.primary` (`#0a2743`)".into()
            )
        );
    }

    #[test]
    fn a_new_type_is_major_and_a_new_value_is_a_patch_in_css_form() {
        let old = r#"{"space":{"xs":{"$type":"dimension","$value":{"value":4,"unit":"px"}},"n":{"$type":"number","$value":4}}}"#;
        let new = r#"{"space":{"xs":{"$type":"dimension","$value":{"value":6,"unit":"px"}},"n":{"$type":"dimension","$value":{"value":4,"unit":"px"}}}}"#;
        assert_eq!(
            changes_of(old, new),
            [
                (
                    Level::Major,
                    "changes the type of token `space.n` from number to dimension".to_string()
                ),
                (
                    Level::Patch,
                    "changes token `space.xs` from `4px` to `6px`".to_string()
                ),
            ]
        );
    }

    #[test]
    fn an_alias_pointed_elsewhere_is_a_patch_shown_by_reference() {
        let old = r##"{"color":{"$type":"color","a":{"$value":"#000000"},"b":{"$value":"#ffffff"},"text":{"$value":"{color.a}"}}}"##;
        let new = r##"{"color":{"$type":"color","a":{"$value":"#000000"},"b":{"$value":"#ffffff"},"text":{"$value":"{color.b}"}}}"##;
        assert_eq!(
            changes_of(old, new),
            [(
                Level::Patch,
                "changes token `color.text` from `{color.a}` to `{color.b}`".to_string()
            )]
        );
    }

    /// The smallest version `to` would have to be, or None when it will do.
    fn needs(from: &str, to: &str, level: Option<Level>) -> Option<Version> {
        check_step(&v(from), &v(to), level).err().map(|e| e.minimum)
    }

    #[test]
    fn a_step_must_be_as_large_as_the_change() {
        let major = Some(Level::Major);
        assert_eq!(needs("2.4.0", "2.4.1", major), Some(v("3.0.0")));
        assert_eq!(needs("2.4.0", "3.0.0", major), None);
        assert_eq!(needs("2.4.0", "3.0.0-beta.1", major), None);
        assert_eq!(needs("2.4.0", "2.5.0-rc.1", major), Some(v("3.0.0")));
        assert_eq!(
            needs("2.4.0", "2.4.1", Some(Level::Minor)),
            Some(v("2.5.0"))
        );
        assert_eq!(needs("2.4.0", "2.4.1", Some(Level::Patch)), None);
        // The same version with changes needs a step.
        assert_eq!(
            needs("2.4.0", "2.4.0", Some(Level::Patch)),
            Some(v("2.4.1"))
        );
        assert_eq!(needs("2.4.0", "2.4.0", None), None);
    }

    #[test]
    fn pre_releases_and_zero_versions_follow_semver() {
        let major = Some(Level::Major);
        assert_eq!(needs("3.0.0-beta.1", "3.0.0-beta.2", major), None);
        assert_eq!(needs("3.0.0-beta.2", "3.0.0", major), None);
        assert_eq!(
            needs("3.0.0-beta.2", "3.0.0-beta.2", major),
            Some(v("3.0.0"))
        );
        // Before 1.0.0 the minor number carries breaking changes.
        assert_eq!(needs("0.3.1", "0.4.0", major), None);
        assert_eq!(needs("0.3.1", "0.3.2", major), Some(v("0.4.0")));
        assert_eq!(needs("0.3.1", "0.3.2", Some(Level::Minor)), None);
    }

    #[test]
    fn the_verdict_names_the_forcing_changes_and_the_version() {
        let diff = Diff {
            changes: vec![
                Change::of_token(Level::Major, Section::Removed, "color.brand.primary"),
                Change::of_token(Level::Minor, Section::Added, "x"),
            ],
        };
        let err = check_step(&v("2.4.0"), &v("2.4.1"), diff.level()).unwrap_err();
        assert_eq!(
            explain(&v("2.4.0"), &v("2.4.1"), &diff, &err),
            "2.4.0 → 2.4.1 removes token `color.brand.primary`: a major change, needs 3.0.0 or later"
        );
    }

    #[test]
    fn the_verdict_names_five_forcing_changes_then_counts_the_rest() {
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        let changes = names
            .iter()
            .map(|n| Change::of_token(Level::Major, Section::Removed, n))
            .chain([Change::of_token(Level::Minor, Section::Added, "x")])
            .collect();
        let diff = Diff { changes };
        let err = check_step(&v("1.0.0"), &v("1.0.1"), diff.level()).unwrap_err();
        assert_eq!(
            explain(&v("1.0.0"), &v("1.0.1"), &diff, &err),
            "1.0.0 → 1.0.1 removes token `a`; removes token `b`; removes token `c`; removes token `d`; removes token `e`; and 2 more: a major change, needs 2.0.0 or later"
        );
    }
}

mod brands {
    use super::*;
    use crate::spec::diff::*;
    use crate::spec::tokens::TokenValue;
    use crate::spec::Brand;
    use crate::spec::{parse_brand, BrandFiles};

    const TOKENS: &str = r##"{"color":{"$type":"color",
        "ink":{"$value":{"colorSpace":"srgb","components":[0,0,0],"hex":"#000000"}},
        "grey":{"$value":{"colorSpace":"srgb","components":[0.4,0.4,0.4],"hex":"#666666"}},
        "paper":{"$value":{"colorSpace":"srgb","components":[1,1,1],"hex":"#ffffff"}}}}"##;

    /// A small valid brand: one contrast pair and one prompt, with `extra`
    /// spliced into the prompt's variables.
    fn brand(fg: &str, level: &str, variables: &str) -> Brand {
        let json = format!(
            r#"{{"name":"Acme","version":"1.0.0","updated":"2026-01-01",
            "color":{{"pairs":[{{"foreground":"{{color.{fg}}}","background":"{{color.paper}}","level":"{level}"}}]}},
            "promptKit":{{"prompts":[{{"id":"tagline","template":"Write a tagline about {{{{ topic }}}}.",
              "variables":[{{"name":"topic","example":"rain"}}{variables}]}}]}}}}"#
        );
        let files = BrandFiles::from_texts(
            "acme",
            [
                ("brand.json", json.as_bytes()),
                ("tokens.json", TOKENS.as_bytes()),
            ],
        );
        let (b, diags) = parse_brand(&files, "2026-06-01".parse().unwrap());
        b.unwrap_or_else(|| panic!("{diags:?}"))
    }

    fn levels(d: &Diff) -> Vec<(Level, String)> {
        d.changes.iter().map(|c| (c.level, summary(c))).collect()
    }

    #[test]
    fn a_contrast_pair_that_stops_passing_or_lowers_its_level_is_major() {
        let pair = "`{color.ink} on {color.paper}`";
        let (aaa, aa) = (brand("ink", "AAA", ""), brand("ink", "AA", ""));
        assert_eq!(
            levels(&diff(&aaa, &aa)),
            [(
                Level::Major,
                format!("lowers contrast pair {pair} from AAA to AA")
            )]
        );
        assert_eq!(diff(&aa, &aaa).level(), Some(Level::Patch));
        // Its foreground lightened to #eeeeee: 1.16:1 no longer passes AA
        // (validation refuses that brand; the diff still says why).
        let mut faded = aa.clone();
        let ink = faded
            .tokens
            .tokens
            .iter_mut()
            .find(|t| t.name() == "color.ink")
            .unwrap();
        let TokenValue::Color(c) = &mut ink.value else {
            panic!()
        };
        c.components = [crate::spec::tokens::Component::Num(0.9333); 3];
        c.hex = Some("#eeeeee".into());
        let d = diff(&aa, &faded);
        assert_eq!(
            summary(&d.changes[0]),
            "changes token `color.ink` from `#000000` to `#eeeeee`"
        );
        assert_eq!(
            (d.changes[1].level, summary(&d.changes[1])),
            (
                Level::Major,
                format!("contrast pair {pair} stops passing AA (1.16:1)")
            )
        );
        // Another pair altogether: one removed, one added.
        let grey = brand("grey", "AA", "");
        assert_eq!(
            levels(&diff(&aa, &grey)),
            [
                (
                    Level::Major,
                    "removes contrast pair `{color.ink} on {color.paper}` (AA)".to_string()
                ),
                (
                    Level::Minor,
                    "adds contrast pair `{color.grey} on {color.paper}` (AA)".to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_required_variable_added_is_major_and_an_optional_one_minor() {
        let base = brand("ink", "AA", "");
        let required = brand("ink", "AA", r#",{"name":"tone","example":"dry"}"#);
        let optional = brand(
            "ink",
            "AA",
            r#",{"name":"tone","example":"dry","required":false}"#,
        );
        assert_eq!(
            levels(&diff(&base, &required)),
            [(
                Level::Major,
                "adds required variable `tone` to prompt `tagline`".to_string()
            )]
        );
        assert_eq!(
            levels(&diff(&base, &optional)),
            [(
                Level::Minor,
                "adds optional variable `tone` to prompt `tagline`".to_string()
            )]
        );
        assert_eq!(
            levels(&diff(&optional, &required)),
            [(
                Level::Major,
                "makes variable `tone` of prompt `tagline` required".to_string()
            )]
        );
        assert_eq!(diff(&required, &base).level(), Some(Level::Major));
    }
}

mod scale {
    use crate::spec::diff::*;
    use crate::spec::tokens::TokenSet;

    /// `n` colour tokens `<group>.<stem><i>`, each with its own value.
    fn many(group: &str, stem: &str, n: usize) -> TokenSet {
        let members: Vec<String> = (0..n)
            .map(|i| {
                let c = |shift: usize| ((i >> shift) & 255) as f64 / 255.0;
                format!(
                    r##""{stem}{i}":{{"$value":{{"colorSpace":"srgb","components":[{},{},{}],"hex":"#{i:06x}"}}}}"##,
                    c(16),
                    c(8),
                    c(0)
                )
            })
            .collect();
        let doc: serde_json::Value = serde_json::from_str(&format!(
            r#"{{"{group}":{{"$type":"color",{}}}}}"#,
            members.join(",")
        ))
        .unwrap();
        let mut d = crate::spec::diag::FileDiags::new("acme", "acme/tokens.json");
        crate::spec::tokens::parse_tokens(&doc, &mut d).unwrap()
    }

    #[test]
    fn renaming_the_most_tokens_a_file_may_hold_is_found_in_one_pass() {
        // Every token moved and renamed: each is a rename, found by its
        // value, not by comparing every old token with every new one (and
        // no new name keeps an old one's last segment, the first guess).
        let n = crate::spec::limits::MAX_TOKENS;
        let (old, new) = (many("a", "t", n), many("b", "u", n));
        let started = std::time::Instant::now();
        let changes = token_changes(&old, &new);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(changes.len(), n);
        assert!(changes
            .iter()
            .all(|c| crate::render::diff::summary(c).starts_with("renames token `a.t")));
    }
}
