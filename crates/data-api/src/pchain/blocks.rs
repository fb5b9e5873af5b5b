//! `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}`, `.../blocks` and
//! `.../nodes/{nodeId}/blocks` for the P-Chain: a block by id, the latest blocks newest first
//! within a time range, and those a node proposed, with their proposervm details.

use snowline_chain_p::rows::BlockRow;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{PrimaryChainInfo, PrimaryNetworkBlock};

use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};
use crate::primary::blocks::{BlockFacts, BlocksQuery};

/// The `PrimaryNetworkBlock` of the block at `height`.
fn record(height: u64, b: &BlockRow) -> PrimaryNetworkBlock {
    BlockFacts {
        height,
        id: b.id.to_string(),
        parent: b.parent_id.to_string(),
        timestamp: b.timestamp,
        block_type: &b.block_type,
        transactions: b.tx_ids.iter().map(ToString::to_string).collect(),
        size: u64::from(b.size),
        proposer: b.proposer.as_ref(),
        p_chain: Some((
            b.l1_accrued_fees,
            u64::from(b.active_l1_validators),
            b.current_supply,
        )),
    }
    .record()
}

/// `getBlockById` on the P-Chain.
pub(crate) fn by_id(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    let id = cb58_id("blockId", req.required_param("blockId")?).map_err(bad)?;
    match api.pages.block_by_id(&id).map_err(page_error)? {
        Some((height, b)) => Reply::json(&record(height, &b)),
        None => Err(ApiError::not_found(format!(
            "block {id} is not an accepted P-Chain block"
        ))),
    }
}

/// `listLatestPrimaryNetworkBlocks` on the P-Chain.
pub(crate) fn latest(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let q = BlocksQuery::latest(req, api.network.name, "p-chain/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .latest_blocks(q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(|(h, b)| record(*h, b)).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}

/// `listPrimaryNetworkBlocksByNodeId` on the P-Chain.
pub(crate) fn by_node(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let (node, q) = BlocksQuery::by_node(req, api.network.name, "p-chain/nodes/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .blocks_by_node(node, q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(|(h, b)| record(*h, b)).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}
