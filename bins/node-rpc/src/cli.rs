//! Command-line flags; every flag also reads an environment variable and can come from the
//! `--config` file's `[node-rpc.SUBCOMMAND]` table (docs/config.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use snowline_cli::{
    DevnetSeed, GenesisSource, ImportBatch, NetworkArg, UpstreamBatch, UpstreamCalls,
};
use snowline_node_rpc::Compat;

/// The node JSON-RPC (X-Chain `avm.*` and `index.*`) served from Snowline's own index.
#[derive(Debug, Parser)]
#[command(name = "node-rpc", version, about)]
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
    /// Serve the JSON-RPC from the data directory (filled from the devnet first, by default).
    Serve(ServeArgs),
    /// Import a JSON-lines file of containers (see docs/node-index.md), then exit.
    Import(ImportArgs),
    /// Mirror an upstream node's index API into the data directory, serving it at the same time.
    Follow(FollowArgs),
    /// Print each table of the data directory (a stopped server's) with its entry count and a
    /// SHA-256 of its keys and values, every block's checksum verified; `--table NAME` prints
    /// that table's entries instead (hex `key value` lines).
    Digest(DigestArgs),
}

/// `digest` flags.
#[derive(Debug, Args)]
pub struct DigestArgs {
    #[command(flatten)]
    pub common: Common,
    /// Print this table's entries, `key value` in hex, instead of every table's digest.
    #[arg(long)]
    pub table: Option<String>,
}

/// Flags every subcommand shares.
#[derive(Debug, Args)]
pub struct Common {
    /// The data directory (one RocksDB).
    #[arg(
        long,
        env = "SNOWLINE_NODE_RPC_DATA_DIR",
        default_value = "snowline-data/node-rpc"
    )]
    pub data_dir: PathBuf,
    #[command(flatten)]
    pub network: NetworkArg,
}

/// Flags of the HTTP server.
#[derive(Debug, Args)]
pub struct Listen {
    /// Address to listen on.
    #[arg(
        long,
        env = "SNOWLINE_NODE_RPC_LISTEN",
        default_value = "127.0.0.1:9650"
    )]
    pub listen: SocketAddr,
    /// Where the spec and avalanchego differ, whose behaviour to follow.
    #[arg(long, env = "SNOWLINE_COMPAT", default_value = "spec", value_parser = parse_compat)]
    pub compat: Compat,
    #[command(flatten)]
    pub head: snowline_cli::HeadLimit,
}

/// API keys and metering (docs/jsonrpc.md, "API keys and metering").
#[derive(Debug, Args)]
pub struct AccessArgs {
    /// The Data API's key store (`data-api`'s `DATA_DIR/keys`), read as a RocksDB secondary
    /// and followed every second: a call presenting a key is then checked (401 unknown, 403
    /// disabled) and metered under the key's organisation.
    #[arg(long, env = "SNOWLINE_NODE_RPC_KEYS_FROM")]
    pub keys_from: Option<PathBuf>,
    /// Refuse calls without a valid key (HTTP 401 with a JSON-RPC error object); needs
    /// `--keys-from`.
    #[arg(
        long,
        env = "SNOWLINE_NODE_RPC_REQUIRE_API_KEY",
        requires = "keys_from"
    )]
    pub require_api_key: bool,
    /// Do not meter calls (`DATA_DIR/rpc-usage` is then not written).
    #[arg(long, env = "SNOWLINE_NODE_RPC_NO_METERING")]
    pub no_metering: bool,
    /// Days of metered calls to keep (pruned hourly).
    #[arg(
        long,
        env = "SNOWLINE_NODE_RPC_USAGE_RETENTION_DAYS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub usage_retention_days: u64,
}

/// Where `serve` gets its data from when the data directory is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Source {
    /// Generate the deterministic devnet (docs/devnet.md) into an empty data directory.
    Devnet,
    /// Serve only what the data directory already holds.
    None,
}

/// `serve` flags.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub listen: Listen,
    #[command(flatten)]
    pub access: AccessArgs,
    /// Data to load into an empty data directory before serving.
    #[arg(long, env = "SNOWLINE_SOURCE", value_enum, default_value = "devnet")]
    pub source: Source,
    #[command(flatten)]
    pub devnet: DevnetSeed,
    /// After the devnet's history, keep accepting new X and P blocks at this many containers
    /// per second (docs/devnet.md, "Live"); 0 for none. Needs `--source devnet`.
    #[arg(long, env = "SNOWLINE_LIVE_RATE", default_value_t = 0.0, value_parser = parse_rate)]
    pub live_rate: f64,
}

/// `import` flags.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub common: Common,
    /// The JSON-lines file of containers.
    pub file: PathBuf,
    #[command(flatten)]
    pub batch: ImportBatch,
}

/// `follow` flags.
#[derive(Debug, Args)]
pub struct FollowArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub listen: Listen,
    #[command(flatten)]
    pub access: AccessArgs,
    /// The upstream node, e.g. `http://127.0.0.1:9650`.
    #[arg(long, env = "SNOWLINE_UPSTREAM")]
    pub upstream: String,
    /// The X-Chain genesis to start from: the devnet's (its local AVAX genesis is the real local
    /// network's), or none (UTXOs of genesis are then unknown; see docs/xchain-state.md).
    #[arg(long, env = "SNOWLINE_GENESIS", value_enum, default_value = "none")]
    pub genesis: GenesisSource,
    #[command(flatten)]
    pub devnet: DevnetSeed,
    #[command(flatten)]
    pub batch: UpstreamBatch,
    #[command(flatten)]
    pub calls: UpstreamCalls,
    /// Pause between polls of the upstream once caught up, in milliseconds.
    #[arg(long, env = "SNOWLINE_POLL_MS", default_value_t = 1000)]
    pub poll_ms: u64,
}

/// A rate in containers per second: finite, 0 or more.
fn parse_rate(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
        _ => Err(format!(
            "{s:?} is not a rate in containers per second (0 or more)"
        )),
    }
}

fn parse_compat(s: &str) -> Result<Compat, String> {
    s.parse().map_err(|e| format!("{e}"))
}
