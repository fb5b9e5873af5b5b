//! `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}` and `.../blocks`
//! for the P-Chain: a block by id (`GetPrimaryNetworkBlockResponse`), and the latest blocks
//! newest first within a time range.

use snowline_query::FilterDigest;
use snowline_query::params::{TimeRange, cb58_id, page_size};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{ListPrimaryNetworkBlocksResponse, PrimaryChainInfo};

use super::blocks::record;
use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};

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
    let range =
        TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp")).map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let digest = FilterDigest::new("p-chain/blocks")
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
        blocks: page.blocks.iter().map(|(h, b)| record(*h, b)).collect(),
        chain_info,
    })
}
