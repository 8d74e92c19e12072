//! What `marque serve` runs with. [`ServeArgs`] is what the command line
//! says; a [`ServeConfig`] is that, checked once, with the secrets that
//! never come from a flag read from the environment, and every setting
//! already in the shape the part that uses it wants (ripgrep's low-level
//! and high-level arguments). Tests and embedding programs build one
//! directly: [`ServeConfig::folder`] and [`ServeConfig::git`] are the
//! defaults of every flag.

use super::{PreviewAccess, ServeArgs};
use crate::build::BuildOptions;
use crate::demo::llm::ProviderKind;
use crate::http::client::Cidr;
use crate::http::mcp::sessions::SessionLimits;
use crate::http::server::Limits;
use crate::http::webhook::RateLimits;
use crate::live::previews::PreviewConfig;
use crate::outbound::{OutboundConfig, Target};
use anyhow::{bail, Result};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Where the brands come from.
#[derive(Debug, Clone)]
pub enum SourceConfig {
    /// A folder, watched for hot reload unless `watch` is off.
    Folder { path: PathBuf, watch: Watch },
    /// A git branch, fetched.
    Git(GitSource),
}

/// How a content folder is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// Not at all: no hot reload, no `/events`.
    Off,
    /// Native file events.
    Events,
    /// Polling (network drives, containers).
    Polling,
}

/// Git mode: the branch served, and what else comes with it.
#[derive(Debug, Clone)]
pub struct GitSource {
    pub url: String,
    pub branch: String,
    /// The folder of the brands inside the repository, as `brands/`
    /// (empty for its root).
    pub prefix: String,
    /// How often to fetch, with ±10 % jitter.
    pub poll: Duration,
    /// Branches also served under `/preview/<name>/`.
    pub previews: Option<PreviewConfig>,
    /// `POST /hooks/git`: its secret and how slow a body may be.
    pub webhook: Option<Webhook>,
}

impl GitSource {
    /// The branch `main` of `url`, polled every 30 seconds, with no
    /// previews and no webhook: the defaults of the flags.
    pub fn new(url: impl Into<String>) -> GitSource {
        let args = ServeArgs::default();
        GitSource {
            url: url.into(),
            branch: args.git_branch,
            prefix: normalise_prefix(&args.git_path),
            poll: args.git_poll,
            previews: None,
            webhook: None,
        }
    }
}

/// The push webhook of git mode.
#[derive(Debug, Clone)]
pub struct Webhook {
    pub secret: String,
    pub rates: RateLimits,
}

/// The prompt demo and the model it calls.
#[derive(Debug, Clone)]
pub struct DemoConfig {
    pub provider: ProviderKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// From MARQUE_LLM_API_KEY only: a flag would show in `ps`.
    pub api_key: Option<String>,
    /// Deadline of one call to the model, retries included.
    pub timeout: Duration,
    pub max_tokens: u32,
    /// Calls to the model in flight at once.
    pub concurrency: usize,
    /// Calls per client address per minute, and in a burst.
    pub per_minute: u32,
    pub burst: u32,
}

/// `/mcp`, when it is on.
#[derive(Debug, Clone)]
pub struct McpConfig {
    /// Browser origins allowed besides the public URL's own.
    pub allowed_origins: Vec<String>,
    pub sessions: SessionLimits,
}

/// Redis, shared by a fleet of replicas.
#[derive(Debug, Clone)]
pub struct FleetConfig {
    pub url: String,
    /// From MARQUE_REDIS_PASSWORD, or in the URL.
    pub password: Option<String>,
    /// Of every key and channel, so fleets can share one Redis.
    pub prefix: String,
}

/// Everything `marque serve` runs with, checked.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub listen: SocketAddr,
    /// The base of every link, without a trailing slash (default:
    /// `http://` and the bound address).
    pub public_url: Option<String>,
    pub source: SourceConfig,
    /// The render cache (warm starts) and git mode's mirror.
    pub cache_dir: PathBuf,
    /// `max-age` of current surfaces.
    pub cache_max_age: u32,
    /// The npm scope of release packages (`--npm-scope`).
    pub npm_scope: Option<String>,
    /// Connections, timeouts and accepting threads.
    pub limits: Limits,
    /// How brands are built: `semver` and `allow_empty` from the flags,
    /// the rest for tests (a budget, an injected fault).
    pub build: BuildOptions,
    pub demo: DemoConfig,
    /// Proxies whose forwarding headers are believed.
    pub trusted_proxy: Vec<Cidr>,
    pub mcp: Option<McpConfig>,
    pub fleet: Option<FleetConfig>,
    /// Rebuild reports as JSON log events.
    pub log_json: bool,
    /// Bytes of comparisons the compare endpoint keeps (default: its own).
    pub compare_memo_bytes: Option<usize>,
    /// `--access-tokens`: the file the tokens are read from.
    pub access_tokens: Option<PathBuf>,
    /// `--preview-access token`: previews answer token holders only.
    pub preview_access: PreviewAccess,
    /// `--ops-token`: what /status and /metrics require, if anything.
    pub ops_token: Option<String>,
    /// `MARQUE_SESSION_SECRET`: what session cookies are signed with; without
    /// it, a secret generated once and kept in the cache directory.
    pub session_secret: Option<String>,
    /// Where embargo moments and today's date are read: the system's clock
    /// (a test may set another).
    pub clock: crate::clock::Clock,
    /// `--purge-url`, `--notify-url` and how their deliveries are made;
    /// the secrets from MARQUE_PURGE_HEADER and MARQUE_NOTIFY_SECRET.
    pub outbound: OutboundConfig,
}

impl ServeConfig {
    /// The command line and the environment's secrets
    /// (MARQUE_LLM_API_KEY, MARQUE_REDIS_PASSWORD), checked.
    pub fn from_args(args: ServeArgs, log_json: bool) -> Result<ServeConfig> {
        let secret = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let comment = args.status_comment;
        let status = (
            args.status_api,
            args.status_api_url.clone(),
            args.status_repo.clone(),
        );
        let dispatch = (args.dispatch_repos.clone(), args.dispatch_api_url.clone());
        let mut config = ServeConfig::with_secrets(
            args,
            secret("MARQUE_LLM_API_KEY"),
            secret("MARQUE_REDIS_PASSWORD"),
        );
        config.log_json = log_json;
        config.session_secret = secret("MARQUE_SESSION_SECRET");
        config.outbound.secret = secret("MARQUE_NOTIFY_SECRET");
        let (repos, base) = dispatch;
        let repos: Vec<String> = repos.into_iter().filter(|r| !r.is_empty()).collect();
        if !repos.is_empty() {
            let Some(token) = secret("MARQUE_DISPATCH_TOKEN") else {
                bail!("--dispatch-repo needs a token in MARQUE_DISPATCH_TOKEN");
            };
            config.outbound.dispatch = Some(crate::outbound::Dispatch {
                repos,
                base: base.trim_end_matches('/').to_string(),
                token,
            });
        }
        let (status_api, status_api_url, status_repo) = status;
        if let Some(forge) = status_api {
            use crate::outbound::commit_status::{default_base, StatusApi};
            let Some(token) = secret("MARQUE_STATUS_TOKEN") else {
                bail!("--status-api needs a token in MARQUE_STATUS_TOKEN");
            };
            let Some(base) = status_api_url.or(default_base(forge).map(String::from)) else {
                bail!("--status-api gitea needs --status-api-url, as https://codeberg.org/api/v1");
            };
            config.outbound.status = Some(StatusApi {
                forge,
                base: base.trim_end_matches('/').to_string(),
                repo: status_repo.unwrap_or_default(),
                token,
            });
            config.outbound.comment = comment;
        }
        if let Some(header) = secret("MARQUE_PURGE_HEADER") {
            let Some((name, value)) = header.split_once(':') else {
                bail!("MARQUE_PURGE_HEADER must read `Name: value`, as `Fastly-Key: …`");
            };
            config.outbound.purge_header =
                Some((name.trim().to_string(), value.trim().to_string()));
        }
        config.check()?;
        Ok(config)
    }

    /// Serving the folder `content` with every flag's default (and no
    /// secrets), listening on `127.0.0.1:0`: what a test starts from.
    pub fn folder(content: impl Into<PathBuf>) -> ServeConfig {
        let mut config = ServeConfig::with_secrets(ServeArgs::default(), None, None);
        config.listen = "127.0.0.1:0".parse().unwrap_or(config.listen);
        config.source = SourceConfig::Folder {
            path: content.into(),
            watch: Watch::Events,
        };
        config
    }

    /// Serving the branch `main` of `url`, as [`ServeConfig::folder`] does a folder.
    pub fn git(url: impl Into<String>) -> ServeConfig {
        let mut config = ServeConfig::folder("content");
        config.source = SourceConfig::Git(GitSource::new(url));
        config
    }

    /// The git source, if that is what is served.
    pub fn git_source(&mut self) -> Option<&mut GitSource> {
        match &mut self.source {
            SourceConfig::Git(g) => Some(g),
            SourceConfig::Folder { .. } => None,
        }
    }

    /// Watches the folder served so, in directory mode.
    pub fn set_watch(&mut self, to: Watch) {
        if let SourceConfig::Folder { watch, .. } = &mut self.source {
            *watch = to;
        }
    }

    /// How the folder served is watched (off in git mode).
    pub fn watch(&self) -> Watch {
        match &self.source {
            SourceConfig::Folder { watch, .. } => *watch,
            SourceConfig::Git(_) => Watch::Off,
        }
    }

    fn with_secrets(
        args: ServeArgs,
        api_key: Option<String>,
        redis_password: Option<String>,
    ) -> ServeConfig {
        let source = match args.git_url.clone() {
            Some(url) => SourceConfig::Git(GitSource {
                url,
                branch: args.git_branch.clone(),
                prefix: normalise_prefix(&args.git_path),
                poll: args.git_poll,
                previews: args.preview_branches.clone().map(|glob| PreviewConfig {
                    glob,
                    limit: usize::from(args.preview_limit),
                }),
                webhook: args
                    .webhook_secret
                    .clone()
                    .filter(|s| !s.is_empty())
                    .map(|secret| Webhook {
                        secret,
                        rates: RateLimits {
                            grace: args.webhook_body_grace,
                            min_bytes_per_sec: u64::from(args.webhook_body_rate) * 1024,
                        },
                    }),
            }),
            None => SourceConfig::Folder {
                path: args.content.clone(),
                watch: match (args.no_watch, args.watch_poll) {
                    (true, _) => Watch::Off,
                    (false, true) => Watch::Polling,
                    (false, false) => Watch::Events,
                },
            },
        };
        // Without a key the demo is a dry run unless a provider is named;
        // a dry run calls no model, so only CPU is at stake: a higher limit.
        let provider = args.llm_provider.unwrap_or(match api_key {
            Some(_) => ProviderKind::Openai,
            None => ProviderKind::DryRun,
        });
        let (per_minute, burst) = match provider {
            ProviderKind::DryRun => (60, 20),
            _ => (10, 5),
        };
        ServeConfig {
            listen: args.listen,
            public_url: args
                .public_url
                .as_deref()
                .map(|u| u.trim_end_matches('/').to_string()),
            source,
            cache_dir: args.cache_dir.clone(),
            cache_max_age: args.cache_max_age,
            npm_scope: args.npm_scope.clone(),
            limits: Limits {
                max_connections: args.max_connections,
                header_timeout: Duration::from_secs(args.header_timeout),
                body_timeout: args.body_timeout,
                drain_timeout: args.drain_timeout,
                threads: args
                    .threads
                    .map_or_else(crate::http::server::default_threads, usize::from)
                    .max(1),
            },
            build: BuildOptions {
                semver: args.semver,
                require_deprecation: args.require_deprecation,
                allow_empty: args.allow_empty,
                ..BuildOptions::default()
            },
            demo: DemoConfig {
                provider,
                base_url: args.llm_base_url.clone(),
                model: args.llm_model.clone(),
                api_key,
                timeout: args.llm_timeout,
                max_tokens: args.llm_max_tokens.max(1),
                concurrency: args.llm_concurrency.max(1),
                per_minute: args.demo_per_minute.unwrap_or(per_minute),
                burst: args.demo_burst.unwrap_or(burst),
            },
            trusted_proxy: args.trusted_proxy.clone(),
            mcp: (!args.no_mcp).then(|| McpConfig {
                allowed_origins: args.mcp_allowed_origins.clone(),
                sessions: SessionLimits {
                    total: args.mcp_sessions as usize,
                    per_client: args.mcp_sessions_per_client as usize,
                    idle: args.mcp_session_idle,
                    initialize_per_minute: args.mcp_initialize_per_minute,
                },
            }),
            fleet: args
                .redis_url
                .clone()
                .filter(|u| !u.is_empty())
                .map(|url| FleetConfig {
                    url,
                    password: redis_password,
                    prefix: args.redis_prefix.clone(),
                }),
            log_json: false,
            compare_memo_bytes: None,
            access_tokens: args.access_tokens.clone(),
            preview_access: args.preview_access,
            ops_token: args.ops_token.clone().filter(|t| !t.trim().is_empty()),
            session_secret: None,
            clock: crate::clock::Clock::system(),
            outbound: OutboundConfig {
                purge: args
                    .purge_urls
                    .iter()
                    .filter(|u| !u.is_empty())
                    .cloned()
                    .collect(),
                notify: args
                    .notify_urls
                    .iter()
                    .filter(|u| !u.is_empty())
                    .map(|u| Target::parse(u))
                    .collect(),
                timeout: args.delivery_timeout,
                attempts: args.delivery_attempts,
                ..OutboundConfig::default()
            },
        }
    }

    /// What the flags' own parsers cannot see: URLs that links, origins
    /// and clients are made from.
    pub fn check(&self) -> Result<()> {
        if let Some(url) = &self.public_url {
            if !is_base_url(url) {
                bail!("--public-url {url:?} must be an absolute http(s) URL with no query or fragment, as https://brands.example.com");
            }
        }
        if let Some(url) = &self.demo.base_url {
            if !is_base_url(url) {
                bail!("--llm-base-url {url:?} must be an absolute http(s) URL");
            }
        }
        if self.preview_access == PreviewAccess::Token && self.access_tokens.is_none() {
            bail!(
                "--preview-access token needs --access-tokens FILE: the tokens previews answer to"
            );
        }
        for origin in self.mcp.iter().flat_map(|m| &m.allowed_origins) {
            if !is_base_url(origin) || origin.split("://").nth(1).is_some_and(|r| r.contains('/')) {
                bail!(
                    "--mcp-allowed-origin {origin:?} must be an origin, as https://app.example.com"
                );
            }
        }
        if let Some(fleet) = &self.fleet {
            let schemes = ["redis://", "rediss://", "redis+unix://", "unix://"];
            if !schemes.iter().any(|s| fleet.url.starts_with(s)) {
                bail!("--redis-url must start with redis://, rediss://, redis+unix:// or unix://");
            }
        }
        for url in &self.outbound.purge {
            let bare = url.replace("{path}", "").replace("{url}", "");
            if !bare.starts_with("http://") && !bare.starts_with("https://") {
                bail!(
                    "--purge-url {:?} must be an http(s) URL",
                    crate::redact::redact_url(url)
                );
            }
        }
        for t in &self.outbound.notify {
            if !t.url.starts_with("http://") && !t.url.starts_with("https://") {
                bail!(
                    "--notify-url {:?} must be an absolute http(s) URL (`private:` before it for a private target)",
                    crate::redact::redact_url(&t.url)
                );
            }
        }
        if let Some(d) = &self.outbound.dispatch {
            if let Some(bad) = d.repos.iter().find(|r| r.split('/').count() != 2) {
                bail!("--dispatch-repo {bad:?} must be owner/name");
            }
        }
        if let Some(api) = &self.outbound.status {
            let previews = matches!(&self.source, SourceConfig::Git(g) if g.previews.is_some());
            if !previews {
                bail!("--status-api posts the statuses of previews: it needs --git-url and --preview-branches");
            }
            if !api.base.starts_with("http://") && !api.base.starts_with("https://") {
                bail!("--status-api-url must be an http(s) URL");
            }
        }
        if let SourceConfig::Git(g) = &self.source {
            if g.url.trim().is_empty() {
                bail!("--git-url is empty");
            }
        }
        Ok(())
    }
}

/// `scheme://host…` with an http(s) scheme, a host, no query or fragment.
fn is_base_url(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https")
        && !rest.is_empty()
        && !rest.starts_with('/')
        && !url.contains(['?', '#', ' '])
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_is_checked_once_at_start() {
        let mut config = ServeConfig::folder("content");
        for good in ["https://brands.example.com", "http://127.0.0.1:8080/marque"] {
            config.public_url = Some(good.into());
            assert!(config.check().is_ok(), "{good}");
        }
        for bad in [
            "brands.example.com",
            "ftp://x",
            "https://x/?a=1",
            "https://",
        ] {
            config.public_url = Some(bad.into());
            let e = config.check().unwrap_err().to_string();
            assert!(e.contains("--public-url"), "{bad}: {e}");
        }
    }

    #[test]
    fn outbound_targets_are_checked_at_start() {
        use crate::outbound::commit_status::{Forge, StatusApi};
        let mut config = ServeConfig::folder("content");
        config.outbound.purge = vec!["cdn.example/purge".into()];
        assert!(config
            .check()
            .unwrap_err()
            .to_string()
            .contains("--purge-url"));
        config.outbound.purge = vec!["https://api.fastly.com/purge/b.example{path}".into()];
        config.outbound.notify = vec![Target::parse("private:https://ci.example/hook")];
        assert!(config.check().is_ok());
        config.outbound.status = Some(StatusApi {
            forge: Forge::Github,
            base: "https://api.github.com".into(),
            repo: "acme/brands".into(),
            token: "t".into(),
        });
        let e = config.check().unwrap_err().to_string();
        assert!(e.contains("--preview-branches"), "{e}");
        config.outbound.status = None;
        config.outbound.dispatch = Some(crate::outbound::Dispatch {
            repos: vec!["acme".into()],
            base: "https://api.github.com".into(),
            token: "t".into(),
        });
        let e = config.check().unwrap_err().to_string();
        assert!(e.contains("owner/name"), "{e}");
    }

    #[test]
    fn flags_become_the_shapes_their_parts_want() {
        let args = ServeArgs {
            git_url: Some("https://git.example.com/brands.git".into()),
            git_path: "/brands/".into(),
            preview_branches: Some("preview/*".into()),
            webhook_secret: Some(String::new()),
            ..ServeArgs::default()
        };
        let config = ServeConfig::with_secrets(args, Some("key".into()), None);
        let SourceConfig::Git(g) = &config.source else {
            panic!("git mode");
        };
        assert_eq!(g.prefix, "brands/");
        assert_eq!(g.previews.as_ref().map(|p| p.limit), Some(20));
        assert!(g.webhook.is_none(), "an empty secret is no webhook");
        assert_eq!(
            config.demo.provider,
            ProviderKind::Openai,
            "a key means openai"
        );
        assert_eq!((config.demo.per_minute, config.demo.burst), (10, 5));
        assert_eq!(config.watch(), Watch::Off);
        let dry = ServeConfig::folder("content");
        assert_eq!(dry.demo.provider, ProviderKind::DryRun);
        assert_eq!((dry.demo.per_minute, dry.demo.burst), (60, 20));
        assert_eq!(dry.watch(), Watch::Events);
    }
}
