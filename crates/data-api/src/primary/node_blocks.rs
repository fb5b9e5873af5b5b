//! The query of `listPrimaryNetworkBlocksByNodeId`, the same on every chain that serves it: the
//! node, the time window, the page size, and the digest its page tokens are sealed under.

use snowline_query::params::{TimeRange, node_id, page_size};
use snowline_query::{Digest, FilterDigest};
use snowline_rest_api::{ApiError, Request};
use snowline_types::NodeId;

use crate::params::bad;

/// A node's blocks listing, parsed once.
pub(crate) struct NodeBlocksQuery {
    /// The proposer asked for.
    pub(crate) node: NodeId,
    /// `startTimestamp`..`endTimestamp`.
    pub(crate) range: TimeRange,
    /// Blocks per page.
    pub(crate) size: usize,
    /// What the listing's page tokens are sealed under (`listing` names the chain's listing).
    pub(crate) digest: Digest,
}

impl NodeBlocksQuery {
    /// Parses `req` for the listing `listing` (e.g. `p-chain/nodes/blocks`) on `network`.
    pub(crate) fn parse(req: &Request, network: &str, listing: &str) -> Result<Self, ApiError> {
        let node = node_id("nodeId", req.required_param("nodeId")?).map_err(bad)?;
        let range = TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp"))
            .map_err(bad)?;
        let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
        let digest = FilterDigest::new(listing)
            .field("network", network)
            .field("nodeId", &node.to_string())
            .optional(
                "startTimestamp",
                range.start.map(|t| t.to_string()).as_deref(),
            )
            .optional("endTimestamp", range.end.map(|t| t.to_string()).as_deref())
            .finish();
        Ok(Self {
            node,
            range,
            size,
            digest,
        })
    }
}
