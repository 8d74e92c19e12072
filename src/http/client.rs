//! What a request says about its client: who it is (the address every
//! per-client limit is keyed by) and what it accepts. Shared by access,
//! the demo, MCP and the webhook.
//!
//! `X-Forwarded-For` and `Forwarded` are believed only from peers inside a
//! `--trusted-proxy` CIDR, and then only up to the rightmost address that is
//! not itself a trusted proxy: everything to its left was written by the
//! client and may be forged. IPv6 clients are keyed by their /64, the block
//! one subscriber usually holds, so rotating addresses inside it does not
//! buy a fresh quota.

use axum::http::{header, HeaderMap};
use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

/// The proxies a server believes (`--trusted-proxy`): what finds a
/// request's client, for every part that limits or counts clients.
#[derive(Debug, Clone, Default)]
pub struct Clients {
    pub trusted: Vec<Cidr>,
}

impl Clients {
    /// The client's address (see [`client_of`]).
    pub fn address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        client_of(peer, headers, &self.trusted)
    }

    /// The client's key: its address, an IPv6 client by its /64.
    pub fn key(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        key_of(self.address(peer, headers))
    }
}

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
pub fn canonical(ip: IpAddr) -> IpAddr {
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

/// The client's address, from the peer's and (only from `trusted`
/// proxies) the forwarding headers: what every per-client limit is keyed by.
pub fn client_of(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let xff = joined(headers, "x-forwarded-for");
    let fwd = joined(headers, "forwarded");
    client_ip(peer, trusted, xff.as_deref(), fwd.as_deref())
}

/// Every line of a header, joined as one list (RFC 9110 §5.3).
fn joined(headers: &HeaderMap, name: &str) -> Option<String> {
    let values: Vec<&str> = headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// True when the client lists `media` by name as acceptable (a wildcard
/// does not count).
pub fn accepts(headers: &HeaderMap, media: &str) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let item_media = parts.next().unwrap_or("").trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            item_media.eq_ignore_ascii_case(media) && q > 0.0
        })
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
}
