//! The `data-api` binary: flags, wiring, start and stop. The service is built from
//! `snowline-rest-api` (the HTTP edge), `snowline-data-service` (the endpoints) and
//! `snowline-access` (keys and usage); see docs/data-api.md.

mod adapters;
mod cli;
mod ingest;
mod keys;
mod secret;
mod serve;

use std::process::ExitCode;

use clap::Parser;
use cli::{Cli, Command};

/// mimalloc: ingestion decodes containers on the blocking pool and frees them on the writer
/// thread, which glibc's per-thread arenas handle slowly (docs/benchmarks.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn import(args: &cli::ImportArgs) -> Result<(), String> {
    let network = serve::network(&args.network)?;
    let store = ingest::open(&args.common.data_dir.join("index"))?;
    if args.genesis == cli::GenesisArg::Devnet {
        ingest::apply_devnet_genesis(&store, network, args.devnet_seed)?;
    }
    ingest::import(&store, network, &args.file, args.batch)
}

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
        Command::Import(args) => import(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("data-api: {msg}");
            ExitCode::FAILURE
        }
    }
}
