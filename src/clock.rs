//! The clock, read at the edge and handed in: the instant a build and the
//! audience split take (as a `spec::moment::Moment`: embargoes, and today's
//! date for validation, no `updated` date in the future) and a timestamp
//! for `/status`. The pure core never reads it. A [`Clock`] is what the
//! serving loops read it from: the system's, or one a test sets.

use chrono::{DateTime, NaiveDate, Utc};
use std::sync::Arc;

/// Where the serving loops read the time from.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>);

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Clock({})", self.now())
    }
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::system()
    }
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock(Arc::new(Utc::now))
    }

    /// A clock that reads `f`.
    pub fn from_fn(f: impl Fn() -> DateTime<Utc> + Send + Sync + 'static) -> Clock {
        Clock(Arc::new(f))
    }

    /// The instant.
    pub fn now(&self) -> DateTime<Utc> {
        (self.0)()
    }
}

/// The latest calendar date anywhere on Earth (UTC+14), so an author who
/// writes today's date is never told it is in the future.
pub fn today() -> NaiveDate {
    (Utc::now() + chrono::Duration::hours(14)).date_naive()
}

pub fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
