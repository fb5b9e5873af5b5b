//! [`XHistory`]: the node-index [`Derive`] hook that fills the history tables from accepted
//! `X/tx`, `X/vtx` and `X/block` containers, and from `P/block` what the P-Chain exports to and
//! imports from X's atomic memory, in the same atomic batch as the containers.

use rustc_hash::FxHashMap;

use snowline_derive::atomic::{self, Imported, SharedRows, Stand};
use snowline_derive::{
    Derive, DeriveError, Journal, Note, PendingRows, Staging, StagingParts, UtxoNote, drop_batch,
    write_batch,
};
use snowline_store::{OpHandle, ReadView, Store, WriteBatch};
use snowline_types::atomic::{AtomicTx, AtomicTxs, SharedMove, x_exported};
use snowline_types::avm::{Output, ParsedBlock, Tx, UnsignedTx, Utxo};
use snowline_types::container::{ContainerRecord, IndexPath, TxPlace};
use snowline_types::time::unix_seconds;
use snowline_types::{Id, ShortId};

use super::rows::{
    AssetCap, AssetInfo, AssetType, BlockRow, Event, Holding, TxRow, UtxoRecord, VertexRow,
    locked_at, output_amount, output_owners,
};
use super::tables::{
    C_OWNER_EXPORT, C_OWNER_IMPORT, META_FIRST_TIME, META_GENESIS_TIME, META_LAST_TIME,
    META_X_BURNED, XhAllByAmount, XhAllByTime, XhAssets, XhBalances, XhBlocks, XhBlocksByProposer,
    XhEarlySpends, XhMeta, XhMultiOwner, XhTxs, XhTxsByTime, XhUnspentByAmount, XhUnspentByTime,
    XhUtxos, XhVertices,
};
use super::tx_index;
use crate::container::{X_DERIVE_PATHS, XContainer};
use crate::error::XStateError;
use snowline_types::avm::XGenesisState;
use snowline_types::avm::outputs::{owners, produced_utxos};

/// Counters of what [`XHistory`] applied since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HistoryStats {
    /// Txs applied.
    pub txs: u64,
    /// Txs seen again (a DAG tx in `X/tx` and in its vertex) with nothing left to record.
    pub duplicate_txs: u64,
    /// Txs first seen in `X/tx` whose vertex or block later gave them a height.
    pub patched_txs: u64,
    /// UTXOs created (X-Chain outputs, exports from X, P-Chain exports to X, genesis atomic
    /// UTXOs).
    pub utxos_created: u64,
    /// UTXOs consumed.
    pub utxos_consumed: u64,
    /// Inputs whose UTXO is unknown (not indexed, e.g. imported from an unindexed chain) or
    /// already consumed; they are skipped.
    pub missing_inputs: u64,
    /// Imports between X and P derived before the export that creates their UTXO (the other
    /// chain's containers came later): remembered until the export creates it consumed.
    pub early_spends: u64,
    /// Vertices recorded.
    pub vertices: u64,
    /// Blocks recorded.
    pub blocks: u64,
}

/// What the X-Chain history tells a hook riding its batches: each X-Chain tx and each C-Chain
/// atomic tx as it is applied ([`TxNote`]), and the UTXOs they created and consumed (the
/// C-Chain's with X's atomic memory).
pub type XJournal = Journal<TxNote>;

/// A tx applied: an X-Chain tx first seen, or a C-Chain block's atomic tx, in container order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxNote {
    /// The tx.
    pub tx: Id,
    /// Its Go type name (`BaseTx`, `ImportTx`, ...).
    pub tx_type: &'static str,
    /// Its container's height (none for an `X/tx` container).
    pub height: Option<u64>,
    /// Its container's time, Unix seconds.
    pub timestamp: u64,
    /// For a C-Chain block's tx, the EVM block's hash (keccak-256 of its header), which the
    /// Data API shows as the block's hash; none for an X-Chain tx.
    pub block_hash: Option<[u8; 32]>,
}

/// The X-Chain history deriver for the Data API. Keeps what the current (unwritten) batch
/// changed, because reads through the store do not see it yet.
#[derive(Debug)]
pub struct XHistory {
    x_chain: Id,
    p_chain: Id,
    c_chain: Id,
    utxos: PendingRows<XhUtxos>,
    early: PendingRows<XhEarlySpends>,
    txs: PendingRows<XhTxs>,
    balances: PendingRows<XhBalances>,
    /// The chain-wide facts kept as containers arrive: the burned-AVAX counter and the first
    /// and last container times ([`META_X_BURNED`], [`META_FIRST_TIME`], [`META_LAST_TIME`]).
    meta: PendingRows<XhMeta>,
    /// The AVAX asset of the known network whose X-Chain this is (what burns count).
    avax: Id,
    /// The UTXOs created in the batch and not yet consumed by it.
    fresh: FxHashMap<Id, Fresh>,
    /// The genesis is being applied: its txs are not indexed as txs.
    in_genesis: bool,
    stats: HistoryStats,
    /// Told what each container did to UTXOs, when a hook after this one asked.
    journal: Option<XJournal>,
    /// The chain of the container being applied (none for the genesis).
    deriving: Option<Id>,
}

/// The key of a balance row: (owner, asset, holding code, shared chain, locktime).
type BalanceKey = <XhBalances as snowline_store::Table>::Key;

/// What consuming a UTXO created in the same batch takes, kept from its creation: in a batch of
/// blocks most outputs are spent within the batch, and this spares each one a copy and a
/// re-parse of its row.
#[derive(Debug)]
struct Fresh {
    /// The puts of its unspent orders and multi-owner rows, withdrawn when the batch consumes it.
    puts: Vec<OpHandle>,
    /// Its balance row and the amount it adds there, when it counts in one owner's balance.
    balance: Option<(BalanceKey, u64)>,
}

fn decode_err(id: Id) -> impl FnOnce(snowline_types::codec::CodecError) -> XStateError {
    move |source| XStateError::Decode { id, source }
}

/// The balance row a single-owner UTXO counts in: its owner `addr`, asset, holding, shared
/// chain (none for native UTXOs) and locktime.
fn balance_key(rec: &UtxoRecord, utxo: &Utxo, addr: &ShortId) -> BalanceKey {
    let chain = rec.shared_with().unwrap_or(Id::EMPTY);
    let locktime = output_owners(&utxo.output).locktime;
    (*addr, utxo.asset_id, rec.holding.code(), chain, locktime)
}

/// The UTXOs an `ExportTx` puts in its destination's atomic memory, each with the destination
/// (indexes after the base outputs: `snowline_types::atomic`).
pub fn exported_utxos(tx: &Tx, tx_id: &Id) -> Vec<(Id, Utxo)> {
    let UnsignedTx::Export(e) = &tx.unsigned else {
        return Vec::new();
    };
    x_exported(e, *tx_id)
        .into_iter()
        .map(|u| (e.destination_chain, u))
        .collect()
}

/// The Data API type and cap of a new asset, from its initial states.
fn asset_kind(states: &[snowline_types::avm::InitialState]) -> (AssetType, AssetCap) {
    let outputs = || states.iter().flat_map(|s| s.outputs.iter());
    let nft = outputs().any(|o| matches!(o, Output::NftMint(_) | Output::NftTransfer(_)));
    let mint = outputs().any(|o| {
        matches!(
            o,
            Output::Secp256k1Mint(_) | Output::NftMint(_) | Output::PropertyMint(_)
        )
    });
    (
        if nft {
            AssetType::Nft
        } else {
            AssetType::Secp256k1
        },
        if mint {
            AssetCap::Variable
        } else {
            AssetCap::Fixed
        },
    )
}

impl XHistory {
    /// A deriver for the X-Chain with id `x_chain` (its `createdOnChainId` /
    /// `consumedOnChainId`), sharing atomic memory with the P-Chain `p_chain`, with no pending
    /// state.
    pub fn new(x_chain: Id, p_chain: Id) -> Self {
        Self {
            x_chain,
            p_chain,
            c_chain: crate::state::c_chain_of(x_chain),
            utxos: PendingRows::default(),
            early: PendingRows::default(),
            txs: PendingRows::default(),
            balances: PendingRows::default(),
            meta: PendingRows::default(),
            avax: snowline_types::NetworkInfo::KNOWN
                .iter()
                .find(|n| n.x_chain_id == x_chain)
                .map_or(Id::EMPTY, |n| n.avax_asset_id),
            fresh: FxHashMap::default(),
            in_genesis: false,
            stats: HistoryStats::default(),
            journal: None,
            deriving: None,
        }
    }

    /// The same deriver telling `journal` what each container did to UTXOs (the X-Chain's
    /// txs, and the C-Chain's atomic txs with X's atomic memory), for a hook that rides the
    /// same batch after this one.
    pub fn with_journal(mut self, journal: XJournal) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Tells the journal (when held) that tx `tx` of type `tx_type` is applied at `height` and
    /// `timestamp` (in the EVM block of hash `block_hash`, for a C-Chain tx).
    fn tell_tx(
        &self,
        tx: Id,
        tx_type: &'static str,
        (height, timestamp): (Option<u64>, u64),
        block_hash: Option<[u8; 32]>,
    ) {
        if let Some(j) = self.journal.as_ref().filter(|_| self.deriving.is_some()) {
            j.push(Note::Room(TxNote {
                tx,
                tx_type,
                height,
                timestamp,
                block_hash,
            }));
        }
    }

    /// Tells the journal (when held) that `ev`'s tx created (`created`) or consumed the UTXO
    /// `rec` (`utxo` its bytes parsed): an X-Chain tx's, or a C-Chain atomic tx's. The P-Chain
    /// tells its own txs' moves with X's atomic memory.
    fn tell(&self, rec: &UtxoRecord, utxo: &Utxo, ev: &Event, created: bool) {
        let (Some(j), Some(deriving)) = (&self.journal, self.deriving) else {
            return;
        };
        let chain = match rec.holding {
            Holding::Native => self.x_chain,
            Holding::ExportedFromX if created => self.x_chain,
            Holding::ExportedToX if !created => self.x_chain,
            Holding::ExportedFromX if rec.consumed_on == self.c_chain => self.c_chain,
            Holding::ExportedToX if rec.created_on == self.c_chain => self.c_chain,
            _ => return,
        };
        let note = UtxoNote {
            chain,
            tx: ev.tx_id,
            utxo: utxo.id(),
            asset: utxo.asset_id,
            amount: rec.amount,
            owners: owners(&utxo.output),
            created,
            staked: false,
            shared: rec.holding != Holding::Native,
            locked: locked_at(&utxo.output, rec.created.timestamp),
        };
        j.utxo(note, deriving, ev.height, ev.timestamp);
    }

    /// The same deriver sharing atomic memory with the C-Chain `c_chain` (by default the C-Chain
    /// of the known network whose X-Chain is `x_chain`).
    pub fn with_c_chain(mut self, c_chain: Id) -> Self {
        self.c_chain = c_chain;
        self
    }

    /// What was applied so far.
    pub fn stats(&self) -> HistoryStats {
        self.stats
    }

    /// Applies `genesis` once, in its own batch, as of `timestamp` (the network's start, Unix
    /// seconds): genesis txs and their UTXOs, the linear genesis block, and the atomic UTXOs
    /// other chains exported to X. Returns `false` (and writes nothing) when already applied.
    pub fn apply_genesis(
        &mut self,
        store: &Store,
        genesis: &XGenesisState,
        timestamp: u64,
    ) -> Result<bool, XStateError> {
        if store.get::<XhMeta>(&META_GENESIS_TIME)?.is_some() {
            return Ok(false);
        }
        let mut batch = WriteBatch::new();
        self.in_genesis = true;
        let staged = self.stage_genesis(&mut batch, store, genesis, timestamp);
        self.in_genesis = false;
        if let Err(e) = staged {
            drop_batch(self, &mut batch);
            return Err(e);
        }
        write_batch(store, self, &mut batch)?;
        Ok(true)
    }

    fn stage_genesis(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        genesis: &XGenesisState,
        timestamp: u64,
    ) -> Result<(), XStateError> {
        for tx in &genesis.txs {
            let stored = view.get::<XhTxs>(&tx.id)?;
            let place = TxRow {
                timestamp,
                height: None,
                place: None,
            };
            self.accept_tx(batch, view, (&tx.id, &tx.tx), place, stored)?;
        }
        if let Some(block) = &genesis.linear_genesis {
            let parsed = ParsedBlock::from_block(block.clone()).map_err(decode_err(block.id()))?;
            self.put_block(batch, &parsed, parsed.id, parsed.bytes.len(), block.time);
        }
        for (chain, utxo) in &genesis.atomic_utxos {
            let ev = Event {
                tx_id: utxo.utxo_id.tx_id,
                height: None,
                timestamp,
            };
            self.create(
                batch,
                view,
                utxo.clone(),
                Holding::ExportedToX,
                (*chain, self.x_chain),
                ev,
            )?;
        }
        batch.put::<XhMeta>(&META_GENESIS_TIME, &timestamp);
        Ok(())
    }

    /// Applies one accepted container to `batch` (`view` = the committed store; `index` = its
    /// position in its path, the vertex index of a vertex). `X/tx`: the tx; `X/vtx`: the vertex
    /// and its txs; `X/block`: the block and its txs; `P/block`: its exports to X and imports
    /// from X. A tx already applied is not applied again; if it had no height yet (seen in
    /// `X/tx` first), its vertex or block gives it one.
    pub fn apply(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        index: u64,
    ) -> Result<(), XStateError> {
        self.apply_parsed(batch, view, record, index, &XContainer::parse(record)?)
    }

    /// [`XHistory::apply`] of a container already decoded (`container` is `record` decoded).
    pub fn apply_parsed(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        index: u64,
        container: &XContainer,
    ) -> Result<(), XStateError> {
        self.deriving = Some(match container {
            XContainer::PBlock(_) => self.p_chain,
            XContainer::CBlock { .. } => self.c_chain,
            _ => self.x_chain,
        });
        let applied = self.apply_container(batch, view, record, index, container);
        self.deriving = None;
        applied
    }

    fn apply_container(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        index: u64,
        container: &XContainer,
    ) -> Result<(), XStateError> {
        let ts = unix_seconds(record.timestamp_ns);
        match container {
            XContainer::Tx(tx) => {
                let stored = view.get::<XhTxs>(&tx.id)?;
                let place = TxRow {
                    timestamp: ts,
                    height: None,
                    place: None,
                };
                self.accept_tx(batch, view, (&tx.id, &tx.tx), place, stored)?;
            }
            XContainer::Vertex(vtx) => {
                let stored = self.stored_tx_rows(view, vtx.txs.iter().map(|t| &t.id))?;
                let place = TxRow {
                    timestamp: ts,
                    height: Some(vtx.height),
                    place: None,
                };
                let mut tx_ids = Vec::with_capacity(vtx.txs.len());
                for (tx, stored) in vtx.txs.iter().zip(stored) {
                    self.accept_tx(batch, view, (&tx.id, &tx.tx), place, stored)?;
                    tx_ids.push(tx.id);
                }
                let row = VertexRow {
                    id: vtx.id,
                    parent_ids: vtx.parent_ids.clone(),
                    timestamp: ts,
                    tx_ids,
                    size: u32::try_from(record.bytes.len()).unwrap_or(u32::MAX),
                };
                batch.put::<XhVertices>(&(vtx.height, index), &row);
                self.stats.vertices += 1;
            }
            XContainer::Block {
                block: inner,
                offset,
                proposer,
            } => {
                let stored = self.stored_tx_rows(view, inner.tx_ids.iter())?;
                let txs = inner.block.txs.iter().zip(&inner.tx_ids).zip(stored);
                for (i, ((tx, id), stored)) in txs.enumerate() {
                    // Where the tx lies in the container: in the inner block, past the wrapper.
                    let place = inner
                        .tx_range(i)
                        .and_then(|r| TxPlace::of(r.start + offset..r.end + offset));
                    let place = TxRow {
                        timestamp: ts,
                        height: Some(inner.block.height),
                        place,
                    };
                    self.accept_tx(batch, view, (id, tx), place, stored)?;
                }
                self.put_block(batch, inner, record.id, record.bytes.len(), ts);
                if let Some(node) = proposer {
                    let key = (*node, inner.block.time, inner.block.height);
                    batch.put::<XhBlocksByProposer>(&key, &());
                }
            }
            XContainer::PBlock(block) => {
                return self.apply_shared(batch, view, block, self.p_chain);
            }
            XContainer::CBlock {
                txs,
                evm,
                hash,
                places,
            } => {
                for t in &txs.txs {
                    let (id, kind) = match t {
                        AtomicTx::Import { tx_id, .. } => (*tx_id, "ImportTx"),
                        AtomicTx::Export { tx_id, .. } => (*tx_id, "ExportTx"),
                    };
                    self.tell_tx(id, kind, (Some(txs.height), txs.timestamp), Some(*hash));
                }
                tx_index::c_block(batch, (record.id, *hash), txs, evm, places);
                return self.apply_shared(batch, view, txs, self.c_chain);
            }
        }
        self.note_time(view, ts)?;
        Ok(())
    }

    /// Applies a P- or C-Chain block's traffic with X's atomic memory (`source` its chain): an
    /// export to X creates its UTXOs exported to X (created on `source`, at the block's height
    /// and time); an import from X consumes the X exports it takes (`consumedOnChainId` stays
    /// `source`, their destination).
    fn apply_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        block: &AtomicTxs<Utxo>,
        source: Id,
    ) -> Result<(), XStateError> {
        let event = |tx_id: &Id| Event {
            tx_id: *tx_id,
            height: Some(block.height),
            timestamp: block.timestamp,
        };
        let chains = (source, self.x_chain);
        for m in block.moves_for(self.x_chain) {
            match m {
                SharedMove::Arrives { tx_id, utxo } => {
                    let ev = event(&tx_id);
                    self.create_shared(batch, view, utxo, Holding::ExportedToX, chains, ev)?;
                }
                SharedMove::Leaves { tx_id, utxo_id } => {
                    self.consume_shared(batch, view, utxo_id, event(&tx_id))?;
                }
            }
        }
        Ok(())
    }

    fn put_block(
        &mut self,
        batch: &mut WriteBatch,
        block: &ParsedBlock,
        container_id: Id,
        size: usize,
        timestamp: u64,
    ) {
        let row = BlockRow {
            id: block.id,
            container_id,
            parent_id: block.block.parent_id,
            block_time: block.block.time,
            timestamp,
            tx_ids: block.tx_ids.clone(),
            size: u32::try_from(size).unwrap_or(u32::MAX),
        };
        batch.put::<XhBlocks>(&block.block.height, &row);
        self.stats.blocks += 1;
    }

    /// A chain-wide fact as of this batch (unwritten batches included), and whether the store
    /// holds it once they are written.
    fn meta_value(
        &self,
        view: &impl ReadView,
        key: u8,
    ) -> Result<(Option<u64>, bool), XStateError> {
        Ok(match self.meta.get(&key) {
            Some((v, stored)) => (v.copied(), stored),
            None => {
                let v = view.get::<XhMeta>(&key)?;
                (v, v.is_some())
            }
        })
    }

    /// Adds `amount` to the burned-AVAX counter.
    fn add_burned(&mut self, view: &impl ReadView, amount: u64) -> Result<(), XStateError> {
        if amount == 0 {
            return Ok(());
        }
        let (sum, stored) = self.meta_value(view, META_X_BURNED)?;
        self.meta.put(
            META_X_BURNED,
            sum.unwrap_or(0).saturating_add(amount),
            stored,
        );
        Ok(())
    }

    /// Widens the chain's first and last container times to `ts`. They are the earliest and
    /// latest times, not the first and last seen: a follower takes each path in turn, so a
    /// vertex can arrive after a later block, and the index must not depend on that order.
    fn note_time(&mut self, view: &impl ReadView, ts: u64) -> Result<(), XStateError> {
        let (first, stored) = self.meta_value(view, META_FIRST_TIME)?;
        if first.is_none_or(|t| ts < t) {
            self.meta.put(META_FIRST_TIME, ts, stored);
        }
        let (last, stored) = self.meta_value(view, META_LAST_TIME)?;
        if last.is_none_or(|t| ts > t) {
            self.meta.put(META_LAST_TIME, ts, stored);
        }
        Ok(())
    }

    /// The committed rows of a container's txs, read in one batched lookup: almost all are
    /// new, and RocksDB answers a batch of misses far faster than one `get` each.
    fn stored_tx_rows<'i>(
        &self,
        view: &impl ReadView,
        ids: impl Iterator<Item = &'i Id>,
    ) -> Result<Vec<Option<TxRow>>, XStateError> {
        let ids: Vec<Id> = ids.copied().collect();
        Ok(view.multi_get::<XhTxs>(&ids)?)
    }

    /// A UTXO's row as of this batch, and whether it is in the store once the unwritten
    /// batches are written.
    fn utxo_row(
        &self,
        view: &impl ReadView,
        id: &Id,
    ) -> Result<Option<(UtxoRecord, bool)>, XStateError> {
        match self.utxos.get(id) {
            Some((row, stored)) => Ok(row.map(|r| (r.clone(), stored))),
            None => Ok(view.get::<XhUtxos>(id)?.map(|r| (r, true))),
        }
    }

    /// Applies `tx` at `place` (its container's time and height) unless already applied; a
    /// known tx without height gets `place.height`. `stored` is the tx's row in the committed
    /// store (the batch's own rows take precedence).
    fn accept_tx(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        (id, tx): (&Id, &Tx),
        place: TxRow,
        stored: Option<TxRow>,
    ) -> Result<(), XStateError> {
        let known = match self.txs.get(id) {
            Some((row, _)) => row.copied(),
            None => stored,
        };
        match known {
            None => self.apply_tx(batch, view, id, tx, place),
            Some(row) if row.height.is_none() && place.height.is_some() => {
                self.patch_height(view, id, tx, row, place)
            }
            Some(_) => {
                self.stats.duplicate_txs += 1;
                Ok(())
            }
        }
    }

    fn apply_tx(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: &Id,
        tx: &Tx,
        row: TxRow,
    ) -> Result<(), XStateError> {
        let TxRow {
            timestamp, height, ..
        } = row;
        self.txs.put(*id, row, false);
        if !self.in_genesis {
            let kind = super::pages::tx_type(&tx.unsigned);
            self.tell_tx(*id, kind, (height, timestamp), None);
            batch.put::<XhTxsByTime>(&(timestamp, *id), &());
            self.add_burned(view, tx.unsigned.burned(&self.avax))?;
        }
        let ev = Event {
            tx_id: *id,
            height,
            timestamp,
        };
        match &tx.unsigned {
            // What the P-Chain exported may not be derived yet: see `consume_shared`.
            UnsignedTx::Import(t)
                if t.source_chain == self.p_chain || t.source_chain == self.c_chain =>
            {
                for input in &t.base.inputs {
                    self.consume(batch, view, input.utxo_id.id(), ev)?;
                }
                for input in &t.imported_inputs {
                    self.consume_shared(batch, view, input.utxo_id.id(), ev)?;
                }
            }
            _ => {
                for input in tx.unsigned.input_utxos() {
                    self.consume(batch, view, input.id(), ev)?;
                }
            }
        }
        let x = self.x_chain;
        for utxo in produced_utxos(tx, id) {
            self.create(batch, view, utxo, Holding::Native, (x, x), ev)?;
        }
        for (dest, utxo) in exported_utxos(tx, id) {
            let holding = Holding::ExportedFromX;
            if dest == self.p_chain || dest == self.c_chain {
                self.create_shared(batch, view, &utxo, holding, (x, dest), ev)?;
            } else {
                self.create(batch, view, utxo, holding, (x, dest), ev)?;
            }
        }
        if let UnsignedTx::CreateAsset(c) = &tx.unsigned {
            let (asset_type, cap) = asset_kind(&c.states);
            let info = AssetInfo {
                name: c.name.clone(),
                symbol: c.symbol.clone(),
                denomination: c.denomination,
                asset_type,
                cap,
                created_at: timestamp,
            };
            batch.put::<XhAssets>(id, &info);
        }
        self.stats.txs += 1;
        Ok(())
    }

    /// Gives a tx applied without a height (and what it created and consumed) its height.
    fn patch_height(
        &mut self,
        view: &impl ReadView,
        id: &Id,
        tx: &Tx,
        row: TxRow,
        place: TxRow,
    ) -> Result<(), XStateError> {
        let height = place.height;
        let row = TxRow {
            height,
            place: place.place,
            ..row
        };
        self.txs.put(*id, row, true);
        let created = produced_utxos(tx, id)
            .into_iter()
            .chain(exported_utxos(tx, id).into_iter().map(|(_, u)| u));
        for utxo in created {
            let uid = utxo.id();
            if let Some((mut rec, stored)) = self.utxo_row(view, &uid)? {
                if rec.created.tx_id == *id && rec.created.height.is_none() {
                    rec.created.height = height;
                    self.utxos.put(uid, rec, stored);
                }
            }
        }
        for input in tx.unsigned.input_utxos() {
            let uid = input.id();
            if let Some((mut rec, stored)) = self.utxo_row(view, &uid)? {
                if let Some(c) = rec.consumed.as_mut().filter(|c| c.tx_id == *id) {
                    c.height = height;
                    self.utxos.put(uid, rec, stored);
                }
            } else if let (Some(mut early), stored) = self.early_spend(view, &uid)? {
                // An import whose export is not derived yet: the export will read this.
                if early.tx_id == *id {
                    early.height = height;
                    self.early.put(uid, early, stored);
                }
            }
        }
        self.stats.patched_txs += 1;
        Ok(())
    }

    /// Records a new UTXO: its row, its four address orders, and its balance (single owner) or
    /// multi-owner entry. `chains` = (`createdOnChainId`, `consumedOnChainId`).
    fn create(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        utxo: Utxo,
        holding: Holding,
        chains: (Id, Id),
        created: Event,
    ) -> Result<(), XStateError> {
        let uid = utxo.id();
        let counted = output_amount(&utxo.output);
        let amount = counted.unwrap_or(0);
        let addrs = owners(&utxo.output);
        let ts = created.timestamp;
        // The unspent orders (and multi-owner rows) are withdrawn if the batch consumes the
        // UTXO; the orders of all UTXOs stay.
        let mut puts = Vec::with_capacity(3 * addrs.len());
        for a in &addrs {
            puts.push(batch.put_tracked::<XhUnspentByTime>(&(*a, ts, uid), &()));
            puts.push(batch.put_tracked::<XhUnspentByAmount>(&(*a, amount, uid), &()));
            batch.put::<XhAllByTime>(&(*a, ts, uid), &());
            batch.put::<XhAllByAmount>(&(*a, amount, uid), &());
        }
        let rec = UtxoRecord {
            holding,
            amount,
            created_on: chains.0,
            consumed_on: chains.1,
            created,
            consumed: None,
            bytes: utxo.to_bytes(),
        };
        if holding != Holding::ExportedToX && !self.in_genesis {
            let moved = tx_index::Moved {
                id: uid,
                asset: utxo.asset_id,
                owners: &addrs,
            };
            tx_index::emitted(batch, &created, moved);
        }
        if holding == Holding::ExportedToX && chains.0 == self.c_chain && !self.in_genesis {
            tx_index::c_owners(batch, &created, C_OWNER_EXPORT, &addrs);
        }
        if !self.in_genesis {
            self.tell(&rec, &utxo, &created, true);
        }
        let mut balance = None;
        if let Some(counted) = counted {
            if let [addr] = addrs.as_slice() {
                let key = balance_key(&rec, &utxo, addr);
                self.count(view, key, counted, true)?;
                balance = Some((key, counted));
            } else {
                for a in &addrs {
                    puts.push(batch.put_tracked::<XhMultiOwner>(&(*a, uid), &()));
                }
            }
        }
        self.fresh.insert(uid, Fresh { puts, balance });
        self.utxos.put(uid, rec, false);
        self.stats.utxos_created += 1;
        Ok(())
    }

    /// Records a UTXO an export puts in atomic memory between X and the P- or C-Chain
    /// (`holding` says which way), by the shared-memory rule ([`atomic::export`]): created
    /// unspent, or already consumed by its import when that was derived first (the other
    /// chain's containers arrived earlier); a UTXO already recorded is left as it is.
    fn create_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        utxo: &Utxo,
        holding: Holding,
        chains: (Id, Id),
        created: Event,
    ) -> Result<(), XStateError> {
        let mut rows = SharedX {
            x: self,
            batch,
            view,
        };
        atomic::export(&mut rows, utxo.id(), |r| {
            r.x.create(r.batch, r.view, utxo.clone(), holding, chains, created)
        })?;
        Ok(())
    }

    /// Consumes a UTXO an import takes from atomic memory between X and the P- or C-Chain, by
    /// the shared-memory rule ([`atomic::import`]): when its export is not derived yet the
    /// consumption is remembered (`xh_early_spends`) for the export to apply; the same import
    /// read again changes nothing; another import of the same UTXO is a missing input.
    fn consume_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        uid: Id,
        ev: Event,
    ) -> Result<(), XStateError> {
        let mut rows = SharedX {
            x: self,
            batch,
            view,
        };
        match atomic::import(&mut rows, uid, ev)? {
            Imported::Early => self.stats.early_spends += 1,
            Imported::Duplicate => self.stats.missing_inputs += 1,
            Imported::Consumed | Imported::Again => {}
        }
        Ok(())
    }

    /// The consumption remembered for a UTXO not yet created, as of this batch, and whether
    /// the store holds its key once the unwritten batches are written.
    fn early_spend(
        &self,
        view: &impl ReadView,
        uid: &Id,
    ) -> Result<(Option<Event>, bool), XStateError> {
        match self.early.get(uid) {
            Some((ev, stored)) => Ok((ev.copied(), stored)),
            None => {
                let ev = view.get::<XhEarlySpends>(uid)?;
                Ok((ev, ev.is_some()))
            }
        }
    }

    /// Marks a UTXO consumed by `ev`: leaves the unspent orders and the balances.
    fn consume(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        uid: Id,
        ev: Event,
    ) -> Result<(), XStateError> {
        // Created in this very batch: withdraw its unspent rows instead of writing them and
        // their deletes, and mark its pending row in place.
        if let Some(fresh) = self.fresh.remove(&uid) {
            for op in fresh.puts {
                batch.cancel(op);
            }
            if let Some((key, amount)) = fresh.balance {
                self.count(view, key, amount, false)?;
            }
            let rec = self.utxos.get_mut(&uid).ok_or_else(|| {
                XStateError::Corrupt(format!("UTXO {uid} created in this batch has no row"))
            })?;
            let utxo = rec
                .utxo()
                .map_err(|source| XStateError::StoredUtxo { id: uid, source })?;
            if rec.holding != Holding::ExportedFromX {
                let moved = tx_index::Moved {
                    id: uid,
                    asset: utxo.asset_id,
                    owners: &owners(&utxo.output),
                };
                tx_index::consumed(batch, &ev, moved);
            } else if rec.consumed_on == self.c_chain {
                tx_index::c_owners(batch, &ev, C_OWNER_IMPORT, &owners(&utxo.output));
            }
            rec.consumed = Some(ev);
            if self.journal.is_some() {
                let rec = rec.clone();
                self.tell(&rec, &utxo, &ev, false);
            }
            self.stats.utxos_consumed += 1;
            return Ok(());
        }
        let Some((mut rec, stored)) = self.utxo_row(view, &uid)? else {
            self.stats.missing_inputs += 1;
            return Ok(());
        };
        if rec.consumed.is_some() {
            self.stats.missing_inputs += 1;
            return Ok(());
        }
        let utxo = rec
            .utxo()
            .map_err(|source| XStateError::StoredUtxo { id: uid, source })?;
        let addrs = owners(&utxo.output);
        if rec.holding != Holding::ExportedFromX {
            let moved = tx_index::Moved {
                id: uid,
                asset: utxo.asset_id,
                owners: &addrs,
            };
            tx_index::consumed(batch, &ev, moved);
        } else if rec.consumed_on == self.c_chain {
            tx_index::c_owners(batch, &ev, C_OWNER_IMPORT, &addrs);
        }
        let counted = output_amount(&utxo.output);
        for a in &addrs {
            batch.delete::<XhUnspentByTime>(&(*a, rec.created.timestamp, uid));
            batch.delete::<XhUnspentByAmount>(&(*a, rec.amount, uid));
            if counted.is_some() && addrs.len() > 1 {
                batch.delete::<XhMultiOwner>(&(*a, uid));
            }
        }
        if let (Some(counted), [addr]) = (counted, addrs.as_slice()) {
            self.count(view, balance_key(&rec, &utxo, addr), counted, false)?;
        }
        self.tell(&rec, &utxo, &ev, false);
        rec.consumed = Some(ev);
        self.utxos.put(uid, rec, stored);
        self.stats.utxos_consumed += 1;
        Ok(())
    }

    /// Adds (`add`) or removes `amount` (one unspent UTXO) at the balance row `key`.
    fn count(
        &mut self,
        view: &impl ReadView,
        key: BalanceKey,
        amount: u64,
        add: bool,
    ) -> Result<(), XStateError> {
        self.balances.adjust_total(view, key, amount, add)?;
        Ok(())
    }
}

/// X's atomic UTXO rows (`xh_utxos`, `xh_early_spends`) as the shared-memory rule reads and
/// changes them, within the batch being staged.
struct SharedX<'a, V> {
    x: &'a mut XHistory,
    batch: &'a mut WriteBatch,
    view: &'a V,
}

impl<V: ReadView> SharedRows for SharedX<'_, V> {
    type Spend = Event;
    type Error = XStateError;

    fn spender(spend: &Event) -> Id {
        spend.tx_id
    }

    fn stand(&mut self, id: Id) -> Result<Stand<Event>, XStateError> {
        let recorded = match self.x.utxos.get(&id) {
            Some((row, _)) => row.map(|r| r.consumed.map(|c| c.tx_id)),
            None => self
                .view
                .get::<XhUtxos>(&id)?
                .map(|r| r.consumed.map(|c| c.tx_id)),
        };
        if let Some(consumed_by) = recorded {
            return Ok(Stand::Exported { consumed_by });
        }
        Ok(match self.x.early_spend(self.view, &id)? {
            (Some(spend), stored) => Stand::SpentEarly { spend, stored },
            (None, stored) => Stand::Unknown { stored },
        })
    }

    fn consume(&mut self, id: Id, spend: Event) -> Result<(), XStateError> {
        self.x.consume(self.batch, self.view, id, spend)
    }

    fn remember_early(&mut self, id: Id, spend: Event, stored: bool) {
        self.x.early.put(id, spend, stored);
    }

    fn forget_early(&mut self, id: Id, stored: bool) {
        self.x.early.delete(id, stored);
    }
}

/// The sealed batch's rows stay readable until it is written, so the next batch may be derived
/// meanwhile; dropped batches are forgotten.
impl StagingParts for XHistory {
    /// The rows held back until the batch is complete: the final UTXO, tx and balance rows, each
    /// written once.
    fn parts(&mut self) -> impl Staging + '_ {
        [
            &mut self.utxos as &mut dyn Staging,
            &mut self.early,
            &mut self.txs,
            &mut self.balances,
            &mut self.meta,
        ]
    }

    fn finish_own(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        // Withdrawing a put is only possible within its own batch.
        self.fresh.clear();
        Ok(())
    }

    fn discard_own(&mut self) {
        self.fresh.clear();
    }
}

impl Derive for XHistory {
    const PATHS: &'static [IndexPath] = &X_DERIVE_PATHS;
    type Prepared = XContainer;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
        prepared: &XContainer,
    ) -> Result<(), DeriveError> {
        self.apply_parsed(batch, view, record, index, prepared)
            .map_err(DeriveError::from)
    }

    fn overlaps_writes(&self) -> bool {
        true
    }
}
