//! The metrics API's endpoints on the REST edge (`snowline-rest-api`): the spec's
//! `GET /v1/avg_tps/{chainId}` (and its legacy `from`/`to`/`startKey` form), the rest of the
//! legacy v1 family (series, rolling windows, staking series, listings), and the real
//! service's v2 chain metrics, the Looking Glass (token holders, the composite query, bridged
//! amounts) (from `chain-evm`'s
//! [`EvmPages`](snowline_chain_evm::pages::EvmPages)), ICM message counts (from `chain-icm`'s
//! [`IcmMetrics`](snowline_chain_icm::IcmMetrics)), staking and L1 validator fee metrics (from `chain-p`'s
//! [`PChainPages`](snowline_chain_p::pages::PChainPages)), chains and health checks. Handlers parse, call one read of the
//! metrics room ([`MetricsPages`](snowline_chain_metrics::MetricsPages), or its
//! [`StoredPageTokens`](snowline_chain_metrics::StoredPageTokens)) and render; they never see the store.
//! See `docs/metrics-api.md`.

mod bridged;
mod chains;
mod composite;
mod context;
mod health;
mod holders;
mod icm;
mod l1;
mod legacy;
mod legacy_ops;
mod networks;
pub mod openapi;
mod params;
mod render;
mod series;
mod staking;
mod validators;

use std::sync::Arc;

use snowline_rest_api::{ApiError, Readiness, Reply, Request, Router, Weight};

pub use composite::MAX_SUB_QUERIES;
pub use context::MetricsApi;
pub use context::{AVALANCHE_C_CHAIN, BTC_B};

type Handler = fn(&MetricsApi, &Request) -> Result<Reply, ApiError>;

/// Adds the metrics endpoints over `api`; `/v2/health-check` and `/v2/live-check` ask
/// `readiness`.
pub fn routes(router: Router, api: Arc<MetricsApi>, readiness: Arc<dyn Readiness>) -> Router {
    let endpoints: [(&str, Weight, Handler); 17] = [
        ("/v1/avg_tps/{chainId}", Weight::SMALL, series::avg_tps),
        ("/v2/chains", Weight::FREE, chains::list),
        ("/v2/chains/{chainId}", Weight::FREE, chains::get),
        (
            "/v2/chains/{chainId}/metrics/{metric}",
            Weight::SMALL,
            series::chain_metric,
        ),
        (
            "/v2/chains/{chainId}/rollingWindowMetrics/{metric}",
            Weight::SMALL,
            series::rolling_window,
        ),
        (
            "/v2/networks/{network}/metrics/{metric}",
            Weight::SMALL,
            staking::network_metric,
        ),
        ("/v2/validators/metrics/{metric}", Weight::SMALL, l1::total),
        (
            "/v2/validation/{l1ValidationId}/metrics/{metric}",
            Weight::SMALL,
            l1::validation,
        ),
        (
            "/v2/validator/{nodeId}/metrics/{metric}",
            Weight::SMALL,
            l1::node,
        ),
        (
            "/v2/subnet/{subnetId}/metrics/{metric}",
            Weight::SMALL,
            l1::subnet,
        ),
        ("/v2/icm/timeseries", Weight::SMALL, icm::timeseries),
        ("/v2/icm/summary", Weight::SMALL, icm::summary),
        (
            "/v2/subnets/{subnetId}/validators:getAddresses",
            Weight::LARGE,
            validators::by_date_range,
        ),
        (
            "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders",
            Weight::LARGE,
            holders::nft_holders,
        ),
        (
            "/v2/chains/{chainId}/contracts/{address}/balances",
            Weight::LARGE,
            holders::balances_over_time,
        ),
        (
            "/v2/chains/43114/btcb/bridged:getAddresses",
            Weight::LARGE,
            bridged::c_chain,
        ),
        (
            "/v2/chains/{chainId}/btcb/bridged:getAddresses",
            Weight::LARGE,
            bridged::any_chain,
        ),
    ];
    let router = endpoints
        .into_iter()
        .fold(router, |router, (template, weight, f)| {
            let api = Arc::clone(&api);
            router.get_blocking(template, weight, move |req| f(&api, req))
        });
    // The composite query, under the v2 path and the legacy v1 one.
    let router = [
        "/v2/lookingGlass/compositeQuery",
        "/v1/lookingGlass/compositeQuery",
    ]
    .into_iter()
    .fold(router, |router, template| {
        let api = Arc::clone(&api);
        router.post_blocking(template, Weight::XXL, move |req| {
            composite::composite(&api, req)
        })
    });
    let router = legacy::routes(router, &api);
    health::routes(router, readiness)
}

#[cfg(test)]
mod tests;
