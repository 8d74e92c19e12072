//! `marque serve`: listen at once, build the first snapshot in the
//! background (`/readyz` answers 503 until it is in), then keep it current:
//! by watching the content folder, or by fetching a git branch.

use crate::config::{ServeConfig, SourceConfig, Watch};
use crate::http::server;
use crate::http::{router, AppState, GitHooks, McpState};
use crate::live::dir::DirWorker;
use crate::live::git::{GitConfig, GitWorker};
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
    pub site: Reader,
}

/// Binds, serves, builds the first snapshot and keeps it current, until
/// `shutdown` resolves. `on_listening` receives the bound address as soon
/// as connections are accepted.
pub async fn run(
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_listening: impl FnOnce(&Running),
) -> Result<()> {
    config.check()?;
    let threads = config.limits.threads;
    let listeners = server::bind(config.listen, threads)
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let addr = listeners[0].local_addr()?;
    let public_url = config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    let git_mode = matches!(config.source, SourceConfig::Git(_));
    let watching = config.watch() != Watch::Off;
    let ctx = render_context(&config, &public_url, watching);
    let mut options = config.build.clone();
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
        json: config.log_json,
        colour: crate::report::stderr_colour(),
    };
    let access = access_from(&config, &public_url)?;
    let reloader = Reloader::new(ctx, source_name(&config.source), options, reporter)
        .with_render_cache(RenderCache::new(&config.cache_dir))
        .with_access(access.clone())
        .with_clock(config.clock.clone());
    let (gen_tx, gen_rx) = watch::channel(0u64);
    let publisher = Publisher::new(gen_tx);
    let site = publisher.reader();
    let live = Live::new(reloader, publisher, progress.clone());

    let (stop_tx, stop_rx) = watch::channel(false);
    let mut demo = demo_from(&config);
    let fleet = match &config.fleet {
        Some(f) => {
            let fleet = crate::fleet::Fleet::new(&f.url, f.password.as_deref(), &f.prefix)?;
            fleet.spawn_connector(stop_rx.clone());
            demo.shared = Some(crate::demo::limit::redis::SharedLimiter::new(fleet.clone()));
            Some(fleet)
        }
        None => None,
    };
    // Purges, release events and commit statuses: queued by each
    // publish, sent by a task of their own (in a fleet, each event by one
    // replica).
    // Each delivery is written down in the cache directory until it is
    // done, so a restart resumes what the last publish had not sent.
    let outbox = (!config.outbound.is_off()).then(|| {
        crate::outbound::outbox::Outbox::start(
            config.outbound.clone(),
            &public_url,
            fleet.clone(),
            Some(&config.cache_dir.join(crate::outbound::journal::FILE)),
            stop_rx.clone(),
        )
    });
    let live = live.with_outbox(outbox.clone());
    let demo = Arc::new(demo);
    demo.spawn_purger(Duration::from_secs(60));
    tracing::info!(provider = demo.client.kind.as_str(), model = %demo.client.model, "prompt demo ready");
    let mcp = mcp_from(&config, &public_url, &stop_rx);
    let git = hooks_from(&config, &git_tx, fleet, &stop_rx);
    let state = AppState {
        site: site.clone(),
        live: watching.then(|| gen_rx.clone()),
        stopping: stop_rx.clone(),
        demo,
        git,
        counters: Arc::new(crate::http::Counters::new(threads)),
        public_url: Arc::from(public_url.as_str()),
        generations: gen_rx,
        mcp,
        compare: Arc::new(match config.compare_memo_bytes {
            Some(bytes) => crate::http::compare::Memo::with_budget(bytes),
            None => crate::http::compare::Memo::default(),
        }),
        progress,
        access: access.clone(),
        ops_token: config.ops_token.as_deref().map(Arc::from),
        clients: crate::http::client::Clients {
            trusted: config.trusted_proxy.clone(),
        },
        outbox,
    };
    let wake = Wake::of(git_mode, &wake_tx, &trigger_tx);
    watch_tokens(&config, access, wake, &stop_rx);
    let serving = tokio::spawn(server::serve(
        listeners,
        state.clone(),
        router(state),
        config.limits,
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
        site,
    });
    match config.source {
        SourceConfig::Git(source) => {
            drop((git_tx, trigger_tx, trigger_rx));
            let git = GitConfig {
                url: source.url,
                branch: source.branch,
                poll: source.poll,
                cache_dir: config.cache_dir,
                prefix: source.prefix,
                previews: source.previews,
            };
            serve_git(git, live, git_rx, wake_tx, serving, stop_rx).await
        }
        SourceConfig::Folder { path, watch } => {
            drop((git_tx, git_rx, wake_tx));
            let triggers = (trigger_tx, trigger_rx);
            serve_folder(&path, watch, live, triggers, serving, stop_rx).await
        }
    }
}

/// MCP's state, when MCP is on: the origins it accepts (the public URL's
/// and those given) and its sessions, expired by a task of their own.
fn mcp_from(
    config: &ServeConfig,
    public_url: &str,
    stop_rx: &watch::Receiver<bool>,
) -> Option<Arc<McpState>> {
    config.mcp.as_ref().map(|m| {
        let mut origins = vec![origin_of(public_url)];
        origins.extend(m.allowed_origins.iter().cloned());
        let sessions =
            crate::http::mcp::sessions::Sessions::new(m.sessions, config.trusted_proxy.clone());
        sessions.spawn_expiry(stop_rx.clone());
        Arc::new(McpState { origins, sessions })
    })
}

/// Git mode's webhook: its secret, its pace limits, and, in a fleet, the
/// fan-out that wakes every replica.
fn hooks_from(
    config: &ServeConfig,
    git_tx: &std::sync::mpsc::Sender<()>,
    fleet: Option<Arc<crate::fleet::Fleet>>,
    stop_rx: &watch::Receiver<bool>,
) -> Option<Arc<GitHooks>> {
    let SourceConfig::Git(g) = &config.source else {
        return None;
    };
    Some(Arc::new(GitHooks {
        trigger: git_tx.clone(),
        secret: g.webhook.as_ref().map(|w| Arc::from(w.secret.as_str())),
        reads: crate::http::webhook::Reads::new(
            g.webhook.as_ref().map(|w| w.rates).unwrap_or_default(),
        ),
        fanout: fleet.map(|fleet| {
            let fanout = Arc::new(crate::live::fanout::Fanout::new(fleet, &g.url));
            fanout.spawn_listener(git_tx.clone(), stop_rx.clone());
            fanout
        }),
    }))
}

/// What every render of this server is made with: its public URL, its
/// cache policy, and what its pages link (live reload, MCP, sign-in).
fn render_context(config: &ServeConfig, public_url: &str, watching: bool) -> Context {
    let mut ctx = Context::new(public_url);
    ctx.live_reload = watching;
    ctx.max_age = config.cache_max_age;
    ctx.npm_scope = config.npm_scope.clone();
    ctx.mcp = config.mcp.is_some();
    ctx.sign_in = config.access_tokens.is_some();
    if let SourceConfig::Git(g) = &config.source {
        ctx.source_prefix = g.prefix.clone();
    }
    ctx
}

/// The access tokens, with `--access-tokens`: read now (a file that does
/// not read stops the server before it listens).
fn access_from(
    config: &ServeConfig,
    public_url: &str,
) -> Result<Option<Arc<crate::access::Access>>> {
    let Some(path) = &config.access_tokens else {
        return Ok(None);
    };
    Ok(Some(Arc::new(crate::access::Access::new(
        read_tokens(path)?,
        config.preview_access == crate::config::PreviewAccess::Token,
        public_url.starts_with("https://"),
        session_secret(config)?,
    ))))
}

/// What session cookies are signed with: `MARQUE_SESSION_SECRET`, or the
/// secret kept in the cache directory (made there the first time, readable
/// by its owner only). Replicas of a fleet share one: give each the same
/// `MARQUE_SESSION_SECRET`.
fn session_secret(config: &ServeConfig) -> Result<crate::access::Secret> {
    if let Some(text) = &config.session_secret {
        return Ok(crate::access::Secret::from_text(text));
    }
    let path = config.cache_dir.join("session-secret");
    if let Ok(text) = std::fs::read_to_string(&path) {
        if let Some(bytes) = crate::access::unhex32(text.trim()) {
            return Ok(crate::access::Secret::new(bytes));
        }
        tracing::warn!(file = %path.display(), "the session secret file is not 64 hex digits: a new secret is made (signed-in browsers sign in again)");
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no randomness for a session secret: {e}"))?;
    std::fs::create_dir_all(&config.cache_dir).with_context(|| {
        format!(
            "cannot create the cache directory {}",
            config.cache_dir.display()
        )
    })?;
    write_private(&path, &crate::access::hex(&bytes))
        .with_context(|| format!("cannot keep the session secret in {}", path.display()))?;
    Ok(crate::access::Secret::new(bytes))
}

/// Writes `text` to a new file at `path` that only its owner may read.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// Reads the access tokens file; an error names the file and the line,
/// never a hash.
fn read_tokens(path: &std::path::Path) -> Result<crate::access::Tokens> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the access tokens file {}", path.display()))?;
    let tokens = crate::access::Tokens::parse(&text)
        .map_err(|e| anyhow::anyhow!("the access tokens file {}: {e}", path.display()))?;
    tracing::info!(file = %path.display(), tokens = tokens.len(), "access tokens read");
    Ok(tokens)
}

/// With access tokens, reads their file again when it changes, and wakes
/// the loop with `wake` so each reader's snapshot is made again.
fn watch_tokens(
    config: &ServeConfig,
    access: Option<Arc<crate::access::Access>>,
    wake: Wake,
    stop: &watch::Receiver<bool>,
) {
    if let (Some(access), Some(path)) = (access, &config.access_tokens) {
        tokio::spawn(reread_tokens(path.clone(), access, wake, stop.clone()));
    }
}

/// What wakes the loop of either mode to serve its catalog again.
enum Wake {
    Git(Arc<std::sync::Mutex<std::sync::mpsc::Sender<()>>>),
    Folder(mpsc::UnboundedSender<crate::live::watch::Trigger>),
}

impl Wake {
    /// Git mode's wake, or directory mode's.
    fn of(
        git_mode: bool,
        git: &Arc<std::sync::Mutex<std::sync::mpsc::Sender<()>>>,
        folder: &mpsc::UnboundedSender<crate::live::watch::Trigger>,
    ) -> Wake {
        match git_mode {
            true => Wake::Git(git.clone()),
            false => Wake::Folder(folder.clone()),
        }
    }

    fn wake(&self) {
        match self {
            Wake::Git(tx) => drop(tx.lock().map(|tx| tx.send(()))),
            Wake::Folder(tx) => drop(tx.send(crate::live::watch::Trigger::Republish)),
        }
    }
}

/// Reads the access tokens file again on SIGHUP, or when it changes
/// (looked at every second), and wakes the loop so each reader's snapshot
/// is made again. A file that no longer reads keeps the tokens before.
async fn reread_tokens(
    path: std::path::PathBuf,
    access: Arc<crate::access::Access>,
    wake: Wake,
    mut stop: watch::Receiver<bool>,
) {
    let stamp = |p: &std::path::Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.modified().ok(), m.len()))
    };
    let mut seen = stamp(&path);
    #[cfg(unix)]
    let mut hup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
    loop {
        #[cfg(unix)]
        let hangup = async {
            match hup.as_mut() {
                Some(h) => {
                    h.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let hangup = std::future::pending::<()>();
        let signalled = tokio::select! {
            () = hangup => true,
            () = tokio::time::sleep(Duration::from_secs(1)) => false,
            _ = stop.wait_for(|s| *s) => return,
        };
        let now = stamp(&path);
        if !signalled && now == seen {
            continue;
        }
        seen = now;
        match read_tokens(&path) {
            Ok(tokens) => {
                if access.replace(tokens) {
                    wake.wake();
                }
            }
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "keeping the access tokens read before")
            }
        }
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

fn source_name(source: &SourceConfig) -> String {
    match source {
        SourceConfig::Git(g) => format!("git {} ({})", crate::redact::redact_url(&g.url), g.branch),
        SourceConfig::Folder { path, .. } => format!("directory {}", path.display()),
    }
}

/// Git mode: one blocking worker owns the mirror for the server's lifetime
/// and stops when its channel closes, at shutdown.
async fn serve_git(
    cfg: GitConfig,
    live: Live,
    triggers: std::sync::mpsc::Receiver<()>,
    wake: Arc<std::sync::Mutex<std::sync::mpsc::Sender<()>>>,
    serving: JoinHandle<()>,
    mut stop: watch::Receiver<bool>,
) -> Result<()> {
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
    dir: &std::path::Path,
    watch: Watch,
    live: Live,
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
        (
            live.reloader.changes_waiting(),
            live.reloader.saves_waiting(),
        ),
        live.progress.clone(),
    );
    let watcher = if watch != Watch::Off {
        let w = crate::live::watch::watch(dir, watch == Watch::Polling, trigger_tx)
            .with_context(|| format!("cannot watch {}", dir.display()))?;
        tracing::info!(polling = w.polling, "watching the content folder");
        Some(w)
    } else {
        // Without a watcher, builds still publish brands left behind.
        drop(trigger_tx);
        None
    };
    let dir = dir.to_path_buf();
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

/// The demo endpoint, from its settings.
fn demo_from(config: &ServeConfig) -> crate::demo::Demo {
    use crate::demo::llm::LlmClient;
    let d = &config.demo;
    crate::demo::Demo {
        limiter: crate::demo::limit::DemoLimiter::new(d.per_minute, d.burst),
        client: LlmClient::new(
            d.provider,
            d.base_url.clone(),
            d.model.clone(),
            d.api_key.clone(),
            d.timeout,
        ),
        permits: Arc::new(tokio::sync::Semaphore::new(d.concurrency.max(1))),
        max_tokens: d.max_tokens.max(1),
        decided: Default::default(),
        shared: None,
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
