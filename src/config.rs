//! The command line. Every flag has a `MARQUE_…` environment variable; the
//! doc comment of each field is its `--help` line.

// Those comments are written for the terminal, not for rustdoc: `[DIR]`
// and `<name>` there are usage, not links or tags.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

mod serve;

pub use serve::{
    DemoConfig, FleetConfig, GitSource, McpConfig, ServeConfig, SourceConfig, Watch, Webhook,
};

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "marque",
    version,
    about = "Publishes brand books as machine-readable surfaces, straight from git."
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `marque serve`, which runs when no command is given.
    #[command(flatten)]
    pub serve: ServeArgs,
    /// Log format.
    #[arg(long, env = "MARQUE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Human, global = true)]
    pub log_format: LogFormat,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve every surface of every brand (the default command).
    Serve(Box<ServeArgs>),
    /// Validate a content folder and print every problem; exit 1 on errors.
    Check(CheckArgs),
    /// Find what a codebase hard-codes that the brand's tokens name, and
    /// token names that do not exist; exit 1 on errors.
    Lint(LintArgs),
    /// Write every surface as static files, with .gz and .br siblings.
    Build(BuildArgs),
    /// Print or write the changelog generated from release tags.
    Changelog(ChangelogArgs),
    /// Print what changed in a brand between two versions (releases or
    /// `current`), and the version step it needs.
    Diff(DiffArgs),
    /// Make an access token and print its line for the tokens file
    /// (`--access-tokens`); the token itself is printed once, to a
    /// terminal only (see --plaintext-to-stdout).
    Token(TokenArgs),
    /// Make a brand folder from a design system's tokens (a DTCG resolver
    /// document or a tokens file): strict tokens, the resolver kept, and a
    /// brand.json skeleton; prints what it normalised.
    Import(ImportArgs),
}

/// Who may read branch previews.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PreviewAccess {
    /// Anyone with the link (they are `noindex`).
    #[default]
    Public,
    /// Holders of an access token only.
    Token,
}

#[derive(Debug, Clone, Args)]
pub struct TokenArgs {
    /// The token's name: what the file and the logs call it (letters,
    /// digits, `-`, `_`).
    pub name: String,
    /// The private brands it opens (comma-separated slugs); every private
    /// brand without it.
    #[arg(long, value_delimiter = ',')]
    pub brands: Vec<String>,
    /// Print the token to standard output even when it is a pipe or a
    /// file; without it the token is shown on a terminal only, and
    /// elsewhere only the line for the tokens file is written.
    // No MARQUE_ variable, unlike other flags: one exported in a shell
    // would quietly turn the guard off for every later `marque token`.
    #[arg(long)]
    pub plaintext_to_stdout: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The resolver document (`*.resolver.json`) or tokens file to import;
    /// the files a resolver names are read relative to it. A folder (a
    /// Tokens Studio sync, Figma's export) or a zip of Figma's export is
    /// read as a folder. A Style Dictionary config (`config.json`, JSON5)
    /// is read as data: the files its `include` and `source` name.
    pub file: PathBuf,
    /// The brand's slug (its folder's name); by default from the file's
    /// name (`figma-sds.resolver.json` → `figma-sds`).
    #[arg(long)]
    pub slug: Option<String>,
    /// The content folder to write the brand folder `<slug>/` into.
    #[arg(long, default_value = "content", env = "MARQUE_CONTENT")]
    pub out: PathBuf,
    /// The input's format (dtcg, tokens-studio, style-dictionary, theo,
    /// figma-variables, figma-export); detected from its content without it.
    #[arg(long)]
    pub format: Option<String>,
    /// Accept an import that leaves tokens out for errors (a broken
    /// reference, math that fails, an unreadable value): written, and exit
    /// 0. Without it such an import is written, and exits 1.
    #[arg(long)]
    pub allow_partial: bool,
    /// The team's own built CSS (Style Dictionary's `variables.css`, a
    /// theme's stylesheet): the summary compares it with what marque
    /// publishes, per context, custom property by custom property: equal,
    /// different and missing, by exact name. Its selectors name the
    /// contexts (`:root` the default; `.dark`, `[data-theme=dark]`,
    /// `@media (prefers-color-scheme: dark)` the context `dark`).
    #[arg(long, env = "MARQUE_IMPORT_AGAINST")]
    pub against: Option<PathBuf>,
    /// Write the reading plan to FILE instead of a brand folder: a DTCG
    /// resolver document over the input's own files, each set saying how
    /// it is read (`$extensions["app.marque"]`), each modifier what it was
    /// read from. Keep it in the folder that holds the input (or one under
    /// it), correct it by hand, and name it in brand.json's `tokens`.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// [DIR] BRAND FROM TO: the content folder (default `content`, inside
    /// a git work tree for releases), the brand's slug, and the two sides,
    /// each a released version (`2.4.0`) or `current`.
    #[arg(num_args = 3..=4, required = true, value_names = ["DIR", "BRAND", "FROM", "TO"])]
    pub args: Vec<String>,
    /// Markdown for people, or JSON.
    #[arg(long, value_enum, default_value_t = DiffFormat::Markdown)]
    pub format: DiffFormat,
}

impl DiffArgs {
    /// The content folder, the brand, and the two sides.
    pub fn parts(&self) -> (PathBuf, &str, &str, &str) {
        let a = &self.args;
        let (dir, rest) = if a.len() == 4 {
            (PathBuf::from(&a[0]), &a[1..])
        } else {
            (PathBuf::from("content"), &a[..])
        };
        (dir, &rest[0], &rest[1], &rest[2])
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Markdown,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct ChangelogArgs {
    /// Content folder (inside a git work tree).
    #[arg(default_value = "content", env = "MARQUE_CONTENT")]
    pub dir: PathBuf,
    /// Only this brand.
    #[arg(long, env = "MARQUE_BRAND")]
    pub brand: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(long, env = "MARQUE_CHANGELOG_OUTPUT")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Compiler-style lines: `error[MQ1201]: … --> acme/brand.json:3:14`.
    Human,
    /// One JSON object per diagnostic, one per line.
    Json,
    /// A SARIF 2.1.0 log, for GitHub code scanning: paths relative to the
    /// root of the git repository that holds the folder.
    Sarif,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Content folder to serve and watch.
    #[arg(long, env = "MARQUE_CONTENT", default_value = "content")]
    pub content: PathBuf,
    /// Address to listen on.
    #[arg(long, env = "MARQUE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Absolute base URL used in links (default: http:// plus the listen address).
    #[arg(long, env = "MARQUE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// max-age, in seconds, of Cache-Control for current surfaces.
    #[arg(long, env = "MARQUE_CACHE_MAX_AGE", default_value_t = 60)]
    pub cache_max_age: u32,
    /// The npm scope of each release's package.tgz (`acme` or `@acme`:
    /// `@acme/<slug>`); without it, the package is named by the slug.
    #[arg(long, env = "MARQUE_NPM_SCOPE")]
    pub npm_scope: Option<String>,
    /// Most connections served at once; further clients wait to be accepted.
    #[arg(long, env = "MARQUE_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Seconds a client may take to send a request head (idle keep-alive included); then 408.
    #[arg(long, env = "MARQUE_HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout: u64,
    /// Time a client may take to send a whole request body (e.g. 10s); then 408.
    #[arg(long, env = "MARQUE_BODY_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub body_timeout: std::time::Duration,
    /// Time requests in flight get to finish after SIGTERM or SIGINT (e.g. 10s); then what is left is closed and marque exits 0. Give the process manager longer before SIGKILL.
    #[arg(long, env = "MARQUE_DRAIN_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub drain_timeout: std::time::Duration,
    /// Threads accepting connections, each with its own listener (default: the available cores).
    #[arg(long, env = "MARQUE_THREADS", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Turn the MCP endpoint (/mcp) off.
    #[arg(long, env = "MARQUE_NO_MCP")]
    pub no_mcp: bool,
    /// A browser origin allowed to call /mcp (repeat it, or separate with
    /// commas); the public URL's origin always is. Clients that send no
    /// Origin (agents, IDEs) are not affected.
    #[arg(
        long = "mcp-allowed-origin",
        env = "MARQUE_MCP_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    pub mcp_allowed_origins: Vec<String>,
    /// Most MCP sessions open at once, from all clients together (up to
    /// about 110 KiB each); a further `initialize` gets 503.
    #[arg(long, env = "MARQUE_MCP_SESSIONS", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub mcp_sessions: u32,
    /// Most MCP sessions open at once from one client address (IPv6: one
    /// /64); a further `initialize` gets 429.
    #[arg(long, env = "MARQUE_MCP_SESSIONS_PER_CLIENT", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    pub mcp_sessions_per_client: u32,
    /// An MCP session unused this long is ended (e.g. 5m, 90s); its client
    /// gets 404 and opens a new one, as the protocol says.
    #[arg(long, env = "MARQUE_MCP_SESSION_IDLE", default_value = "5m", value_parser = parse_duration)]
    pub mcp_session_idle: std::time::Duration,
    /// MCP sessions a client may open per minute (in bursts of
    /// --mcp-sessions-per-client); a further `initialize` gets 429.
    #[arg(long, env = "MARQUE_MCP_INITIALIZE_PER_MINUTE", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub mcp_initialize_per_minute: u32,
    /// Redis shared by a fleet of replicas (redis://host:6379/0): one demo
    /// rate limit for all, and webhooks spread to every replica. Without
    /// it, each replica decides alone. The password may come from
    /// MARQUE_REDIS_PASSWORD instead of the URL.
    #[arg(long, env = "MARQUE_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,
    /// Prefix of every Redis key and channel, so fleets can share one Redis.
    #[arg(long, env = "MARQUE_REDIS_PREFIX", default_value = "marque:")]
    pub redis_prefix: String,
    /// A version smaller a step than its changes since the latest release
    /// (`<slug>@<version>` tag) need: `warn`, `error` (keep serving the last
    /// good version) or `off`.
    #[arg(long, env = "MARQUE_SEMVER", value_enum, default_value_t = crate::build::SemverMode::Warn)]
    pub semver: crate::build::SemverMode,
    /// Removing a token that the latest release did not deprecate is an
    /// error (the brand keeps its last good version), whatever `--semver` says.
    #[arg(long, env = "MARQUE_REQUIRE_DEPRECATION")]
    pub require_deprecation: bool,
    /// Be ready while no brand is published (an empty site is intended).
    /// Without it, `/readyz` answers 503 until a brand is published, and
    /// `/status` says why none is.
    #[arg(long, env = "MARQUE_ALLOW_EMPTY")]
    pub allow_empty: bool,
    /// Do not watch the content folder (no hot reload, no /events).
    #[arg(long, env = "MARQUE_NO_WATCH")]
    pub no_watch: bool,
    /// Watch by polling instead of native file events (network drives, containers).
    #[arg(long, env = "MARQUE_WATCH_POLL", conflicts_with = "no_watch")]
    pub watch_poll: bool,
    /// Language-model API for the prompt demo (default: openai when MARQUE_LLM_API_KEY is set, else dry-run).
    #[arg(long, env = "MARQUE_LLM_PROVIDER", value_enum)]
    pub llm_provider: Option<crate::demo::llm::ProviderKind>,
    /// Base URL of the model's API (default: the provider's public API).
    #[arg(long, env = "MARQUE_LLM_BASE_URL")]
    pub llm_base_url: Option<String>,
    /// Model name (default: gpt-4o-mini for openai, claude-3-5-haiku-latest for anthropic).
    #[arg(long, env = "MARQUE_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// Deadline of one call to the model, retries included (e.g. 30s, 1500ms, 2m).
    #[arg(long, env = "MARQUE_LLM_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub llm_timeout: std::time::Duration,
    /// Cap on the output tokens of any prompt.
    #[arg(long, env = "MARQUE_LLM_MAX_TOKENS", default_value_t = 1024)]
    pub llm_max_tokens: u32,
    /// Calls to the model in flight at once.
    #[arg(long, env = "MARQUE_LLM_CONCURRENCY", default_value_t = 4)]
    pub llm_concurrency: usize,
    /// Demo calls allowed per client address per minute [default: 10, or
    /// 60 for a dry run, which calls no model].
    #[arg(long, env = "MARQUE_DEMO_PER_MINUTE")]
    pub demo_per_minute: Option<u32>,
    /// Demo calls a client may make in a burst [default: 5, or 20 for a dry run].
    #[arg(long, env = "MARQUE_DEMO_BURST")]
    pub demo_burst: Option<u32>,
    /// The access tokens file: lines `name:sha256-hex[:slug,slug…]`
    /// (`marque token` prints one). Private brands and embargoed versions
    /// answer their holders only; read again on SIGHUP or when it changes.
    #[arg(long, env = "MARQUE_ACCESS_TOKENS")]
    pub access_tokens: Option<PathBuf>,
    /// Who may read branch previews: `public` (anyone with the link) or
    /// `token` (holders of an access token only).
    #[arg(long, env = "MARQUE_PREVIEW_ACCESS", value_enum, default_value_t = PreviewAccess::Public)]
    pub preview_access: PreviewAccess,
    /// Proxies (CIDRs, comma-separated) whose X-Forwarded-For/Forwarded headers are believed.
    #[arg(long, env = "MARQUE_TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxy: Vec<crate::http::client::Cidr>,
    /// Serve from a git repository (https, ssh or file URL) instead of a folder.
    #[arg(long, env = "MARQUE_GIT_URL")]
    pub git_url: Option<String>,
    /// Branch to serve in git mode.
    #[arg(long, env = "MARQUE_GIT_BRANCH", default_value = "main")]
    pub git_branch: String,
    /// Folder of the brands inside the repository (default: its root).
    #[arg(long, env = "MARQUE_GIT_PATH", default_value = "")]
    pub git_path: String,
    /// How often to fetch in git mode (e.g. 30s, 5m), with ±10 % jitter.
    #[arg(long, env = "MARQUE_GIT_POLL", default_value = "30s", value_parser = parse_duration)]
    pub git_poll: std::time::Duration,
    /// Where marque keeps its render cache (warm starts) and git mode its bare mirror.
    #[arg(long, env = "MARQUE_CACHE_DIR", default_value = ".marque-cache")]
    pub cache_dir: PathBuf,
    /// Git mode: also serve each branch matching this glob (`*`, `preview/*`;
    /// `*` matches `/` too) under /preview/<name>/, never cached or indexed.
    #[arg(
        long,
        env = "MARQUE_PREVIEW_BRANCHES",
        value_name = "GLOB",
        requires = "git_url"
    )]
    pub preview_branches: Option<String>,
    /// Most branch previews kept; the oldest commits go first.
    #[arg(long, env = "MARQUE_PREVIEW_LIMIT", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..))]
    pub preview_limit: u16,
    /// Secret of POST /hooks/git (GitHub, Gitea/Forgejo HMAC or GitLab token); off when unset.
    #[arg(long, env = "MARQUE_WEBHOOK_SECRET", hide_env_values = true)]
    pub webhook_secret: Option<String>,
    /// Bearer token that /status and /metrics require (an operator's); they are public when unset.
    #[arg(long, env = "MARQUE_OPS_TOKEN", hide_env_values = true)]
    pub ops_token: Option<String>,
    /// Time a webhook body has before its pace is judged (e.g. 2s, 500ms).
    #[arg(long, env = "MARQUE_WEBHOOK_BODY_GRACE", default_value = "2s", value_parser = parse_duration)]
    pub webhook_body_grace: std::time::Duration,
    /// Slowest pace of a webhook body, in KiB/s averaged since its read
    /// began; after the grace time a slower body gets 408 and its read
    /// slot goes to the next delivery.
    #[arg(long, env = "MARQUE_WEBHOOK_BODY_RATE", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..))]
    pub webhook_body_rate: u32,
    /// A CDN purge URL called after each publish with the changed paths
    /// (repeat it, or separate with commas): with `{path}` or `{url}` in
    /// it, one POST per path; without, POSTs of `{"paths": [...], "files":
    /// [...]}`. A header for it (`Name: value`) comes from MARQUE_PURGE_HEADER.
    #[arg(
        long = "purge-url",
        env = "MARQUE_PURGE_URL",
        value_delimiter = ',',
        value_name = "TEMPLATE"
    )]
    pub purge_urls: Vec<String>,
    /// A URL that gets a signed POST on each release, embargo lift, brand
    /// published or removed (repeat it, or separate with commas);
    /// `private:URL` hears of private brands and embargoed versions too.
    /// Signed with MARQUE_NOTIFY_SECRET.
    #[arg(
        long = "notify-url",
        env = "MARQUE_NOTIFY_URL",
        value_delimiter = ',',
        value_name = "URL"
    )]
    pub notify_urls: Vec<String>,
    /// Deadline of one purge or notify request (e.g. 10s, 1500ms).
    #[arg(long, env = "MARQUE_DELIVERY_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub delivery_timeout: std::time::Duration,
    /// Tries of one purge or notify delivery, the first included, with
    /// exponential backoff from 1 s (a `Retry-After` answer wins).
    #[arg(long, env = "MARQUE_DELIVERY_ATTEMPTS", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub delivery_attempts: u32,
    /// Post a commit status on each preview's head commit (with
    /// --preview-branches): `github`, `gitlab` or `gitea` (Forgejo too).
    /// The token comes from MARQUE_STATUS_TOKEN.
    #[arg(long, env = "MARQUE_STATUS_API", value_enum, requires = "status_repo")]
    pub status_api: Option<crate::outbound::commit_status::Forge>,
    /// The forge's API base URL [default: `https://api.github.com`, or
    /// `https://gitlab.com/api/v4`; Gitea's must be given, as
    /// `https://codeberg.org/api/v1`].
    #[arg(long, env = "MARQUE_STATUS_API_URL")]
    pub status_api_url: Option<String>,
    /// The repository statuses are posted to: `owner/name` (GitHub, Gitea),
    /// or the project's id or path (GitLab).
    #[arg(long, env = "MARQUE_STATUS_REPO")]
    pub status_repo: Option<String>,
    /// With --status-api, also keep one comment on each preview branch's
    /// open pull request (GitLab: merge request) with its change table,
    /// edited in place on each push.
    #[arg(long, env = "MARQUE_STATUS_COMMENT", requires = "status_api")]
    pub status_comment: bool,
    /// A GitHub repository (`owner/name`) sent a `repository_dispatch`
    /// (event type `marque-release`, the event as `client_payload`) on
    /// each public release, embargo lift, brand published or removed
    /// (repeat it, or separate with commas). The token comes from
    /// MARQUE_DISPATCH_TOKEN.
    #[arg(
        long = "dispatch-repo",
        env = "MARQUE_DISPATCH_REPO",
        value_delimiter = ','
    )]
    pub dispatch_repos: Vec<String>,
    /// The GitHub API that dispatches go to (a GitHub Enterprise Server's
    /// `https://host/api/v3`).
    #[arg(
        long,
        env = "MARQUE_DISPATCH_API_URL",
        default_value = "https://api.github.com"
    )]
    pub dispatch_api_url: String,
}

/// Parses `30s`, `1500ms`, `2m` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("\"{s}\" is not a duration such as 30s or 1500ms"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("\"{s}\" has an unknown unit; use ms, s, m or h")),
    };
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(format!("\"{s}\" must be longer than zero"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs::parse_from_defaults()
    }
}

impl ServeArgs {
    /// The defaults of every flag, ignoring the environment: what a test or
    /// an embedding program starts from, whatever `MARQUE_*` variables the
    /// developer's shell holds.
    fn parse_from_defaults() -> ServeArgs {
        use clap::{CommandFactory, FromArgMatches};
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            args: ServeArgs,
        }
        let matches = Wrap::command()
            .mut_args(|a| a.env(clap::builder::Resettable::Reset))
            .get_matches_from(["marque"]);
        match Wrap::from_arg_matches(&matches) {
            Ok(w) => w.args,
            Err(e) => e.exit(),
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Content folder to check.
    #[arg(default_value = "content", env = "MARQUE_CONTENT")]
    pub dir: PathBuf,
    /// Output format.
    #[arg(long, env = "MARQUE_CHECK_FORMAT", value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// A version smaller a step than its changes since the latest release
    /// (`<slug>@<version>` tag) need: `error` (exit 1), `warn` or `off`.
    #[arg(long, env = "MARQUE_SEMVER", value_enum, default_value_t = crate::build::SemverMode::Error)]
    pub semver: crate::build::SemverMode,
    /// Removing a token that the latest release did not deprecate is an
    /// error, whatever `--semver` says.
    #[arg(long, env = "MARQUE_REQUIRE_DEPRECATION")]
    pub require_deprecation: bool,
    /// The public URL of a marque that serves these brands: SARIF's
    /// `helpUri` points at its `/codes` page (`<url>/codes#mq1501`). Without
    /// it the rules carry their fix as text, and no link.
    #[arg(long, env = "MARQUE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Say how each brand's tokens are read instead: its reading plan (a
    /// resolver document over the brand's own files, as `marque import
    /// --plan` writes it), what each modifier was read from, each
    /// context's token count, and the sets not read.
    #[arg(long)]
    pub explain: bool,
    /// With --explain: the team's own built CSS, compared per context with
    /// what each brand publishes, as `marque import --against` compares it.
    #[arg(long, requires = "explain")]
    pub against: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct LintArgs {
    /// Files and folders to lint (folders walked as ripgrep walks them:
    /// .gitignore, .ignore and hidden files respected).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// The brand: a brand folder (holding brand.json), a slug in
    /// `--content`, or a brand's URL on a marque server (`…/brand/acme`).
    #[arg(long, env = "MARQUE_LINT_BRAND")]
    pub brand: String,
    /// The content folder a slug is looked up in.
    #[arg(long, default_value = "content", env = "MARQUE_CONTENT")]
    pub content: PathBuf,
    /// Output format.
    #[arg(long, env = "MARQUE_LINT_FORMAT", value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// How far (OKLab ΔE × 100) a colour may be from a token's and still
    /// be reported as near it (MQ2502); 0 reports exact matches only.
    #[arg(long, env = "MARQUE_LINT_DELTA_E", default_value_t = 2.0)]
    pub delta_e: f64,
    /// Also report tokens that no file linted uses (MQ2505).
    #[arg(long, env = "MARQUE_LINT_UNUSED")]
    pub unused: bool,
    /// Rewrite exact matches in CSS, SCSS, Less and their `@apply` classes
    /// to the token's name, where one token has the value in every context.
    #[arg(long, env = "MARQUE_LINT_FIX")]
    pub fix: bool,
    /// A baseline file: findings it lists are accepted; a new one fails.
    #[arg(long, env = "MARQUE_LINT_BASELINE")]
    pub baseline: Option<PathBuf>,
    /// Write the baseline: created from what is found when missing, else
    /// shrunk to what is still found (never grown).
    #[arg(long, env = "MARQUE_LINT_UPDATE_BASELINE", requires = "baseline")]
    pub update_baseline: bool,
    /// The public URL of a marque that serves the brand: SARIF's
    /// `helpUri` points at its `/codes` page.
    #[arg(long, env = "MARQUE_PUBLIC_URL")]
    pub public_url: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// Content folder to build.
    #[arg(default_value = "content", env = "MARQUE_CONTENT")]
    pub dir: PathBuf,
    /// Folder to write the site into (created if missing).
    #[arg(long, env = "MARQUE_OUT")]
    pub out: PathBuf,
    /// A version smaller a step than its changes since the latest release
    /// (`<slug>@<version>` tag) need: `warn`, `error` (leave the brand out) or `off`.
    #[arg(long, env = "MARQUE_SEMVER", value_enum, default_value_t = crate::build::SemverMode::Warn)]
    pub semver: crate::build::SemverMode,
    /// Absolute base URL the files will be served from.
    #[arg(
        long,
        env = "MARQUE_PUBLIC_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,
    /// The npm scope of each release's package.tgz (see `serve`).
    #[arg(long, env = "MARQUE_NPM_SCOPE")]
    pub npm_scope: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn diff_takes_an_optional_folder_before_the_brand() {
        let parse = |line: &[&str]| match Cli::parse_from(line).command {
            Some(Command::Diff(d)) => {
                let (dir, brand, from, to) = d.parts();
                (dir, brand.to_string(), from.to_string(), to.to_string())
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(
            parse(&["marque", "diff", "acme", "1.0.0", "current"]),
            (
                "content".into(),
                "acme".into(),
                "1.0.0".into(),
                "current".into()
            )
        );
        assert_eq!(
            parse(&["marque", "diff", "brands", "acme", "1.0.0", "2.0.0"]).0,
            PathBuf::from("brands")
        );
    }
}
