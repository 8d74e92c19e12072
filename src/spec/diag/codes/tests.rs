//! The code table's own rules: unique, well formed, in order.

use super::*;
use std::collections::HashSet;

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = HashSet::new();
    let mut names = HashSet::new();
    for c in Code::ALL {
        assert!(codes.insert(c.as_str()), "{} twice", c.as_str());
        assert!(names.insert(c.name()), "{} twice", c.name());
        let digits = &c.as_str()[2..];
        assert!(c.as_str().starts_with("MQ") && digits.len() == 4);
        assert!(digits.bytes().all(|b| b.is_ascii_digit()), "{c}");
        assert!(
            c.name()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{}",
            c.name()
        );
        assert_eq!(Code::parse(c.as_str()), Some(*c));
        assert!(c.means().ends_with('.') && c.fix().ends_with('.'), "{c}");
        // Every code belongs to a family (`family` panics otherwise).
        c.family();
    }
    // In the order of their numbers, so the index reads in order.
    assert!(Code::ALL.windows(2).all(|w| w[0].as_str() < w[1].as_str()));
    assert_eq!(Code::parse("MQ0000"), None);
}

#[test]
fn an_error_left_out_becomes_a_warning_of_its_kind() {
    assert_eq!(
        Code::DanglingReference.left_out(),
        Code::LeftOutBrokenReference
    );
    assert_eq!(Code::UnknownType.left_out(), Code::LeftOutUnknownType);
    assert_eq!(Code::InvalidColor.left_out(), Code::LeftOutInvalidValue);
    assert_eq!(Code::CssNameClash.left_out(), Code::LeftOutCssNameClash);
    assert_eq!(Code::InvalidSlug.left_out(), Code::LeftOutOther);
    assert_eq!(Code::LegacyStringForm.left_out(), Code::LegacyStringForm);
    for c in Code::ALL {
        assert_eq!(c.left_out().severity(), Severity::Warning, "{c}");
    }
}

#[test]
fn codes_serialize_as_their_strings() {
    let json = serde_json::to_string(&Code::InvalidVersion).unwrap();
    assert_eq!(json, "\"MQ1201\"");
    assert_eq!(
        serde_json::from_str::<Code>(&json).unwrap(),
        Code::InvalidVersion
    );
    assert!(serde_json::from_str::<Code>("\"MQ9999\"").is_err());
}
