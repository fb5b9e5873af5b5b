//! `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight`: the DAG
//! vertices at one height (X-Chain only), paged by vertex index.

use snowline_query::FilterDigest;
use snowline_query::params::{SortOrder, page_size, required, u64_at_least};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListXChainVerticesResponse, XChainVertex};

use super::context::{XChainApi, page_error};
use crate::params::{bad, page_token};
use crate::target::resolve;

pub(crate) fn handle(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.network, &[Chain::X])?;
    let height = u64_at_least(
        "vertexHeight",
        required("vertexHeight", req.query("vertexHeight")).map_err(bad)?,
        0,
    )
    .map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let sort = SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?;
    let digest = FilterDigest::new("x-chain/vertices:listByHeight")
        .field("network", api.network.name)
        .field("vertexHeight", &height.to_string())
        .field("sortOrder", sort.as_str())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .vertices(height, sort, size, from.as_deref())
        .map_err(page_error)?;
    let next_page_token = page
        .next
        .map(|position| api.tokens.encode(&digest, &position, None));
    let vertices = page
        .vertices
        .into_iter()
        .map(|(index, v)| XChainVertex {
            vertex_hash: v.id.to_string(),
            parent_hashes: v.parent_ids.iter().map(ToString::to_string).collect(),
            vertex_height: height,
            vertex_index: index,
            vertex_timestamp: v.timestamp,
            tx_count: v.tx_ids.len() as u64,
            transactions: v.tx_ids.iter().map(ToString::to_string).collect(),
            vertex_size_bytes: u64::from(v.size),
        })
        .collect();
    Reply::json(&ListXChainVerticesResponse {
        next_page_token,
        vertices,
        chain_info: target.chain_info(),
    })
}
