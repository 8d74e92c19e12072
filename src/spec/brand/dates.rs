//! The moments brand.json names: `updated`, a calendar date not in the
//! future, and `embargo`, the instant a version is published (DESIGN.md
//! §20).

use super::Brand;
use crate::spec::diag::{quoted, Code};
use chrono::NaiveDate;

impl Brand {
    /// `"visibility": "private"`: served to access-token holders only.
    pub fn is_private(&self) -> bool {
        self.doc.visibility.as_deref() == Some("private")
    }

    /// The moment this version's embargo lifts, if it has one.
    pub fn embargo(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        parse_embargo(self.doc.embargo.as_deref()?).ok()
    }
}

/// Parses a calendar date `YYYY-MM-DD` that exists and is not after
/// `today`; what is wrong, and its code, when it is not one.
pub fn parse_date(s: &str, today: NaiveDate) -> Result<NaiveDate, (Code, String)> {
    let invalid = |m: String| (Code::InvalidDate, m);
    let shaped = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shaped {
        return Err(invalid(format!(
            "date {} must be written YYYY-MM-DD",
            quoted(s)
        )));
    }
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .map_err(|_| invalid(format!("date \"{s}\" does not exist in the calendar")))?;
    if d > today {
        return Err((
            Code::DateInFuture,
            format!("date \"{s}\" is in the future (today is {today})"),
        ));
    }
    Ok(d)
}

/// Parses an embargo: an RFC 3339 date-time with its offset (`Z` or
/// `+01:00`), so every replica lifts it at the same instant.
pub fn parse_embargo(s: &str) -> Result<chrono::DateTime<chrono::Utc>, String> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&chrono::Utc));
    }
    let local = [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d",
    ]
    .iter()
    .any(|f| {
        chrono::NaiveDateTime::parse_from_str(s, f).is_ok()
            || chrono::NaiveDate::parse_from_str(s, f).is_ok()
    });
    Err(match local {
        true => format!(
            "embargo {} has no offset, so no one can tell when it lifts: write it with one, such as {}Z or {}+01:00",
            quoted(s),
            s.split('.').next().unwrap_or(s),
            s.split('.').next().unwrap_or(s)
        ),
        false => format!(
            "embargo {} is not an RFC 3339 date-time such as 2027-01-15T09:00:00+01:00",
            quoted(s)
        ),
    })
}
