//! The `data-api` binary: flags, wiring, start and stop. The service is built from
//! `snowline-rest-api` (the HTTP edge), `snowline-data-api` (the endpoints), `snowline-chain-x`
//! (the X-Chain history) and `snowline-access` (keys and usage); see docs/data-api.md.

mod adapters;
mod cli;
mod evm;
mod fleet;
mod ingest;
mod keys;
mod metrics;
mod nft_metadata;
mod secret;
mod serve;
mod shared;
mod uptime;
mod warp;
mod webhooks;

use std::process::ExitCode;

use cli::{Cli, Command};

/// mimalloc: ingestion decodes containers on the blocking pool and frees them on the writer
/// thread, which glibc's per-thread arenas handle slowly (docs/benchmarks.md). Without the
/// `mimalloc` feature, the system allocator, which heap profilers see.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn import(args: &cli::ImportArgs) -> Result<(), String> {
    let network = args.network.resolve()?;
    let store = ingest::open(&args.common.data_dir.join("index"))?;
    if args.genesis == snowline_cli::GenesisSource::Devnet {
        ingest::apply_devnet_genesis(&store, network, args.devnet)?;
    }
    ingest::import(&store, network, &args.file, args.batch)
}

fn main() -> ExitCode {
    snowline_cli::bound_glibc_malloc();
    snowline_cli::init_logging("warn");
    let cli = snowline_cli::parse_with_config::<Cli>();
    let result = match cli.command {
        Command::Serve(args) => serve::run(*args),
        Command::Keys(args) => keys::run(&args),
        Command::Import(args) => import(&args),
        Command::Digest(args) => ingest::digest(&args.common.data_dir, args.table.as_deref()),
        Command::Checkpoint(args) => fleet::checkpoint(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("data-api: {msg}");
            ExitCode::FAILURE
        }
    }
}
