//! A chain's latest activity: `GET /v1/chains/{chainId}/blocks/{blockId}/transactions`
//! (`getTransactionsForBlock`, in block order), `GET /v1/chains/{chainId}/transactions`
//! (`listLatestTransactions`, newest first, by `status`) and `GET /v1/chains/{chainId}/blocks`
//! (`getLatestBlocks`, newest first).

use snowline_chain_evm::pages::{BlockId, StatusFilter};
use snowline_query::FilterDigest;
use snowline_query::params::{BlockRef, block_ref, page_size};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::B256;
use snowline_types::rest::evm::{ListEvmBlocksResponse, ListNativeTransactionsResponse};

use super::context::{EvmApi, page_error};
use super::render::{evm_block, hash, native_tx};
use crate::params::{bad, page_token, param_error};

/// `getTransactionsForBlock`: `pageSize` absent or 0 lists every tx of the block on one page
/// (the OpenAPI's default and minimum are 0); 1 to 100 pages them.
pub(crate) fn block_txs(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let raw = req.required_param("blockId")?;
    let (id, canonical) = match block_ref("blockId", raw).map_err(bad)? {
        BlockRef::Number(n) => (BlockId::Number(n), n.to_string()),
        BlockRef::Hash(h) => {
            let h = B256::from(h);
            (BlockId::Hash(h), hash(&h))
        }
    };
    let size = match req.query("pageSize") {
        None | Some("0") => None,
        Some(raw) => Some(page_size(Some(raw), 100).map_err(bad)?),
    };
    let digest = FilterDigest::new("evm/blocks/transactions")
        .field("chainId", &chain.id.to_string())
        .field("blockId", &canonical)
        .optional("pageSize", size.map(|s| s.to_string()).as_deref())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .block_txs(chain.id, id, size, from.as_deref())
        .map_err(page_error)?
        .ok_or_else(|| {
            ApiError::not_found(format!("block {raw} of chain {} is not indexed", chain.id))
        })?;
    Reply::json(&ListNativeTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page.txs.iter().map(|t| native_tx(t.chain, &t.tx)).collect(),
    })
}

/// `listLatestTransactions`.
pub(crate) fn txs(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let (status, raw_status) = status(req)?;
    let digest = FilterDigest::new("evm/transactions/latest")
        .field("chainId", &chain.id.to_string())
        .optional("status", raw_status)
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .latest_txs(chain.id, status, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListNativeTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page.txs.iter().map(|t| native_tx(t.chain, &t.tx)).collect(),
    })
}

/// `getLatestBlocks`.
pub(crate) fn blocks(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let digest = FilterDigest::new("evm/blocks/latest")
        .field("chainId", &chain.id.to_string())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .latest_blocks(chain.id, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListEvmBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        blocks: page
            .blocks
            .iter()
            .map(|b| evm_block(&chain.record.chain_id, b.number, &b.block))
            .collect(),
    })
}

/// The optional `status` (`TransactionStatus`: `failed` or `success`), with its wire spelling.
pub(crate) fn status(req: &Request) -> Result<(StatusFilter, Option<&str>), ApiError> {
    match req.query("status") {
        None => Ok((StatusFilter::Any, None)),
        Some("success") => Ok((StatusFilter::Success, Some("success"))),
        Some("failed") => Ok((StatusFilter::Failed, Some("failed"))),
        Some(raw) => Err(param_error("status", "must be one of failed, success", raw)),
    }
}
