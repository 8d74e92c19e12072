//! `marque serve`: listen at once, build the first snapshot in the
//! background (`/readyz` answers 503 until it is in), then keep it current:
//! by watching the content folder, or by fetching a git branch.

use crate::config::ServeArgs;
use crate::http::server::{self, Limits};
use crate::http::{router, AppState, GitHooks, McpState};
use crate::live::dir::DirWorker;
use crate::live::git::{GitConfig, GitWorker};
use crate::live::previews::PreviewConfig;
use crate::live::publisher::{Publisher, Reader};
use crate::live::reload::Reloader;
use crate::live::render_cache::RenderCache;
use crate::live::Live;
use crate::render::Context;
use anyhow::{Context as _, Result};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// A running server, as tests and `main` see it.
pub struct Running {
    pub addr: SocketAddr,
    pub public_url: String,
    pub snapshot: Reader,
}

/// Binds, serves, builds the first snapshot and keeps it current, until
/// `shutdown` resolves. `on_listening` receives the bound address as soon
/// as connections are accepted.
pub async fn serve(
    args: ServeArgs,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_listening: impl FnOnce(&Running),
) -> Result<()> {
    let threads = args
        .threads
        .map_or_else(server::default_threads, usize::from)
        .max(1);
    let listeners = server::bind(args.listen, threads)
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listeners[0].local_addr()?;
    let public_url = args.public_url(addr);
    let git_mode = args.git_url.is_some();
    let watching = !args.no_watch && !git_mode;
    let mut ctx = Context::new(&public_url);
    ctx.live_reload = watching;
    ctx.max_age = args.cache_max_age;
    ctx.mcp = !args.no_mcp;
    let mut options = args.build.clone();
    options.semver = args.semver;
    options.allow_empty = args.allow_empty;
    // A slow brand is published when it is done, never holding up the rest.
    options.patience = Some(crate::build::PATIENCE);
    let progress = Arc::new(crate::live::Progress::default());
    // What wakes the loop when a brand's job left behind ends: a message
    // on the loop's own channel of triggers.
    let (git_tx, git_rx) = std::sync::mpsc::channel::<()>();
    let (trigger_tx, trigger_rx) = mpsc::unbounded_channel();
    let wake_tx = Arc::new(std::sync::Mutex::new(git_tx.clone()));
    options.wake = Some(match git_mode {
        true => git_wake(&wake_tx, progress.clone()),
        false => {
            let tx = trigger_tx.clone();
            crate::build::jobs::Wake(Arc::new(move || {
                let _ = tx.send(crate::live::watch::Trigger::Settled);
            }))
        }
    });
    let reporter = crate::report::Reporter {
        json: args.log_json,
        colour: crate::report::stderr_colour(),
    };
    let reloader = Reloader::new(ctx, source_name(&args), options, reporter)
        .with_render_cache(RenderCache::new(&args.cache_dir));
    let (gen_tx, gen_rx) = watch::channel(0u64);
    let publisher = Publisher::new(gen_tx);
    let snapshot = publisher.reader();
    let live = Live {
        reloader,
        publisher,
        progress: progress.clone(),
    };

    let (stop_tx, stop_rx) = watch::channel(false);
    let mut demo = demo_from(&args);
    let mut fleet = None;
    if let Some(url) = args.redis_url.as_deref().filter(|u| !u.is_empty()) {
        let f = crate::fleet::Fleet::new(url, args.redis_password.as_deref(), &args.redis_prefix)?;
        f.spawn_connector(stop_rx.clone());
        demo.shared = Some(crate::demo::limit::redis::SharedLimiter::new(f.clone()));
        fleet = Some(f);
    }
    let demo = Arc::new(demo);
    demo.spawn_purger(Duration::from_secs(60));
    tracing::info!(provider = demo.client.kind.as_str(), model = %demo.client.model, "prompt demo ready");
    let mcp = (!args.no_mcp).then(|| {
        let mut origins = vec![origin_of(&public_url)];
        origins.extend(args.mcp_allowed_origins.iter().cloned());
        let limits = crate::http::mcp::sessions::SessionLimits {
            total: args.mcp_sessions as usize,
            per_client: args.mcp_sessions_per_client as usize,
            idle: args.mcp_session_idle,
            initialize_per_minute: args.mcp_initialize_per_minute,
        };
        let sessions =
            crate::http::mcp::sessions::Sessions::new(limits, args.trusted_proxy.clone());
        sessions.spawn_expiry(stop_rx.clone());
        Arc::new(McpState { origins, sessions })
    });
    let git = git_mode.then(|| {
        let fanout = fleet.zip(args.git_url.as_ref()).map(|(fleet, url)| {
            let fanout = Arc::new(crate::live::fanout::Fanout::new(fleet, url));
            fanout.spawn_listener(git_tx.clone(), stop_rx.clone());
            fanout
        });
        Arc::new(GitHooks {
            trigger: git_tx.clone(),
            secret: args
                .webhook_secret
                .as_deref()
                .filter(|s| !s.is_empty())
                .map(Arc::from),
            reads: crate::http::webhook::Reads::new(crate::http::webhook::RateLimits {
                grace: args.webhook_body_grace,
                min_bytes_per_sec: u64::from(args.webhook_body_rate) * 1024,
            }),
            fanout,
        })
    });
    let state = AppState {
        snapshot: snapshot.clone(),
        live: watching.then(|| gen_rx.clone()),
        stopping: stop_rx.clone(),
        demo,
        git,
        counters: Arc::new(crate::http::Counters::new(threads)),
        public_url: Arc::from(public_url.as_str()),
        generations: gen_rx,
        mcp,
        compare: Arc::new(match args.compare_memo_bytes {
            Some(bytes) => crate::http::compare::Memo::with_budget(bytes),
            None => crate::http::compare::Memo::default(),
        }),
        progress,
    };
    let limits = Limits {
        max_connections: args.max_connections,
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: args.body_timeout,
        threads,
        ..Limits::default()
    };
    let serving = tokio::spawn(server::serve(
        listeners,
        state.clone(),
        router(state),
        limits,
        stop_rx.clone(),
    ));
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    tracing::info!(%addr, %public_url, threads, "marque is listening");
    on_listening(&Running {
        addr,
        public_url,
        snapshot,
    });
    if git_mode {
        drop((git_tx, trigger_tx, trigger_rx));
        serve_git(&args, live, git_rx, wake_tx, serving, stop_rx).await
    } else {
        drop((git_tx, git_rx, wake_tx));
        let triggers = (trigger_tx, trigger_rx);
        serve_folder(&args, live, watching, triggers, serving, stop_rx).await
    }
}

/// What wakes the git worker when a brand's job that a build left behind
/// ends. The worker runs until its channel closes, and the wake lives in
/// the worker's own options: it reaches the channel through a sender that
/// `serve_git` holds, and lets go of, at shutdown.
fn git_wake(
    sender: &Arc<std::sync::Mutex<std::sync::mpsc::Sender<()>>>,
    progress: Arc<crate::live::Progress>,
) -> crate::build::jobs::Wake {
    let tx = Arc::downgrade(sender);
    crate::build::jobs::Wake(Arc::new(move || {
        progress.arrived();
        if let Some(tx) = tx.upgrade() {
            let _ = tx.lock().map(|tx| tx.send(()));
        }
    }))
}

fn source_name(args: &ServeArgs) -> String {
    match &args.git_url {
        Some(url) => format!(
            "git {} ({})",
            crate::source::git::redact_url(url),
            args.git_branch
        ),
        None => format!("directory {}", args.content.display()),
    }
}

/// Git mode: one blocking worker owns the mirror for the server's lifetime
/// and stops when its channel closes, at shutdown.
async fn serve_git(
    args: &ServeArgs,
    live: Live,
    triggers: std::sync::mpsc::Receiver<()>,
    wake: Arc<std::sync::Mutex<std::sync::mpsc::Sender<()>>>,
    serving: JoinHandle<()>,
    mut stop: watch::Receiver<bool>,
) -> Result<()> {
    let cfg = GitConfig {
        url: args.git_url.clone().unwrap_or_default(),
        branch: args.git_branch.clone(),
        poll: args.git_poll,
        cache_dir: args.cache_dir.clone(),
        prefix: normalise_prefix(&args.git_path),
        previews: args.preview_branches.clone().map(|glob| PreviewConfig {
            glob,
            limit: usize::from(args.preview_limit),
        }),
    };
    let worker = tokio::task::spawn_blocking(move || {
        if let Some(worker) = GitWorker::open(live, cfg) {
            worker.run(triggers);
        }
    });
    let _ = stop.wait_for(|s| *s).await;
    // The worker's channel closes once the server's senders are gone too.
    drop(wake);
    serving.await?;
    drop(worker);
    Ok(())
}

/// Directory mode: the first build, then the watcher's rebuilds. A
/// shutdown during the first build stops the server without waiting for it.
async fn serve_folder(
    args: &ServeArgs,
    live: Live,
    watching: bool,
    (trigger_tx, trigger_rx): (
        mpsc::UnboundedSender<crate::live::watch::Trigger>,
        mpsc::UnboundedReceiver<crate::live::watch::Trigger>,
    ),
    serving: JoinHandle<()>,
    mut stop: watch::Receiver<bool>,
) -> Result<()> {
    // Watch before the first build, so an edit made during it is not missed.
    let trigger_rx = crate::live::dir::flag_arrivals(
        trigger_rx,
        live.reloader.changes_waiting(),
        live.progress.clone(),
    );
    let watcher = if watching {
        let w = crate::live::watch::watch(&args.content, args.watch_poll, trigger_tx)
            .with_context(|| format!("cannot watch {}", args.content.display()))?;
        tracing::info!(polling = w.polling, "watching the content folder");
        Some(w)
    } else {
        // Without a watcher, builds still publish brands left behind.
        drop(trigger_tx);
        None
    };
    let dir = args.content.clone();
    let first = tokio::task::spawn_blocking(move || DirWorker::start(live, &dir));
    let built = tokio::select! {
        built = first => built?,
        _ = stop.wait_for(|s| *s) => {
            serving.await?;
            return Ok(());
        }
    };
    let worker = match built {
        Ok(w) => w,
        Err(e) => {
            serving.abort();
            return Err(e);
        }
    };
    tokio::spawn(worker.run(trigger_rx));
    serving.await?;
    drop(watcher);
    Ok(())
}

/// The demo endpoint's settings. The API key comes only from the environment.
fn demo_from(args: &ServeArgs) -> crate::demo::Demo {
    use crate::demo::llm::{LlmClient, ProviderKind};
    let key = args.llm_api_key.clone().filter(|k| !k.trim().is_empty());
    let kind = args.llm_provider.unwrap_or(if key.is_some() {
        ProviderKind::Openai
    } else {
        ProviderKind::DryRun
    });
    // A dry run calls no model, so only CPU is at stake: a higher limit.
    let (per_minute, burst) = match kind {
        ProviderKind::DryRun => (60, 20),
        _ => (10, 5),
    };
    crate::demo::Demo {
        limiter: crate::demo::limit::DemoLimiter::new(
            args.demo_per_minute.unwrap_or(per_minute),
            args.demo_burst.unwrap_or(burst),
        ),
        trusted: args.trusted_proxy.clone(),
        client: LlmClient::new(
            kind,
            args.llm_base_url.clone(),
            args.llm_model.clone(),
            key,
            args.llm_timeout,
        ),
        permits: Arc::new(tokio::sync::Semaphore::new(args.llm_concurrency.max(1))),
        max_tokens: args.llm_max_tokens.max(1),
        decided: Default::default(),
        shared: None,
    }
}

/// `content`, `content/` and `/content/` all mean the folder `content/`.
fn normalise_prefix(path: &str) -> String {
    let p = path.trim_matches('/');
    if p.is_empty() {
        String::new()
    } else {
        format!("{p}/")
    }
}

/// `scheme://host[:port]` of a URL, as a browser's `Origin` names it.
fn origin_of(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let authority = rest.split('/').next().unwrap_or(rest);
    let port = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.chars().all(|c| c.is_ascii_digit()))
    {
        ""
    } else if scheme == "https" {
        ":443"
    } else {
        ":80"
    };
    format!("{scheme}://{authority}{port}")
}
