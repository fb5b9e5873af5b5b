//! `GET /v1/chains` and `GET /v1/chains/{chainId}`, from the chain registry
//! (`snowline-chain-registry`). Each chain's JSON is rendered once when the routes are built, so a
//! lookup answers with shared bytes.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use snowline_rest_api::hyper::StatusCode;
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::rest::{ApiFeature, ListChainsResponse};

use crate::params::{network_filter, param_error};
use snowline_chain_registry::{ChainLookupError, ChainRegistry};

/// The registry with each chain's response body rendered ahead of time.
struct Chains {
    registry: ChainRegistry,
    bodies: HashMap<String, Bytes>,
}

/// Adds the two chain endpoints (weight `free`, as the OpenAPI's `supportedChains` and
/// `getChainInfo`).
pub fn routes(router: Router, registry: ChainRegistry) -> Result<Router, ApiError> {
    let mut bodies = HashMap::new();
    for chain in registry.list(None, None) {
        let body = Bytes::from(
            serde_json::to_vec(chain)
                .map_err(|e| ApiError::internal(format!("chain {}: {e}", chain.chain_id)))?,
        );
        bodies.insert(chain.chain_id.clone(), body.clone());
        if let Some(id) = &chain.platform_chain_id {
            bodies.insert(id.clone(), body);
        }
    }
    let chains = Arc::new(Chains { registry, bodies });
    let list = Arc::clone(&chains);
    Ok(router
        .get("/v1/chains", Weight::FREE, move |req| {
            let chains = Arc::clone(&list);
            async move { list_chains(&chains, &req) }
        })
        .get("/v1/chains/{chainId}", Weight::FREE, move |req| {
            let chains = Arc::clone(&chains);
            async move { get_chain(&chains, &req) }
        }))
}

fn list_chains(chains: &Chains, req: &Request) -> Result<Reply, ApiError> {
    let network = network_filter(req)?;
    let feature = match req.query("feature") {
        None => None,
        Some(raw) => Some(ApiFeature::parse(raw).ok_or_else(|| {
            param_error(
                "feature",
                &format!(
                    "must be one of {}",
                    ApiFeature::ALL.map(ApiFeature::as_str).join(", ")
                ),
                raw,
            )
        })?),
    };
    Reply::json(&ListChainsResponse {
        chains: chains.registry.list(network, feature).cloned().collect(),
    })
}

fn get_chain(chains: &Chains, req: &Request) -> Result<Reply, ApiError> {
    let chain_ref = req.required_param("chainId")?;
    if let Some(body) = chains.bodies.get(chain_ref) {
        return Ok(Reply::bytes(StatusCode::OK, body.clone()));
    }
    // Not a canonical spelling of a served chain: say whether it is malformed or unknown.
    Reply::json(chains.registry.lookup(chain_ref).map_err(lookup_error)?)
}

/// A malformed `chainId` is a 400, a well-formed one not served here a 404.
pub(crate) fn lookup_error(e: ChainLookupError) -> ApiError {
    match e {
        ChainLookupError::Invalid(_) => ApiError::bad_request(e.to_string()),
        ChainLookupError::NotFound(_) => ApiError::not_found(e.to_string()),
    }
}
