//! The `marque` binary: parse the command line, start logging, run a command.

use clap::Parser;
use marque::config::{Cli, Command, LogFormat, ServeArgs};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.log_format);
    let result = match cli.command.unwrap_or(Command::Serve(Box::new(cli.serve))) {
        Command::Serve(mut args) => {
            // The key is read from the environment only, never from a flag.
            args.llm_api_key = std::env::var("MARQUE_LLM_API_KEY").ok();
            serve(*args)
        }
        Command::Check(args) => marque::cli::check(&args, &mut std::io::stdout().lock()),
        Command::Build(args) => marque::cli::build(&args, &mut std::io::stdout().lock()),
        Command::Changelog(args) => marque::cli::changelog(&args, &mut std::io::stdout().lock()),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<i32> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(marque::app::serve(
        args,
        marque::http::server::shutdown_signal(),
        |_| {},
    ))?;
    Ok(0)
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("marque=info,warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Human => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}
