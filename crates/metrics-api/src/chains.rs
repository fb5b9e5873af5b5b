//! `GET /v2/chains` and `GET /v2/chains/{chainId}`: the chains of the registry that have
//! metrics in the store, as the OpenAPI's `Chain`.

use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::ChainRecord;

use crate::context::{MetricsApi, read_failed};
use crate::render::{ChainJson, ChainList};

fn chain_json(id: u64, r: &ChainRecord) -> ChainJson<'_> {
    ChainJson {
        evm_chain_id: id,
        chain_name: &r.chain_name,
        blockchain_id: r.platform_chain_id.as_deref(),
        subnet_id: r.subnet_id.as_deref(),
        network: if r.is_testnet { "testnet" } else { "mainnet" },
    }
}

/// `GET /v2/chains`: `network` is `mainnet`, or `fuji`/`testnet` (every non-mainnet chain).
pub fn list(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let testnet = match req.query("network") {
        None => None,
        Some("mainnet") => Some(false),
        Some("fuji" | "testnet") => Some(true),
        Some(raw) => {
            return Err(ApiError::bad_request(format!(
                "Invalid network: expected one of mainnet, fuji, testnet, got {raw:?}"
            )));
        }
    };
    if req.query("pageToken").is_some() {
        return Err(ApiError::bad_request(
            "Invalid pageToken: the chain listing has a single page",
        ));
    }
    let served = api.pages.chains().map_err(read_failed)?;
    let chains = served
        .iter()
        .filter_map(|(id, _)| api.registry.lookup(&id.to_string()).ok().map(|r| (*id, r)))
        .filter(|(_, r)| testnet.is_none_or(|t| r.is_testnet == t))
        .map(|(id, r)| chain_json(id, r))
        .collect();
    Reply::json(&ChainList { chains })
}

/// `GET /v2/chains/{chainId}`.
pub fn get(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let (id, record) = api.chain(req.required_param("chainId")?)?;
    Reply::json(&chain_json(id, record))
}
