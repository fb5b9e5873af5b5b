//! `metrics-api serve`: opens the data-api's index and API keys as secondaries and its own
//! token store, serves the metrics endpoints on the REST edge until SIGINT/SIGTERM, catching up
//! with the index's writer every `--catch-up-ms` and pruning old page tokens hourly.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use snowline_access::keys::{ApiKeys, CatchUp};
use snowline_chain_evm::EvmSourceConfig;
use snowline_chain_evm::pages::EvmPages;
use snowline_chain_icm::IcmMetrics;
use snowline_chain_metrics::{MetricsPages, StoredPageTokens, SystemClock};
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::ChainRegistry;
use snowline_metrics_api::MetricsApi;
use snowline_rest_api::{
    App, Check, KeyLookup, KeyResolver, RateLimits, Readiness, RestError, Router, Server,
    ServerConfig,
};
use snowline_store::{Schema, Store, StoreError};

use crate::cli::ServeArgs;

/// Runs the server (blocking until it stops).
pub fn run(args: ServeArgs) -> Result<(), String> {
    std::fs::create_dir_all(&args.data_dir)
        .map_err(|e| format!("cannot create {}: {e}", args.data_dir.display()))?;
    snowline_cli::runtime()?.block_on(serve(args))
}

/// What the index holds besides the metrics tables.
#[derive(Debug, Clone, Copy)]
struct Rooms {
    /// The P-Chain tables (an index of EVM chains only has none: no staking metrics).
    p: bool,
    /// The ICM tables (an index written before ICM was indexed has none: no ICM metrics).
    icm: bool,
}

/// The metrics, P-Chain and ICM tables of the data-api store, at its schema version (the other
/// tables are left alone), opening those of the optional ones that are there; the store's error
/// when it cannot be opened (yet).
fn open_index(index_dir: &Path, data_dir: &Path) -> Result<(Arc<Store>, Rooms), String> {
    let primary = index_dir.join("index");
    let open = |rooms: Rooms| {
        let p_tables = if rooms.p {
            snowline_chain_p::tables()
        } else {
            Vec::new()
        };
        let icm_tables = if rooms.icm {
            snowline_chain_icm::tables()
        } else {
            Vec::new()
        };
        let schema = snowline_chain_metrics::tables()
            .into_iter()
            .chain(p_tables)
            .chain(icm_tables)
            .fold(
                Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
                Schema::with_spec,
            );
        Store::open_secondary(&primary, data_dir.join("index-secondary"), &schema).map(Arc::new)
    };
    let mut last = None;
    for (p, icm) in [(true, true), (true, false), (false, true), (false, false)] {
        let rooms = Rooms { p, icm };
        match open(rooms) {
            Ok(store) => return Ok((store, rooms)),
            // Only missing tables mean a room is absent; any other error (no index yet, no
            // schema version yet) is the index's as a whole, and the caller tries again later.
            Err(e @ StoreError::MissingTables(_)) => last = Some(e),
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(last.map(|e| e.to_string()).unwrap_or_default())
}

/// The built-in chains, the `--chains` file's, and those the `--evm-config` file describes.
fn registry(args: &ServeArgs) -> Result<ChainRegistry, String> {
    let mut registry = ChainRegistry::builtin_with(args.chains.as_deref())?;
    if let Some(path) = &args.evm_config {
        for source in EvmSourceConfig::load(path)? {
            if let Some(listing) = source.listing() {
                let (network, record) = listing?;
                if registry.lookup(&source.chain_id.to_string()).is_err() {
                    registry.add(&network, record).map_err(|e| e.to_string())?;
                }
            }
        }
    }
    Ok(registry)
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let network = args.network.resolve()?;
    let config = ServerConfig {
        max_header_bytes: args.head.get(),
        ..ServerConfig::default()
    };
    // Listen first: until data-api's index is there, `/readyz` says what is awaited.
    let listener = crate::wait::bind(args.listen)?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "metrics-api: listening on http://{addr} (index {})",
        args.index_dir.join("index").display()
    );
    let (index_dir, data_dir) = (args.index_dir.clone(), args.data_dir.clone());
    let what = format!(
        "the data-api index in {} (data-api serve creates it)",
        index_dir.join("index").display()
    );
    let opened = crate::wait::until_open(listener, config, what, move || {
        open_index(&index_dir, &data_dir)
    })
    .await?;
    let Some(((store, rooms), listener)) = opened else {
        println!("metrics-api: stopped");
        return Ok(());
    };
    let tokens = StoredPageTokens::open(&args.data_dir.join("tokens"), Arc::new(SystemClock))
        .map_err(|e| format!("cannot open the page-token store: {e}"))?;
    let mut api = MetricsApi::new(
        MetricsPages::new(Arc::clone(&store)),
        tokens.clone(),
        registry(&args)?,
    );
    if rooms.p {
        api = api.with_staking(PChainPages::new(Arc::clone(&store)), network);
    }
    if rooms.icm {
        api = api.with_icm(IcmMetrics::new(Arc::clone(&store)), network);
    }
    api = api
        .with_evm(EvmPages::new(Arc::clone(&store)))
        .with_bridged_tokens(args.looking_glass.tokens.iter().copied())
        .with_looking_glass_max_rows(args.looking_glass.max_rows);
    let api = Arc::new(api);
    // The data-api's API keys (`data-api keys create`), followed as a secondary: a keyed caller
    // gets its tier's limits here too; no key is the anonymous tier.
    let keys = Arc::new(
        ApiKeys::open_secondary(
            args.index_dir.join("keys"),
            args.data_dir.join("keys-secondary"),
        )
        .map_err(|e| format!("cannot open the keys store: {e}"))?,
    );
    let _keys_catch_up = CatchUp::start(Arc::clone(&keys), Duration::from_secs(1))
        .map_err(|e| format!("cannot follow the keys store: {e}"))?;
    let ready = Arc::new(Ready::default());
    let router = snowline_metrics_api::routes(Router::new(), api, ready.clone());
    let app = App::new(router)
        .message_arrays(true)
        .describe(snowline_metrics_api::openapi::description())
        .keys(Arc::new(StoreKeys(keys)))
        .rate_limits(if args.no_rate_limits {
            RateLimits::disabled()
        } else {
            RateLimits::default()
        })
        .readiness(ready.clone());
    let server = Server::from_listener(listener, app, config)
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    println!("  every endpoint, described and to try: http://{addr}/docs (/openapi.json)");
    println!("  try:");
    for path in [
        "/v2/chains",
        "/v2/chains/43112/metrics/txCount?timeInterval=hour&pageSize=24",
        "/v2/chains/43112/metrics/activeAddresses?timeInterval=day",
        "/v1/avg_tps/43112",
        "/v2/chains/total/rollingWindowMetrics/txCount",
    ] {
        println!("    curl -s 'http://{addr}{path}'");
    }
    if rooms.icm {
        let path = "/v2/icm/timeseries?timeInterval=day&groupBy=srcBlockchainId,destBlockchainId";
        println!("    curl -s 'http://{addr}{path}'");
        println!("    curl -s 'http://{addr}/v2/icm/summary'");
    }
    if rooms.p {
        let path = format!("/v2/networks/{}/metrics/validatorCount", network.name);
        println!("    curl -s 'http://{addr}{path}'");
    }

    let upkeep = {
        let every = Duration::from_millis(args.catch_up_ms.max(10));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            let mut last_prune = std::time::Instant::now();
            loop {
                tick.tick().await;
                let (store, tokens, ready) = (Arc::clone(&store), tokens.clone(), ready.clone());
                let prune = last_prune.elapsed() >= Duration::from_secs(3_600);
                if prune {
                    last_prune = std::time::Instant::now();
                }
                let done = tokio::task::spawn_blocking(move || {
                    let caught_up = store.catch_up();
                    if let Err(e) = &caught_up {
                        tracing::warn!(error = %e, "catching up with the index failed");
                    }
                    ready.index_ok.store(caught_up.is_ok(), Ordering::Relaxed);
                    if prune && let Err(e) = tokens.prune() {
                        tracing::warn!(error = %e, "pruning page tokens failed");
                    }
                })
                .await;
                if let Err(e) = done {
                    tracing::warn!(error = %e, "index upkeep failed");
                }
            }
        })
    };
    server
        .run_until(snowline_rest_api::shutdown_signal())
        .await
        .map_err(|e| e.to_string())?;
    upkeep.abort();
    drop(upkeep.await);
    println!("metrics-api: stopped");
    Ok(())
}

/// `/readyz` and the health checks: the last catch-up with the index's writer succeeded.
#[derive(Debug)]
struct Ready {
    index_ok: AtomicBool,
}

impl Default for Ready {
    fn default() -> Self {
        Self {
            index_ok: AtomicBool::new(true),
        }
    }
}

impl Readiness for Ready {
    fn check(&self) -> Vec<Check> {
        vec![if self.index_ok.load(Ordering::Relaxed) {
            Check::up("database")
        } else {
            Check::down("database", "cannot catch up with the data-api index")
        }]
    }
}

/// Resolves `x-data-api-key` / `x-glacier-api-key` against the data-api's keys store.
struct StoreKeys(Arc<ApiKeys>);

impl KeyResolver for StoreKeys {
    fn resolve(&self, presented: &str) -> Result<KeyLookup, RestError> {
        self.0
            .resolve(presented)
            .map_err(|e| RestError::KeyLookup(e.to_string()))
    }
}
