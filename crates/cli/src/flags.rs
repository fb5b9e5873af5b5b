//! Flags every binary takes the same way; each also reads an environment variable.

use clap::{Args, ValueEnum};
use snowline_types::NetworkInfo;

/// `--network`: the primary network the data belongs to.
#[derive(Debug, Clone, Args)]
pub struct NetworkArg {
    /// The network the data belongs to (`local`, `fuji`, `mainnet`, or `network-<id>`).
    #[arg(long = "network", env = "SNOWLINE_NETWORK", default_value = "local")]
    pub name: String,
}

impl NetworkArg {
    /// The built-in network named, or a message naming what is accepted.
    pub fn resolve(&self) -> Result<&'static NetworkInfo, String> {
        match NetworkInfo::lookup_name(&self.name) {
            Ok(Some(info)) => Ok(info),
            Ok(None) => Err(format!(
                "network {:?} has no known chain ids; use local, fuji or mainnet",
                self.name
            )),
            Err(e) => Err(format!("--network: {e}")),
        }
    }
}

/// The metrics service's Looking Glass: `--bridged-token`, the token whose net bridged amounts
/// (minted less burnt) `btcb/bridged:getAddresses` lists on each chain, and
/// `--looking-glass-max-rows`, the work one request may do.
#[derive(Debug, Clone, Args)]
pub struct LookingGlassArgs {
    /// A chain's bridged token, `CHAIN_ID=CONTRACT` (e.g. `43113=0x…`), listed by
    /// `/v2/chains/{chainId}/btcb/bridged:getAddresses`; repeatable. BTC.b
    /// (0x152b9d0FdC40C096757F570A51E494bd4b943E50) is 43114's unless given.
    #[arg(long = "bridged-token", env = "SNOWLINE_BRIDGED_TOKENS", value_delimiter = ',',
          value_parser = parse_bridged_token)]
    pub tokens: Vec<(u64, snowline_types::evm::Address)>,
    /// The most index rows one Looking Glass request (a composite query, a bridged-token
    /// listing) reads; a request that needs more is answered 400.
    #[arg(long = "looking-glass-max-rows", env = "SNOWLINE_LOOKING_GLASS_MAX_ROWS",
          default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_rows: u64,
}

/// `CHAIN_ID=0xCONTRACT`.
fn parse_bridged_token(raw: &str) -> Result<(u64, snowline_types::evm::Address), String> {
    let (chain, address) = raw
        .split_once('=')
        .ok_or_else(|| format!("{raw:?} is not CHAIN_ID=0xCONTRACT"))?;
    let chain = chain
        .parse::<u64>()
        .map_err(|_| format!("{chain:?} is not a decimal EVM chain id"))?;
    let token = address
        .strip_prefix("0x")
        .filter(|h| h.len() == 40)
        .and_then(|_| address.parse::<snowline_types::evm::Address>().ok())
        .ok_or_else(|| format!("{address:?} is not a 0x-prefixed 20-byte hex address"))?;
    Ok((chain, token))
}

/// Where a chain's genesis state (in no container) comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenesisSource {
    /// The devnet's genesis (the real local network's AVAX asset), for a devnet's data.
    Devnet,
    /// No genesis: genesis UTXOs and the genesis asset's description stay unknown.
    None,
}

/// `--follow-batch`: containers asked of an upstream per call.
#[derive(Debug, Clone, Copy, Args)]
pub struct UpstreamBatch {
    /// Containers asked of the upstream per call (`numToFetch`, 1..=1024); each call's
    /// containers are written in one atomic batch.
    #[arg(long = "follow-batch", env = "SNOWLINE_FOLLOW_BATCH", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub containers: u64,
    /// Staged write data per atomic batch while following, in MiB: a call's containers are cut
    /// into batches of at most this much, and the pages fetched ahead hold about half of it
    /// each; the follower's memory grows with it (docs/benchmarks.md, "Memory while following").
    #[arg(long = "follow-batch-mib", env = "SNOWLINE_FOLLOW_BATCH_MIB", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub mib: u64,
}

impl UpstreamBatch {
    /// [`UpstreamBatch::mib`] in bytes.
    pub fn bytes(&self) -> usize {
        usize::try_from(self.mib << 20).unwrap_or(usize::MAX)
    }
}

/// `--upstream-timeout-ms`, `--retry-max-ms`: how long a call to the upstream may take and the
/// longest pause between retries (docs/node-index.md, "Upstream faults").
#[derive(Debug, Clone, Copy, Args)]
pub struct UpstreamCalls {
    /// Timeout of one call to the upstream, in milliseconds; a slower answer is a failed
    /// attempt, retried.
    #[arg(long = "upstream-timeout-ms", env = "SNOWLINE_UPSTREAM_TIMEOUT_MS", default_value_t = 60_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_ms: u64,
    /// Longest pause between retries of a failed call, in milliseconds (the first is 200 ms or
    /// this if shorter, doubling after each failure).
    #[arg(long = "retry-max-ms", env = "SNOWLINE_RETRY_MAX_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub retry_max_ms: u64,
}

impl UpstreamCalls {
    /// `config` with these timeout and retry bounds.
    pub fn apply(
        self,
        config: snowline_node_index::FollowConfig,
    ) -> snowline_node_index::FollowConfig {
        let retry_max = std::time::Duration::from_millis(self.retry_max_ms);
        snowline_node_index::FollowConfig {
            call_timeout: std::time::Duration::from_millis(self.timeout_ms),
            retry_initial: config.retry_initial.min(retry_max),
            retry_max,
            ..config
        }
    }
}

/// `--batch`, `--compact`: how an import writes.
#[derive(Debug, Clone, Copy, Args)]
pub struct ImportBatch {
    /// Containers per atomic write batch.
    #[arg(long = "batch", env = "SNOWLINE_BATCH", default_value_t = 1024)]
    pub containers: usize,
    /// Compact the whole index once the import is written, so later scans merge no level-0
    /// files; it also moves every value to the ZSTD level, which some pages pay for on reads
    /// (docs/store.md, "After an import").
    #[arg(long, env = "SNOWLINE_COMPACT")]
    pub compact: bool,
}

/// `--devnet-seed`, `--devnet-txs`: which devnet.
#[derive(Debug, Clone, Copy, Args)]
pub struct DevnetSeed {
    /// Seed of the devnet (docs/devnet.md).
    #[arg(
        long = "devnet-seed",
        env = "SNOWLINE_DEVNET_SEED",
        default_value_t = 1
    )]
    pub seed: u64,
    /// Approximate number of devnet txs; 0 for the small preset. The presets' geneses differ, so
    /// an index of a large devnet must name its size.
    #[arg(long = "devnet-txs", env = "SNOWLINE_DEVNET_TXS", default_value_t = 0)]
    pub txs: u64,
}

/// The smallest `--max-header-bytes` accepted: hyper's smallest read buffer.
pub const MIN_HEADER_BYTES: u64 = 8192;
/// The largest `--max-header-bytes` accepted (16 MiB): every connection may buffer this much.
pub const MAX_HEADER_BYTES: u64 = 16 << 20;

/// `--max-header-bytes`: the largest request head a server reads.
#[derive(Debug, Clone, Copy, Args)]
pub struct HeadLimit {
    /// Largest request head (request line and headers together) read, in bytes (8192 to
    /// 16777216); a larger one is answered 431 in the server's error shape. The URI (65,534
    /// bytes) and header-field (100) limits apply as well.
    #[arg(long = "max-header-bytes", env = "SNOWLINE_MAX_HEADER_BYTES",
          default_value_t = 256 << 10,
          value_parser = clap::value_parser!(u64).range(MIN_HEADER_BYTES..=MAX_HEADER_BYTES))]
    pub bytes: u64,
}

impl HeadLimit {
    /// The limit as `ServerConfig::max_header_bytes` takes it.
    pub fn get(&self) -> usize {
        usize::try_from(self.bytes).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bridged_tokens_parse_chain_and_contract() {
        let (chain, token) =
            parse_bridged_token("43113=0x152b9d0FdC40C096757F570A51E494bd4b943E50").unwrap();
        assert_eq!(chain, 43113);
        assert_eq!(
            token.to_checksum(None),
            "0x152b9d0FdC40C096757F570A51E494bd4b943E50"
        );
        for bad in [
            "43113",
            "x=0x152b9d0FdC40C096757F570A51E494bd4b943E50",
            "1=0x12",
            "1=152b9d0FdC40C096757F570A51E494bd4b943E50",
        ] {
            assert!(parse_bridged_token(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn network_names_resolve_or_say_what_is_accepted() {
        let arg = |name: &str| NetworkArg {
            name: name.to_owned(),
        };
        assert_eq!(arg("local").resolve().map(|n| n.network_id), Ok(12345));
        assert_eq!(arg("mainnet").resolve().map(|n| n.network_id), Ok(1));
        let unknown = arg("network-777").resolve().err().unwrap_or_default();
        assert!(unknown.contains("use local, fuji or mainnet"), "{unknown}");
        let bad = arg("no such net").resolve().err().unwrap_or_default();
        assert!(bad.starts_with("--network:"), "{bad}");
    }

    #[derive(Debug, clap::Parser)]
    struct Head {
        #[command(flatten)]
        head: HeadLimit,
    }

    #[test]
    fn the_head_limit_defaults_to_256_kib_and_is_bounded() {
        use clap::Parser as _;
        let parse = |args: &[&str]| {
            Head::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
                .map(|h| h.head.get())
        };
        assert_eq!(parse(&[]).ok(), Some(256 << 10));
        assert_eq!(parse(&["--max-header-bytes", "8192"]).ok(), Some(8192));
        assert_eq!(
            parse(&["--max-header-bytes", "1048576"]).ok(),
            Some(1 << 20)
        );
        assert!(parse(&["--max-header-bytes", "8191"]).is_err());
        assert!(parse(&["--max-header-bytes", "16777217"]).is_err());
        assert!(parse(&["--max-header-bytes", "lots"]).is_err());
    }
}
