//! Who is calling, and may they call again: the client address behind
//! trusted proxies, and a per-client GCRA rate limit (governor).
//!
//! `X-Forwarded-For` and `Forwarded` are believed only from peers inside a
//! `--trusted-proxy` CIDR, and then only up to the rightmost address that is
//! not itself a trusted proxy: everything to its left was written by the
//! client and may be forged. IPv6 clients are keyed by their /64, the block
//! one subscriber usually holds, so rotating addresses inside it does not
//! buy a fresh quota. In a fleet, Redis decides instead ([`redis`]), with
//! the same quota; this limiter stands in whenever Redis cannot answer.

pub mod redis;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::str::FromStr;
use std::time::Duration;

/// An IP network such as `10.0.0.0/8` or `::1/128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = addr
            .trim()
            .parse()
            .map_err(|_| format!("\"{s}\" is not an IP address or CIDR"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("\"{s}\" has an invalid prefix length"))?,
            None => max,
        };
        Ok(Cidr { addr, prefix })
    }
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = if self.prefix == 0 {
                    0
                } else {
                    u32::MAX << (32 - self.prefix)
                };
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = if self.prefix == 0 {
                    0
                } else {
                    u128::MAX << (128 - self.prefix)
                };
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) are IPv4 addresses.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Addresses named in `Forwarded` (`for=` parameters) or, when there is no
/// `Forwarded`, in `X-Forwarded-For`, in order from the client to the last
/// proxy. Each argument is every line of its header joined with commas, as
/// RFC 9110 §5.3 reads repeated field lines: a client's own line and the
/// proxy's appended line are one list. `Forwarded` is the standard (RFC
/// 7239), so a proxy that writes it is believed over a client-supplied
/// `X-Forwarded-For` it merely passed through.
pub fn forwarded_chain(
    x_forwarded_for: Option<&str>,
    forwarded: Option<&str>,
) -> Option<Vec<Option<IpAddr>>> {
    if let Some(fwd) = forwarded {
        let mut out = Vec::new();
        for element in fwd.split(',') {
            for pair in element.split(';') {
                if let Some((k, v)) = pair.split_once('=') {
                    if k.trim().eq_ignore_ascii_case("for") {
                        out.push(parse_node(v.trim().trim_matches('"')));
                    }
                }
            }
        }
        if !out.is_empty() {
            return Some(out);
        }
    }
    let xff = x_forwarded_for?;
    Some(xff.split(',').map(|s| parse_node(s.trim())).collect())
}

/// Parses `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:80` or `2001:db8::1`.
fn parse_node(s: &str) -> Option<IpAddr> {
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = s.strip_prefix('[') {
        return rest.split_once(']').and_then(|(ip, _)| ip.parse().ok());
    }
    s.rsplit_once(':').and_then(|(ip, _)| ip.parse().ok())
}

/// The client's address: the peer, unless the peer is a trusted proxy, in
/// which case the rightmost forwarded address that is not a trusted proxy.
pub fn client_ip(
    peer: IpAddr,
    trusted: &[Cidr],
    x_forwarded_for: Option<&str>,
    forwarded: Option<&str>,
) -> IpAddr {
    let peer = canonical(peer);
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let Some(chain) = forwarded_chain(x_forwarded_for, forwarded) else {
        return peer;
    };
    let mut client = peer;
    for node in chain.iter().rev() {
        match node {
            Some(ip) => {
                client = canonical(*ip);
                if !is_trusted(client) {
                    return client;
                }
            }
            // An unparsable hop (`unknown`, an obfuscated id): stop believing the chain there.
            None => return client,
        }
    }
    client
}

/// The rate-limit key of an address: IPv4 as is, IPv6 by its /64.
pub fn key_of(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        v4 => v4,
    }
}

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

    /// Counts one request from `ip` and says whether it may proceed.
    pub fn check(&self, ip: IpAddr) -> Decision {
        match self.limiter.check_key(&key_of(ip)) {
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
    fn cidrs_contain_their_addresses() {
        let net: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(net.contains(ip("10.1.2.3")));
        assert!(!net.contains(ip("11.0.0.1")));
        assert!(
            net.contains(ip("::ffff:10.0.0.1")),
            "IPv4-mapped addresses are IPv4"
        );
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:1::5")));
        assert!(!v6.contains(ip("2001:db9::1")));
        assert!("127.0.0.1"
            .parse::<Cidr>()
            .unwrap()
            .contains(ip("127.0.0.1")));
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("nonsense".parse::<Cidr>().is_err());
    }

    #[test]
    fn forwarded_headers_are_ignored_from_untrusted_peers() {
        let trusted: Vec<Cidr> = vec!["10.0.0.0/8".parse().unwrap()];
        assert_eq!(
            client_ip(ip("203.0.113.9"), &trusted, Some("1.1.1.1"), None),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_ip(ip("203.0.113.9"), &[], Some("1.1.1.1"), None),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let trusted: Vec<Cidr> = vec!["10.0.0.0/8".parse().unwrap()];
        // The client forged "6.6.6.6"; the proxy appended the real address.
        assert_eq!(
            client_ip(
                ip("10.0.0.2"),
                &trusted,
                Some("6.6.6.6, 198.51.100.7"),
                None
            ),
            ip("198.51.100.7")
        );
        assert_eq!(
            client_ip(
                ip("10.0.0.2"),
                &trusted,
                Some("6.6.6.6, 198.51.100.7, 10.0.0.5"),
                None
            ),
            ip("198.51.100.7")
        );
        assert_eq!(
            client_ip(
                ip("10.0.0.2"),
                &trusted,
                None,
                Some("for=6.6.6.6, for=\"[2001:db8::7]:4711\"")
            ),
            ip("2001:db8::7")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &trusted, None, None),
            ip("10.0.0.2")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &trusted, Some("unknown"), None),
            ip("10.0.0.2")
        );
        assert_eq!(
            client_ip(ip("10.0.0.2"), &trusted, Some("198.51.100.7:5555"), None),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn repeated_lines_are_one_list_and_forwarded_wins() {
        let trusted: Vec<Cidr> = vec!["127.0.0.1/32".parse().unwrap()];
        // A client's own line, then the proxy's appended line, joined as RFC 9110 §5.3 reads them.
        assert_eq!(
            client_ip(ip("127.0.0.1"), &trusted, Some("9.7.1.9, 4.4.4.4"), None),
            ip("4.4.4.4")
        );
        // The proxy wrote Forwarded and passed the client's X-Forwarded-For through.
        assert_eq!(
            client_ip(
                ip("127.0.0.1"),
                &trusted,
                Some("9.6.1.9"),
                Some("for=5.5.5.5")
            ),
            ip("5.5.5.5")
        );
    }

    #[test]
    fn ipv6_clients_share_a_quota_per_64() {
        assert_eq!(
            key_of(ip("2001:db8:1:2:aaaa::1")),
            key_of(ip("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(key_of(ip("2001:db8:1:2::1")), key_of(ip("2001:db8:1:3::1")));
        assert_eq!(key_of(ip("192.0.2.1")), ip("192.0.2.1"));
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
