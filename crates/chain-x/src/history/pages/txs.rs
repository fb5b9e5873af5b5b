//! X-Chain txs as the Data API shows them: one by id, and listings newest (or oldest) first by
//! the time each was first accepted, of a set of addresses (their merged `xh_txs_by_address`
//! orders, a tx several of them take part in listed once) or of the whole chain
//! (`xh_txs_by_time`), filtered by tx type. A tx comes with its body (read back from its
//! container), where it was accepted (a linear block, or the DAG's vertices), the UTXOs it
//! consumed and emitted, and the assets they hold.

use std::collections::{BTreeSet, HashMap};

use snowline_node_index::IndexReader;
use snowline_query::params::{SortOrder, TimeRange};
use snowline_query::{FilteredPage, decode_position, encode_position, merged_page};
use snowline_store::{Direction, KeysetScans, ReadView, StoreError};
use snowline_types::avm::{Tx, UnsignedTx};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::{Id, ShortId};

use super::{Assets, PageError, XHistoryPages, assets};
use crate::container::XContainer;
use crate::error::XStateError;
use crate::history::reader::{HistoryUtxo, XHistoryReader};
use crate::history::rows::{AssetInfo, TxRow};
use crate::history::tables::{
    TX_EMITTED, XhAssets, XhBlocks, XhTxUtxos, XhTxs, XhTxsByAddress, XhTxsByAsset, XhTxsByTime,
};

/// The Data API's `XChainTransactionType` of a tx.
pub fn tx_type(tx: &UnsignedTx) -> &'static str {
    match tx {
        UnsignedTx::Base(_) => "BaseTx",
        UnsignedTx::CreateAsset(_) => "CreateAssetTx",
        UnsignedTx::Operation(_) => "OperationTx",
        UnsignedTx::Import(_) => "ImportTx",
        UnsignedTx::Export(_) => "ExportTx",
    }
}

/// What a tx listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XTxQuery {
    /// The addresses whose txs are listed (empty: every tx of the chain, or of `asset`).
    pub addresses: Vec<ShortId>,
    /// The asset whose txs are listed (with no addresses).
    pub asset: Option<Id>,
    /// Only txs of these Data API types (empty: any).
    pub types: BTreeSet<String>,
    /// Only txs first accepted in the range.
    pub range: TimeRange,
    /// Txs per page.
    pub page_size: usize,
    /// By first acceptance time, then tx id.
    pub sort: SortOrder,
}

/// Where a tx was accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XTxPlace {
    /// In a linear block: its height and id (the proposervm container's).
    Block {
        /// Height.
        height: u64,
        /// Container id.
        id: Id,
    },
    /// In the DAG: the vertices holding it, `(id, height, acceptance time)`.
    Vertices(Vec<(Id, u64, u64)>),
}

/// One X-Chain tx with everything its Data API record shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XTx {
    /// The tx id.
    pub id: Id,
    /// Its first acceptance.
    pub row: TxRow,
    /// The unsigned tx.
    pub tx: UnsignedTx,
    /// Where it was accepted.
    pub place: XTxPlace,
    /// The UTXOs it consumed, in input order.
    pub consumed: Vec<HistoryUtxo>,
    /// The UTXOs it emitted, by output index.
    pub emitted: Vec<HistoryUtxo>,
    /// Every asset those hold, and the asset it creates.
    pub assets: Assets,
    /// A `CreateAssetTx`'s asset.
    pub created_asset: Option<AssetInfo>,
}

/// One page of txs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XTxPage {
    /// The txs, in the order asked.
    pub txs: Vec<XTx>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// A position in a listing: `(first acceptance time, tx id)`.
type Position = (u64, Id);

impl XHistoryPages {
    /// The asset `id`, if a `CreateAssetTx` created it.
    pub fn asset(&self, id: &Id) -> Result<Option<AssetInfo>, PageError> {
        Ok(self.store.snapshot().get::<XhAssets>(id)?)
    }

    /// The accepted tx `id` with its details; `None` for an id the chain never accepted (genesis
    /// txs are in no container).
    pub fn tx_details(&self, id: &Id) -> Result<Option<XTx>, PageError> {
        let snapshot = self.store.snapshot();
        let Some(row) = snapshot.get::<XhTxs>(id)? else {
            return Ok(None);
        };
        let mut bodies = Bodies::default();
        let Some((tx, place)) = bodies.find(&snapshot, id, &row)? else {
            return Ok(None);
        };
        Ok(Some(details(&snapshot, *id, row, tx, place)?))
    }

    /// One page of txs as `q` asks, resuming strictly past `from` (a [`XTxPage::next`] of the
    /// same query).
    pub fn txs(&self, q: &XTxQuery, from: Option<&[u8]>) -> Result<XTxPage, PageError> {
        let from = from
            .map(|b| decode_position::<Position>(b).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let dir = match q.sort {
            SortOrder::Asc => Direction::Forward,
            SortOrder::Desc => Direction::Reverse,
        };
        let edge = match q.sort {
            SortOrder::Desc => q.range.end.map(|e| (e, Id::EMPTY)),
            SortOrder::Asc => q
                .range
                .start
                .and_then(|s| s.checked_sub(1))
                .map(|s| (s, Id([0xff; 32]))),
        };
        let start = match (from, edge) {
            (Some(f), Some(e)) => Some(match q.sort {
                SortOrder::Desc => f.min(e),
                SortOrder::Asc => f.max(e),
            }),
            (f, e) => f.or(e),
        };
        type Scan<'s> = Box<dyn Iterator<Item = Result<Position, PageError>> + 's>;
        let scans: Vec<Scan<'_>> = if let (true, Some(asset)) = (q.addresses.is_empty(), q.asset) {
            let scan = v.positions::<XhTxsByAsset, _>(&asset, start, dir)?;
            vec![Box::new(scan.map(|p| p.map_err(PageError::from)))]
        } else if q.addresses.is_empty() {
            let scan = match (start, dir) {
                (None, _) => v.scan::<XhTxsByTime, _>(.., dir)?,
                (Some(s), Direction::Reverse) => v.scan::<XhTxsByTime, _>(..s, dir)?,
                (Some(s), Direction::Forward) => v.scan::<XhTxsByTime, _>(
                    (std::ops::Bound::Excluded(s), std::ops::Bound::Unbounded),
                    dir,
                )?,
            };
            vec![Box::new(
                scan.map(|e| e.map(|(p, ())| p).map_err(PageError::from)),
            )]
        } else {
            q.addresses
                .iter()
                .map(|a| {
                    let scan = v.positions::<XhTxsByAddress, _>(a, start, dir)?;
                    Ok(Box::new(scan.map(|p| p.map_err(PageError::from))) as Scan<'_>)
                })
                .collect::<Result<_, PageError>>()?
        };
        let mut bodies = Bodies::default();
        let page: FilteredPage<Position, (TxRow, UnsignedTx, XTxPlace)> = merged_page(
            scans,
            q.sort,
            q.page_size,
            |chunk: &[Position]| {
                let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
                let rows = v.multi_get::<XhTxs>(&ids)?;
                ids.iter()
                    .zip(rows)
                    .map(|(id, row)| {
                        let row =
                            row.ok_or_else(|| corrupt(format!("tx {id} is listed, not stored")))?;
                        let (tx, place) = bodies
                            .find(v, id, &row)?
                            .ok_or_else(|| corrupt(format!("tx {id} is in no container")))?;
                        Ok((row, tx, place))
                    })
                    .collect()
            },
            |_, (_, tx, _)| q.types.is_empty() || q.types.contains(tx_type(tx)),
            |(ts, _)| match q.sort {
                SortOrder::Desc => q.range.start.is_some_and(|s| *ts < s),
                SortOrder::Asc => q.range.end.is_some_and(|e| *ts >= e),
            },
        )?;
        let next = page.next.as_ref().map(encode_position);
        let txs = page
            .items
            .into_iter()
            .map(|((_, id), (row, tx, place))| details(v, id, row, tx, place))
            .collect::<Result<_, _>>()?;
        Ok(XTxPage { txs, next })
    }
}

fn corrupt(what: String) -> PageError {
    PageError::Read(XStateError::Corrupt(what))
}

/// The containers a read parsed, each once.
#[derive(Default)]
struct Bodies(HashMap<(IndexPath, Id), XContainer>);

impl Bodies {
    fn container(
        &mut self,
        v: &impl ReadView,
        path: IndexPath,
        id: &Id,
    ) -> Result<Option<&XContainer>, PageError> {
        if let std::collections::hash_map::Entry::Vacant(slot) = self.0.entry((path, *id)) {
            let Some(c) = IndexReader::new(v, path)
                .by_id(id)
                .map_err(|e| corrupt(format!("{path} container {id}: {e}")))?
            else {
                return Ok(None);
            };
            let record = ContainerRecord {
                path,
                id: c.id,
                bytes: c.bytes,
                timestamp_ns: c.timestamp_ns,
            };
            slot.insert(XContainer::parse(&record)?);
        }
        Ok(self.0.get(&(path, *id)))
    }

    /// Tx `id`'s body and place: its linear block (at the row's height; the tx alone when the
    /// row keeps where it lies, else from the block parsed once), else its `X/tx` container and
    /// the vertices at the row's height holding it.
    fn find(
        &mut self,
        v: &impl ReadView,
        id: &Id,
        row: &TxRow,
    ) -> Result<Option<(UnsignedTx, XTxPlace)>, PageError> {
        let Some(height) = row.height else {
            return Ok(None);
        };
        if let Some(block) = v.get::<XhBlocks>(&height)? {
            if let Some(place) = row.place {
                // The tx alone, from its bytes in the block's container.
                let path = IndexPath::XBlock;
                let c = IndexReader::new(v, path)
                    .by_id(&block.container_id)
                    .map_err(|e| corrupt(format!("{path} container {}: {e}", block.container_id)))?
                    .ok_or_else(|| corrupt(format!("tx {id}: its block is not indexed")))?;
                let body = place
                    .slice(&c.bytes)
                    .ok_or_else(|| corrupt(format!("tx {id} lies past its block's bytes")))?;
                let tx = Tx::parse_nested(body).map_err(|e| corrupt(format!("tx {id}: {e}")))?;
                let place = XTxPlace::Block {
                    height,
                    id: block.container_id,
                };
                return Ok(Some((tx.unsigned, place)));
            }
            if let Some(i) = block.tx_ids.iter().position(|t| t == id) {
                if let Some(XContainer::Block { block: b, .. }) =
                    self.container(v, IndexPath::XBlock, &block.container_id)?
                {
                    if let Some(tx) = b.block.txs.get(i) {
                        let place = XTxPlace::Block {
                            height,
                            id: block.container_id,
                        };
                        return Ok(Some((tx.unsigned.clone(), place)));
                    }
                }
            }
        }
        let vertices: Vec<(Id, u64, u64)> = XHistoryReader::new(v)
            .vertices_at_height(height, None, Direction::Forward)?
            .filter_map(|e| match e {
                Ok((_, vx)) if vx.tx_ids.contains(id) => Some(Ok((vx.id, height, vx.timestamp))),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            })
            .collect::<Result<_, XStateError>>()?;
        if let Some(XContainer::Tx(t)) = self.container(v, IndexPath::XTx, id)? {
            return Ok(Some((t.tx.unsigned.clone(), XTxPlace::Vertices(vertices))));
        }
        for (vid, ..) in &vertices {
            if let Some(XContainer::Vertex(vx)) = self.container(v, IndexPath::XVtx, vid)? {
                if let Some(t) = vx.txs.iter().find(|t| t.id == *id) {
                    let tx = t.tx.unsigned.clone();
                    return Ok(Some((tx, XTxPlace::Vertices(vertices.clone()))));
                }
            }
        }
        Ok(None)
    }
}

/// Everything the record of tx `id` shows.
fn details(
    v: &impl ReadView,
    id: Id,
    row: TxRow,
    tx: UnsignedTx,
    place: XTxPlace,
) -> Result<XTx, PageError> {
    let links: Vec<(u8, Id)> = v
        .prefix_scan::<XhTxUtxos, Id>(&id, None, Direction::Forward)?
        .map(|e| e.map(|((_, role, utxo), ())| (role, utxo)))
        .collect::<Result<_, StoreError>>()?;
    let ids: Vec<Id> = links.iter().map(|(_, u)| *u).collect();
    let utxos = XHistoryReader::new(v).utxos(&ids)?;
    let (mut consumed, mut emitted) = (Vec::new(), Vec::new());
    for ((role, uid), u) in links.into_iter().zip(utxos) {
        let u = u.ok_or_else(|| corrupt(format!("tx {id} names UTXO {uid}, not stored")))?;
        if role == TX_EMITTED {
            emitted.push(u);
        } else {
            consumed.push(u);
        }
    }
    let inputs: Vec<Id> = tx.input_utxos().iter().map(|u| u.id()).collect();
    consumed.sort_by_key(|u| inputs.iter().position(|i| *i == u.id).unwrap_or(usize::MAX));
    emitted.sort_by_key(|u| u.utxo.utxo_id.output_index);
    let created_asset = match &tx {
        UnsignedTx::CreateAsset(_) => v.get::<XhAssets>(&id)?,
        _ => None,
    };
    let asset_ids = consumed
        .iter()
        .chain(&emitted)
        .map(|u| u.utxo.asset_id)
        .chain(created_asset.as_ref().map(|_| id));
    let assets = assets(v, asset_ids)?;
    Ok(XTx {
        id,
        row,
        tx,
        place,
        consumed,
        emitted,
        assets,
        created_asset,
    })
}
