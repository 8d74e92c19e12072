//! `marque serve`: listen at once, build the first snapshot in the
//! background (`/readyz` answers 503 until it is in), then keep serving.

use crate::config::ServeArgs;
use crate::http::server::{self, Limits};
use crate::http::{router, AppState};
use crate::reload::Reloader;
use crate::render::Context;
use crate::snapshot::Snapshot;
use crate::source::dir::read_content;
use anyhow::{Context as _, Result};
use arc_swap::ArcSwap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// A running server, as tests and `main` see it.
pub struct Running {
    pub addr: SocketAddr,
    pub public_url: String,
    pub snapshot: Arc<ArcSwap<Snapshot>>,
}

/// Binds, serves, and builds the first snapshot, until `shutdown` resolves.
/// `on_listening` receives the bound address as soon as connections are accepted.
pub async fn serve(
    args: ServeArgs,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_listening: impl FnOnce(&Running),
) -> Result<()> {
    let listener = TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listener.local_addr()?;
    let public_url = args.public_url(addr);
    let ctx = Context::new(&public_url, None);
    let mut reloader = Reloader::new(ctx, format!("directory {}", args.content.display()));
    let snapshot = reloader.snapshot.clone();

    let state = AppState::new(snapshot.clone(), args.cache_max_age);
    let limits = Limits {
        max_connections: args.max_connections,
        header_timeout: Duration::from_secs(args.header_timeout),
        ..Limits::default()
    };
    let serving = tokio::spawn(server::serve(listener, router(state), limits, shutdown));
    tracing::info!(%addr, %public_url, "marque is listening");
    on_listening(&Running {
        addr,
        public_url,
        snapshot,
    });

    // The first build runs on a blocking thread: it reads files and compresses.
    let content_dir = args.content.clone();
    let built = tokio::task::spawn_blocking(move || -> Result<Reloader> {
        let content = read_content(&content_dir)?;
        reloader.rebuild(&content, None);
        Ok(reloader)
    })
    .await?;
    if let Err(e) = built {
        serving.abort();
        return Err(e);
    }
    serving.await?;
    Ok(())
}
