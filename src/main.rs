//! The `marque` binary: parse the command line, start logging, run a command.

use clap::Parser;
use marque::config::{Cli, Command, LogFormat, ServeConfig};
use std::io::IsTerminal;
use std::process::ExitCode;

/// mimalloc, not glibc's malloc: glibc raises its mmap threshold to the
/// largest block it has freed (the documents that list every brand are
/// megabytes), after which compressors' buffers and bodies are carved from
/// per-thread heaps that it rarely gives back. Serving 1,000 brands, RSS
/// grew to 1.9 GiB for a 137 MiB snapshot; with mimalloc it stays near
/// the snapshot (README, "Scale").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.log_format);
    let result = match cli.command.unwrap_or(Command::Serve(Box::new(cli.serve))) {
        Command::Serve(args) => {
            ServeConfig::from_args(*args, cli.log_format == LogFormat::Json).and_then(serve)
        }
        Command::Check(args) => {
            let colour = marque::report::use_colour(std::io::stdout().is_terminal());
            marque::cmd::check::run(&args, colour, &mut std::io::stdout().lock())
        }
        Command::Build(args) => marque::cmd::build::run(&args, &mut std::io::stdout().lock()),
        Command::Diff(args) => marque::cmd::diff::run(&args, &mut std::io::stdout().lock()),
        Command::Import(args) => marque::cmd::import::run(&args, &mut std::io::stdout().lock()),
        Command::Changelog(args) => marque::cmd::changelog::run(
            &args,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        ),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            // The command's last word, on the terminal: this is the CLI's writer.
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {e:#}");
            }
            ExitCode::from(2)
        }
    }
}

fn serve(config: ServeConfig) -> anyhow::Result<i32> {
    let rt = tokio::runtime::Runtime::new()?;
    let result = rt.block_on(marque::cmd::serve::run(
        config,
        marque::http::server::shutdown_signal(),
        |_| {},
    ));
    // Exit now, whatever a build or a fetch is still doing: their work is
    // in memory or in the git cache, and both are safe to abandon.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    result?;
    Ok(0)
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("marque=info,rmcp=error,warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(marque::report::stderr_colour())
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Human => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}
