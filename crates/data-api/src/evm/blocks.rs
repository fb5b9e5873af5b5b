//! `GET /v1/chains/{chainId}/blocks/{blockId}`: one block by number or hash.

use snowline_chain_evm::pages::BlockId;
use snowline_query::params::{BlockRef, block_ref};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::{B256, U256};
use snowline_types::rest::evm::GetEvmBlockResponse;

use super::context::{EvmApi, page_error};
use super::render::{base_fee, hash};
use crate::params::bad;

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let raw = req.required_param("blockId")?;
    let id = match block_ref("blockId", raw).map_err(bad)? {
        BlockRef::Number(n) => BlockId::Number(n),
        BlockRef::Hash(h) => BlockId::Hash(B256::from(h)),
    };
    let (number, b) = api
        .pages
        .block(chain.id, id)
        .map_err(page_error)?
        .ok_or_else(|| {
            ApiError::not_found(format!("block {raw} of chain {} is not indexed", chain.id))
        })?;
    Reply::json(&GetEvmBlockResponse {
        chain_id: chain.record.chain_id.clone(),
        block_number: number.to_string(),
        block_timestamp: b.timestamp,
        block_timestamp_milliseconds: None,
        block_min_delay_excess: None,
        block_hash: hash(&b.hash),
        tx_count: u64::from(b.tx_count),
        base_fee: base_fee(&b),
        gas_used: b.gas_used.to_string(),
        gas_limit: b.gas_limit.to_string(),
        gas_cost: b.block_gas_cost.unwrap_or(U256::ZERO).to_string(),
        parent_hash: hash(&b.parent),
        fees_spent: b.fees_spent.to_string(),
        cumulative_transactions: b.cumulative_txs.to_string(),
    })
}
