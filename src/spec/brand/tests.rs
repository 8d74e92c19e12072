use super::*;

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
}

#[test]
fn versions_must_be_plain_semver() {
    assert!(parse_version("1.2.3").is_ok());
    assert!(parse_version("3.0.0-beta.1").is_ok());
    for bad in ["3.2", "v1.0.0", "01.2.0", "1.0.0+build.5", ""] {
        assert!(parse_version(bad).is_err(), "{bad} should be rejected");
    }
}

#[test]
fn dates_must_exist_and_not_be_in_the_future() {
    assert!(parse_date("2024-02-29", today()).is_ok());
    assert_eq!(
        parse_date("2026-02-30", today()).unwrap_err(),
        (
            Code::InvalidDate,
            "date \"2026-02-30\" does not exist in the calendar".to_string()
        )
    );
    assert_eq!(
        parse_date("2026-11-23", today()).unwrap_err().0,
        Code::DateInFuture
    );
    for bad in ["2026-1-05", "26-01-05"] {
        assert_eq!(parse_date(bad, today()).unwrap_err().0, Code::InvalidDate);
    }
}

#[test]
fn slugs_are_lowercase_hyphenated_words() {
    assert!(is_slug("acme"));
    assert!(is_slug("lumen-health-2"));
    for bad in [
        "Acme",
        "-acme",
        "acme-",
        "ac--me",
        "ac_me",
        "",
        &"a".repeat(65),
    ] {
        assert!(!is_slug(bad), "{bad}");
    }
}

#[test]
fn svg_lettering_is_found_by_its_text_element() {
    assert!(has_text_element(b"<svg><text x=\"1\">Acme</text></svg>"));
    assert!(has_text_element(b"<svg><TEXT>Acme</TEXT></svg>"));
    assert!(!has_text_element(b"<svg><textPath href=\"#p\"/></svg>"));
    assert!(!has_text_element(b"<svg><path d=\"M0 0\"/></svg>"));
}

#[test]
fn asset_paths_stay_inside_the_assets_folder() {
    assert!(check_asset_path("assets/logo.svg").is_ok());
    for bad in [
        "../x.svg",
        "assets/../../x",
        "/etc/passwd",
        "logo.svg",
        "assets//x",
        "C:\\x",
    ] {
        assert!(check_asset_path(bad).is_err(), "{bad}");
    }
}
