//! Shared by the atomic-memory tests of chain-x and chain-p (each includes this file with
//! `#[path]`): the devnet's streams apart and interleaved, what its X, P and C txs export and
//! import, read from the tx bodies alone, and a model of each chain's side of shared memory
//! written from those txs and AvalancheGo's rule, not from the derivers.
//!
//! The rule (avalanchego `chains/atomic/state.go` at commit
//! `1cf1fc3d1711a09fde7319d2b48609c8cba93680`, `SetValue` / `RemoveValue`): an export puts each
//! UTXO in the destination's shared memory once; an import removes it once; a remove that comes
//! before its put leaves a tombstone the put then cancels (bootstrapping may accept the import
//! first); a second put or remove is an error, so no accepted history holds one. A tx read again
//! in another container is the same operation, not a second one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use snowline_types::avm::{self, StandardBlock, Tx};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::vertex::Vertex;
use snowline_types::{Id, coreth, platformvm, proposervm};

/// The chains of the devnet's network.
#[derive(Debug, Clone, Copy)]
pub struct Chains {
    pub network_id: u32,
    pub x: Id,
    pub p: Id,
    pub c: Id,
}

/// Every container but the P-Chain's, and the P-Chain's blocks, each in its own order.
pub fn split(records: &[ContainerRecord]) -> (Vec<ContainerRecord>, Vec<ContainerRecord>) {
    records
        .iter()
        .cloned()
        .partition(|r| r.path != IndexPath::PBlock)
}

/// Both streams merged with the P-Chain's moved by `shift` (a fraction of the run): each
/// stream keeps its order, the other's records fall in between.
pub fn shifted(x: &[ContainerRecord], p: &[ContainerRecord], shift: f64) -> Vec<ContainerRecord> {
    let mut keyed: Vec<(f64, usize, &ContainerRecord)> = Vec::new();
    for (i, r) in x.iter().enumerate() {
        keyed.push((i as f64 / x.len() as f64, i, r));
    }
    for (j, r) in p.iter().enumerate() {
        keyed.push((j as f64 / p.len() as f64 + shift, x.len() + j, r));
    }
    keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, _, r)| r.clone()).collect()
}

/// One atomic tx: what it exports (`(utxo id, destination)`) and imports (`(utxo id, source)`),
/// on chain `chain`.
#[derive(Debug, Clone)]
pub struct AtomicOp {
    pub tx: Id,
    pub chain: Id,
    pub exports: Vec<(Id, Id)>,
    pub imports: Vec<(Id, Id)>,
}

/// The atomic txs of one container, with its height (`None` for `X/tx`) and time (Unix s): a
/// P-Chain block's own time (Banff) or its acceptance, a C-Chain block's own time, an X-Chain
/// container's acceptance. Export indexes: avm and platformvm `ExportTx` give the `i`-th
/// exported output index `len(outs) + i`; coreth's export has no outputs of its own, so `i`.
pub fn container_ops(ch: &Chains, r: &ContainerRecord) -> (Option<u64>, u64, Vec<AtomicOp>) {
    let accepted = u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap();
    let x_op = |tx: &Tx, id: Id| -> Option<AtomicOp> {
        match &tx.unsigned {
            avm::UnsignedTx::Export(e) => {
                let n = e.base.outputs.len();
                let exports = (0..e.exported_outputs.len())
                    .map(|i| {
                        let u = UtxoId::new(id, u32::try_from(n + i).unwrap()).id();
                        (u, e.destination_chain)
                    })
                    .collect();
                Some(AtomicOp {
                    tx: id,
                    chain: ch.x,
                    exports,
                    imports: vec![],
                })
            }
            avm::UnsignedTx::Import(i) => Some(AtomicOp {
                tx: id,
                chain: ch.x,
                exports: vec![],
                imports: i
                    .imported_inputs
                    .iter()
                    .map(|x| (x.utxo_id.id(), i.source_chain))
                    .collect(),
            }),
            _ => None,
        }
    };
    match r.path {
        IndexPath::XTx => {
            let tx = Tx::parse(&r.bytes).unwrap();
            (None, accepted, x_op(&tx.tx, tx.id).into_iter().collect())
        }
        IndexPath::XVtx => {
            let v = Vertex::parse(&r.bytes).unwrap().vertex;
            let ops = v
                .txs
                .iter()
                .filter_map(|b| {
                    let tx = Tx::parse(b).unwrap();
                    x_op(&tx.tx, tx.id)
                })
                .collect();
            (Some(v.height), accepted, ops)
        }
        IndexPath::XBlock => {
            let outer = proposervm::Block::parse(&r.bytes).unwrap();
            let inner = StandardBlock::parse(outer.block.inner()).unwrap();
            let ops = inner
                .block
                .txs
                .iter()
                .zip(&inner.tx_ids)
                .filter_map(|(tx, id)| x_op(tx, *id))
                .collect();
            (Some(inner.block.height), accepted, ops)
        }
        IndexPath::PBlock => {
            let b = platformvm::parse_block(&r.bytes).unwrap().block;
            let time = b.block.timestamp().unwrap_or(accepted);
            let mut ops = Vec::new();
            for (tx, id) in b.block.txs().into_iter().zip(&b.tx_ids) {
                match &tx.unsigned {
                    platformvm::UnsignedTx::ExportTx(e) => {
                        let n = e.base.outputs.len();
                        ops.push(AtomicOp {
                            tx: *id,
                            chain: ch.p,
                            exports: (0..e.exported_outputs.len())
                                .map(|i| {
                                    let u = UtxoId::new(*id, u32::try_from(n + i).unwrap()).id();
                                    (u, e.destination_chain)
                                })
                                .collect(),
                            imports: vec![],
                        });
                    }
                    platformvm::UnsignedTx::ImportTx(i) => ops.push(AtomicOp {
                        tx: *id,
                        chain: ch.p,
                        exports: vec![],
                        imports: i
                            .imported_inputs
                            .iter()
                            .map(|x| (x.utxo_id.id(), i.source_chain))
                            .collect(),
                    }),
                    _ => {}
                }
            }
            (Some(b.block.height()), time, ops)
        }
        IndexPath::CBlock => {
            let block = coreth::AtomicBlock::from_container(&r.bytes, ch.network_id).unwrap();
            let ops = block
                .txs
                .iter()
                .map(|tx| match &tx.tx.unsigned {
                    coreth::UnsignedTx::Export(e) => AtomicOp {
                        tx: tx.id,
                        chain: ch.c,
                        exports: (0..e.exported_outputs.len())
                            .map(|i| {
                                let u = UtxoId::new(tx.id, u32::try_from(i).unwrap()).id();
                                (u, e.destination_chain)
                            })
                            .collect(),
                        imports: vec![],
                    },
                    coreth::UnsignedTx::Import(i) => AtomicOp {
                        tx: tx.id,
                        chain: ch.c,
                        exports: vec![],
                        imports: i.imported_utxo_ids().map(|u| (u, i.source_chain)).collect(),
                    },
                })
                .collect();
            (Some(block.block.number()), block.block.timestamp(), ops)
        }
    }
}

/// Every export between chains (`utxo id -> (source, destination)`) and every import
/// (`utxo id -> importing tx`) of `records`' txs, each tx once wherever it appears.
pub struct Traffic {
    pub exported: BTreeMap<Id, (Id, Id)>,
    pub imported: BTreeMap<Id, Id>,
}

/// The exports and imports of `records`' txs.
pub fn traffic_of(ch: &Chains, records: &[ContainerRecord]) -> Traffic {
    let mut t = Traffic {
        exported: BTreeMap::new(),
        imported: BTreeMap::new(),
    };
    let mut seen = BTreeSet::new();
    for r in records {
        for op in container_ops(ch, r).2 {
            if !seen.insert(op.tx) {
                continue;
            }
            for (u, dest) in op.exports {
                t.exported.insert(u, (op.chain, dest));
            }
            for (u, _) in op.imports {
                t.imported.insert(u, op.tx);
            }
        }
    }
    t
}

/// A tx's place as a room records it: `(tx, height, time)`.
pub type Place = (Id, Option<u64>, u64);

/// What the model says a room's row of one atomic UTXO holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WantRow {
    /// Exported by the room's own chain (else exported to it).
    pub from_own: bool,
    pub created_on: Id,
    pub consumed_on: Id,
    pub created: Place,
    pub consumed: Option<Place>,
}

/// One chain's side of shared memory after a stream, by the model.
#[derive(Debug, Default)]
pub struct RoomModel {
    /// Every atomic UTXO the room keeps, by id.
    pub rows: BTreeMap<Id, WantRow>,
    /// Imports derived before their export (tombstones made).
    pub early: u64,
    /// Tombstones left at the end (imports whose export never came).
    pub waiting: usize,
}

/// Where one key of shared memory stands (`state.go`'s `dbElement`, plus who removed it).
enum Slot {
    Present,
    Removed(Id),
    Tombstone(Id),
}

/// The side of shared memory of chain `own` (with the two other chains) after its room reads
/// `records` in order (`reads_x_tx`: whether it reads `X/tx` too), with `genesis` UTXOs
/// (`(source, utxo id, tx)`) present from the start at `genesis_place` (height, time).
pub fn room_model(
    ch: &Chains,
    own: Id,
    records: &[ContainerRecord],
    reads_x_tx: bool,
    genesis: &[(Id, Id, Id)],
    genesis_place: (Option<u64>, u64),
) -> RoomModel {
    let others: Vec<Id> = [ch.x, ch.p, ch.c]
        .into_iter()
        .filter(|c| *c != own)
        .collect();
    let shared = |from: Id, to: Id| {
        (from == own && others.contains(&to)) || (to == own && others.contains(&from))
    };
    let mut places: BTreeMap<Id, (Option<u64>, u64)> = BTreeMap::new();
    let mut slots: BTreeMap<Id, Slot> = BTreeMap::new();
    let mut exports: BTreeMap<Id, (Id, Id, Id)> = BTreeMap::new();
    let mut m = RoomModel::default();
    for (source, u, tx) in genesis {
        places.insert(*tx, genesis_place);
        exports.insert(*u, (*source, own, *tx));
        slots.insert(*u, Slot::Present);
    }
    for r in records {
        if r.path == IndexPath::XTx && !reads_x_tx {
            continue;
        }
        let (height, time, ops) = container_ops(ch, r);
        for op in ops {
            if let Some(place) = places.get_mut(&op.tx) {
                // Read again: the same operation; a vertex gives an X/tx its height.
                if place.0.is_none() {
                    place.0 = height;
                }
                continue;
            }
            places.insert(op.tx, (height, time));
            for (u, dest) in op.exports {
                if !shared(op.chain, dest) {
                    continue;
                }
                exports.insert(u, (op.chain, dest, op.tx));
                let next = match slots.remove(&u) {
                    None => Slot::Present,
                    Some(Slot::Tombstone(by)) => Slot::Removed(by),
                    Some(_) => panic!("{u} put twice: no accepted history holds that"),
                };
                slots.insert(u, next);
            }
            for (u, source) in op.imports {
                if !shared(source, op.chain) {
                    continue;
                }
                let next = match slots.remove(&u) {
                    Some(Slot::Present) => Slot::Removed(op.tx),
                    None => {
                        m.early += 1;
                        Slot::Tombstone(op.tx)
                    }
                    Some(_) => panic!("{u} removed twice: no accepted history holds that"),
                };
                slots.insert(u, next);
            }
        }
    }
    let place = |tx: &Id| {
        let (h, t) = places[tx];
        (*tx, h, t)
    };
    for (u, (from, to, tx)) in &exports {
        let consumed = match &slots[u] {
            Slot::Removed(by) => Some(place(by)),
            _ => None,
        };
        m.rows.insert(
            *u,
            WantRow {
                from_own: *from == own,
                created_on: *from,
                consumed_on: *to,
                created: place(tx),
                consumed,
            },
        );
    }
    m.waiting = slots
        .values()
        .filter(|s| matches!(s, Slot::Tombstone(_)))
        .count();
    m
}

/// `records` with each container of path `path` holding an atomic tx delivered a second time
/// right after it, under another container id: the same txs read again.
pub fn read_again(
    ch: &Chains,
    records: &[ContainerRecord],
    path: IndexPath,
) -> Vec<ContainerRecord> {
    let mut out = Vec::with_capacity(records.len() * 2);
    for r in records {
        out.push(r.clone());
        if r.path == path && !container_ops(ch, r).2.is_empty() {
            let mut again = r.clone();
            let mut id = r.id;
            id.0[0] ^= 0xff;
            again.id = id;
            again.timestamp_ns += 1;
            out.push(again);
        }
    }
    out
}

/// `records`, then each container of `paths` holding an atomic tx delivered again at the end,
/// under another container id: exports read a second time after their imports took them.
pub fn read_again_at_end(
    ch: &Chains,
    records: &[ContainerRecord],
    paths: &[IndexPath],
) -> Vec<ContainerRecord> {
    let again = records
        .iter()
        .filter(|r| paths.contains(&r.path) && !container_ops(ch, r).2.is_empty())
        .map(|r| {
            let mut again = r.clone();
            again.id.0[0] ^= 0xff;
            again.timestamp_ns += 1;
            again
        });
    records
        .iter()
        .cloned()
        .chain(again.collect::<Vec<_>>())
        .collect()
}
