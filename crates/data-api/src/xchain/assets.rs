//! `GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}` and
//! `.../assets/{assetId}/transactions` (X-Chain only): an asset's `XChainAssetDetails`, and the
//! txs consuming or emitting UTXOs of it, newest first.

use snowline_chain_x::history::{AssetInfo, XTxQuery};
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::ListXChainTransactionsResponse;
use snowline_types::{Chain, Id};

use super::context::{XChainApi, page_error};
use super::render::details;
use super::txs::X_TX_TYPES;
use crate::params::{bad, page_token};
use crate::primary::tx_params::TxListParams;
use crate::target::resolve;

/// The asset of the `assetId` path value: a malformed id is a 400, an unknown one a 404.
fn asset(api: &XChainApi, req: &Request) -> Result<(Id, AssetInfo), ApiError> {
    let id = cb58_id("assetId", req.required_param("assetId")?).map_err(bad)?;
    match api.pages.asset(&id).map_err(page_error)? {
        Some(a) => Ok((id, a)),
        None => Err(ApiError::not_found(format!(
            "asset {id} was not created on the indexed X-Chain"
        ))),
    }
}

/// `getAssetDetails`.
pub(crate) fn get(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    resolve(req, api.network, &[Chain::X])?;
    let (id, a) = asset(api, req)?;
    Reply::json(&details(&id, &a))
}

/// `listAssetTransactions`.
pub(crate) fn txs(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.network, &[Chain::X])?;
    let (id, _) = asset(api, req)?;
    let params = TxListParams::parse(req, api.network, Chain::X, &X_TX_TYPES)?;
    let digest = params.digest(
        &format!("x-chain/assets/{id}/transactions"),
        api.network.name,
    );
    let from = page_token(&api.tokens, req, &digest)?;
    let q = XTxQuery {
        addresses: Vec::new(),
        asset: Some(id),
        types: params.types.clone(),
        range: params.range,
        page_size: params.page_size,
        sort: params.sort,
    };
    let page = api.pages.txs(&q, from.as_deref()).map_err(page_error)?;
    Reply::json(&ListXChainTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page.txs.iter().map(|t| api.tx_record(t)).collect(),
        chain_info: target.chain_info(),
    })
}
