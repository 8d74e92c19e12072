//! The `marque` binary: parse the command line, start logging, run a command.

use clap::Parser;
use marque::config::{Cli, Command, LogFormat, ServeConfig};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// mimalloc, not glibc's malloc: glibc raises its mmap threshold to the
/// largest block it has freed (the documents that list every brand are
/// megabytes), after which compressors' buffers and bodies are carved from
/// per-thread heaps that it rarely gives back. Serving 1,000 brands, RSS
/// grew to 1.9 GiB for a 137 MiB snapshot; with mimalloc it stays near
/// the snapshot (docs/reference/performance.md, "Scale").
///
/// Built without asking for transparent huge pages (the crate's `no_thp`):
/// a first touch of memory then zeroes a 4 KiB page, not 2 MiB of which a
/// few kilobytes are used. A cold start of 10,000 brands peaked at 3.2 GiB
/// RSS with them and 1.5 GiB without, and spent half as long in the kernel.
/// (A kernel set to `always`, not the usual `madvise`, still uses them;
/// `MIMALLOC_ALLOW_THP=0` then turns them off for the process.)
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
            marque::cmd::check::run(&args, colour, &mut out())
        }
        Command::Lint(args) => marque::cmd::lint::run(&args, &mut out()),
        Command::Build(args) => marque::cmd::build::run(&args, &mut out()),
        Command::Diff(args) => marque::cmd::diff::run(&args, &mut out()),
        Command::Import(args) => marque::cmd::import::run(&args, &mut out()),
        Command::Token(args) => marque::cmd::token::run(
            &args,
            std::io::stdout().is_terminal(),
            &mut out(),
            &mut PipeEnd::new(std::io::stderr().lock()),
        ),
        Command::Changelog(args) => marque::cmd::changelog::run(
            &args,
            &mut out(),
            &mut PipeEnd::new(std::io::stderr().lock()),
        ),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            // The command's last word, on the terminal (or nowhere, if
            // that is a pipe already closed).
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Standard output, ended quietly by a reader that stops reading.
fn out() -> PipeEnd<std::io::StdoutLock<'static>> {
    PipeEnd::new(std::io::stdout().lock())
}

/// A writer that a closed pipe ends quietly: `marque check | head` stops
/// printing once `head` has its lines, and the command still finishes and
/// exits with its own code (1 when there were errors), instead of dying
/// with "Broken pipe" (exit 2), or a panic when its message has nowhere to go.
struct PipeEnd<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> PipeEnd<W> {
    fn new(inner: W) -> Self {
        PipeEnd {
            inner,
            closed: false,
        }
    }

    fn closed<T>(&mut self, r: std::io::Result<T>, or: T) -> std::io::Result<T> {
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(or)
            }
            r => r,
        }
    }
}

impl<W: Write> Write for PipeEnd<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let r = self.inner.write(buf);
        self.closed(r, buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let r = self.inner.flush();
        self.closed(r, ())
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
        LogFormat::Json => builder
            .event_format(marque::report::json_log::JsonLines)
            .init(),
    }
}
