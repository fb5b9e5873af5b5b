//! `GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks` for the
//! P-Chain: the blocks a node proposed, newest first, with their proposervm details.

use snowline_chain_p::rows::BlockRow;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{
    ListPrimaryNetworkBlocksResponse, PrimaryChainInfo, PrimaryNetworkBlock, ProposerDetails,
};

use super::context::{PChainApi, page_error};
use crate::params::page_token;
use crate::primary::node_blocks::NodeBlocksQuery;

pub(crate) fn handle(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let q = NodeBlocksQuery::parse(req, api.network.name, "p-chain/nodes/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .pages
        .blocks_by_node(q.node, q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPrimaryNetworkBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
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
