//! `GET /v2/chains` and `GET /v2/chains/{chainId}`: the chains of the registry that have
//! metrics in the store, as the OpenAPI's `Chain`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::ChainRecord;

use crate::context::{MetricsApi, read_failed};
use crate::render::{ChainJson, ChainList};

/// The chain as the OpenAPI's `Chain`. `subnetId` is required there: a record without one (an
/// L1 a sources file describes by its blockchain id) takes the subnet the P-Chain index says
/// the chain was created on, when the index has the P-Chain.
fn chain_json<'a>(
    api: &MetricsApi,
    id: u64,
    r: &'a ChainRecord,
) -> Result<ChainJson<'a>, ApiError> {
    let subnet_id = match (&r.subnet_id, r.blockchain_id(), api.p_chain().ok()) {
        (Some(subnet), _, _) => Some(subnet.clone()),
        (None, Some(blockchain), Some(p)) => p
            .chain(&blockchain)
            .map_err(|e| ApiError::internal(format!("reading the P-Chain index failed: {e}")))?
            .map(|row| row.subnet_id.to_string()),
        (None, _, _) => None,
    };
    Ok(ChainJson {
        evm_chain_id: id,
        chain_name: &r.chain_name,
        blockchain_id: r.platform_chain_id.as_deref(),
        subnet_id,
        network: if r.is_testnet { "testnet" } else { "mainnet" },
    })
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
        .map(|(id, r)| chain_json(api, id, r))
        .collect::<Result<_, _>>()?;
    Reply::json(&ChainList { chains })
}

/// `GET /v2/chains/{chainId}`.
pub fn get(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let (id, record) = api.chain(req.required_param("chainId")?)?;
    Reply::json(&chain_json(api, id, record)?)
}
