//! `/metrics`: Prometheus text exposition of the requests served, the
//! snapshot, the brands, the reloads and the demo. Counters are per
//! listener thread ([`super::Counters`]), summed when scraped.

use super::headers::common_headers;
use super::mcp;
use super::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// Prometheus text exposition format: requests, snapshot, brands, reloads, demo.
pub async fn metrics(State(app): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    use std::fmt::Write;
    if !super::access::ops_allowed(&app, &headers) {
        let mut res = super::access::ops_refused().into_response();
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return res;
    }
    let site = app.site.load();
    let snap = site.public();
    let st = &snap.stats;
    let reload = &snap.status.reload;
    let mut o = String::new();
    o.push_str("# HELP marque_http_responses_total Responses served, by status class.\n# TYPE marque_http_responses_total counter\n");
    for class in 1..=5 {
        let _ = writeln!(
            o,
            "marque_http_responses_total{{class=\"{class}xx\"}} {}",
            app.counters.responses(class)
        );
    }
    o.push_str("# HELP marque_http_connections_total Connections accepted, by accepting thread.\n# TYPE marque_http_connections_total counter\n");
    for (i, n) in app.counters.connections().iter().enumerate() {
        let _ = writeln!(o, "marque_http_connections_total{{thread=\"{i}\"}} {n}");
    }
    let gauges: [(&str, &str, &str, f64); 7] = [
        (
            "marque_ready",
            "gauge",
            "1 once the first snapshot is served.",
            f64::from(u8::from(snap.ready)),
        ),
        (
            "marque_snapshot_generation",
            "gauge",
            "Builds swapped in since start.",
            snap.generation as f64,
        ),
        (
            "marque_snapshot_bytes",
            "gauge",
            "Bytes held by the snapshot, all codings.",
            st.bytes as f64,
        ),
        (
            "marque_reloads_total",
            "counter",
            "Builds swapped in.",
            reload.reloads as f64,
        ),
        (
            "marque_reload_failures_total",
            "counter",
            "Builds or fetches that reported errors.",
            reload.failed_reloads as f64,
        ),
        (
            "marque_last_reload_seconds",
            "gauge",
            "Duration of the last build.",
            reload.last_reload_ms / 1000.0,
        ),
        (
            "marque_demo_clients",
            "gauge",
            "Client addresses the demo rate limiter remembers.",
            app.demo.limiter.len() as f64,
        ),
    ];
    for (name, kind, help, value) in gauges {
        let _ = writeln!(
            o,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
        );
    }
    let demo = &app.demo;
    let _ = writeln!(
        o,
        "# HELP marque_demo_limiter_shared 1 while Redis decides the demo limit for the fleet, 0 while this replica decides alone.\n# TYPE marque_demo_limiter_shared gauge\nmarque_demo_limiter_shared {}",
        u8::from(demo.shared.as_ref().is_some_and(|f| f.is_shared()))
    );
    {
        let (shared, local) = demo.decided.counts();
        let _ = writeln!(
            o,
            "# HELP marque_demo_decisions_total Demo requests by the limiter that decided them.\n# TYPE marque_demo_decisions_total counter\nmarque_demo_decisions_total{{limiter=\"redis\"}} {shared}\nmarque_demo_decisions_total{{limiter=\"local\"}} {local}"
        );
    }
    // With MCP off, its gauges say so: nothing open, nothing refused.
    let off = mcp::sessions::Sessions::new(Default::default(), Vec::new());
    let sessions = app.mcp.as_ref().map_or(&off, |m| &m.sessions);
    let _ = writeln!(
        o,
        "# HELP marque_mcp_sessions MCP sessions open.\n# TYPE marque_mcp_sessions gauge\nmarque_mcp_sessions {}\n# HELP marque_mcp_sessions_limit Most MCP sessions open at once.\n# TYPE marque_mcp_sessions_limit gauge\nmarque_mcp_sessions_limit {}\n# HELP marque_mcp_sessions_expired_total MCP sessions ended for being idle.\n# TYPE marque_mcp_sessions_expired_total counter\nmarque_mcp_sessions_expired_total {}",
        sessions.open(),
        sessions.limits().total,
        sessions.expired()
    );
    o.push_str("# HELP marque_mcp_sessions_refused_total New MCP sessions refused: the server's cap (sessions), a client's cap (client), the initialize rate (rate).\n# TYPE marque_mcp_sessions_refused_total counter\n");
    for why in mcp::sessions::SessionRefusal::ALL {
        let _ = writeln!(
            o,
            "marque_mcp_sessions_refused_total{{reason=\"{}\"}} {}",
            why.label(),
            sessions.refused(why)
        );
    }
    let (memo_bytes, memo_answers) = app.compare.held();
    let _ = writeln!(
        o,
        "# HELP marque_compare_memo_bytes Bytes of comparisons kept.\n# TYPE marque_compare_memo_bytes gauge\nmarque_compare_memo_bytes {memo_bytes}\n# HELP marque_compare_memo_limit_bytes Most bytes of comparisons kept.\n# TYPE marque_compare_memo_limit_bytes gauge\nmarque_compare_memo_limit_bytes {}\n# HELP marque_compare_memo_answers Comparisons kept.\n# TYPE marque_compare_memo_answers gauge\nmarque_compare_memo_answers {memo_answers}",
        app.compare.budget()
    );
    let _ = writeln!(
        o,
        "# HELP marque_inflated_bytes Bytes of identity bodies inflated lately for clients that take no coding.\n# TYPE marque_inflated_bytes gauge\nmarque_inflated_bytes {}\n# HELP marque_inflated_limit_bytes Most bytes of inflated identity bodies kept.\n# TYPE marque_inflated_limit_bytes gauge\nmarque_inflated_limit_bytes {}",
        crate::bodies::Bodies::process().inflated_bytes(),
        crate::bodies::RECENT_BYTES
    );
    o.push_str("# HELP marque_brands Brands by state.\n# TYPE marque_brands gauge\n");
    for (state, n) in [
        ("ok", st.brands_ok),
        ("stale", st.brands_stale),
        ("unpublished", st.brands_unpublished),
    ] {
        let _ = writeln!(o, "marque_brands{{state=\"{state}\"}} {n}");
    }
    o.push_str("# HELP marque_brand_bytes Bytes held by one brand's resources, all codings.\n# TYPE marque_brand_bytes gauge\n");
    for (slug, bytes) in &st.brand_bytes {
        let _ = writeln!(o, "marque_brand_bytes{{brand=\"{slug}\"}} {bytes}");
    }
    let mut res = (StatusCode::OK, o).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(h);
    res
}
