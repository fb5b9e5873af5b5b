//! Command-line flags; every flag also reads an environment variable and can come from the
//! `--config` file's `[data-api.SUBCOMMAND]` table (docs/config.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use snowline_cli::{
    DevnetSeed, GenesisSource, ImportBatch, NetworkArg, UpstreamBatch, UpstreamCalls,
};

/// The REST Data API (`/v1/...`) served from Snowline's own index.
#[derive(Debug, Parser)]
#[command(name = "data-api", version, about)]
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
    /// Serve the Data API (and follow an upstream node when `--upstream` is given).
    Serve(Box<ServeArgs>),
    /// Manage API keys (works while the server runs; it sees changes within a second).
    Keys(KeysArgs),
    /// Import a JSON-lines file of containers (docs/node-index.md) into the index, then exit.
    Import(ImportArgs),
    /// Prints, for every table of the index (opened read-only: run it on a stopped server's
    /// data dir), its entry count and a SHA-256 of its keys and values in key order, reading
    /// every block with its checksum verified: two indexes with the same lines hold the same
    /// bytes. `--table NAME` prints that table's entries instead (hex `key value` lines).
    Digest(DigestArgs),
    /// Writes a checkpoint of the index (a consistent copy, hard-linked where it can be, that
    /// carries the node's place in its fleet) for a new replica's `--bootstrap-from`, to a path
    /// or (`--to nats://...`) to the fleet's object store; run it on a stopped server's data
    /// dir (a running one takes its own with `serve --checkpoint-every`; docs/fleet.md).
    Checkpoint(CheckpointArgs),
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

/// `checkpoint` flags.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    #[command(flatten)]
    pub common: Common,
    /// Where to write it; must not exist.
    #[arg(required_unless_present = "to", conflicts_with = "to")]
    pub path: Option<PathBuf>,
    /// Publish it to the checkpoint bucket (`STREAM_checkpoints`) of the fleet on these NATS
    /// servers (comma-separated) instead of writing it to a path.
    #[arg(long, env = "SNOWLINE_FLEET_CHECKPOINT_TO")]
    pub to: Option<String>,
    /// The fleet's stream (its checkpoints are in the bucket `STREAM_checkpoints`).
    #[arg(long, env = "SNOWLINE_FLEET_STREAM", default_value = "snowline")]
    pub stream: String,
    /// Copies of the checkpoint bucket the NATS cluster keeps, when this command creates it.
    #[arg(long, env = "SNOWLINE_FLEET_STREAM_REPLICAS", default_value_t = 1)]
    pub stream_replicas: usize,
    /// Checkpoints the bucket keeps: older ones are deleted once this one is published.
    #[arg(long, env = "SNOWLINE_FLEET_CHECKPOINT_KEEP", default_value_t = 2)]
    pub keep: usize,
}

/// `import` flags.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub network: NetworkArg,
    /// The X-Chain genesis to apply first.
    #[arg(long, env = "SNOWLINE_GENESIS", value_enum, default_value = "none")]
    pub genesis: GenesisSource,
    #[command(flatten)]
    pub devnet: DevnetSeed,
    #[command(flatten)]
    pub batch: ImportBatch,
    /// The JSON-lines file of containers.
    pub file: PathBuf,
}

/// Flags every subcommand shares.
#[derive(Debug, Args)]
pub struct Common {
    /// The data directory: the index, usage records, the page-token secret, and `keys/`.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_DATA_DIR",
        default_value = "snowline-data/data-api"
    )]
    pub data_dir: PathBuf,
}

/// Which real service to mimic where the spec and it differ (docs/rest-api.md, "Profiles").
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompatArg {
    /// The spec's behaviour.
    Spec,
    /// The hosted Glacier Data API's behaviour.
    Glacier,
}

/// `serve` flags.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub common: Common,
    /// Address to listen on.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_LISTEN",
        default_value = "127.0.0.1:8080"
    )]
    pub listen: SocketAddr,
    /// Also serve the metrics service (metrics-api's routes) from this process, on this address,
    /// over this index (docs/metrics-api.md); off unless given.
    #[arg(long, env = "SNOWLINE_DATA_API_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
    /// The metrics service's Looking Glass (with `--metrics-listen`).
    #[command(flatten)]
    pub looking_glass: snowline_cli::LookingGlassArgs,
    #[command(flatten)]
    pub network: NetworkArg,
    /// An upstream node (AvalancheGo or `node-rpc`) whose X-Chain index API to follow, e.g.
    /// `http://127.0.0.1:9650`; without it the server serves what the data directory holds.
    #[arg(long, env = "SNOWLINE_UPSTREAM")]
    pub upstream: Option<String>,
    /// The X-Chain genesis to apply before following (once).
    #[arg(long, env = "SNOWLINE_GENESIS", value_enum, default_value = "none")]
    pub genesis: GenesisSource,
    #[command(flatten)]
    pub devnet: DevnetSeed,
    #[command(flatten)]
    pub follow_batch: UpstreamBatch,
    #[command(flatten)]
    pub upstream_calls: UpstreamCalls,
    /// Pause between polls of the upstream once caught up, in milliseconds. A new upstream
    /// block is visible here within about this plus the time to fetch and write it: 200 ms
    /// keeps it well within a second (docs/benchmarks.md, "Freshness").
    #[arg(long, env = "SNOWLINE_POLL_MS", default_value_t = 200)]
    pub poll_ms: u64,
    /// How often the upstream's `platform.getCurrentValidators` is asked for the validators'
    /// uptimes, in seconds; 0 never asks (the validators are then served without uptimes).
    #[arg(long, env = "SNOWLINE_UPTIME_POLL_S", default_value_t = 30)]
    pub uptime_poll_s: u64,
    /// Where the spec and the hosted service differ, whose behaviour to follow.
    #[arg(long, env = "SNOWLINE_COMPAT", value_enum, default_value = "spec")]
    pub compat: CompatArg,
    /// A chain registry file (JSON: network name to a list of ChainInfo records) adding EVM
    /// chains to the built-in C-Chains and overriding them by chainId (docs/data-api.md).
    #[arg(long, env = "SNOWLINE_DATA_API_CHAINS")]
    pub chains: Option<PathBuf>,
    /// An EVM chain to index, `CHAIN_ID=RPC_URL` (the chain must be in the chain registry),
    /// e.g. `43112=http://127.0.0.1:9650/ext/bc/C/rpc`; repeatable (docs/data-api.md, "EVM
    /// chains").
    #[arg(long = "evm", env = "SNOWLINE_EVM", value_delimiter = ',',
          value_parser = snowline_chain_evm::EvmSourceConfig::parse_flag)]
    pub evm: Vec<snowline_chain_evm::EvmSourceConfig>,
    /// A JSON file of EVM chains to index (`{"chains": [{"chainId", "rpcUrl", "startBlock",
    /// ...}]}`), which may also describe chains the registry does not list.
    #[arg(long, env = "SNOWLINE_EVM_CONFIG")]
    pub evm_config: Option<PathBuf>,
    /// Pause between looks at an EVM node's tip once caught up, in milliseconds.
    #[arg(long, env = "SNOWLINE_EVM_POLL_MS", default_value_t = 200)]
    pub evm_poll_ms: u64,
    /// Where the validators Warp signatures are asked from listen: JSON objects with `nodeId`
    /// and `addr`, one per line (as `warp-peers` prints them) or as an array. Without it no
    /// validator can be reached and aggregation answers 503 with how far it got.
    #[arg(long, env = "SNOWLINE_WARP_PEERS")]
    pub warp_peers: Option<PathBuf>,
    /// This service's P2P staking identity, kept as avalanchego keeps a node's: `staker.crt` and
    /// `staker.key` (the TLS certificate and its key, PEM) and `signer.key` (the BLS key); what
    /// is absent is generated on first start. Default: `DATA_DIR/staking`.
    #[arg(long, env = "SNOWLINE_DATA_API_STAKING_DIR")]
    pub staking_dir: Option<PathBuf>,
    /// Budget of one signature aggregation (collecting the quorum), in milliseconds.
    #[arg(long, env = "SNOWLINE_WARP_TIMEOUT_MS", default_value_t = 10_000)]
    pub warp_timeout_ms: u64,
    /// Secret authenticating page tokens, 64 hex digits. When absent, one is generated on first
    /// start and kept in `DATA_DIR/token-secret`, so tokens survive restarts.
    #[arg(long, env = "SNOWLINE_DATA_API_TOKEN_SECRET", hide_env_values = true)]
    pub token_secret: Option<String>,
    /// Do not enforce rate limits (requests are still metered unless --no-metering).
    #[arg(long, env = "SNOWLINE_DATA_API_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,
    /// Override a tier's limits, in compute units: `TIER=PER_MINUTE/PER_DAY`, or `TIER=none`
    /// for no limit; repeatable. Defaults: anonymous 1000/100000, free 10000/2000000,
    /// pro 100000/20000000, unlimited and admin none.
    #[arg(long = "rate-limit", env = "SNOWLINE_DATA_API_RATE_LIMITS", value_delimiter = ',',
          value_parser = parse_tier_limit)]
    pub rate_limits: Vec<(String, Option<(u32, u32)>)>,
    /// Do not record usage (GET /v1/apiUsageMetrics then reports nothing new).
    #[arg(long, env = "SNOWLINE_DATA_API_NO_METERING")]
    pub no_metering: bool,
    /// Private networks webhook deliveries may reach (`CIDR,...`); by default loopback,
    /// private and link-local addresses are refused.
    #[arg(long, env = "SNOWLINE_WEBHOOK_ALLOW_PRIVATE", value_parser = parse_allow, default_value = "")]
    pub webhook_allow_private: snowline_webhooks::AllowList,
    /// The delays between a webhook delivery's attempts (`ms`, `s`, `m`, `h`); when they run
    /// out the webhook is deactivated. Glacier's schedule by default.
    #[arg(long, env = "SNOWLINE_WEBHOOK_RETRIES", value_parser = parse_retries,
          default_value = snowline_webhooks::deliver::GLACIER_RETRIES)]
    pub webhook_retries: RetrySchedule,
    /// Events a webhook may have queued and unacknowledged; past it the webhook is deactivated
    /// (its queued events stay, delivered when it is made active again).
    #[arg(long, env = "SNOWLINE_WEBHOOK_MAX_QUEUED", default_value_t = 100_000)]
    pub webhook_max_queued: u64,
    /// Most rows a transaction export writes; past it the export ends with the last whole day
    /// that fits (`COMPLETED_WITH_WARNING`, `WarnTruncatedExport`, `nextDate`).
    #[arg(long, env = "SNOWLINE_EXPORT_MAX_ROWS", default_value_t = 100_000)]
    pub export_max_rows: u64,
    /// Time a webhook receiver has to connect and answer, in milliseconds.
    #[arg(long, env = "SNOWLINE_WEBHOOK_TIMEOUT_MS", default_value_t = 10_000)]
    pub webhook_timeout_ms: u64,
    /// Most webhook deliveries in flight at once, across all webhooks (a webhook has at most
    /// one); webhooks with events take turns, one delivery each.
    #[arg(long, env = "SNOWLINE_WEBHOOK_CONCURRENCY",
          default_value_t = snowline_webhooks::deliver::DEFAULT_CONCURRENCY)]
    pub webhook_concurrency: usize,
    #[command(flatten)]
    pub fetch: crate::nft_metadata::FetchArgs,
    /// `node-rpc`'s record of metered calls (its `DATA_DIR/rpc-usage`), read as a RocksDB
    /// secondary for the two RPC usage metrics; without it they report no calls.
    #[arg(long, env = "SNOWLINE_DATA_API_RPC_USAGE_FROM")]
    pub rpc_usage_from: Option<std::path::PathBuf>,
    /// Days of usage records to keep.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_USAGE_RETENTION_DAYS",
        default_value_t = 30
    )]
    pub usage_retention_days: u64,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "SNOWLINE_DATA_API_MAX_BODY", default_value_t = 1 << 20)]
    pub max_body_bytes: usize,
    /// Connections served at once; past them a new client gets a 503 at once (docs/rest-api.md).
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_MAX_CONNECTIONS",
        default_value_t = 1024
    )]
    pub max_connections: usize,
    #[command(flatten)]
    pub head: snowline_cli::HeadLimit,
    /// Time allowed for one request, in milliseconds.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_REQUEST_TIMEOUT_MS",
        default_value_t = 30_000
    )]
    pub request_timeout_ms: u64,
    #[command(flatten)]
    pub fleet: FleetArgs,
}

/// A fleet over NATS JetStream: this server as its primary or as a read replica (docs/fleet.md).
#[derive(Debug, Args)]
pub struct FleetArgs {
    /// Publish every batch this server commits to the fleet's stream on these NATS servers
    /// (`nats://HOST:PORT`, several comma-separated), as the fleet's primary.
    #[arg(long, env = "SNOWLINE_FLEET_PUBLISH", conflicts_with = "replica_of")]
    pub publish: Option<String>,
    /// Serve as a read replica of the fleet whose stream these NATS servers carry: apply its
    /// batches and follow no node (`--upstream` and `--evm` followers are not started).
    #[arg(long, env = "SNOWLINE_FLEET_REPLICA_OF", conflicts_with = "upstream")]
    pub replica_of: Option<String>,
    /// The fleet's JetStream stream.
    #[arg(long, env = "SNOWLINE_FLEET_STREAM", default_value = "snowline")]
    pub stream: String,
    /// Copies of the stream the NATS cluster keeps, when the primary creates it (1, 3 or 5).
    #[arg(long, env = "SNOWLINE_FLEET_STREAM_REPLICAS", default_value_t = 1)]
    pub stream_replicas: usize,
    /// Hours the stream keeps a batch; a replica further behind starts from a checkpoint.
    #[arg(
        long,
        env = "SNOWLINE_FLEET_STREAM_MAX_AGE_HOURS",
        default_value_t = 168
    )]
    pub stream_max_age_hours: u64,
    /// A replica's `/readyz` is 503 while what it serves is older than the stream's newest
    /// batch by more than this, in milliseconds of the primary's clock.
    #[arg(long, env = "SNOWLINE_FLEET_MAX_LAG_MS", default_value_t = 2_000)]
    pub max_lag_ms: u64,
    /// A new replica's starting point, taken as the index when the data directory has none
    /// yet: a checkpoint's path (`data-api checkpoint`), or NATS servers (`nats://...`,
    /// comma-separated) whose checkpoint bucket's newest checkpoint is fetched and checked;
    /// the stream is read from the batch after it.
    #[arg(long, env = "SNOWLINE_FLEET_BOOTSTRAP_FROM", requires = "replica_of")]
    pub bootstrap_from: Option<String>,
    /// Take a checkpoint of the running index every this many hours (fractions allowed) and
    /// publish it to the fleet's checkpoint bucket (`STREAM_checkpoints`); off unless given.
    #[arg(long, env = "SNOWLINE_FLEET_CHECKPOINT_EVERY")]
    pub checkpoint_every: Option<f64>,
    /// Checkpoints the bucket keeps (older ones are deleted); every × keep must stay within
    /// `--stream-max-age-hours`, so the stream still holds the batch after each kept one.
    #[arg(long, env = "SNOWLINE_FLEET_CHECKPOINT_KEEP", default_value_t = 2)]
    pub checkpoint_keep: usize,
}

/// `keys` flags.
#[derive(Debug, Args)]
pub struct KeysArgs {
    #[command(flatten)]
    pub common: Common,
    /// Manage the keys of the fleet whose NATS servers these are (comma-separated), which every
    /// node of it accepts within a second, instead of this data directory's (docs/fleet.md).
    #[arg(long, env = "SNOWLINE_FLEET_KEYS")]
    pub fleet: Option<String>,
    /// The fleet's stream (its keys are in the bucket `STREAM_keys`).
    #[arg(long, env = "SNOWLINE_FLEET_STREAM", default_value = "snowline")]
    pub stream: String,
    /// Copies of the key bucket the NATS cluster keeps, when this command creates it.
    #[arg(long, env = "SNOWLINE_FLEET_STREAM_REPLICAS", default_value_t = 1)]
    pub stream_replicas: usize,
    /// The key operation.
    #[command(subcommand)]
    pub action: KeysAction,
}

/// What `keys` does.
#[derive(Debug, Clone, Subcommand)]
pub enum KeysAction {
    /// Create a key and print its secret (shown once; only its hash is stored).
    Create {
        /// A name to recognise it by.
        #[arg(long)]
        name: String,
        /// The organisation its usage is reported under.
        #[arg(long, default_value = "default")]
        org: String,
        /// Its rate-limit tier.
        #[arg(long, default_value = "free")]
        tier: String,
    },
    /// List keys (ids, names, orgs, tiers, state; never secrets).
    List,
    /// Refuse requests made with the key (403) until it is enabled again.
    Disable {
        /// The key id (`keys list`).
        key_id: String,
    },
    /// Accept the key again.
    Enable {
        /// The key id.
        key_id: String,
    },
    /// Change the key's tier.
    SetTier {
        /// The key id.
        key_id: String,
        /// The new tier.
        tier: String,
    },
    /// Delete the key (its requests then get 401).
    Delete {
        /// The key id.
        key_id: String,
    },
}

/// Parses `TIER=PER_MINUTE/PER_DAY` or `TIER=none`.
fn parse_tier_limit(s: &str) -> Result<(String, Option<(u32, u32)>), String> {
    let (tier, limits) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected TIER=PER_MINUTE/PER_DAY or TIER=none"))?;
    if tier.is_empty() {
        return Err(format!("{s:?}: the tier name is empty"));
    }
    if limits == "none" {
        return Ok((tier.to_owned(), None));
    }
    let (minute, day) = limits
        .split_once('/')
        .ok_or_else(|| format!("{s:?}: expected PER_MINUTE/PER_DAY after '='"))?;
    let unit = |v: &str| {
        v.parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{s:?}: {v:?} is not a positive number of compute units"))
    };
    Ok((tier.to_owned(), Some((unit(minute)?, unit(day)?))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_limits_parse_or_say_why_not() {
        assert_eq!(
            parse_tier_limit("free=10/200").unwrap(),
            ("free".to_owned(), Some((10, 200)))
        );
        assert_eq!(
            parse_tier_limit("pro=none").unwrap(),
            ("pro".to_owned(), None)
        );
        for bad in [
            "free",
            "=1/2",
            "free=1",
            "free=0/5",
            "free=a/5",
            "free=1/-2",
        ] {
            assert!(parse_tier_limit(bad).is_err(), "{bad}");
        }
    }
}

fn parse_allow(s: &str) -> Result<snowline_webhooks::AllowList, String> {
    s.parse()
}

/// The delays of `--webhook-retries`, in order.
#[derive(Debug, Clone)]
pub struct RetrySchedule(pub Vec<std::time::Duration>);

fn parse_retries(s: &str) -> Result<RetrySchedule, String> {
    snowline_webhooks::parse_schedule(s).map(RetrySchedule)
}
