//! The `metrics-api` binary: flags, wiring, start and stop. The endpoints are
//! `snowline-metrics-api`'s, over `snowline-chain-metrics`' reads of the index `data-api`
//! writes (its EVM followers derive the metrics), opened here as a RocksDB secondary; see
//! docs/metrics-api.md.

mod cli;
mod serve;
mod wait;

use std::process::ExitCode;

use cli::{Cli, Command};

fn main() -> ExitCode {
    snowline_cli::bound_glibc_malloc();
    snowline_cli::init_logging("warn");
    let cli = snowline_cli::parse_with_config::<Cli>();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("metrics-api: {msg}");
            ExitCode::FAILURE
        }
    }
}
