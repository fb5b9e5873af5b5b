//! `GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks` for the
//! P-Chain: the blocks a node proposed, newest first, with their proposervm details.

use snowline_chain_p::rows::BlockRow;
use snowline_query::FilterDigest;
use snowline_query::params::{TimeRange, node_id, page_size};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{
    ListPrimaryNetworkBlocksResponse, PrimaryChainInfo, PrimaryNetworkBlock, ProposerDetails,
};

use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};

pub(crate) fn handle(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let node = node_id("nodeId", req.required_param("nodeId")?).map_err(bad)?;
    let range =
        TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp")).map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let digest = FilterDigest::new("p-chain/nodes/blocks")
        .field("network", api.network.name)
        .field("nodeId", &node.to_string())
        .optional(
            "startTimestamp",
            range.start.map(|t| t.to_string()).as_deref(),
        )
        .optional("endTimestamp", range.end.map(|t| t.to_string()).as_deref())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .blocks_by_node(node, range, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPrimaryNetworkBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        blocks: page.blocks.iter().map(|(h, b)| record(*h, b)).collect(),
        chain_info,
    })
}

/// The `PrimaryNetworkBlock` of the block at `height`.
pub(crate) fn record(height: u64, b: &BlockRow) -> PrimaryNetworkBlock {
    PrimaryNetworkBlock {
        block_number: height.to_string(),
        block_hash: b.id.to_string(),
        parent_hash: b.parent_id.to_string(),
        block_timestamp: b.timestamp,
        block_type: b.block_type.clone(),
        tx_count: b.tx_ids.len() as u64,
        transactions: b.tx_ids.iter().map(ToString::to_string).collect(),
        block_size_bytes: u64::from(b.size),
        l1_validators_accrued_fees: Some(b.l1_accrued_fees),
        active_l1_validators: Some(u64::from(b.active_l1_validators)),
        current_supply: Some(b.current_supply.to_string()),
        proposer_details: b.proposer.as_ref().map(|p| ProposerDetails {
            proposer_id: Some(p.id.to_string()),
            proposer_parent_id: Some(p.parent_id.to_string()),
            proposer_node_id: p.node_id.map(|n| n.to_string()),
            proposer_p_chain_height: p.p_chain_height,
            proposer_timestamp: p.timestamp,
        }),
    }
}
