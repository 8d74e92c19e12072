//! Failed attempts per client: a token sent that is valid nowhere. Ten in
//! a sliding minute, then every attempt is refused (429) until the oldest
//! is a minute old, right tokens included, so a guesser learns nothing
//! past the tenth try. Requests without a token are never failures.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Attempts a client may fail in [`WINDOW`].
pub const LIMIT: usize = 10;
/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Clients remembered at once: past it, those whose failures are all
/// older than the window are forgotten, then the oldest.
const CLIENTS: usize = 100_000;

/// A client, by its address as a number (IPv4 mapped into IPv6).
pub type Client = u128;

/// Failed attempts by client.
#[derive(Debug, Default)]
pub struct Failures {
    by_client: Mutex<HashMap<Client, VecDeque<Instant>>>,
}

impl Failures {
    /// Judges an attempt of `client` that `failed` or not, under one lock:
    /// `Some(wait)` when the client is over its failures (the attempt is
    /// refused, right or wrong, and not counted); else a failure is counted.
    pub fn judge(&self, client: Client, now: Instant, failed: bool) -> Option<Duration> {
        let mut map = self.by_client.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = map.get(&client) {
            let recent: Vec<&Instant> = times
                .iter()
                .filter(|t| now.duration_since(**t) < WINDOW)
                .collect();
            if recent.len() >= LIMIT {
                return Some(WINDOW - now.duration_since(*recent[0]));
            }
        }
        if failed {
            record(&mut map, client, now);
        }
        None
    }
}

/// Counts a failure of `client` in `map`, forgetting clients past [`CLIENTS`].
fn record(map: &mut HashMap<Client, VecDeque<Instant>>, client: Client, now: Instant) {
    if map.len() >= CLIENTS && !map.contains_key(&client) {
        map.retain(|_, t| t.back().is_some_and(|b| now.duration_since(*b) < WINDOW));
        if map.len() >= CLIENTS {
            let oldest = map
                .iter()
                .min_by_key(|(_, t)| t.back().copied())
                .map(|(k, _)| *k);
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
    }
    let times = map.entry(client).or_default();
    while times
        .front()
        .is_some_and(|t| now.duration_since(*t) >= WINDOW)
    {
        times.pop_front();
    }
    times.push_back(now);
    while times.len() > LIMIT {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_attempt_in_a_minute_is_refused_until_the_first_failure_ages() {
        let f = Failures::default();
        let (a, b): (Client, Client) = (1, 2);
        let t0 = Instant::now();
        for i in 0..LIMIT {
            let at = t0 + Duration::from_secs(i as u64);
            assert!(f.judge(a, at, true).is_none(), "attempt {i}");
        }
        let now = t0 + Duration::from_secs(20);
        assert_eq!(
            f.judge(a, now, false),
            Some(Duration::from_secs(40)),
            "a right one waits too"
        );
        assert!(
            f.judge(b, now, true).is_none(),
            "another client is not limited"
        );
        assert!(f.judge(a, t0 + Duration::from_secs(61), false).is_none());
    }
}
