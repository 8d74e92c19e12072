//! What a request says about its client: who it is (the address every
//! per-client limit is keyed by) and what it accepts. Shared by the GET
//! path, the demo, MCP and the webhook.

use crate::demo::limit::{client_ip, Cidr};
use axum::http::{header, HeaderMap};
use std::net::IpAddr;

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
