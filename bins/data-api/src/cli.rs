//! Command-line flags; every flag also reads an environment variable.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The REST Data API (`/v1/...`) served from Snowline's own index.
#[derive(Debug, Parser)]
#[command(name = "data-api", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the Data API (and follow an upstream node when `--upstream` is given).
    Serve(ServeArgs),
    /// Manage API keys (works while the server runs; it sees changes within a second).
    Keys(KeysArgs),
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
    /// The primary network indexed here (`local`, `fuji`, `mainnet`).
    #[arg(long, env = "SNOWLINE_NETWORK", default_value = "local")]
    pub network: String,
    /// Where the spec and the hosted service differ, whose behaviour to follow.
    #[arg(long, env = "SNOWLINE_COMPAT", value_enum, default_value = "spec")]
    pub compat: CompatArg,
    /// A chain registry file (JSON: network name to a list of ChainInfo records) adding EVM
    /// chains to the built-in C-Chains and overriding them by chainId (docs/data-api.md).
    #[arg(long, env = "SNOWLINE_DATA_API_CHAINS")]
    pub chains: Option<PathBuf>,
    /// Secret authenticating page tokens, 64 hex digits. When absent, one is generated on first
    /// start and kept in `DATA_DIR/token-secret`, so tokens survive restarts.
    #[arg(long, env = "SNOWLINE_DATA_API_TOKEN_SECRET", hide_env_values = true)]
    pub token_secret: Option<String>,
    /// Do not enforce rate limits (requests are still metered unless --no-metering).
    #[arg(long, env = "SNOWLINE_DATA_API_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,
    /// Do not record usage (GET /v1/apiUsageMetrics then reports nothing new).
    #[arg(long, env = "SNOWLINE_DATA_API_NO_METERING")]
    pub no_metering: bool,
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
    /// Connections served at once.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_MAX_CONNECTIONS",
        default_value_t = 1024
    )]
    pub max_connections: usize,
    /// Time allowed for one request, in milliseconds.
    #[arg(
        long,
        env = "SNOWLINE_DATA_API_REQUEST_TIMEOUT_MS",
        default_value_t = 30_000
    )]
    pub request_timeout_ms: u64,
}

/// `keys` flags.
#[derive(Debug, Args)]
pub struct KeysArgs {
    #[command(flatten)]
    pub common: Common,
    /// The key operation.
    #[command(subcommand)]
    pub action: KeysAction,
}

/// What `keys` does.
#[derive(Debug, Subcommand)]
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
