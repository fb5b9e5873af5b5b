//! Ingests the devnet small preset through the node-index loop with [`XChainState`] as the
//! derive hook and checks the derived tables against a replay computed here independently (the
//! devnet's own `op_outputs`, a plain map), then idempotence and resumption.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use snowline_chain_x::state::tables::{XAddrUtxos, XAtomicUtxos, XTxs, XUtxos, tables};
use snowline_chain_x::state::{XChainState, XReader};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, ReadView, Schema, Store};
use snowline_types::avm::XGenesisState;
use snowline_types::avm::outputs::operation_outputs;
use snowline_types::avm::{Output, StandardBlock, TransferableOut, Tx, UnsignedTx, Utxo};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::proposervm;
use snowline_types::vertex::Vertex;
use snowline_types::{Id, ShortId};

fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(tables())
        .fold(Schema::new(1), |s, t| s.with_spec(t))
}

struct World {
    records: Vec<ContainerRecord>,
    genesis: XGenesisState,
    x_chain: Id,
    p_chain: Id,
    c_chain: Id,
}

fn world() -> World {
    let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let genesis = devnet.x_genesis();
    let net = &devnet.genesis().network;
    World {
        records,
        genesis,
        x_chain: net.x_chain_id,
        p_chain: net.p_chain_id,
        c_chain: net.c_chain_id,
    }
}

/// What X's shared memory ever received: the genesis's atomic UTXOs, the outputs of the
/// P-Chain's exports to X (indexes after the tx's outputs) and of the C-Chain's (index `i`,
/// coreth `UnsignedExportTx.AtomicOps`), as `(source chain, utxo id)`.
fn shared_memory_received(w: &World) -> Vec<(Id, Id)> {
    let mut out: Vec<(Id, Id)> = w
        .genesis
        .atomic_utxos
        .iter()
        .map(|(c, u)| (*c, u.id()))
        .collect();
    for r in w.records.iter().filter(|r| r.path == IndexPath::CBlock) {
        let block = snowline_types::coreth::AtomicBlock::from_container(&r.bytes, 12345).unwrap();
        for tx in &block.txs {
            if let snowline_types::coreth::UnsignedTx::Export(e) = &tx.tx.unsigned {
                if e.destination_chain == w.x_chain {
                    for i in 0..e.exported_outputs.len() {
                        let index = u32::try_from(i).unwrap();
                        out.push((w.c_chain, UtxoId::new(tx.id, index).id()));
                    }
                }
            }
        }
    }
    for r in w.records.iter().filter(|r| r.path == IndexPath::PBlock) {
        let block = snowline_types::platformvm::parse_block(&r.bytes)
            .unwrap()
            .block;
        for (tx, id) in block.block.txs().into_iter().zip(&block.tx_ids) {
            if let snowline_types::platformvm::UnsignedTx::ExportTx(e) = &tx.unsigned {
                if e.destination_chain == w.x_chain {
                    let first = e.base.outputs.len();
                    for i in 0..e.exported_outputs.len() {
                        let index = u32::try_from(first + i).unwrap();
                        out.push((w.p_chain, UtxoId::new(*id, index).id()));
                    }
                }
            }
        }
    }
    out
}

/// The expected UTXO set: `utxo id -> utxo`, and atomic `(chain, id)`, computed with a map.
/// Every P-Chain export to X precedes the X import of it in the devnet's order.
fn replay(w: &World) -> (BTreeMap<Id, Utxo>, BTreeSet<(Id, Id)>, usize) {
    let mut set: BTreeMap<Id, Utxo> = BTreeMap::new();
    let mut atomic: BTreeSet<(Id, Id)> = shared_memory_received(w).into_iter().collect();
    let mut seen = BTreeSet::new();
    let mut apply = |id: Id, tx: &Tx, set: &mut BTreeMap<Id, Utxo>| {
        if !seen.insert(id) {
            return;
        }
        for u in tx.unsigned.input_utxos() {
            if let UnsignedTx::Import(t) = &tx.unsigned {
                if t.imported_inputs.iter().any(|i| i.utxo_id == u) {
                    assert!(
                        atomic.remove(&(t.source_chain, u.id())),
                        "import of unknown atomic UTXO"
                    );
                    continue;
                }
            }
            assert!(
                set.remove(&u.id()).is_some(),
                "spend of unknown UTXO {}",
                u.id()
            );
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
        for (i, (asset_id, output)) in outs.into_iter().enumerate() {
            let utxo = Utxo {
                utxo_id: UtxoId::new(id, u32::try_from(i).unwrap()),
                asset_id,
                output,
            };
            set.insert(utxo.id(), utxo);
        }
    };
    for tx in &w.genesis.txs {
        apply(tx.id, &tx.tx, &mut set);
    }
    for r in &w.records {
        match r.path {
            IndexPath::XTx => {
                let t = Tx::parse(&r.bytes).unwrap();
                apply(t.id, &t.tx, &mut set);
            }
            IndexPath::XVtx => {
                for b in Vertex::parse(&r.bytes).unwrap().vertex.txs {
                    let t = Tx::parse(&b).unwrap();
                    apply(t.id, &t.tx, &mut set);
                }
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::parse(&r.bytes).unwrap();
                let inner = StandardBlock::parse(outer.block.inner()).unwrap();
                for (tx, id) in inner.block.txs.iter().zip(&inner.tx_ids) {
                    apply(*id, tx, &mut set);
                }
            }
            _ => {}
        }
    }
    let n = seen.len();
    (set, atomic, n)
}

fn run(store: &Store, w: &World, records: &[ContainerRecord], batch: usize) {
    let mut state = XChainState::new(w.x_chain, w.p_chain);
    state.apply_genesis(store, &w.genesis).unwrap();
    let mut writer = IndexWriter::open(store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(store, &mut writer, src, batch, &mut state, |_| {}).unwrap();
}

fn stored_set(store: &Store) -> BTreeMap<Id, Vec<u8>> {
    store
        .scan::<XUtxos, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| {
            let (k, v) = e.unwrap();
            (k, v.bytes)
        })
        .collect()
}

#[test]
fn derived_state_equals_independent_replay() {
    let w = world();
    let (expected, atomic, n_txs) = replay(&w);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    run(&store, &w, &w.records, 7);

    let got = stored_set(&store);
    let want: BTreeMap<Id, Vec<u8>> = expected.iter().map(|(k, u)| (*k, u.to_bytes())).collect();
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);

    let tx_ids: Vec<Id> = store
        .scan::<XTxs, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0)
        .collect();
    assert_eq!(tx_ids.len(), n_txs);
    // Every tx's bytes, read back through the container holding them (DAG txs from X/tx or
    // their vertex, block txs from inside the proposervm-wrapped block, genesis txs inline),
    // are its signed bytes: they hash to its id and decode.
    let reader = XReader::new(&store);
    for id in &tx_ids {
        let bytes = reader.tx(id).unwrap().unwrap();
        assert_eq!(Tx::parse(&bytes).unwrap().id, *id);
    }
    // Every block's bytes are the inner avm block: its id is the one indexed at its height.
    let height = reader.height().unwrap().unwrap();
    assert!(height > 0, "the small devnet has a linear era");
    for h in 0..=height {
        let block = StandardBlock::parse(&reader.block_at(h).unwrap().unwrap()).unwrap();
        assert_eq!(block.block.height, h);
        assert_eq!(reader.block_height(&block.id).unwrap(), Some(h));
    }
    let stored_atomic: BTreeSet<(Id, Id)> = store
        .scan::<XAtomicUtxos, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0)
        .collect();
    assert_eq!(stored_atomic, atomic);
    let received = shared_memory_received(&w);
    assert!(
        received.iter().any(|(c, _)| *c == w.p_chain),
        "the P-Chain's exports to X are read from its blocks"
    );
    assert!(
        atomic.len() < received.len(),
        "some atomic UTXOs were imported"
    );

    // The address index names exactly the owners of every unspent UTXO.
    let mut by_addr: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for (id, u) in &expected {
        for a in snowline_types::avm::outputs::owners(&u.output) {
            by_addr.entry(a).or_default().insert(*id);
        }
    }
    let mut idx: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for e in store.scan::<XAddrUtxos, _>(.., Direction::Forward).unwrap() {
        let ((a, _, id), ()) = e.unwrap();
        idx.entry(a).or_default().insert(id);
    }
    assert_eq!(idx, by_addr);

    // Blocks: heights 0 (linear genesis) ..= 30, each id maps back.
    let r = XReader::new(&store);
    assert_eq!(r.height().unwrap(), Some(30));
    for h in 0..=30 {
        let bytes = r.block_at(h).unwrap().unwrap();
        let b = StandardBlock::parse(&bytes).unwrap();
        assert_eq!(b.block.height, h);
        assert_eq!(r.block_height(&b.id).unwrap(), Some(h));
    }
    // Assets: AVAX, SNOW, SNFT; AVAX has its alias.
    let avax = r.asset_by_alias("AVAX").unwrap().unwrap();
    let a = r.asset(&avax).unwrap().unwrap();
    assert_eq!(
        (a.name.as_str(), a.symbol.as_str(), a.denomination),
        ("Avalanche", "AVAX", 9)
    );
    assert_eq!(r.primary_alias(&avax).unwrap().as_deref(), Some("AVAX"));
}

#[test]
fn batch_size_and_rerun_do_not_change_the_state() {
    let w = world();
    let d1 = tempfile::tempdir().unwrap();
    let s1 = Store::open(d1.path(), &schema()).unwrap();
    run(&s1, &w, &w.records, 1000);
    let d2 = tempfile::tempdir().unwrap();
    let s2 = Store::open(d2.path(), &schema()).unwrap();
    // Half, then everything again (the first half is skipped as duplicates), batch size 1.
    run(&s2, &w, &w.records[..w.records.len() / 2], 1);
    run(&s2, &w, &w.records, 3);
    assert_eq!(stored_set(&s1), stored_set(&s2));
    let dump = |s: &Store| -> Vec<String> {
        s.scan::<XAddrUtxos, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| format!("{:?}", e.unwrap()))
            .collect()
    };
    assert_eq!(dump(&s1), dump(&s2));
}

#[test]
fn pagination_visits_every_utxo_once() {
    let w = world();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    run(&store, &w, &w.records, 50);
    let r = XReader::new(&store);
    let mut all: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for e in store.scan::<XAddrUtxos, _>(.., Direction::Forward).unwrap() {
        let ((a, _, id), ()) = e.unwrap();
        all.entry(a).or_default().insert(id);
    }
    let addrs: Vec<ShortId> = all.keys().copied().collect();
    for take in [1usize, 3, 10] {
        for limit in [1usize, 2, 7, 1024] {
            let set: BTreeSet<ShortId> = addrs.iter().step_by(take).copied().collect();
            let want: BTreeSet<Id> = set.iter().flat_map(|a| all[a].iter().copied()).collect();
            let mut got: Vec<Id> = Vec::new();
            let (mut sa, mut su) = (ShortId::EMPTY, Id::EMPTY);
            for _ in 0..10_000 {
                let page = r.paginate(&set, sa, su, limit).unwrap();
                if page.utxos.is_empty() {
                    break;
                }
                assert!(page.utxos.len() <= limit);
                let in_page: BTreeSet<Id> = page.utxos.iter().map(|(id, _)| *id).collect();
                assert_eq!(
                    in_page.len(),
                    page.utxos.len(),
                    "duplicates removed within one call"
                );
                got.extend(page.utxos.iter().map(|(id, _)| *id));
                sa = page.end_address;
                su = page.end_utxo;
            }
            let uniq: BTreeSet<Id> = got.iter().copied().collect();
            assert_eq!(
                uniq, want,
                "every UTXO visited (take {take}, limit {limit})"
            );
            // Across calls only a UTXO owned by several requested addresses can come back (once
            // per owner at most), as avalanchego dedups within one call only.
            for id in &uniq {
                let n = got.iter().filter(|g| *g == id).count();
                let owners = set.iter().filter(|a| all[*a].contains(id)).count();
                assert!(
                    n <= owners && (owners > 1 || n == 1),
                    "{id} seen {n} times, {owners} owners"
                );
            }
        }
    }
}
