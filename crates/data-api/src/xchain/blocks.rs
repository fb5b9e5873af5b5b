//! `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}`, `.../blocks` and
//! `.../nodes/{nodeId}/blocks` for the X-Chain: a linear block by its (proposervm) id, the
//! latest linear blocks newest first within a time range, and those a node proposed, with their
//! proposervm details.

use snowline_chain_x::history::XBlock;
use snowline_query::FilterDigest;
use snowline_query::params::{TimeRange, cb58_id, page_size};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{
    ListPrimaryNetworkBlocksResponse, PrimaryChainInfo, PrimaryNetworkBlock, ProposerDetails,
};

use super::context::{XChainApi, page_error};
use crate::params::{bad, page_token};
use crate::primary::node_blocks::NodeBlocksQuery;

/// avalanchego's Go type name of the X-Chain's linear blocks (`vms/avm/block.StandardBlock`).
const BLOCK_TYPE: &str = "StandardBlock";

fn record(b: &XBlock) -> PrimaryNetworkBlock {
    PrimaryNetworkBlock {
        block_number: b.height.to_string(),
        block_hash: b.row.container_id.to_string(),
        parent_hash: b
            .proposer
            .map_or(b.row.parent_id, |p| p.parent_id)
            .to_string(),
        block_timestamp: b.row.block_time,
        block_type: BLOCK_TYPE.to_owned(),
        tx_count: b.row.tx_ids.len() as u64,
        transactions: b.row.tx_ids.iter().map(ToString::to_string).collect(),
        block_size_bytes: u64::from(b.row.size),
        l1_validators_accrued_fees: None,
        active_l1_validators: None,
        current_supply: None,
        proposer_details: b.proposer.as_ref().map(|p| ProposerDetails {
            proposer_id: Some(p.id.to_string()),
            proposer_parent_id: Some(p.parent_id.to_string()),
            proposer_node_id: p.node_id.map(|n| n.to_string()),
            proposer_p_chain_height: p.p_chain_height,
            proposer_timestamp: p.timestamp,
        }),
    }
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
    let range =
        TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp")).map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let digest = FilterDigest::new("x-chain/blocks")
        .field("network", api.network.name)
        .optional(
            "startTimestamp",
            range.start.map(|t| t.to_string()).as_deref(),
        )
        .optional("endTimestamp", range.end.map(|t| t.to_string()).as_deref())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .latest_blocks(range, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPrimaryNetworkBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        blocks: page.blocks.iter().map(record).collect(),
        chain_info,
    })
}

/// `listPrimaryNetworkBlocksByNodeId` on the X-Chain: the linear blocks whose proposervm
/// wrapper `nodeId` signed, newest first (an unsigned wrapper names no proposer).
pub(crate) fn by_node(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let q = NodeBlocksQuery::parse(req, api.network.name, "x-chain/nodes/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .blocks_by_proposer(q.node, q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPrimaryNetworkBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        blocks: page.blocks.iter().map(record).collect(),
        chain_info,
    })
}
