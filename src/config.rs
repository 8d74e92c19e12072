//! The command line. Every flag has a `MARQUE_…` environment variable; the
//! doc comment of each field is its `--help` line.

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
    Serve(ServeArgs),
    /// Validate a content folder and print every problem; exit 1 on errors.
    Check(CheckArgs),
    /// Write every surface as static files, with .gz and .br siblings.
    Build(BuildArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Compiler-style lines: `error: … --> acme/brand.json:3:14`.
    Human,
    /// One JSON object per diagnostic, one per line.
    Json,
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
    /// Most connections served at once; further clients wait to be accepted.
    #[arg(long, env = "MARQUE_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Seconds a client may take to send a request head (idle keep-alive included).
    #[arg(long, env = "MARQUE_HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout: u64,
    /// Do not watch the content folder (no hot reload, no /events).
    #[arg(long, env = "MARQUE_NO_WATCH")]
    pub no_watch: bool,
    /// Watch by polling instead of native file events (network drives, containers).
    #[arg(long, env = "MARQUE_WATCH_POLL", conflicts_with = "no_watch")]
    pub watch_poll: bool,
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs::parse_from_defaults()
    }
}

impl ServeArgs {
    fn parse_from_defaults() -> ServeArgs {
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            args: ServeArgs,
        }
        Wrap::parse_from(["marque"]).args
    }

    /// The public base URL, without a trailing slash.
    pub fn public_url(&self, bound: SocketAddr) -> String {
        match &self.public_url {
            Some(u) => u.trim_end_matches('/').to_string(),
            None => format!("http://{bound}"),
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Content folder to check.
    #[arg(default_value = "content", env = "MARQUE_CONTENT")]
    pub dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// Content folder to build.
    #[arg(default_value = "content", env = "MARQUE_CONTENT")]
    pub dir: PathBuf,
    /// Folder to write the site into (created if missing).
    #[arg(long, env = "MARQUE_OUT")]
    pub out: PathBuf,
    /// Absolute base URL the files will be served from.
    #[arg(
        long,
        env = "MARQUE_PUBLIC_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,
}
