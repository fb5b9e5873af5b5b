//! `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight`: the DAG
//! vertices at one height (X-Chain only), paged by vertex index.

use snowline_indexer::history::XHistoryReader;
use snowline_query::params::{SortOrder, page_size, required, u64_at_least};
use snowline_query::{FilterDigest, PositionReader, PositionWriter};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_store::Direction;
use snowline_types::Chain;
use snowline_types::rest::{ListXChainVerticesResponse, XChainVertex};

use super::context::{XChainApi, internal};
use crate::params::{bad, invalid_token, page_token};

pub(crate) fn handle(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = api.x_target(req, &[Chain::X])?;
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
    let from = match page_token(api, req, &digest)? {
        Some(bytes) => {
            let mut r = PositionReader::new(&bytes);
            let index = r
                .u64()
                .and_then(|i| r.finish().map(|()| i))
                .map_err(|_| invalid_token())?;
            Some(index)
        }
        None => None,
    };
    let dir = match sort {
        SortOrder::Asc => Direction::Forward,
        SortOrder::Desc => Direction::Reverse,
    };
    let snapshot = api.store.snapshot();
    let reader = XHistoryReader::new(&snapshot);
    let mut rows = reader
        .vertices_at_height(height, from, dir)
        .map_err(internal)?
        .take(size + 1)
        .collect::<Result<Vec<_>, _>>()
        .map_err(internal)?;
    let next_page_token = if rows.len() > size {
        rows.truncate(size);
        rows.last().map(|(index, _)| {
            let mut w = PositionWriter::new();
            w.u64(*index);
            api.tokens.encode(&digest, &w.finish(), None)
        })
    } else {
        None
    };
    let vertices = rows
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
