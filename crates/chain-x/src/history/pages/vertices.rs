//! The DAG's vertices one at a time: by id, and the latest first, as the X-Chain history
//! recorded them (`xh_vertices`, keyed by height and the vertex's position in `X/vtx`). The
//! container index gives a vertex's position (`X/vtx` by id) and, from its bytes, its height.

use snowline_node_index::{IndexReader, IndexedContainer};
use snowline_query::{decode_position, encode_position};
use snowline_store::ReadView;
use snowline_types::Id;
use snowline_types::container::IndexPath;
use snowline_types::vertex::Vertex;

use super::{PageError, XHistoryPages};
use crate::error::XStateError;
use crate::history::rows::VertexRow;
use crate::history::tables::XhVertices;

/// A vertex as listed: its height, its index (position in `X/vtx`) and its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XVertexEntry {
    /// Its height.
    pub height: u64,
    /// Its position in `X/vtx`.
    pub index: u64,
    /// What the history recorded.
    pub row: VertexRow,
}

/// One page of the latest vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatestVertexPage {
    /// The vertices, newest first.
    pub vertices: Vec<XVertexEntry>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

fn corrupt(what: String) -> PageError {
    PageError::Read(XStateError::Corrupt(what))
}

/// The history's entry of the `X/vtx` container `c`.
fn entry(v: &impl ReadView, c: &IndexedContainer) -> Result<XVertexEntry, PageError> {
    let height = Vertex::parse(&c.bytes)
        .map_err(|e| corrupt(format!("X/vtx container {}: {e}", c.id)))?
        .vertex
        .height;
    let row = v
        .get::<XhVertices>(&(height, c.index))?
        .ok_or_else(|| corrupt(format!("vertex {} is indexed, not recorded", c.id)))?;
    Ok(XVertexEntry {
        height,
        index: c.index,
        row,
    })
}

impl XHistoryPages {
    /// The accepted vertex `id`, if any.
    pub fn vertex_by_id(&self, id: &Id) -> Result<Option<XVertexEntry>, PageError> {
        let snapshot = self.store.snapshot();
        let found = IndexReader::new(&snapshot, IndexPath::XVtx)
            .by_id(id)
            .map_err(|e| corrupt(format!("X/vtx container {id}: {e}")))?;
        found.map(|c| entry(&snapshot, &c)).transpose()
    }

    /// One page of the accepted vertices, newest (highest `X/vtx` position) first, resuming
    /// strictly past `from` (a [`LatestVertexPage::next`]).
    pub fn latest_vertices(
        &self,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<LatestVertexPage, PageError> {
        let from = from
            .map(|bytes| decode_position::<u64>(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let reader = IndexReader::new(&snapshot, IndexPath::XVtx);
        let len = reader.len().map_err(|e| corrupt(format!("X/vtx: {e}")))?;
        // The positions to read, newest first: below `from`, or from the last one.
        let top = from.map_or(len, |f| f.min(len));
        let n = (page_size as u64).min(top);
        let containers = reader
            .range(top - n, n)
            .map_err(|e| corrupt(format!("X/vtx: {e}")))?;
        let vertices = containers
            .iter()
            .rev()
            .map(|c| entry(&snapshot, c))
            .collect::<Result<Vec<_>, _>>()?;
        let next = match vertices.last() {
            Some(last) if last.index > 0 && vertices.len() == page_size => {
                Some(encode_position(&last.index))
            }
            _ => None,
        };
        Ok(LatestVertexPage { vertices, next })
    }
}
