//! `GET /v1/chains/{chainId}/blocks/{blockId}`: one block by number or hash.

use snowline_chain_evm::pages::BlockId;
use snowline_query::params::{BlockRef, block_ref};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::B256;

use super::context::{EvmApi, page_error};
use super::render::evm_block;
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
    Reply::json(&evm_block(&chain.record.chain_id, number, &b))
}
