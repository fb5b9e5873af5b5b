//! What `GET /openapi.json` and `/docs` describe: the real metrics service's OpenAPI documents
//! (`openapi/metrics-api-v2.json`, then `openapi/metrics-api-legacy-v1.json` for the legacy v1
//! series, rolling windows, staking series and listings, the Looking Glass's v1 composite query,
//! and `/v1/health-check`) and this server's additions (`openapi/snowline-additions.json`), embedded and
//! kept by the REST edge to the routes this build registers.

use snowline_rest_api::ApiDescription;

/// The real service's current document.
pub const METRICS_API_V2: &str = include_str!("../openapi/metrics-api-v2.json");

/// The real service's earlier document, which describes the `/v1/` operations.
pub const METRICS_API_LEGACY_V1: &str = include_str!("../openapi/metrics-api-legacy-v1.json");

/// What this server adds to the references: the bridged-token route on any chain.
pub const SNOWLINE_ADDITIONS: &str = include_str!("../openapi/snowline-additions.json");

/// The description of the metrics service: v2's operations first, the legacy document's where
/// v2 has none, then this server's additions.
pub fn description() -> ApiDescription {
    ApiDescription::new(
        "Snowline Metrics API",
        env!("CARGO_PKG_VERSION"),
        "The Avalanche Metrics API served by Snowline from the data-api's index: EVM chain \
         activity, staking, L1 validator and ICM metrics.",
    )
    .reference("metrics-api-v2.json", METRICS_API_V2)
    .reference("metrics-api-legacy-v1.json", METRICS_API_LEGACY_V1)
    .additions(SNOWLINE_ADDITIONS)
}
