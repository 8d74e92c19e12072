//! May a client call again: a per-client GCRA rate limit (governor), keyed
//! by the client's key as the HTTP layer finds it (`http::client::key_of`:
//! the address behind trusted proxies, an IPv6 client by its /64). In a
//! fleet, Redis decides instead ([`redis`]), with the same quota; this
//! limiter stands in whenever Redis cannot answer.

pub mod redis;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

type Limiter =
    RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock, StateInformationMiddleware>;

/// A per-client limit of `per_minute` requests with bursts of `burst`.
pub struct DemoLimiter {
    limiter: Limiter,
    clock: DefaultClock,
    pub per_minute: u32,
    pub burst: u32,
}

/// The outcome of one check, with what the `RateLimit` headers report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    Allowed { remaining: u32, reset: Duration },
    Limited { retry_after: Duration },
}

impl DemoLimiter {
    /// When a refused client's burst is full again: its next request is
    /// allowed after `retry_after`, and each further one a period later
    /// (GCRA), so `RateLimit`'s `t` means the same refused or allowed.
    pub fn full_after(&self, retry_after: Duration) -> Duration {
        let period = Duration::from_secs(60) / self.per_minute.max(1);
        retry_after + period * self.burst.saturating_sub(1)
    }

    pub fn new(per_minute: u32, burst: u32) -> DemoLimiter {
        let per_minute = NonZeroU32::new(per_minute.max(1)).expect("at least 1");
        let burst = NonZeroU32::new(burst.max(1)).expect("at least 1");
        let quota = Quota::per_minute(per_minute).allow_burst(burst);
        let clock = DefaultClock::default();
        DemoLimiter {
            limiter: RateLimiter::dashmap_with_clock(quota, clock.clone())
                .with_middleware::<StateInformationMiddleware>(),
            clock,
            per_minute: per_minute.get(),
            burst: burst.get(),
        }
    }

    /// Time for one request's worth of quota to come back.
    pub fn period(&self) -> Duration {
        Duration::from_secs(60) / self.per_minute
    }

    /// Counts one request from the client keyed `key` (see the module
    /// doc) and says whether it may proceed.
    pub fn check(&self, key: IpAddr) -> Decision {
        match self.limiter.check_key(&key) {
            Ok(state) => {
                let remaining = state.remaining_burst_capacity();
                Decision::Allowed {
                    remaining,
                    reset: self.period() * (self.burst - remaining),
                }
            }
            Err(not_until) => Decision::Limited {
                retry_after: not_until.wait_time_from(self.clock.now()),
            },
        }
    }

    /// Forgets clients whose quota has fully recovered, and frees the memory.
    pub fn purge(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }

    /// Clients currently remembered.
    pub fn len(&self) -> usize {
        self.limiter.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whole seconds for `Retry-After` and `RateLimit`: rounded up, never 0.
pub fn ceil_secs(d: Duration) -> u64 {
    (d.as_millis().div_ceil(1000) as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_burst_is_allowed_then_limited_with_a_retry_time() {
        let l = DemoLimiter::new(10, 3);
        let a = ip("192.0.2.1");
        let remaining: Vec<u32> = (0..3)
            .map(|_| match l.check(a) {
                Decision::Allowed { remaining, .. } => remaining,
                d => panic!("{d:?}"),
            })
            .collect();
        assert_eq!(remaining, [2, 1, 0]);
        match l.check(a) {
            Decision::Limited { retry_after } => assert!(
                retry_after > Duration::from_secs(4) && retry_after <= Duration::from_secs(6)
            ),
            d => panic!("{d:?}"),
        }
        assert!(
            matches!(l.check(ip("192.0.2.2")), Decision::Allowed { .. }),
            "other clients are unaffected"
        );
    }

    #[test]
    fn retry_after_rounds_up_and_is_never_zero() {
        assert_eq!(ceil_secs(Duration::from_millis(1)), 1);
        assert_eq!(ceil_secs(Duration::from_millis(1001)), 2);
        assert_eq!(ceil_secs(Duration::ZERO), 1);
    }
}
