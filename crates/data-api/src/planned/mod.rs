//! The spec's endpoints whose data this instance does not index yet: ICM messages and Warp
//! signature aggregation. Each is routed
//! and its parameters validated exactly as the spec constrains them, so a malformed request gets
//! its 400 today; a valid one gets a 404 (data not indexed here) or, for the signature
//! aggregator, a 503. The issues that index that data replace the last step with the answer.

mod aggregator;
mod icm;

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

/// The answer to a valid request for data this instance does not index yet.
pub(crate) fn not_indexed(what: &str) -> ApiError {
    ApiError::not_found(format!(
        "{what} is not indexed by this instance yet (see docs/data-api.md, \"Endpoints\")"
    ))
}

/// Adds the validating routes of every spec endpoint not served from data yet.
pub fn routes(router: Router, network: &'static NetworkInfo) -> Router {
    let planned = Arc::new(Planned { network });
    let router = aggregator::routes(router, &planned);
    icm::routes(router, &planned)
}
