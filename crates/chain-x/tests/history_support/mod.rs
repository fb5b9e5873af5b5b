//! Shared by the history tests: a devnet fed through `ingest` with both derivers, an independent
//! replay of the containers (plain maps, `types`' `operation_outputs`; the P-Chain's exports to
//! X and imports from X read from its blocks) giving every UTXO's expected creation and
//! consumption, and dumps of every table for equality checks.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use snowline_chain_x::X_PATHS;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use snowline_chain_x::history::tables::{
    XhAllByAmount, XhAllByTime, XhAssets, XhBalances, XhBlocks, XhEarlySpends, XhMeta,
    XhMultiOwner, XhTxs, XhUnspentByAmount, XhUnspentByTime, XhUtxos, XhVertices,
};
use snowline_chain_x::history::{AssetTotal, HistoryStats, Holding, XBalances, XHistory};
use snowline_chain_x::state::XChainState;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexError, IndexWriter, ingest};
use snowline_store::{Direction, ReadView, Schema, Store, Table};
use snowline_types::avm::XGenesisState;
use snowline_types::avm::outputs::operation_outputs;
use snowline_types::avm::{Output, StandardBlock, TransferableOut, Tx, UnsignedTx, Utxo};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::platformvm;
use snowline_types::proposervm;
use snowline_types::vertex::Vertex;
use snowline_types::{Id, ShortId};

/// The store's schema: the container index, the node-rpc state and the history.
pub fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::state::tables::tables())
        .chain(snowline_chain_x::history::tables())
        .fold(Schema::new(1), |s, t| s.with_spec(t))
}

/// A generated devnet: its containers and genesis.
pub struct World {
    pub records: Vec<ContainerRecord>,
    pub genesis: XGenesisState,
    pub x_chain: Id,
    pub p_chain: Id,
    pub c_chain: Id,
    pub genesis_time: u64,
}

pub fn world(cfg: DevnetConfig) -> World {
    let mut devnet = Devnet::generate(cfg).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let g = devnet.genesis();
    let genesis = devnet.x_genesis();
    World {
        records,
        genesis,
        x_chain: g.network.x_chain_id,
        p_chain: g.network.p_chain_id,
        c_chain: g.network.c_chain_id,
        genesis_time: u64::try_from(devnet.config().start_time).unwrap(),
    }
}

pub type Both = (XChainState, XHistory);

/// Applies both geneses (once) and ingests `records` (already indexed ones are skipped); `fail_after`
/// makes the source fail after that many records, as a crash would cut it.
pub fn run(
    store: &Store,
    w: &World,
    records: &[ContainerRecord],
    batch: usize,
    fail_after: Option<usize>,
) -> Result<HistoryStats, IndexError> {
    let mut both = (
        XChainState::new(w.x_chain, w.p_chain),
        XHistory::new(w.x_chain, w.p_chain),
    );
    both.0.apply_genesis(store, &w.genesis).unwrap();
    both.1
        .apply_genesis(store, &w.genesis, w.genesis_time)
        .unwrap();
    let mut writer = IndexWriter::open(store).unwrap();
    let src = records.iter().enumerate().map(|(i, r)| {
        if fail_after.is_some_and(|n| i >= n) {
            return Err(IndexError::Source("source cut".into()));
        }
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(store, &mut writer, src, batch, &mut both, |_| {})?;
    Ok(both.1.stats())
}

pub fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, &schema()).unwrap()
}

/// One UTXO as the replay expects it.
#[derive(Debug, Clone)]
pub struct Expected {
    pub utxo: Utxo,
    pub holding: Holding,
    pub shared_with: Option<Id>,
    pub created_tx: Id,
    pub created_time: u64,
    pub consumed: Option<(Id, u64)>,
}

impl Expected {
    pub fn owners(&self) -> BTreeSet<ShortId> {
        owners_of(&self.utxo.output).addrs.iter().copied().collect()
    }
    pub fn locktime(&self) -> u64 {
        owners_of(&self.utxo.output).locktime
    }
    /// Secp256k1 amount, 1 per NFT, nothing for the rest.
    pub fn counted(&self) -> Option<u64> {
        match &self.utxo.output {
            Output::Secp256k1Transfer(t) => Some(t.amount),
            Output::NftTransfer(_) => Some(1),
            _ => None,
        }
    }
}

pub fn owners_of(o: &Output) -> &snowline_types::fx::secp256k1fx::OutputOwners {
    match o {
        Output::Secp256k1Mint(x) => &x.owners,
        Output::Secp256k1Transfer(x) => &x.owners,
        Output::NftMint(x) => &x.owners,
        Output::NftTransfer(x) => &x.owners,
        Output::PropertyMint(x) => &x.owners,
        Output::PropertyOwned(x) => &x.owners,
    }
}

/// A vertex as the replay sees it: id, parents, time, tx ids, size.
pub type VertexFacts = (Id, Vec<Id>, u64, Vec<Id>, u32);

/// The independent replay: every UTXO, every tx's (first time, height), every vertex.
pub struct Replay {
    pub utxos: BTreeMap<Id, Expected>,
    pub txs: HashMap<Id, (u64, Option<u64>, Tx)>,
    /// `(height, index in X/vtx) -> (id, parents, time, tx ids, size)`.
    pub vertices: BTreeMap<(u64, u64), VertexFacts>,
    pub blocks: BTreeMap<u64, (Id, u64, Vec<Id>)>,
    /// P- and C-Chain txs that exported to X or imported from X: `tx -> (block time, height,
    /// the UTXOs it imported)`.
    pub p_txs: HashMap<Id, (u64, u64, Vec<Id>)>,
    pub first_time: u64,
    pub last_time: u64,
}

impl Replay {
    pub fn height_of(&self, tx: &Id) -> Option<u64> {
        match self.p_txs.get(tx) {
            Some(p) => Some(p.1),
            None => self.txs.get(tx).and_then(|t| t.1),
        }
    }
}

/// What a `P/block` does to X's atomic memory, as the replay reads it: exports to X become
/// X-shaped UTXOs created by the P tx, imports from X consume what they name.
fn replay_p_block(r: &mut Replay, w: &World, rec: &ContainerRecord) {
    let block = platformvm::parse_block(&rec.bytes).unwrap();
    let time = block
        .block
        .block
        .timestamp()
        .unwrap_or(u64::try_from(rec.timestamp_ns / 1_000_000_000).unwrap());
    let height = block.block.block.height();
    for (tx, id) in block.block.block.txs().into_iter().zip(&block.block.tx_ids) {
        match &tx.unsigned {
            platformvm::UnsignedTx::ExportTx(e) if e.destination_chain == w.x_chain => {
                r.p_txs.insert(*id, (time, height, Vec::new()));
                let first = e.base.outputs.len();
                for (i, o) in e.exported_outputs.iter().enumerate() {
                    let platformvm::TransferableOut::Secp256k1(t) = &o.output else {
                        panic!("the devnet exports plain outputs");
                    };
                    let utxo = Utxo {
                        utxo_id: UtxoId::new(*id, u32::try_from(first + i).unwrap()),
                        asset_id: o.asset_id,
                        output: Output::Secp256k1Transfer(t.clone()),
                    };
                    r.utxos.insert(
                        utxo.id(),
                        Expected {
                            utxo,
                            holding: Holding::ExportedToX,
                            shared_with: Some(w.p_chain),
                            created_tx: *id,
                            created_time: time,
                            consumed: None,
                        },
                    );
                }
            }
            platformvm::UnsignedTx::ImportTx(i) if i.source_chain == w.x_chain => {
                let ids: Vec<Id> = i.imported_inputs.iter().map(|x| x.utxo_id.id()).collect();
                for u in &ids {
                    let e = r.utxos.get_mut(u).expect("P imports a known X export");
                    assert!(e.consumed.is_none(), "double import of {u}");
                    e.consumed = Some((*id, time));
                }
                r.p_txs.insert(*id, (time, height, ids));
            }
            _ => {}
        }
    }
}

/// What a `C/block` does to X's atomic memory, as the replay reads it: exports to X become
/// X-shaped UTXOs created by the C tx (output index `i`), imports from X consume what they name.
fn replay_c_block(r: &mut Replay, w: &World, rec: &ContainerRecord) {
    use snowline_types::coreth;
    let block = coreth::AtomicBlock::from_container(&rec.bytes, 12345).unwrap();
    let (time, height) = (block.block.timestamp(), block.block.number());
    for tx in &block.txs {
        let id = tx.id;
        match &tx.tx.unsigned {
            coreth::UnsignedTx::Export(e) if e.destination_chain == w.x_chain => {
                r.p_txs.insert(id, (time, height, Vec::new()));
                for (i, o) in e.exported_outputs.iter().enumerate() {
                    let coreth::TransferableOut::Secp256k1(t) = &o.output;
                    let utxo = Utxo {
                        utxo_id: UtxoId::new(id, u32::try_from(i).unwrap()),
                        asset_id: o.asset_id,
                        output: Output::Secp256k1Transfer(t.clone()),
                    };
                    r.utxos.insert(
                        utxo.id(),
                        Expected {
                            utxo,
                            holding: Holding::ExportedToX,
                            shared_with: Some(w.c_chain),
                            created_tx: id,
                            created_time: time,
                            consumed: None,
                        },
                    );
                }
            }
            coreth::UnsignedTx::Import(i) if i.source_chain == w.x_chain => {
                let ids: Vec<Id> = i.imported_utxo_ids().collect();
                for u in &ids {
                    let e = r.utxos.get_mut(u).expect("C imports a known X export");
                    assert!(e.consumed.is_none(), "double import of {u}");
                    e.consumed = Some((id, time));
                }
                r.p_txs.insert(id, (time, height, ids));
            }
            _ => {}
        }
    }
}

pub fn replay(w: &World) -> Replay {
    let mut r = Replay {
        utxos: BTreeMap::new(),
        txs: HashMap::new(),
        vertices: BTreeMap::new(),
        blocks: BTreeMap::new(),
        p_txs: HashMap::new(),
        first_time: 0,
        last_time: 0,
    };
    for (chain, u) in &w.genesis.atomic_utxos {
        r.utxos.insert(
            u.id(),
            Expected {
                utxo: u.clone(),
                holding: Holding::ExportedToX,
                shared_with: Some(*chain),
                created_tx: u.utxo_id.tx_id,
                created_time: w.genesis_time,
                consumed: None,
            },
        );
    }
    let apply = |r: &mut Replay, id: Id, tx: &Tx, time: u64, height: Option<u64>| {
        if let Some(seen) = r.txs.get_mut(&id) {
            if seen.1.is_none() {
                seen.1 = height;
            }
            return;
        }
        r.txs.insert(id, (time, height, tx.clone()));
        for u in tx.unsigned.input_utxos() {
            let e = r.utxos.get_mut(&u.id()).expect("input of a known UTXO");
            assert!(e.consumed.is_none(), "double spend of {}", u.id());
            e.consumed = Some((id, time));
        }
        let mut outs: Vec<(Id, Output)> = tx
            .unsigned
            .base()
            .outputs
            .iter()
            .map(|o| match &o.output {
                TransferableOut::Secp256k1(t) => (o.asset_id, Output::Secp256k1Transfer(t.clone())),
            })
            .collect();
        match &tx.unsigned {
            UnsignedTx::CreateAsset(c) => {
                for s in &c.states {
                    outs.extend(s.outputs.iter().map(|o| (id, o.clone())));
                }
            }
            UnsignedTx::Operation(t) => {
                for op in &t.operations {
                    outs.extend(
                        operation_outputs(&op.op)
                            .into_iter()
                            .map(|o| (op.asset_id, o)),
                    );
                }
            }
            _ => {}
        }
        let push = |r: &mut Replay, i: usize, asset_id: Id, output: Output, dest: Option<Id>| {
            let utxo = Utxo {
                utxo_id: UtxoId::new(id, u32::try_from(i).unwrap()),
                asset_id,
                output,
            };
            r.utxos.insert(
                utxo.id(),
                Expected {
                    utxo,
                    holding: if dest.is_some() {
                        Holding::ExportedFromX
                    } else {
                        Holding::Native
                    },
                    shared_with: dest,
                    created_tx: id,
                    created_time: time,
                    consumed: None,
                },
            );
        };
        let n = outs.len();
        for (i, (asset, out)) in outs.into_iter().enumerate() {
            push(r, i, asset, out, None);
        }
        if let UnsignedTx::Export(e) = &tx.unsigned {
            for (j, o) in e.exported_outputs.iter().enumerate() {
                let TransferableOut::Secp256k1(t) = &o.output;
                push(
                    r,
                    n + j,
                    o.asset_id,
                    Output::Secp256k1Transfer(t.clone()),
                    Some(e.destination_chain),
                );
            }
        }
    };
    for g in &w.genesis.txs {
        apply(&mut r, g.id, &g.tx, w.genesis_time, None);
    }
    let mut vtx_index = 0u64;
    let mut first = None;
    // The P-Chain's blocks count only for X's atomic memory (and not in X's container times).
    for rec in &w.records {
        if rec.path == IndexPath::PBlock {
            replay_p_block(&mut r, w, rec);
        }
        if rec.path == IndexPath::CBlock {
            replay_c_block(&mut r, w, rec);
        }
        if !X_PATHS.contains(&rec.path) {
            continue;
        }
        let time = u64::try_from(rec.timestamp_ns / 1_000_000_000).unwrap();
        first.get_or_insert(time);
        r.last_time = time;
        match rec.path {
            IndexPath::XTx => {
                let t = Tx::parse(&rec.bytes).unwrap();
                apply(&mut r, t.id, &t.tx, time, None);
            }
            IndexPath::XVtx => {
                let v = Vertex::parse(&rec.bytes).unwrap();
                let mut ids = Vec::new();
                for b in &v.vertex.txs {
                    let t = Tx::parse(b).unwrap();
                    apply(&mut r, t.id, &t.tx, time, Some(v.vertex.height));
                    ids.push(t.id);
                }
                r.vertices.insert(
                    (v.vertex.height, vtx_index),
                    (
                        v.id,
                        v.vertex.parent_ids.clone(),
                        time,
                        ids,
                        u32::try_from(rec.bytes.len()).unwrap(),
                    ),
                );
                vtx_index += 1;
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::parse(&rec.bytes).unwrap();
                let inner = StandardBlock::parse(outer.block.inner()).unwrap();
                for (tx, id) in inner.block.txs.iter().zip(&inner.tx_ids) {
                    apply(&mut r, *id, tx, time, Some(inner.block.height));
                }
                r.blocks
                    .insert(inner.block.height, (inner.id, time, inner.tx_ids.clone()));
            }
            _ => {}
        }
    }
    r.first_time = first.unwrap_or(0);
    r
}

/// Balances of `addrs` computed from the replay: UTXOs owned by any of them, created at or
/// before `at` and not consumed by then (`at = None`: the end), locked when the locktime is
/// after `lock_time`.
pub fn naive_balances(
    r: &Replay,
    addrs: &BTreeSet<ShortId>,
    at: Option<u64>,
    lock_time: u64,
) -> XBalances {
    let mut out = XBalances::default();
    for e in r.utxos.values() {
        let Some(amount) = e.counted() else { continue };
        if !owners_of(&e.utxo.output)
            .addrs
            .iter()
            .any(|a| addrs.contains(a))
        {
            continue;
        }
        let live = match at {
            Some(t) => e.created_time <= t && e.consumed.is_none_or(|(_, c)| c > t),
            None => e.consumed.is_none(),
        };
        if !live {
            continue;
        }
        let locked = e.locktime() > lock_time;
        let asset = e.utxo.asset_id;
        let total: &mut AssetTotal = match (e.shared_with, locked) {
            (None, false) => out.unlocked.entry(asset).or_default(),
            (None, true) => out.locked.entry(asset).or_default(),
            (Some(c), false) => out.atomic_unlocked.entry((c, asset)).or_default(),
            (Some(c), true) => out.atomic_locked.entry((c, asset)).or_default(),
        };
        total.add(amount);
    }
    out
}

fn dump_table<T: Table>(store: &Store, out: &mut Vec<String>)
where
    T::Key: std::fmt::Debug,
    T::Value: std::fmt::Debug,
{
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        out.push(format!("{} {:?}", T::NAME, e.unwrap()));
    }
}

/// Every history table, entry by entry.
pub fn dump_history(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    dump_table::<XhUtxos>(store, &mut out);
    dump_table::<XhUnspentByTime>(store, &mut out);
    dump_table::<XhUnspentByAmount>(store, &mut out);
    dump_table::<XhAllByTime>(store, &mut out);
    dump_table::<XhAllByAmount>(store, &mut out);
    dump_table::<XhBalances>(store, &mut out);
    dump_table::<XhMultiOwner>(store, &mut out);
    dump_table::<XhTxs>(store, &mut out);
    dump_table::<XhVertices>(store, &mut out);
    dump_table::<XhBlocks>(store, &mut out);
    dump_table::<XhAssets>(store, &mut out);
    dump_table::<XhMeta>(store, &mut out);
    dump_table::<XhEarlySpends>(store, &mut out);
    out
}

/// The node-rpc state's tables too (they share the batches).
pub fn dump_state(store: &Store) -> Vec<String> {
    use snowline_chain_x::state::tables::*;
    let mut out = Vec::new();
    dump_table::<XUtxos>(store, &mut out);
    dump_table::<XAddrUtxos>(store, &mut out);
    dump_table::<XAddrUtxoPos>(store, &mut out);
    dump_table::<XAtomicUtxos>(store, &mut out);
    dump_table::<XAtomicAddrUtxos>(store, &mut out);
    dump_table::<XAtomicAddrPos>(store, &mut out);
    dump_table::<XAtomicEarlyImports>(store, &mut out);
    dump_table::<XTxs>(store, &mut out);
    dump_table::<XBlocks>(store, &mut out);
    dump_table::<XMeta>(store, &mut out);
    out
}
