//! NFT metadata in `serve`: the queue `reindexNft` adds to (always open: ingest queues tokens
//! whatever the flags), and, with `--fetch-nft-metadata`, the fetcher that works it off
//! (started once the server listens).

use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::metadata::{FetchConfig, Locating, MetadataQueue};
use snowline_outbound::{AllowList, ClientConfig, PoolConfig, Redirects};
use snowline_store::Store;
use tokio::task::JoinHandle;

/// The flags of NFT metadata fetching (`docs/evm-indexing.md`, "NFT metadata").
#[derive(Debug, Clone, clap::Args)]
pub struct FetchArgs {
    /// Fetch the metadata behind NFT token URIs (http, https, ipfs through --ipfs-gateway,
    /// data); without it, tokens stay UNINDEXED unless their URI is a data: URI.
    #[arg(long, env = "SNOWLINE_FETCH_NFT_METADATA")]
    pub fetch_nft_metadata: bool,
    /// The IPFS gateway `ipfs://CID/PATH` URIs are fetched through, as `GATEWAY/CID/PATH`
    /// (e.g. https://ipfs.io/ipfs); without one they are UNREACHABLE_TOKEN_URI.
    #[arg(long, env = "SNOWLINE_IPFS_GATEWAY")]
    pub ipfs_gateway: Option<String>,
    /// `PREFIX=URL`: a token URI starting with PREFIX is fetched from URL followed by the rest
    /// (a mirror of a collection's host); repeatable, the first match applies.
    #[arg(long = "fetch-rewrite", env = "SNOWLINE_FETCH_REWRITE", value_parser = parse_rewrite)]
    pub fetch_rewrites: Vec<(String, String)>,
    /// Private networks metadata fetches may reach (`CIDR,...`); by default loopback, private
    /// and link-local addresses are refused, after resolution and on every redirect.
    #[arg(long, env = "SNOWLINE_FETCH_ALLOW_PRIVATE", value_parser = parse_allow, default_value = "")]
    pub fetch_allow_private: AllowList,
    /// Time one metadata fetch (redirects included) may take, in milliseconds.
    #[arg(long, env = "SNOWLINE_FETCH_TIMEOUT_MS", default_value_t = 10_000)]
    pub fetch_timeout_ms: u64,
    /// Metadata fetches at once.
    #[arg(long, env = "SNOWLINE_FETCH_CONCURRENCY", default_value_t = 8)]
    pub fetch_concurrency: usize,
    /// The delays before each retry of a fetch that failed for a passing reason (no
    /// connection, a timeout, a 429 or 5xx answer), `ms`, `s`, `m` or `h`.
    #[arg(long, env = "SNOWLINE_FETCH_RETRIES", default_value = "2s,10s",
          value_parser = parse_retries)]
    pub fetch_retries: Retries,
    /// Seconds before a token may be reindexed again (Glacier allows once an hour).
    #[arg(long, env = "SNOWLINE_NFT_REINDEX_INTERVAL_S", default_value_t = 3600)]
    pub nft_reindex_interval_s: u64,
}

/// The delays of `--fetch-retries`, in order.
#[derive(Debug, Clone)]
pub struct Retries(pub Vec<Duration>);

fn parse_retries(s: &str) -> Result<Retries, String> {
    snowline_webhooks::parse_schedule(s).map(Retries)
}

fn parse_allow(s: &str) -> Result<AllowList, String> {
    s.parse()
}

fn parse_rewrite(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((prefix, to)) if !prefix.is_empty() && !to.is_empty() => {
            Ok((prefix.to_owned(), to.to_owned()))
        }
        _ => Err(format!("{s:?} is not PREFIX=URL")),
    }
}

/// The queue, and the fetcher's configuration when fetching is on.
pub struct NftMetadata {
    /// The queue, for `reindexNft`.
    pub queue: Arc<MetadataQueue>,
    fetch: Option<FetchConfig>,
}

impl NftMetadata {
    /// The queue in `store`, and what `args` ask of fetching.
    pub fn open(store: &Arc<Store>, args: &FetchArgs) -> Self {
        let queue = Arc::new(MetadataQueue::new(
            Arc::clone(store),
            Duration::from_secs(args.nft_reindex_interval_s),
        ));
        let fetch = args.fetch_nft_metadata.then(|| FetchConfig {
            client: ClientConfig {
                allow: args.fetch_allow_private.clone(),
                allow_flag: "--fetch-allow-private".to_owned(),
                timeout: Duration::from_millis(args.fetch_timeout_ms.max(1)),
                max_body: snowline_types::evm::nft_metadata::MAX_METADATA_BYTES,
                redirects: Redirects::Follow(5),
                user_agent: "snowline-nft-metadata/1".to_owned(),
                extra_roots: Vec::new(),
                pool: PoolConfig::default(),
            },
            locating: Locating {
                ipfs_gateway: args.ipfs_gateway.clone(),
                rewrites: args.fetch_rewrites.clone(),
            },
            concurrency: args.fetch_concurrency.max(1),
            retries: args.fetch_retries.0.clone(),
        });
        Self { queue, fetch }
    }

    /// Starts the fetcher, when fetching is on.
    pub fn start(&self) -> Option<JoinHandle<()>> {
        let config = self.fetch.clone()?;
        Some(tokio::spawn(snowline_chain_evm::metadata::run(
            Arc::clone(&self.queue),
            config,
        )))
    }
}
