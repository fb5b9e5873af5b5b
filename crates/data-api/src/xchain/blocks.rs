//! `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}`, `.../blocks` and
//! `.../nodes/{nodeId}/blocks` for the X-Chain: a linear block by its (proposervm) id, the
//! latest linear blocks newest first within a time range, and those a node proposed, with their
//! proposervm details.

use snowline_chain_x::history::XBlock;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{PrimaryChainInfo, PrimaryNetworkBlock};

use super::context::{XChainApi, page_error};
use crate::params::{bad, page_token};
use crate::primary::blocks::{BlockFacts, BlocksQuery};

/// avalanchego's Go type name of the X-Chain's linear blocks (`vms/avm/block.StandardBlock`).
const BLOCK_TYPE: &str = "StandardBlock";

fn record(b: &XBlock) -> PrimaryNetworkBlock {
    BlockFacts {
        height: b.height,
        id: b.row.container_id.to_string(),
        parent: b
            .proposer
            .map_or(b.row.parent_id, |p| p.parent_id)
            .to_string(),
        timestamp: b.row.block_time,
        block_type: BLOCK_TYPE,
        transactions: b.row.tx_ids.iter().map(ToString::to_string).collect(),
        size: u64::from(b.row.size),
        proposer: b.proposer.as_ref(),
        p_chain: None,
    }
    .record()
}

/// `getBlockById` on the X-Chain.
pub(crate) fn by_id(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let id = cb58_id("blockId", req.required_param("blockId")?).map_err(bad)?;
    match api.pages.block_by_id(&id).map_err(page_error)? {
        Some(b) => Reply::json(&record(&b)),
        None => Err(ApiError::not_found(format!(
            "block {id} is not an accepted X-Chain block"
        ))),
    }
}

/// `listLatestPrimaryNetworkBlocks` on the X-Chain.
pub(crate) fn latest(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let q = BlocksQuery::latest(req, api.network.name, "x-chain/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .latest_blocks(q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(record).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}

/// `listPrimaryNetworkBlocksByNodeId` on the X-Chain: the linear blocks whose proposervm
/// wrapper `nodeId` signed, newest first (an unsigned wrapper names no proposer).
pub(crate) fn by_node(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let (node, q) = BlocksQuery::by_node(req, api.network.name, "x-chain/nodes/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .blocks_by_proposer(node, q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(record).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}
