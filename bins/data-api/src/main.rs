//! The `data-api` binary: flags, wiring, start and stop. The service is built from
//! `snowline-rest-api` (the HTTP edge), `snowline-data-service` (the endpoints) and
//! `snowline-access` (keys and usage); see docs/data-api.md.

mod adapters;
mod cli;
mod keys;
mod secret;
mod serve;

use std::process::ExitCode;

use clap::Parser;
use cli::{Cli, Command};

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Keys(args) => keys::run(&args.common.data_dir, args.action),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("data-api: {msg}");
            ExitCode::FAILURE
        }
    }
}
