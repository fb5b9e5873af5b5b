//! Command-line flags; every flag also reads an environment variable and can come from the
//! `--config` file's `[metrics-api.SUBCOMMAND]` table (docs/config.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The metrics API (`/v1/avg_tps`, `/v2/chains/.../metrics/...`) over the index `data-api`
/// writes.
#[derive(Debug, Parser)]
#[command(name = "metrics-api", version, about)]
pub struct Cli {
    /// `--config FILE`: flags' values from a TOML file.
    #[command(flatten)]
    pub config: snowline_cli::ConfigArg,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the metrics API.
    Serve(ServeArgs),
}

/// `serve` flags.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The data directory of the `data-api` that indexes the EVM chains (and derives their
    /// metrics); its `index` is opened as a RocksDB secondary and followed.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_DATA_DIR",
        default_value = "snowline-data/data-api"
    )]
    pub index_dir: PathBuf,
    /// This service's own directory: the page tokens (`tokens/`) and the secondary's logs.
    #[arg(
        long,
        env = "SNOWLINE_METRICS_API_DATA_DIR",
        default_value = "snowline-data/metrics-api"
    )]
    pub data_dir: PathBuf,
    /// Address to listen on.
    #[arg(
        long,
        env = "SNOWLINE_METRICS_API_LISTEN",
        default_value = "127.0.0.1:8081"
    )]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub head: snowline_cli::HeadLimit,
    /// The network the index holds, for the staking metrics' `{network}`.
    #[command(flatten)]
    pub network: snowline_cli::NetworkArg,
    /// A chain registry file, as `data-api --chains` takes (the chains served are the
    /// registry's that have metrics).
    #[arg(long, env = "SNOWLINE_DATA_API_CHAINS")]
    pub chains: Option<PathBuf>,
    /// The EVM sources file `data-api --evm-config` takes, for the chains it describes that the
    /// registry lacks.
    #[arg(long, env = "SNOWLINE_EVM_CONFIG")]
    pub evm_config: Option<PathBuf>,
    #[command(flatten)]
    pub looking_glass: snowline_cli::LookingGlassArgs,
    /// How often to catch up with the index's writer, in milliseconds.
    #[arg(
        long,
        env = "SNOWLINE_METRICS_API_CATCH_UP_MS",
        default_value_t = 1_000
    )]
    pub catch_up_ms: u64,
    /// Switch rate limiting off (default: the anonymous tier's limits per client IP).
    #[arg(long, env = "SNOWLINE_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,
}
