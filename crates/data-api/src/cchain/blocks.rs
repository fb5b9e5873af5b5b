//! `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}`, `.../blocks` and
//! `.../nodes/{nodeId}/blocks` for the C-Chain: a block by number, hash or (proposervm) id, the
//! latest blocks newest first within a time range, and those a node proposed, as the index's
//! `C/block` containers give them (their atomic txs, their proposervm details).

use snowline_chain_p::pages::CBlockRef;
use snowline_chain_p::rows::CBlockRow;
use snowline_query::params::{BlockRef, block_ref};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::{PrimaryChainInfo, PrimaryNetworkBlock};

use super::context::CChainApi;
use crate::params::page_token;
use crate::pchain::page_error;
use crate::primary::blocks::{BlockFacts, BlocksQuery};

/// coreth's Go type name of its blocks (`core/types.Block`).
const BLOCK_TYPE: &str = "Block";

/// The `PrimaryNetworkBlock` of the C-Chain block `number`: its coreth hashes, and its atomic
/// txs (the C-Chain's Primary Network txs; its EVM txs are the EVM operations').
fn record(number: u64, b: &CBlockRow) -> PrimaryNetworkBlock {
    BlockFacts {
        height: number,
        id: encode_hex_plain(&b.hash),
        parent: encode_hex_plain(&b.parent),
        timestamp: b.timestamp,
        block_type: BLOCK_TYPE,
        transactions: b.atomic_tx_ids.iter().map(ToString::to_string).collect(),
        size: u64::from(b.size),
        proposer: b.proposer.as_ref(),
        p_chain: None,
    }
    .record()
}

/// `getBlockById` on the C-Chain: `blockId` is a number, a `0x` hash or the container's cb58 id.
pub(crate) fn by_id(api: &CChainApi, req: &Request) -> Result<Reply, ApiError> {
    let raw = req.required_param("blockId")?;
    let r = match (block_ref("blockId", raw), raw.parse::<Id>()) {
        (Ok(BlockRef::Number(n)), _) => CBlockRef::Number(n),
        (Ok(BlockRef::Hash(h)), _) => CBlockRef::Hash(h),
        (Err(_), Ok(id)) => CBlockRef::Id(id),
        (Err(_), Err(_)) => {
            return Err(crate::params::param_error(
                "blockId",
                "a block number, a 0x block hash or a cb58 block id",
                raw,
            ));
        }
    };
    match api.p.c_block(r).map_err(page_error)? {
        Some((n, b)) => Reply::json(&record(n, &b)),
        None => Err(ApiError::not_found(format!(
            "block {raw} is not an accepted C-Chain block indexed here"
        ))),
    }
}

/// `listLatestPrimaryNetworkBlocks` on the C-Chain.
pub(crate) fn latest(
    api: &CChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let q = BlocksQuery::latest(req, api.network.name, "c-chain/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .p
        .latest_c_blocks(q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(|(n, b)| record(*n, b)).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}

/// `listPrimaryNetworkBlocksByNodeId` on the C-Chain: the blocks whose proposervm wrapper
/// `nodeId` signed, newest first.
pub(crate) fn by_node(
    api: &CChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let (node, q) = BlocksQuery::by_node(req, api.network.name, "c-chain/nodes/blocks")?;
    let from = page_token(&api.tokens, req, &q.digest)?;
    let page = api
        .p
        .c_blocks_by_node(node, q.range, q.size, from.as_deref())
        .map_err(page_error)?;
    let blocks = page.blocks.iter().map(|(n, b)| record(*n, b)).collect();
    q.reply(&api.tokens, blocks, page.next, chain_info)
}
