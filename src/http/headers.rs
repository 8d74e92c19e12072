//! Headers every answer carries, whoever makes it: the fast path, a
//! handler, a problem.

use axum::http::{header, HeaderMap, HeaderValue};

/// Headers on every answer: CORS for any origin, and no MIME sniffing.
pub fn common_headers(h: &mut HeaderMap) {
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}
