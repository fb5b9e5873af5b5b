//! The X-Chain's DAG vertices: `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices`
//! (the latest first, `listLatestXChainVertices`), `.../vertices/{vertexHash}`
//! (`getVertexByHash`) and `.../vertices:listByHeight` (the vertices at one height, paged by
//! vertex index, `getVertexByHeight`). X-Chain only.

use snowline_chain_x::history::{VertexRow, XVertexEntry};
use snowline_query::FilterDigest;
use snowline_query::params::{SortOrder, cb58_id, page_size, required, u64_at_least};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListXChainVerticesResponse, XChainVertex};

use super::context::{XChainApi, page_error};
use crate::params::{bad, page_token};
use crate::target::resolve;

/// The `XChainVertex` of the vertex at `height` and `index`.
fn record(height: u64, index: u64, v: &VertexRow) -> XChainVertex {
    XChainVertex {
        vertex_hash: v.id.to_string(),
        parent_hashes: v.parent_ids.iter().map(ToString::to_string).collect(),
        vertex_height: height,
        vertex_index: index,
        vertex_timestamp: v.timestamp,
        tx_count: v.tx_ids.len() as u64,
        transactions: v.tx_ids.iter().map(ToString::to_string).collect(),
        vertex_size_bytes: u64::from(v.size),
    }
}

fn entry_record(e: &XVertexEntry) -> XChainVertex {
    record(e.height, e.index, &e.row)
}

/// `getVertexByHeight`.
pub(crate) fn by_height(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
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
        .iter()
        .map(|(index, v)| record(height, *index, v))
        .collect();
    Reply::json(&ListXChainVerticesResponse {
        next_page_token,
        vertices,
        chain_info: target.chain_info(),
    })
}

/// `listLatestXChainVertices`.
pub(crate) fn latest(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.network, &[Chain::X])?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let digest = FilterDigest::new("x-chain/vertices")
        .field("network", api.network.name)
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .latest_vertices(size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListXChainVerticesResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        vertices: page.vertices.iter().map(entry_record).collect(),
        chain_info: target.chain_info(),
    })
}

/// `getVertexByHash`.
pub(crate) fn by_hash(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    resolve(req, api.network, &[Chain::X])?;
    let id = cb58_id("vertexHash", req.required_param("vertexHash")?).map_err(bad)?;
    match api.pages.vertex_by_id(&id).map_err(page_error)? {
        Some(e) => Reply::json(&entry_record(&e)),
        None => Err(ApiError::not_found(format!(
            "vertex {id} is not an accepted X-Chain vertex"
        ))),
    }
}
