//! The clock, in the two forms marque reads it: today's date for
//! validation (no `updated` date in the future) and a timestamp for
//! `/status`. The pure core never reads it: the date is passed in.

use chrono::{NaiveDate, Utc};

/// The latest calendar date anywhere on Earth (UTC+14), so an author who
/// writes today's date is never told it is in the future.
pub fn today() -> NaiveDate {
    (Utc::now() + chrono::Duration::hours(14)).date_naive()
}

pub fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
