//! The spec's endpoints whose data this instance does not serve yet: Warp signature
//! aggregation. Each is routed
//! and its parameters validated exactly as the spec constrains them, so a malformed request gets
//! its 400 today; a valid one gets a 404 (data not indexed here) or, for the signature
//! aggregator, a 503. The issues that index that data replace the last step with the answer.

mod aggregator;

use std::sync::Arc;

use snowline_rest::{ApiError, Router};
use snowline_types::network::NetworkInfo;

use crate::params::served_network;

/// What the validating handlers share.
pub(crate) struct Planned {
    pub(crate) network: &'static NetworkInfo,
}

impl Planned {
    /// Resolves `{network}` (or the `network` query filter): malformed is 400, another network
    /// than the one indexed is 404.
    pub(crate) fn network(&self, raw: &str) -> Result<(), ApiError> {
        served_network(raw, self.network)
    }
}

/// Adds the validating routes of every spec endpoint not served from data yet.
pub fn routes(router: Router, network: &'static NetworkInfo) -> Router {
    let planned = Arc::new(Planned { network });
    aggregator::routes(router, &planned)
}
