//! Applying accepted X-Chain containers to the state tables: [`XChainState`] is the
//! [`Derive`] hook of the node-index ingest loop, so derived rows commit in the same atomic batch
//! as the containers they come from (a crash leaves both or neither). `P/block` containers give
//! it the P-Chain's exports to X, the UTXOs waiting in X's shared memory.

use std::collections::HashSet;
use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use snowline_derive::atomic::{self, Imported, SharedRows, Stand};
use snowline_derive::{
    Derive, DeriveError, Overlay, PendingRows, Staging, StagingParts, Versions, settle,
};
use snowline_store::{Desc, OpHandle, ReadView, Store, WriteBatch};
use snowline_types::Id;
use snowline_types::atomic::{AtomicTxs, SharedMove};
use snowline_types::avm::{Tx, UnsignedTx, Utxo};
use snowline_types::container::{ContainerRecord, IndexPath};

use super::rows::StoredBytes;
use super::tables::{
    AssetRow, META_GENESIS, META_NEXT_ATOMIC_SEQ, META_NEXT_C_ATOMIC_SEQ, META_NEXT_SEQ, UtxoRow,
    XAddrUtxoPos, XAddrUtxos, XAssetAliases, XAssetPrimaryAlias, XAssets, XAtomicAddrPos,
    XAtomicAddrUtxos, XAtomicConsumed, XAtomicEarlyImports, XAtomicUtxos, XBlockIds, XBlocks,
    XMeta, XTxs, XUtxos,
};
use crate::container::{X_DERIVE_PATHS, XContainer};
use crate::error::XStateError;
use snowline_types::avm::XGenesisState;
use snowline_types::avm::outputs::{owners, produced_utxos};

/// Counters of what [`XChainState`] applied since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct XStats {
    /// Txs applied (duplicates not counted).
    pub txs: u64,
    /// Txs skipped because they were already applied (a DAG tx in `X/tx` and in its vertex).
    pub duplicate_txs: u64,
    /// Blocks applied.
    pub blocks: u64,
    /// Inputs whose UTXO was not in the state (e.g. a mainnet genesis UTXO when the genesis
    /// was not loaded); they are skipped.
    pub missing_inputs: u64,
    /// Imports from the P-Chain derived before the `P/block` that exported their UTXO: the
    /// export then leaves the UTXO out of shared memory.
    pub early_imports: u64,
}

/// A sequence counter kept in `x_meta` under `key`, loaded lazily (`None` until then), as the
/// unwritten batches leave it.
#[derive(Debug)]
struct Counter {
    key: u8,
    value: Versions<Option<u64>>,
}

impl Counter {
    fn new(key: u8) -> Self {
        Self {
            key,
            value: Versions::default(),
        }
    }

    /// The next number, counted as taken.
    fn take(&mut self, view: &impl ReadView) -> Result<u64, XStateError> {
        let seq = match self.value.staged() {
            Some(s) => s,
            None => {
                // Never loaded (so nothing is unwritten): the store's value in every generation.
                let s = view.get::<XMeta>(&self.key)?.unwrap_or(0);
                self.value = Versions::new(Some(s));
                s
            }
        };
        *self.value.staged_mut() = Some(seq.checked_add(1).ok_or(XStateError::SeqOverflow)?);
        Ok(seq)
    }

    /// Adds the counter to `batch` if the batch moved it.
    fn flush(&self, batch: &mut WriteBatch) {
        if let Some(seq) = self.value.staged() {
            if Some(seq) != self.value.written() {
                batch.put::<XMeta>(&self.key, &seq);
            }
        }
    }
}

impl StagingParts for Counter {
    fn parts(&mut self) -> impl Staging + '_ {
        &mut self.value
    }
}

/// A UTXO the current batch touched.
#[derive(Debug)]
enum Pending {
    /// Created in the batch: the batch's puts of it (the UTXO row and its address index rows),
    /// withdrawn if the batch also spends it, and the row itself.
    Created { puts: Vec<OpHandle>, row: UtxoRow },
    /// Spent in the batch, its row deleted.
    Spent,
    /// Created and spent in the batch: never written, nothing to remember once it is finished.
    Withdrawn,
}

/// What [`XChainState::read_ahead`] read from the store for one container.
#[derive(Debug, Default)]
struct ReadAhead {
    /// Txs of the container already stored.
    stored_txs: FxHashSet<Id>,
    /// The stored rows (or their absence) of the inputs the container spends, taken as spent.
    utxos: FxHashMap<Id, Option<UtxoRow>>,
    /// The UTXO ids each tx consumes (hashed once), tx `i`'s at `spent[ranges[i]]`; empty for
    /// a tx already applied.
    spent: Vec<Id>,
    ranges: Vec<Range<usize>>,
}

/// The UTXOs `tx` consumes on this chain: its inputs, then an `OperationTx`'s operation inputs.
fn spent_utxo_ids(tx: &Tx) -> impl Iterator<Item = Id> + '_ {
    let ops = match &tx.unsigned {
        UnsignedTx::Operation(t) => t.operations.as_slice(),
        _ => &[],
    };
    tx.unsigned
        .base()
        .inputs
        .iter()
        .map(|i| i.utxo_id.id())
        .chain(ops.iter().flat_map(|op| op.utxo_ids.iter().map(|u| u.id())))
}

/// The X-Chain state deriver. Keeps what the current (unwritten) batch changed, because reads
/// through the store do not see it yet, and what the finished batch being written changed
/// (the follower derives the next batch meanwhile: [`Derive::overlaps_writes`]).
#[derive(Debug)]
pub struct XChainState {
    x_chain: Id,
    p_chain: Id,
    c_chain: Id,
    /// UTXOs created or spent in the staged batch, and in the sealed one until it is written
    /// (its `Created` UTXOs are the unspent ones the store may not show yet; their puts are
    /// spent handles).
    utxos: Overlay<FxHashMap<Id, Pending>>,
    /// Atomic UTXOs put in shared memory in the unwritten batches (by P-Chain exports).
    atomic_created: Overlay<FxHashMap<(Id, Id), UtxoRow>>,
    /// Atomic UTXOs spent in the unwritten batches, with the importing tx.
    atomic_spent: Overlay<FxHashMap<(Id, Id), Id>>,
    /// Imports from P derived before their export (`x_atomic_early_imports`).
    early: PendingRows<XAtomicEarlyImports>,
    /// Txs applied in the unwritten batches.
    txs: Overlay<FxHashSet<Id>>,
    /// The next UTXO sequence number.
    seq: Counter,
    /// The next atomic UTXO sequence number.
    atomic_seq: Counter,
    /// The next atomic UTXO sequence number of the C-Chain's exports.
    c_atomic_seq: Counter,
    stats: XStats,
}

impl XChainState {
    /// A deriver for the X-Chain `x_chain`, sharing atomic memory with the P-Chain `p_chain`,
    /// with no pending state.
    pub fn new(x_chain: Id, p_chain: Id) -> Self {
        Self {
            x_chain,
            p_chain,
            c_chain: c_chain_of(x_chain),
            utxos: Overlay::default(),
            atomic_created: Overlay::default(),
            atomic_spent: Overlay::default(),
            early: PendingRows::default(),
            txs: Overlay::default(),
            seq: Counter::new(META_NEXT_SEQ),
            atomic_seq: Counter::new(META_NEXT_ATOMIC_SEQ),
            c_atomic_seq: Counter::new(META_NEXT_C_ATOMIC_SEQ),
            stats: XStats::default(),
        }
    }

    /// The same deriver sharing atomic memory with the C-Chain `c_chain` (by default the C-Chain
    /// of the known network whose X-Chain is `x_chain`, [`c_chain_of`]).
    pub fn with_c_chain(mut self, c_chain: Id) -> Self {
        self.c_chain = c_chain;
        self
    }

    /// What was applied so far.
    pub fn stats(&self) -> XStats {
        self.stats
    }

    /// Applies `genesis` once, in its own batch; returns `false` (and writes nothing) when the
    /// store already has a genesis.
    pub fn apply_genesis(
        &mut self,
        store: &Store,
        genesis: &XGenesisState,
    ) -> Result<bool, XStateError> {
        if store.get::<XMeta>(&META_GENESIS)?.is_some() {
            return Ok(false);
        }
        let mut batch = WriteBatch::new();
        let txs: Vec<_> = genesis
            .txs
            .iter()
            .map(|tx| (&tx.id, StoredBytes::Inline(tx.bytes.clone()), &tx.tx))
            .collect();
        let mut ahead = self.read_ahead(store, &txs)?;
        for (i, tx) in txs.into_iter().enumerate() {
            self.apply_tx(&mut batch, store, &mut ahead, i, tx)?;
        }
        let mut primary = HashSet::new();
        for (alias, id) in &genesis.aliases {
            batch.put::<XAssetAliases>(alias, id);
            if primary.insert(*id) {
                batch.put::<XAssetPrimaryAlias>(id, alias);
            }
        }
        if let Some(block) = &genesis.linear_genesis {
            let bytes = block.bytes();
            batch.put::<XBlockIds>(&block.id(), &block.height);
            batch.put::<XBlocks>(&block.height, &StoredBytes::Inline(bytes));
        }
        for (chain, utxo) in &genesis.atomic_utxos {
            let seq = self.atomic_counter(*chain).take(store)?;
            self.put_atomic(&mut batch, *chain, utxo, seq);
        }
        batch.put::<XMeta>(&META_GENESIS, &1);
        self.flush_seq(&mut batch);
        self.early.write_to(&mut batch);
        self.seal();
        settle(store.write(batch), self)?;
        Ok(true)
    }

    /// Applies one accepted container, at `index` in its path, to `batch` (`view` = the
    /// committed store). `X/tx`: the tx; `X/vtx`: each tx of the vertex not yet applied;
    /// `X/block`: the proposervm block's inner avm block and its txs in order; `P/block`: its
    /// exports to X. `C/block` is ignored. Tx and block bytes are stored as ranges of the container ([`StoredBytes`]).
    pub fn apply(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        index: u64,
    ) -> Result<(), XStateError> {
        self.apply_parsed(batch, view, &XContainer::parse(record)?, index)
    }

    /// [`XChainState::apply`] of a container already decoded.
    pub fn apply_parsed(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        container: &XContainer,
        index: u64,
    ) -> Result<(), XStateError> {
        let at = |path, offset: usize, len: usize, versioned| {
            StoredBytes::in_container(path, index, offset, len, versioned).ok_or_else(|| {
                XStateError::Corrupt(format!("{path} container {index} is over 4 GiB"))
            })
        };
        // The container's txs, each with where its bytes are stored.
        let mut txs: Vec<(&Id, StoredBytes, &Tx)> = Vec::new();
        match container {
            XContainer::Tx(tx) => {
                let stored = at(IndexPath::XTx, 0, tx.bytes.len(), false)?;
                txs.push((&tx.id, stored, &tx.tx));
            }
            XContainer::Vertex(vtx) => {
                txs.reserve(vtx.txs.len());
                for (tx, offset) in vtx.txs.iter().zip(&vtx.tx_offsets) {
                    let stored = at(IndexPath::XVtx, *offset, tx.bytes.len(), false)?;
                    txs.push((&tx.id, stored, &tx.tx));
                }
            }
            XContainer::Block { block, offset, .. } => {
                txs.reserve(block.block.txs.len());
                for (i, (tx, id)) in block.block.txs.iter().zip(&block.tx_ids).enumerate() {
                    let range = block.tx_range(i).ok_or_else(|| {
                        XStateError::Corrupt(format!("block {} has no range for tx {i}", block.id))
                    })?;
                    let stored = at(IndexPath::XBlock, offset + range.start, range.len(), true)?;
                    txs.push((id, stored, tx));
                }
            }
            XContainer::PBlock(block) => {
                self.apply_shared(batch, view, block, self.p_chain)?;
                self.flush_seq(batch);
                return Ok(());
            }
            XContainer::CBlock { txs: block, .. } => {
                self.apply_shared(batch, view, block, self.c_chain)?;
                self.flush_seq(batch);
                return Ok(());
            }
        }
        let mut ahead = self.read_ahead(view, &txs)?;
        for (i, (id, stored, tx)) in txs.into_iter().enumerate() {
            self.apply_tx(batch, view, &mut ahead, i, (id, stored, tx))?;
        }
        if let XContainer::Block { block, offset, .. } = container {
            batch.put::<XBlockIds>(&block.id, &block.block.height);
            let stored = at(IndexPath::XBlock, *offset, block.bytes.len(), false)?;
            batch.put::<XBlocks>(&block.block.height, &stored);
            self.stats.blocks += 1;
        }
        self.flush_seq(batch);
        Ok(())
    }

    /// Reads what applying `txs` will ask the store, in two batched lookups instead of one
    /// `get` per tx and per input: which txs are already stored, and the rows of the inputs that
    /// no pending batch holds. Rows this container creates are not in the store yet; `spend`
    /// finds them in the batch's own changes first, so reading ahead changes no outcome.
    fn read_ahead(
        &self,
        view: &impl ReadView,
        txs: &[(&Id, StoredBytes, &Tx)],
    ) -> Result<ReadAhead, XStateError> {
        let pending = |id: &Id| self.tx_pending(id);
        let ids: Vec<Id> = txs
            .iter()
            .map(|(id, _, _)| **id)
            .filter(|id| !pending(id))
            .collect();
        let stored_txs: FxHashSet<Id> = ids
            .iter()
            .zip(view.multi_get::<XTxs>(&ids)?)
            .filter_map(|(id, row)| row.map(|_| *id))
            .collect();
        let mut spent = Vec::new();
        let mut ranges = Vec::with_capacity(txs.len());
        let mut inputs: Vec<Id> = Vec::new();
        for (id, _, tx) in txs {
            let start = spent.len();
            if !pending(id) && !stored_txs.contains(*id) {
                spent.extend(spent_utxo_ids(tx));
            }
            ranges.push(start..spent.len());
        }
        for uid in &spent {
            if !self.utxos.staged().contains_key(uid) && !self.utxos.sealed().contains_key(uid) {
                inputs.push(*uid);
            }
        }
        let rows = view.multi_get::<XUtxos>(&inputs)?;
        Ok(ReadAhead {
            stored_txs,
            utxos: inputs.into_iter().zip(rows).collect(),
            spent,
            ranges,
        })
    }

    fn flush_seq(&self, batch: &mut WriteBatch) {
        self.seq.flush(batch);
        self.atomic_seq.flush(batch);
        self.c_atomic_seq.flush(batch);
    }

    /// The sequence of `chain`'s atomic UTXOs: the C-Chain's apart from the others'.
    fn atomic_counter(&mut self, chain: Id) -> &mut Counter {
        if chain == self.c_chain {
            &mut self.c_atomic_seq
        } else {
            &mut self.atomic_seq
        }
    }

    /// Applies a P- or C-Chain block's exports to X (`source` its chain) by the shared-memory
    /// rule ([`atomic::export`]): their UTXOs join X's shared memory of `source`, each with the
    /// next atomic sequence number, unless an X-Chain import took them first (derived earlier)
    /// or the export was read before. Its imports from X change nothing here: an export leaves
    /// X's state when X applies it.
    fn apply_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        block: &AtomicTxs<Utxo>,
        source: Id,
    ) -> Result<(), XStateError> {
        for m in block.moves_for(self.x_chain) {
            let SharedMove::Arrives { utxo, .. } = m else {
                continue;
            };
            // Taken in every case, so later numbers do not depend on the arrival order.
            let seq = self.atomic_counter(source).take(view)?;
            let mut shared = SharedState {
                state: &mut *self,
                batch: &mut *batch,
                view,
                chain: source,
            };
            atomic::export(&mut shared, utxo.id(), |s| {
                s.state.put_atomic(s.batch, source, utxo, seq);
                Ok(())
            })?;
        }
        Ok(())
    }

    /// An atomic UTXO still in shared memory, as the unwritten batches leave it.
    fn atomic_row(
        &self,
        view: &impl ReadView,
        key: &(Id, Id),
    ) -> Result<Option<UtxoRow>, XStateError> {
        if self.atomic_spent.staged().contains_key(key)
            || self.atomic_spent.sealed().contains_key(key)
        {
            return Ok(None);
        }
        match self.atomic_created.staged().get(key) {
            Some(row) => Ok(Some(row.clone())),
            None => match self.atomic_created.sealed().get(key) {
                Some(row) => Ok(Some(row.clone())),
                None => Ok(view.get::<XAtomicUtxos>(key)?),
            },
        }
    }

    /// Whether tx `id` was applied before: in a pending batch, or (as read ahead) in the store.
    /// Every tx of the container that no pending batch held was read ahead, and the pending
    /// sets only grow while it is applied, so this needs no further read.
    fn tx_known(&self, ahead: &ReadAhead, id: &Id) -> bool {
        self.tx_pending(id) || ahead.stored_txs.contains(id)
    }

    /// Whether tx `id` was applied in a batch not yet written.
    fn tx_pending(&self, id: &Id) -> bool {
        self.txs.staged().contains(id) || self.txs.sealed().contains(id)
    }

    /// Applies one tx: stores it, spends its inputs, imports atomic inputs, creates its outputs
    /// and, for a `CreateAssetTx`, records the asset. A tx already applied is skipped.
    /// Tx `i` of what `ahead` was read for.
    fn apply_tx(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        ahead: &mut ReadAhead,
        i: usize,
        (id, bytes, tx): (&Id, StoredBytes, &Tx),
    ) -> Result<(), XStateError> {
        if self.tx_known(ahead, id) {
            self.stats.duplicate_txs += 1;
            return Ok(());
        }
        self.txs.staged_mut().insert(*id);
        batch.put::<XTxs>(id, &bytes);
        let range = ahead.ranges.get(i).cloned().unwrap_or_default();
        for utxo_id in ahead.spent.get(range).unwrap_or_default() {
            self.spend(batch, view, &mut ahead.utxos, *utxo_id)?;
        }
        if let UnsignedTx::Import(t) = &tx.unsigned {
            for input in &t.imported_inputs {
                self.spend_atomic(batch, view, t.source_chain, input.utxo_id.id(), *id)?;
            }
        }
        for utxo in produced_utxos(tx, id) {
            let seq = self.seq.take(view)?;
            let row = UtxoRow {
                seq,
                bytes: utxo.to_bytes(),
            };
            let uid = utxo.id();
            let addrs = owners(&utxo.output);
            let mut puts = Vec::with_capacity(2 * addrs.len() + 1);
            for addr in addrs {
                puts.push(batch.put_tracked::<XAddrUtxos>(&(addr, Desc(seq), uid), &()));
                puts.push(batch.put_tracked::<XAddrUtxoPos>(&(addr, uid), &seq));
            }
            puts.push(batch.put_tracked::<XUtxos>(&uid, &row));
            self.utxos
                .staged_mut()
                .insert(uid, Pending::Created { puts, row });
        }
        if let UnsignedTx::CreateAsset(c) = &tx.unsigned {
            batch.put::<XAssets>(
                id,
                &AssetRow {
                    name: c.name.clone(),
                    symbol: c.symbol.clone(),
                    denomination: c.denomination,
                },
            );
        }
        self.stats.txs += 1;
        Ok(())
    }

    /// Spends UTXO `uid`: from the batch's overlays first, then from the stored rows read ahead
    /// for the container (each taken once), then from the store.
    fn spend(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        read_ahead: &mut FxHashMap<Id, Option<UtxoRow>>,
        uid: Id,
    ) -> Result<(), XStateError> {
        let row = match self.utxos.staged_mut().get_mut(&uid) {
            Some(pending @ Pending::Created { .. }) => {
                // Created in this very batch: withdraw its puts instead of writing them and
                // their deletes (the store ends the same, with no rows and no tombstones).
                if let Pending::Created { puts, .. } =
                    std::mem::replace(pending, Pending::Withdrawn)
                {
                    for op in puts {
                        batch.cancel(op);
                    }
                }
                return Ok(());
            }
            Some(Pending::Spent | Pending::Withdrawn) => None,
            None => match self.utxos.sealed().get(&uid) {
                Some(Pending::Created { row, .. }) => Some(row.clone()),
                Some(Pending::Spent | Pending::Withdrawn) => None,
                None => match read_ahead.remove(&uid) {
                    Some(row) => row,
                    None => view.get::<XUtxos>(&uid)?,
                },
            },
        };
        let Some(row) = row else {
            self.stats.missing_inputs += 1;
            return Ok(());
        };
        let utxo = Utxo::parse(&row.bytes)
            .map_err(|source| XStateError::StoredUtxo { id: uid, source })?;
        for addr in owners(&utxo.output) {
            batch.delete::<XAddrUtxos>(&(addr, Desc(row.seq), uid));
            batch.delete::<XAddrUtxoPos>(&(addr, uid));
        }
        batch.delete::<XUtxos>(&uid);
        self.utxos.staged_mut().insert(uid, Pending::Spent);
        Ok(())
    }

    fn put_atomic(&mut self, batch: &mut WriteBatch, chain: Id, utxo: &Utxo, seq: u64) {
        let uid = utxo.id();
        for addr in owners(&utxo.output) {
            batch.put::<XAtomicAddrUtxos>(&(chain, addr, Desc(seq), uid), &());
            batch.put::<XAtomicAddrPos>(&(chain, addr, uid), &seq);
        }
        let row = UtxoRow {
            seq,
            bytes: utxo.to_bytes(),
        };
        batch.put::<XAtomicUtxos>(&(chain, uid), &row);
        self.atomic_created.staged_mut().insert((chain, uid), row);
    }

    /// Takes atomic UTXO `uid` of `chain` out of shared memory for import `tx` by the
    /// shared-memory rule ([`atomic::import`]). One the P- or C-Chain exported but whose
    /// `P/block` or `C/block` is not derived yet is remembered (`x_atomic_early_imports`) for the
    /// export to skip; one from another chain, or one another import took, is a missing input.
    fn spend_atomic(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        chain: Id,
        uid: Id,
        tx: Id,
    ) -> Result<(), XStateError> {
        if chain != self.p_chain && chain != self.c_chain {
            self.stats.missing_inputs += 1;
            return Ok(());
        }
        let mut shared = SharedState {
            state: self,
            batch,
            view,
            chain,
        };
        match atomic::import(&mut shared, uid, tx)? {
            Imported::Consumed | Imported::Again => {}
            Imported::Early => self.stats.early_imports += 1,
            Imported::Duplicate => self.stats.missing_inputs += 1,
        }
        Ok(())
    }

    /// The importing tx that took atomic UTXO `key` out of shared memory, as the unwritten
    /// batches leave it.
    fn atomic_consumer(
        &self,
        view: &impl ReadView,
        key: &(Id, Id),
    ) -> Result<Option<Id>, XStateError> {
        let pending = self.atomic_spent.staged().get(key);
        match pending.or_else(|| self.atomic_spent.sealed().get(key)) {
            Some(tx) => Ok(Some(*tx)),
            None => Ok(view.get::<XAtomicConsumed>(key)?),
        }
    }
}

/// X's shared memory of one source chain (`x_atomic_*`) as the shared-memory rule reads and
/// changes it, within the batch being staged.
struct SharedState<'a, V> {
    state: &'a mut XChainState,
    batch: &'a mut WriteBatch,
    view: &'a V,
    chain: Id,
}

impl<V: ReadView> SharedRows for SharedState<'_, V> {
    type Spend = Id;
    type Error = XStateError;

    fn spender(tx: &Id) -> Id {
        *tx
    }

    fn stand(&mut self, id: Id) -> Result<Stand<Id>, XStateError> {
        let key = (self.chain, id);
        if let Some(tx) = self.state.atomic_consumer(self.view, &key)? {
            return Ok(Stand::Exported {
                consumed_by: Some(tx),
            });
        }
        if self.state.atomic_row(self.view, &key)?.is_some() {
            return Ok(Stand::Exported { consumed_by: None });
        }
        Ok(match self.state.early.get(&key) {
            Some((Some(tx), stored)) => Stand::SpentEarly { spend: *tx, stored },
            Some((None, stored)) => Stand::Unknown { stored },
            None => match self.view.get::<XAtomicEarlyImports>(&key)? {
                Some(tx) => Stand::SpentEarly {
                    spend: tx,
                    stored: true,
                },
                None => Stand::Unknown { stored: false },
            },
        })
    }

    fn consume(&mut self, id: Id, tx: Id) -> Result<(), XStateError> {
        let key = (self.chain, id);
        let Some(row) = self.state.atomic_row(self.view, &key)? else {
            return Ok(());
        };
        let utxo =
            Utxo::parse(&row.bytes).map_err(|source| XStateError::StoredUtxo { id, source })?;
        for addr in owners(&utxo.output) {
            self.batch
                .delete::<XAtomicAddrUtxos>(&(self.chain, addr, Desc(row.seq), id));
            self.batch.delete::<XAtomicAddrPos>(&(self.chain, addr, id));
        }
        self.batch.delete::<XAtomicUtxos>(&key);
        self.batch.put::<XAtomicConsumed>(&key, &tx);
        self.state.atomic_spent.staged_mut().insert(key, tx);
        Ok(())
    }

    fn remember_early(&mut self, id: Id, tx: Id, stored: bool) {
        self.state.early.put((self.chain, id), tx, stored);
    }

    fn forget_early(&mut self, id: Id, stored: bool) {
        self.state.early.delete((self.chain, id), stored);
    }
}

/// The overlays follow the batches: a sealed batch's changes stay readable until it is written
/// (at most one sealed batch is unwritten); dropped batches are forgotten and the sequence
/// counter falls back to what the store holds.
impl StagingParts for XChainState {
    /// The overlays, unwritten rows and counters the batch protocol drives together (only the
    /// early imports hold rows back, the final rows of the imports the batch remembered or
    /// settled).
    fn parts(&mut self) -> impl Staging + '_ {
        [
            &mut self.utxos as &mut dyn Staging,
            &mut self.atomic_created,
            &mut self.atomic_spent,
            &mut self.early,
            &mut self.txs,
            &mut self.seq,
            &mut self.atomic_seq,
            &mut self.c_atomic_seq,
        ]
    }
}

impl Derive for XChainState {
    const PATHS: &'static [IndexPath] = &X_DERIVE_PATHS;
    type Prepared = XContainer;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        _record: &ContainerRecord,
        index: u64,
        prepared: &XContainer,
    ) -> Result<(), DeriveError> {
        self.apply_parsed(batch, view, prepared, index)
            .map_err(DeriveError::from)
    }

    fn overlaps_writes(&self) -> bool {
        true
    }
}

/// The C-Chain of the known network whose X-Chain is `x_chain` (the empty id for another).
pub fn c_chain_of(x_chain: Id) -> Id {
    snowline_types::NetworkInfo::KNOWN
        .iter()
        .find(|n| n.x_chain_id == x_chain)
        .map_or(Id::EMPTY, |n| n.c_chain_id)
}
