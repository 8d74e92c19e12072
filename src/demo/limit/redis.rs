//! The demo's rate limit for a fleet: GCRA evaluated atomically in Redis
//! by one script call per request, with the quota of this replica's own
//! limiter ([`super::DemoLimiter`]), which decides instead whenever Redis
//! cannot answer within [`crate::fleet::DEADLINE`]. `/status` and
//! `/metrics` say which decides.

use super::{Decision, DemoLimiter};
use crate::fleet::{Fleet, DEADLINE};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// GCRA (the generic cell rate algorithm, as governor implements it) on
/// Redis's clock, so replicas' clocks do not matter. KEYS[1]: the client's
/// key; ARGV: emission interval and burst tolerance in microseconds.
/// Returns `{1, remaining, reset_us}` or `{0, retry_after_us}`. The key
/// expires once the client's burst is whole again, so idle clients cost
/// nothing.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local period = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + period
local allow_at = new_tat - tolerance
if now < allow_at then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000))
return {1, math.floor((now - allow_at) / period), new_tat - now}
";

/// The fleet's limit.
pub struct SharedLimiter {
    fleet: Arc<Fleet>,
    script: redis::Script,
}

impl SharedLimiter {
    pub fn new(fleet: Arc<Fleet>) -> SharedLimiter {
        SharedLimiter {
            fleet,
            script: redis::Script::new(GCRA),
        }
    }

    /// Whether Redis decides now (for /status and /metrics).
    pub fn is_shared(&self) -> bool {
        self.fleet.is_shared()
    }

    /// Counts one demo request from the client keyed `ip` (see
    /// `super`'s doc) against the fleet's limit, with the
    /// quota of `local`; `None` while Redis cannot answer within
    /// [`DEADLINE`] (the caller's replica decides alone then).
    pub async fn check(&self, ip: IpAddr, local: &DemoLimiter) -> Option<Decision> {
        let mut conn = self.fleet.may_ask()?;
        let period = local.period();
        let tolerance = period * local.burst;
        let mut call = self.script.prepare_invoke();
        call.key(self.fleet.key(&format!("demo:{ip}")))
            .arg(period.as_micros() as u64)
            .arg(tolerance.as_micros() as u64);
        let answer = tokio::time::timeout(DEADLINE, call.invoke_async::<Vec<i64>>(&mut conn)).await;
        let fleet = &self.fleet;
        match answer {
            Ok(Ok(v)) => {
                fleet.mark_up();
                let us = |x: i64| Duration::from_micros(x.max(0) as u64);
                Some(match v.as_slice() {
                    [1, remaining, reset] => Decision::Allowed {
                        remaining: (*remaining).clamp(0, i64::from(local.burst)) as u32,
                        reset: us(*reset),
                    },
                    [0, retry, ..] => Decision::Limited {
                        retry_after: us(*retry),
                    },
                    _ => {
                        fleet.mark_down("the rate-limit script answered in an unexpected shape");
                        return None;
                    }
                })
            }
            Ok(Err(e)) => {
                fleet.mark_down(&e.to_string());
                None
            }
            Err(_) => {
                fleet.mark_down(&format!("no answer within {} ms", DEADLINE.as_millis()));
                None
            }
        }
    }
}
