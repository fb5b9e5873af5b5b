//! `--metrics-listen`: the metrics service (`snowline-metrics-api`) inside data-api's process,
//! on a listener of its own, over data-api's own store (so an answer sees every batch as soon as
//! it is written, with no secondary to catch up) and its API keys; page tokens in
//! `DATA_DIR/metrics-tokens`. The `metrics-api` binary serves the same routes from another
//! process (docs/metrics-api.md, "Running it").

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::pages::EvmPages;
use snowline_chain_icm::IcmMetrics;
use snowline_chain_metrics::{MetricsPages, StoredPageTokens, SystemClock};
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::ChainRegistry;
use snowline_metrics_api::MetricsApi;
use snowline_rest_api::{
    App, Check, KeyResolver, RateLimits, Readiness, Router, Server, ServerConfig,
};
use snowline_store::Store;
use snowline_types::network::NetworkInfo;
use tokio::task::JoinHandle;

/// How often page tokens expired for more than a day are pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// The metrics listener's readiness: the store is this process's own, always open.
struct Ready;

impl Readiness for Ready {
    fn check(&self) -> Vec<Check> {
        vec![Check::up("database")]
    }
}

/// What [`start`] needs from data-api's wiring.
pub struct MetricsConfig<'a> {
    pub listen: SocketAddr,
    pub data_dir: &'a Path,
    pub registry: ChainRegistry,
    pub network: &'static NetworkInfo,
    pub keys: Arc<dyn KeyResolver>,
    pub rate_limits: RateLimits,
    pub server: ServerConfig,
    /// `--bridged-token`, `--looking-glass-max-rows`.
    pub looking_glass: snowline_cli::LookingGlassArgs,
}

/// Binds the metrics listener and serves it until SIGINT/SIGTERM on a task of its own (which
/// also prunes old page tokens); returns the bound address and the task.
pub async fn start(
    store: &Arc<Store>,
    config: MetricsConfig<'_>,
) -> Result<(SocketAddr, JoinHandle<()>), String> {
    let tokens = StoredPageTokens::open(
        &config.data_dir.join("metrics-tokens"),
        Arc::new(SystemClock),
    )
    .map_err(|e| format!("cannot open the metrics page-token store: {e}"))?;
    let api = MetricsApi::new(
        MetricsPages::new(Arc::clone(store)),
        tokens.clone(),
        config.registry,
    )
    .with_staking(PChainPages::new(Arc::clone(store)), config.network)
    .with_icm(IcmMetrics::new(Arc::clone(store)), config.network)
    .with_evm(EvmPages::new(Arc::clone(store)))
    .with_bridged_tokens(config.looking_glass.tokens)
    .with_looking_glass_max_rows(config.looking_glass.max_rows);
    let router = snowline_metrics_api::routes(Router::new(), Arc::new(api), Arc::new(Ready));
    let app = App::new(router)
        .message_arrays(true)
        .describe(snowline_metrics_api::openapi::description())
        .keys(config.keys)
        .rate_limits(config.rate_limits)
        .readiness(Arc::new(Ready));
    let server = Server::bind(config.listen, app, config.server)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = server.local_addr().map_err(|e| e.to_string())?;
    let task = tokio::spawn(async move {
        let prune = tokio::spawn(async move {
            let mut tick = tokio::time::interval(PRUNE_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                let tokens = tokens.clone();
                let pruned = tokio::task::spawn_blocking(move || tokens.prune()).await;
                if !matches!(pruned, Ok(Ok(_))) {
                    tracing::warn!("pruning metrics page tokens failed");
                }
            }
        });
        if let Err(e) = server.run_until(snowline_rest_api::shutdown_signal()).await {
            tracing::warn!(error = %e, "the metrics listener stopped");
        }
        prune.abort();
    });
    Ok((addr, task))
}
