//! `/events`: the server-sent events pages listen to, to reload
//! themselves when a new snapshot is published.

use super::headers::common_headers;
use super::problem::Problem;
use super::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

/// Server-sent events: `snapshot` with `{"generation": n}` now and after
/// every swap, in watch mode. Pages use it to reload themselves.
pub async fn events(State(app): State<AppState>) -> Response {
    let Some(live) = app.live.clone() else {
        return Problem::not_found("live reload is off: marque runs without watching (--no-watch)")
            .into_response();
    };
    struct Feed {
        live: watch::Receiver<u64>,
        stopping: watch::Receiver<bool>,
        first: bool,
    }
    let feed = Feed {
        live,
        stopping: app.stopping.clone(),
        first: true,
    };
    let stream = futures_util::stream::unfold(feed, |mut f| async move {
        if !f.first {
            tokio::select! {
                changed = f.live.changed() => changed.ok()?,
                _ = f.stopping.wait_for(|s| *s) => return None,
            }
        }
        f.first = false;
        let generation = *f.live.borrow_and_update();
        let event = Event::default()
            .event("snapshot")
            .data(format!("{{\"generation\":{generation}}}"));
        Some((Ok::<_, std::convert::Infallible>(event), f))
    });
    let mut res = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(res.headers_mut());
    res
}
