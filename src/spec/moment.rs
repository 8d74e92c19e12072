//! One reading of the clock, as a build takes it: the instant embargoes
//! are decided at, and the date validation compares with. Read at the
//! edge (the serving loops' clock) and handed in.

use chrono::{DateTime, NaiveDate, Utc};

/// The instant, and the date validation takes from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    /// An embargo holds while it is later than this.
    pub at: DateTime<Utc>,
    /// The latest calendar date anywhere on Earth at that instant (UTC+14),
    /// so an author who writes today's date is never told it is in the future.
    pub today: NaiveDate,
}

impl Moment {
    /// The moment `at`.
    pub fn at(at: DateTime<Utc>) -> Moment {
        Moment {
            at,
            today: (at + chrono::Duration::hours(14)).date_naive(),
        }
    }

    /// The start of `today` (UTC), validated as that date: what a test of
    /// dates takes.
    pub fn on(today: NaiveDate) -> Moment {
        Moment {
            at: today.and_time(chrono::NaiveTime::MIN).and_utc(),
            today,
        }
    }
}
