//! [`XHistoryReader`]: what the Data API's X-Chain endpoints read, as iterators in key order so
//! the query layer can k-way merge several addresses and page by keyset.

use snowline_store::{Direction, KeysetScans, ReadView};
use snowline_types::avm::Utxo;
use snowline_types::{Id, ShortId};

use super::rows::{AssetInfo, BlockRow, Holding, TxRow, UtxoRecord, VertexRow, locked_at};
use super::tables::{
    META_FIRST_TIME, META_GENESIS_TIME, META_LAST_TIME, META_X_BURNED, XhAllByAmount, XhAllByTime,
    XhAssets, XhBlocks, XhMeta, XhTxs, XhUnspentByAmount, XhUnspentByTime, XhUtxos, XhVertices,
};
use crate::error::XStateError;

/// The order of an address's UTXOs (`sortBy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UtxoOrder {
    /// By creation time (`timestamp`), then UTXO id.
    #[default]
    Timestamp,
    /// By amount, then UTXO id.
    Amount,
}

/// A UTXO's place in an address order: the sort value (creation time or amount) and its id.
/// Ordered as the keys are, so merging several addresses' scans is a comparison of positions,
/// and a UTXO owned by several of them shows up as equal adjacent positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UtxoPosition {
    /// Creation time (Unix s) or amount, per the order scanned.
    pub sort: u64,
    /// The UTXO id.
    pub utxo_id: Id,
}

impl From<UtxoPosition> for (u64, Id) {
    fn from(p: UtxoPosition) -> Self {
        (p.sort, p.utxo_id)
    }
}

impl From<(u64, Id)> for UtxoPosition {
    fn from((sort, utxo_id): (u64, Id)) -> Self {
        UtxoPosition { sort, utxo_id }
    }
}

/// A stored UTXO with its parsed form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryUtxo {
    /// The UTXO id.
    pub id: Id,
    /// The stored record (bytes, amount, chains, creation, consumption).
    pub record: UtxoRecord,
    /// The parsed UTXO (asset, output index, owners, locktime, threshold, NFT group/payload).
    pub utxo: Utxo,
}

/// Chain-wide facts for the blockchain details endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChainSummary {
    /// The genesis time given to `apply_genesis` (`createBlockTimestamp`).
    pub genesis_time: Option<u64>,
    /// Acceptance time of the first X-Chain container.
    pub first_container_time: Option<u64>,
    /// Acceptance time of the last X-Chain container.
    pub last_container_time: Option<u64>,
    /// Highest vertex height.
    pub vertex_height: Option<u64>,
    /// Highest linear block height.
    pub block_height: Option<u64>,
    /// nAVAX the X-Chain's txs burned, summed.
    pub burned: u64,
}

/// Positions of one address order, in key order (`Result` because a scan can fail midway).
pub type PositionScan<'a> = Box<dyn Iterator<Item = Result<UtxoPosition, XStateError>> + 'a>;

/// Reads the history tables over any [`ReadView`] (the store or a snapshot; use a snapshot so
/// every page of one request sees one state).
#[derive(Debug, Clone, Copy)]
pub struct XHistoryReader<'a, V: ReadView> {
    pub(crate) view: &'a V,
}

fn positions<'a, T, V>(
    view: &'a V,
    addr: &ShortId,
    from: Option<&UtxoPosition>,
    dir: Direction,
) -> Result<PositionScan<'a>, XStateError>
where
    V: ReadView,
    T: snowline_store::Table<Key = (ShortId, u64, Id), Value = ()> + 'a,
{
    let scan = view.positions::<T, ShortId>(addr, from.copied().map(Into::into), dir)?;
    Ok(Box::new(scan.map(|e| {
        e.map(UtxoPosition::from).map_err(XStateError::from)
    })))
}

impl<'a, V: ReadView> XHistoryReader<'a, V> {
    /// A reader over `view`.
    pub fn new(view: &'a V) -> Self {
        Self { view }
    }

    /// The UTXOs `addr` owns (alone or with others), in `order`, `dir` (`Reverse` = descending),
    /// resuming strictly past `from`; unspent only unless `include_spent`. Every UTXO the
    /// X-Chain history knows is listed: native ones, exports from X (until imported on P/C) and
    /// exports to X (until imported on X); [`UtxoRecord::holding`] tells them apart.
    pub fn utxos_by_address(
        &self,
        addr: &ShortId,
        order: UtxoOrder,
        include_spent: bool,
        from: Option<&UtxoPosition>,
        dir: Direction,
    ) -> Result<PositionScan<'a>, XStateError> {
        let v = self.view;
        match (order, include_spent) {
            (UtxoOrder::Timestamp, false) => positions::<XhUnspentByTime, V>(v, addr, from, dir),
            (UtxoOrder::Amount, false) => positions::<XhUnspentByAmount, V>(v, addr, from, dir),
            (UtxoOrder::Timestamp, true) => positions::<XhAllByTime, V>(v, addr, from, dir),
            (UtxoOrder::Amount, true) => positions::<XhAllByAmount, V>(v, addr, from, dir),
        }
    }

    /// One UTXO, spent or not.
    pub fn utxo(&self, id: &Id) -> Result<Option<HistoryUtxo>, XStateError> {
        self.view
            .get::<XhUtxos>(id)?
            .map(|record| parse(*id, record))
            .transpose()
    }

    /// The amount of `asset` in the unspent X-Chain UTXOs (not in atomic memory) `addr` owns,
    /// alone or with others, that were unlocked when created: the balance a
    /// `balance_threshold` webhook starts from, which the UTXO moves the history tells keep.
    pub fn unlocked_owned(&self, addr: &ShortId, asset: &Id) -> Result<u128, XStateError> {
        let mut sum = 0u128;
        let scan = positions::<XhUnspentByTime, V>(self.view, addr, None, Direction::Forward)?;
        for p in scan {
            let Some(u) = self.utxo(&p?.utxo_id)? else {
                continue;
            };
            let r = &u.record;
            if r.holding == Holding::Native
                && u.utxo.asset_id == *asset
                && !locked_at(&u.utxo.output, r.created.timestamp)
            {
                sum += u128::from(r.amount);
            }
        }
        Ok(sum)
    }

    /// Several UTXOs in one batched lookup (a page), in the order of `ids`.
    pub fn utxos(&self, ids: &[Id]) -> Result<Vec<Option<HistoryUtxo>>, XStateError> {
        self.view
            .multi_get::<XhUtxos>(ids)?
            .into_iter()
            .zip(ids)
            .map(|(r, id)| r.map(|record| parse(*id, record)).transpose())
            .collect()
    }

    /// The vertices at `height`, by vertex index, resuming strictly past index `from`.
    pub fn vertices_at_height(
        &self,
        height: u64,
        from: Option<u64>,
        dir: Direction,
    ) -> Result<impl Iterator<Item = Result<(u64, VertexRow), XStateError>> + 'a, XStateError> {
        let after = from.map(|i| (height, i));
        let scan = self
            .view
            .prefix_scan::<XhVertices, u64>(&height, after.as_ref(), dir)?;
        Ok(scan.map(|e| {
            e.map(|((_, index), row)| (index, row))
                .map_err(XStateError::from)
        }))
    }

    /// An asset created by a `CreateAssetTx`.
    pub fn asset(&self, id: &Id) -> Result<Option<AssetInfo>, XStateError> {
        Ok(self.view.get::<XhAssets>(id)?)
    }

    /// When and at which height a tx was accepted.
    pub fn tx(&self, id: &Id) -> Result<Option<TxRow>, XStateError> {
        Ok(self.view.get::<XhTxs>(id)?)
    }

    /// The linear block at `height`.
    pub fn block(&self, height: u64) -> Result<Option<BlockRow>, XStateError> {
        Ok(self.view.get::<XhBlocks>(&height)?)
    }

    /// Genesis time, first and last container times, highest vertex and block heights.
    pub fn summary(&self) -> Result<ChainSummary, XStateError> {
        let meta = |k: u8| self.view.get::<XhMeta>(&k);
        let last_vertex = self
            .view
            .scan::<XhVertices, _>(.., Direction::Reverse)?
            .next()
            .transpose()?;
        let last_block = self
            .view
            .scan::<XhBlocks, _>(.., Direction::Reverse)?
            .next()
            .transpose()?;
        Ok(ChainSummary {
            genesis_time: meta(META_GENESIS_TIME)?,
            first_container_time: meta(META_FIRST_TIME)?,
            last_container_time: meta(META_LAST_TIME)?,
            vertex_height: last_vertex.map(|((h, _), _)| h),
            block_height: last_block.map(|(h, _)| h),
            burned: meta(META_X_BURNED)?.unwrap_or(0),
        })
    }
}

pub(crate) fn parse(id: Id, record: UtxoRecord) -> Result<HistoryUtxo, XStateError> {
    let utxo = record
        .utxo()
        .map_err(|source| XStateError::StoredUtxo { id, source })?;
    Ok(HistoryUtxo { id, record, utxo })
}
