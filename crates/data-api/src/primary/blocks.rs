//! What the block operations share on every chain that serves them (`getBlockById`,
//! `listLatestPrimaryNetworkBlocks`, `listPrimaryNetworkBlocksByNodeId`): the listings' query
//! (the node, the time window, the page size, the digest page tokens are sealed under), the
//! `PrimaryNetworkBlock` record of a block's facts, and the listing's reply.

use snowline_query::params::{TimeRange, node_id, page_size};
use snowline_query::{Digest, FilterDigest, SealedPageTokens};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::NodeId;
use snowline_types::platformvm::ProposerDetails;
use snowline_types::rest::{
    ListPrimaryNetworkBlocksResponse, PrimaryChainInfo, PrimaryNetworkBlock,
    ProposerDetails as ProposerRecord,
};

use crate::params::bad;

/// A block listing's query, parsed once.
pub(crate) struct BlocksQuery {
    /// `startTimestamp`..`endTimestamp`.
    pub(crate) range: TimeRange,
    /// Blocks per page.
    pub(crate) size: usize,
    /// What the listing's page tokens are sealed under (`listing` names the chain's listing).
    pub(crate) digest: Digest,
}

impl BlocksQuery {
    /// Parses the latest blocks listing `listing` (e.g. `p-chain/blocks`) on `network`.
    pub(crate) fn latest(req: &Request, network: &str, listing: &str) -> Result<Self, ApiError> {
        Self::parse(req, network, listing, None)
    }

    /// Parses a node's blocks listing `listing` (e.g. `p-chain/nodes/blocks`) on `network`:
    /// the node, and the query.
    pub(crate) fn by_node(
        req: &Request,
        network: &str,
        listing: &str,
    ) -> Result<(NodeId, Self), ApiError> {
        let node = node_id("nodeId", req.required_param("nodeId")?).map_err(bad)?;
        Ok((node, Self::parse(req, network, listing, Some(node))?))
    }

    fn parse(
        req: &Request,
        network: &str,
        listing: &str,
        node: Option<NodeId>,
    ) -> Result<Self, ApiError> {
        let range = TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp"))
            .map_err(bad)?;
        let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
        let digest = FilterDigest::new(listing)
            .field("network", network)
            .optional("nodeId", node.map(|n| n.to_string()).as_deref())
            .optional(
                "startTimestamp",
                range.start.map(|t| t.to_string()).as_deref(),
            )
            .optional("endTimestamp", range.end.map(|t| t.to_string()).as_deref())
            .finish();
        Ok(Self {
            range,
            size,
            digest,
        })
    }

    /// The listing's reply: `blocks`, and the token of the page after them when `next` says
    /// where it starts.
    pub(crate) fn reply(
        &self,
        tokens: &SealedPageTokens,
        blocks: Vec<PrimaryNetworkBlock>,
        next: Option<Vec<u8>>,
        chain_info: PrimaryChainInfo,
    ) -> Result<Reply, ApiError> {
        Reply::json(&ListPrimaryNetworkBlocksResponse {
            next_page_token: next.map(|p| tokens.encode(&self.digest, &p, None)),
            blocks,
            chain_info,
        })
    }
}

/// What a chain knows of a block, for its `PrimaryNetworkBlock`.
pub(crate) struct BlockFacts<'a> {
    /// Height.
    pub(crate) height: u64,
    /// The id the chain knows it by, as the chain writes it.
    pub(crate) id: String,
    /// The parent's id, likewise.
    pub(crate) parent: String,
    /// Block time, Unix seconds.
    pub(crate) timestamp: u64,
    /// avalanchego's (or coreth's) Go type name of the block.
    pub(crate) block_type: &'a str,
    /// The ids of its txs, in order.
    pub(crate) transactions: Vec<String>,
    /// Its size, bytes.
    pub(crate) size: u64,
    /// Its proposervm wrapper, when it had one.
    pub(crate) proposer: Option<&'a ProposerDetails>,
    /// The P-Chain's figures after the block: fees accrued per L1 validator, active L1
    /// validators, current supply.
    pub(crate) p_chain: Option<(u64, u64, u64)>,
}

impl BlockFacts<'_> {
    /// The `PrimaryNetworkBlock` these facts make.
    pub(crate) fn record(self) -> PrimaryNetworkBlock {
        let (fees, active, supply) = match self.p_chain {
            Some((f, a, s)) => (Some(f), Some(a), Some(s.to_string())),
            None => (None, None, None),
        };
        PrimaryNetworkBlock {
            block_number: self.height.to_string(),
            block_hash: self.id,
            parent_hash: self.parent,
            block_timestamp: self.timestamp,
            block_type: self.block_type.to_owned(),
            tx_count: self.transactions.len() as u64,
            transactions: self.transactions,
            block_size_bytes: self.size,
            l1_validators_accrued_fees: fees,
            active_l1_validators: active,
            current_supply: supply,
            proposer_details: self.proposer.map(|p| ProposerRecord {
                proposer_id: Some(p.id.to_string()),
                proposer_parent_id: Some(p.parent_id.to_string()),
                proposer_node_id: p.node_id.map(|n| n.to_string()),
                proposer_p_chain_height: p.p_chain_height,
                proposer_timestamp: p.timestamp,
            }),
        }
    }
}
