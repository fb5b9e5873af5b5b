//! The spec's endpoints whose data this instance does not index yet: EVM chain data, ICM
//! messages, and Warp signature aggregation. Each is routed
//! and its parameters validated exactly as the spec constrains them, so a malformed request gets
//! its 400 today; a valid one gets a 404 (data not indexed here) or, for the signature
//! aggregator, a 503. The issues that index that data replace the last step with the answer.

mod aggregator;
mod evm;
mod icm;

use std::sync::Arc;

use snowline_rest::{ApiError, Request, Router};
use snowline_types::network::NetworkInfo;

use crate::params::served_network;
use snowline_chain_registry::ChainRegistry;

/// What the validating handlers share.
pub(crate) struct Planned {
    pub(crate) registry: ChainRegistry,
    pub(crate) network: &'static NetworkInfo,
}

impl Planned {
    /// Resolves `{network}` (or the `network` query filter): malformed is 400, another network
    /// than the one indexed is 404.
    pub(crate) fn network(&self, raw: &str) -> Result<(), ApiError> {
        served_network(raw, self.network)
    }

    /// Resolves the `{chainId}` path value against the chain registry.
    pub(crate) fn chain(&self, req: &Request) -> Result<(), ApiError> {
        let raw = req.required_param("chainId")?;
        self.registry
            .lookup(raw)
            .map(|_| ())
            .map_err(crate::chains::lookup_error)
    }
}

/// The answer to a valid request for data this instance does not index yet.
pub(crate) fn not_indexed(what: &str) -> ApiError {
    ApiError::not_found(format!(
        "{what} is not indexed by this instance yet (see docs/data-api.md, \"Endpoints\")"
    ))
}

/// Adds the validating routes of every spec endpoint not served from data yet.
pub fn routes(router: Router, registry: ChainRegistry, network: &'static NetworkInfo) -> Router {
    let planned = Arc::new(Planned { registry, network });
    let router = aggregator::routes(router, &planned);
    let router = evm::routes(router, &planned);
    icm::routes(router, &planned)
}
