//! Replays a generated devnet with the `snowline-types` parsers and an independent UTXO ledger:
//! every container decodes and has the right id, vertices and blocks hold exactly the txs
//! indexed with them, every tx passes `avm::verify`, spends an existing unspent UTXO whose owners
//! signed it, burns exactly the fee, and AVAX is conserved.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

use std::collections::{HashMap, HashSet};

use snowline_devnet::{Devnet, DevnetConfig};
use snowline_types::Id;
use snowline_types::avm::{
    Credential, FxOperation, Output, ParsedTx, StandardBlock, TransferableOut, Tx, UnsignedTx,
};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::nftfx;
use snowline_types::fx::secp256k1fx::OutputOwners;
use snowline_types::hashing::sha256;
use snowline_types::network::{LOCAL_ID, NetworkInfo};
use snowline_types::proposervm::{self, Block};
use snowline_types::secp256k1::recover;
use snowline_types::vertex::Vertex;

#[path = "common/creplay.rs"]
mod creplay;

fn generate(cfg: DevnetConfig) -> (Devnet, Vec<ContainerRecord>) {
    let mut d = Devnet::generate(cfg).unwrap();
    let recs: Vec<ContainerRecord> = d.by_ref().map(|r| r.unwrap()).collect();
    (d, recs)
}

#[derive(Default, Debug)]
struct Seen {
    base: u32,
    create_fungible: u32,
    create_nft: u32,
    secp_mint: u32,
    nft_mint: u32,
    nft_transfer: u32,
    import_p: u32,
    import_c: u32,
    export_p: u32,
    export_c: u32,
    multisig_spend: u32,
    timelocked_out: u32,
    multi_asset: u32,
}

impl Seen {
    fn assert_complete(&self, era: &str, with_creates: bool) {
        let s = self;
        let mut counts = vec![
            ("base", s.base),
            ("secp mint", s.secp_mint),
            ("nft mint", s.nft_mint),
            ("nft transfer", s.nft_transfer),
            ("import from P", s.import_p),
            ("import from C", s.import_c),
            ("export to P", s.export_p),
            ("export to C", s.export_c),
            ("multisig spend", s.multisig_spend),
            ("time-locked output", s.timelocked_out),
            ("token transfer", s.multi_asset),
        ];
        if with_creates {
            counts.push(("create fungible", s.create_fungible));
            counts.push(("create nft", s.create_nft));
        }
        for (what, n) in counts {
            assert!(n > 0, "{era}: no {what} in {s:?}");
        }
    }
}

/// The independent ledger.
struct Ledger {
    net: NetworkInfo,
    avax: Id,
    utxos: HashMap<Id, (UtxoId, Id, Output)>,
    atomic: HashMap<Id, (Id, UtxoId, Id, Output)>,
    avax_genesis: u128,
    imported: u128,
    exported: u128,
    burned: u128,
    seen: Seen,
    /// What X and P exported to C and C has not imported: UTXO id -> (exporting chain, output).
    to_c: HashMap<Id, (Id, snowline_types::fx::secp256k1fx::TransferOutput)>,
    c: creplay::CReplay,
}

fn check_sigs(hash: &[u8; 32], owners: &OutputOwners, sig_indices: &[u32], cred: &Credential) {
    let sigs = cred.signatures();
    assert_eq!(
        sig_indices.len(),
        owners.threshold as usize,
        "signers != threshold"
    );
    assert_eq!(sigs.len(), sig_indices.len(), "signatures != signers");
    for (idx, sig) in sig_indices.iter().zip(sigs) {
        let who = recover(hash, sig).unwrap().address();
        assert_eq!(
            Some(&who),
            owners.addrs.get(*idx as usize),
            "signature by a non-owner"
        );
    }
}

impl Ledger {
    fn new(d: &Devnet) -> Self {
        let g = d.genesis();
        let mut utxos = HashMap::new();
        let mut avax_genesis = 0u128;
        for u in &g.utxos {
            if let Output::Secp256k1Transfer(o) = &u.output {
                avax_genesis += u128::from(o.amount);
            }
            utxos.insert(u.utxo_id.id(), (u.utxo_id, u.asset_id, u.output.clone()));
        }
        let atomic = d
            .atomic_utxos()
            .iter()
            .map(|a| {
                (
                    a.utxo.utxo_id.id(),
                    (
                        a.source_chain,
                        a.utxo.utxo_id,
                        a.utxo.asset_id,
                        a.utxo.output.clone(),
                    ),
                )
            })
            .collect();
        Self {
            net: g.network.clone(),
            avax: g.avax_asset_id,
            utxos,
            atomic,
            avax_genesis,
            imported: 0,
            exported: 0,
            burned: 0,
            seen: Seen::default(),
            to_c: HashMap::new(),
            c: creplay::CReplay::default(),
        }
    }

    fn add(&mut self, tx_id: Id, index: u32, asset: Id, out: Output) {
        let id = UtxoId::new(tx_id, index);
        assert!(self.utxos.insert(id.id(), (id, asset, out)).is_none());
    }

    fn apply(&mut self, p: &ParsedTx, now: u64) {
        let tx: &Tx = &p.tx;
        tx.verify(LOCAL_ID, &self.net.x_chain_id).unwrap();
        assert_eq!(tx.unsigned.base().network_id, LOCAL_ID);
        let hash = sha256(p.unsigned_bytes());
        let creds = &tx.credentials;
        let mut flow: HashMap<Id, i128> = HashMap::new();
        let mut c = 0usize;
        let base = tx.unsigned.base();
        let mut spend = |ledger: &mut Self,
                         input: &snowline_types::avm::TransferableInput,
                         from: Option<Id>| {
            let (asset, out) = match from {
                None => {
                    let (_, asset, out) = ledger
                        .utxos
                        .remove(&input.utxo_id.id())
                        .expect("spends a missing UTXO");
                    (asset, out)
                }
                Some(chain) => {
                    let (src, _, asset, out) = ledger
                        .atomic
                        .remove(&input.utxo_id.id())
                        .expect("imports a missing atomic UTXO");
                    assert_eq!(src, chain);
                    (asset, out)
                }
            };
            assert_eq!(asset, input.asset_id);
            let Output::Secp256k1Transfer(o) = out else {
                panic!("input spends a non-transfer output")
            };
            assert_eq!(o.amount, input.input.amount());
            assert!(o.owners.locktime <= now, "spends a locked output");
            let snowline_types::avm::TransferableIn::Secp256k1(ti) = &input.input;
            let cred = creds.get(c).expect("missing credential");
            assert!(matches!(cred, Credential::Secp256k1(_)));
            check_sigs(&hash, &o.owners, &ti.input.sig_indices, cred);
            if o.owners.threshold >= 2 {
                ledger.seen.multisig_spend += 1;
            }
            c += 1;
            *flow.entry(asset).or_default() += i128::from(o.amount);
            if from.is_some() {
                ledger.imported += u128::from(o.amount);
            }
        };
        for i in &base.inputs {
            spend(self, i, None);
        }
        if let UnsignedTx::Import(t) = &tx.unsigned {
            for i in &t.imported_inputs {
                spend(self, i, Some(t.source_chain));
            }
            if t.source_chain == self.net.p_chain_id {
                self.seen.import_p += 1;
            } else {
                assert_eq!(t.source_chain, self.net.c_chain_id);
                self.seen.import_c += 1;
            }
        }
        let mut index = 0u32;
        let mut assets = HashSet::new();
        for o in &base.outputs {
            let TransferableOut::Secp256k1(out) = &o.output;
            if out.owners.locktime > now {
                self.seen.timelocked_out += 1;
            }
            assets.insert(o.asset_id);
            *flow.entry(o.asset_id).or_default() -= i128::from(out.amount);
            self.add(
                p.id,
                index,
                o.asset_id,
                Output::Secp256k1Transfer(out.clone()),
            );
            index += 1;
        }
        if assets.len() > 1 {
            self.seen.multi_asset += 1;
        }
        let fee = match &tx.unsigned {
            UnsignedTx::CreateAsset(_) => self.net.x_fees.create_asset_tx_fee,
            _ => self.net.x_fees.tx_fee,
        };
        match &tx.unsigned {
            UnsignedTx::Base(_) => self.seen.base += 1,
            UnsignedTx::CreateAsset(t) => {
                match t.states.first().map(|s| s.fx_index) {
                    Some(0) => self.seen.create_fungible += 1,
                    Some(1) => self.seen.create_nft += 1,
                    _ => {}
                }
                for s in &t.states {
                    for out in &s.outputs {
                        self.add(p.id, index, p.id, out.clone());
                        index += 1;
                    }
                }
            }
            UnsignedTx::Operation(t) => {
                for op in &t.operations {
                    let cred = creds.get(c).expect("missing op credential");
                    c += 1;
                    let mut consumed = Vec::new();
                    for u in &op.utxo_ids {
                        let (_, asset, out) = self
                            .utxos
                            .remove(&u.id())
                            .expect("operates on a missing UTXO");
                        assert_eq!(asset, op.asset_id);
                        consumed.push(out);
                    }
                    let [spent] = consumed.as_slice() else {
                        panic!("one UTXO per operation expected")
                    };
                    let outs: Vec<Output> = match (&op.op, spent) {
                        (FxOperation::Secp256k1Mint(m), Output::Secp256k1Mint(mo)) => {
                            assert!(matches!(cred, Credential::Secp256k1(_)));
                            check_sigs(&hash, &mo.owners, &m.mint_input.sig_indices, cred);
                            self.seen.secp_mint += 1;
                            vec![
                                Output::Secp256k1Mint(m.mint_output.clone()),
                                Output::Secp256k1Transfer(m.transfer_output.clone()),
                            ]
                        }
                        (FxOperation::NftMint(m), Output::NftMint(mo)) => {
                            assert!(matches!(cred, Credential::Nft(_)));
                            assert_eq!(m.group_id, mo.group_id);
                            check_sigs(&hash, &mo.owners, &m.mint_input.sig_indices, cred);
                            self.seen.nft_mint += 1;
                            m.outputs
                                .iter()
                                .map(|o| {
                                    Output::NftTransfer(nftfx::TransferOutput {
                                        group_id: m.group_id,
                                        payload: m.payload.clone(),
                                        owners: o.clone(),
                                    })
                                })
                                .collect()
                        }
                        (FxOperation::NftTransfer(t), Output::NftTransfer(no)) => {
                            assert!(matches!(cred, Credential::Nft(_)));
                            assert_eq!(t.output.group_id, no.group_id);
                            assert_eq!(t.output.payload, no.payload);
                            check_sigs(&hash, &no.owners, &t.input.sig_indices, cred);
                            self.seen.nft_transfer += 1;
                            vec![Output::NftTransfer(t.output.clone())]
                        }
                        (op, out) => panic!("operation {op:?} on {out:?}"),
                    };
                    for out in outs {
                        self.add(p.id, index, op.asset_id, out);
                        index += 1;
                    }
                }
            }
            UnsignedTx::Import(_) => {}
            UnsignedTx::Export(t) => {
                for o in &t.exported_outputs {
                    *flow.entry(o.asset_id).or_default() -= i128::from(o.output.amount());
                    if o.asset_id == self.avax {
                        self.exported += u128::from(o.output.amount());
                    }
                }
                if t.destination_chain == self.net.p_chain_id {
                    self.seen.export_p += 1;
                } else {
                    assert_eq!(t.destination_chain, self.net.c_chain_id);
                    self.seen.export_c += 1;
                    let n = base.outputs.len();
                    for (i, o) in t.exported_outputs.iter().enumerate() {
                        let TransferableOut::Secp256k1(to) = &o.output;
                        let id = UtxoId::new(p.id, u32::try_from(n + i).unwrap());
                        self.to_c.insert(id.id(), (self.net.x_chain_id, to.clone()));
                    }
                }
            }
        }
        assert_eq!(c, creds.len(), "extra credentials");
        for (asset, net) in flow {
            let want = if asset == self.avax {
                i128::from(fee)
            } else {
                0
            };
            assert_eq!(net, want, "flow of {asset} in {}", p.id);
        }
        self.burned += u128::from(fee);
    }

    fn avax_in_utxos(&self) -> u128 {
        self.utxos
            .values()
            .filter(|(_, a, _)| *a == self.avax)
            .map(|(_, _, o)| match o {
                Output::Secp256k1Transfer(t) => u128::from(t.amount),
                _ => 0,
            })
            .sum()
    }
}

/// Replays `recs`, returning the ledger and the counts of the DAG and linear eras.
fn replay(d: &Devnet, recs: &[ContainerRecord]) -> (Ledger, Seen) {
    let mut l = Ledger::new(d);
    let x = l.net.x_chain_id;
    let mut pending: Vec<Id> = Vec::new();
    let mut vertices: HashMap<Id, u64> = HashMap::new();
    let mut frontier: HashSet<Id> = HashSet::new();
    let mut stop: Option<Id> = None;
    let mut dag_seen = None;
    let mut prev_ts = i64::MIN;
    let (mut prev_inner, mut prev_outer, mut prev_height, mut prev_time) =
        (Id::EMPTY, Id::EMPTY, 0, 0);
    let mut dag_time = 0u64;
    for r in recs {
        assert!(r.timestamp_ns > prev_ts, "timestamps must increase");
        prev_ts = r.timestamp_ns;
        r.check_id().unwrap();
        match r.path {
            IndexPath::XTx => {
                assert!(stop.is_none(), "X/tx after the stop vertex");
                let p = Tx::parse(&r.bytes).unwrap();
                assert_eq!(p.id, r.id);
                assert_eq!(p.bytes, r.bytes);
                dag_time = u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap();
                l.apply(&p, dag_time);
                pending.push(p.id);
            }
            IndexPath::XVtx => {
                assert!(stop.is_none(), "vertex after the stop vertex");
                let v = Vertex::parse(&r.bytes).unwrap();
                assert_eq!(v.id, r.id);
                v.vertex.verify().unwrap();
                assert_eq!(v.vertex.chain_id, x);
                let want_height = v
                    .vertex
                    .parent_ids
                    .iter()
                    .map(|p| vertices.get(p).expect("unknown parent") + 1)
                    .max()
                    .unwrap_or(0);
                assert_eq!(v.vertex.height, want_height);
                for p in &v.vertex.parent_ids {
                    frontier.remove(p);
                }
                if v.vertex.stop {
                    assert!(pending.is_empty());
                    assert!(frontier.is_empty(), "stop vertex must cover the frontier");
                    stop = Some(v.id);
                    dag_seen = Some(std::mem::take(&mut l.seen));
                    let g = d.linear_genesis().expect("linear genesis");
                    assert_eq!(g.parent_id, v.id);
                    prev_inner = g.id();
                    prev_outer = prev_inner;
                    prev_time = g.time;
                } else {
                    assert_eq!(
                        v.tx_ids(),
                        pending,
                        "vertex holds exactly the txs indexed with it"
                    );
                    pending.clear();
                    frontier.insert(v.id);
                }
                vertices.insert(v.id, v.vertex.height);
            }
            IndexPath::XBlock => {
                assert!(stop.is_some(), "block before the stop vertex");
                let outer = Block::parse(&r.bytes).unwrap();
                assert_eq!(outer.id, r.id);
                let proposervm::Block::Stateless(sb) = &outer.block else {
                    panic!("option block")
                };
                assert!(sb.certificate.is_empty() && sb.signature.is_empty());
                assert_eq!(sb.parent_id, prev_outer);
                let inner = StandardBlock::parse(&sb.inner).unwrap();
                assert_eq!(inner.block.parent_id, prev_inner);
                assert_eq!(inner.block.height, prev_height + 1);
                assert!(inner.block.time > prev_time);
                assert_eq!(sb.timestamp, i64::try_from(inner.block.time).unwrap());
                assert!(!inner.block.txs.is_empty());
                for i in 0..inner.block.txs.len() {
                    let signed = inner.tx_signed_bytes(i).unwrap();
                    let p = Tx::parse(&signed).unwrap();
                    assert_eq!(p.id, inner.tx_ids[i]);
                    l.apply(&p, inner.block.time);
                }
                prev_outer = outer.id;
                prev_inner = inner.id;
                prev_height = inner.block.height;
                prev_time = inner.block.time;
            }
            IndexPath::PBlock => {
                // P-Chain ExportTxs to X fill the X-Chain's shared memory (tests/pchain.rs
                // replays the P-Chain itself).
                let b = snowline_types::platformvm::parse_block(&r.bytes).unwrap();
                for (tx, id) in b.block.block.txs().into_iter().zip(&b.block.tx_ids) {
                    let snowline_types::platformvm::UnsignedTx::ExportTx(e) = &tx.unsigned else {
                        continue;
                    };
                    let n = e.base.outputs.len();
                    if e.destination_chain == l.net.c_chain_id {
                        for (i, o) in e.exported_outputs.iter().enumerate() {
                            let snowline_types::platformvm::TransferableOut::Secp256k1(to) =
                                &o.output
                            else {
                                panic!("exports a locked output");
                            };
                            let utxo_id = UtxoId::new(*id, u32::try_from(n + i).unwrap());
                            l.to_c.insert(utxo_id.id(), (l.net.p_chain_id, to.clone()));
                        }
                    }
                    if e.destination_chain != x {
                        continue;
                    }
                    for (i, o) in e.exported_outputs.iter().enumerate() {
                        let snowline_types::platformvm::TransferableOut::Secp256k1(to) = &o.output
                        else {
                            panic!("exports a locked output");
                        };
                        let utxo_id = UtxoId::new(*id, u32::try_from(n + i).unwrap());
                        l.atomic.insert(
                            utxo_id.id(),
                            (
                                l.net.p_chain_id,
                                utxo_id,
                                o.asset_id,
                                Output::Secp256k1Transfer(to.clone()),
                            ),
                        );
                    }
                }
            }
            IndexPath::CBlock => {
                let net = l.net.clone();
                let made = l.c.apply(
                    r,
                    net.network_id,
                    net.c_chain_id,
                    l.avax,
                    snowline_devnet::C_TX_FEE,
                    &mut l.to_c,
                );
                // C-Chain ExportTxs to X fill the X-Chain's shared memory.
                for (dest, (utxo_id, asset, out)) in made {
                    if dest == net.x_chain_id {
                        l.atomic.insert(
                            utxo_id.id(),
                            (
                                net.c_chain_id,
                                utxo_id,
                                asset,
                                Output::Secp256k1Transfer(out),
                            ),
                        );
                    }
                }
            }
        }
    }
    assert!(stop.is_some(), "no stop vertex");
    let _ = dag_time;
    let block_seen = std::mem::take(&mut l.seen);
    l.seen = dag_seen.unwrap_or_default();
    (l, block_seen)
}

#[test]
fn small_devnet_replays_cleanly() {
    let (d, recs) = generate(DevnetConfig::small());
    let (ledger, block_seen) = replay(&d, &recs);
    ledger.seen.assert_complete("DAG era", true);
    block_seen.assert_complete("linear era", false);
    // AVAX is conserved: genesis + imported = UTXOs + exported + burned fees.
    assert_eq!(
        ledger.avax_genesis + ledger.imported,
        ledger.avax_in_utxos() + ledger.exported + ledger.burned
    );
    let s = d.stats();
    assert_eq!(s.vertices, u64::from(d.config().dag_vertices) + 1);
    assert_eq!(s.blocks, u64::from(d.config().blocks));
    assert!(s.txs >= 200, "only {} txs", s.txs);
    // The C-Chain imports what X and P export to it and exports to both; X imports C's exports
    // (the opening ones and later ones).
    let net = &d.genesis().network;
    let c = &ledger.c;
    assert!(s.c_blocks > u64::from(d.config().c_blocks));
    assert!(
        c.imports.get(&net.x_chain_id).is_some_and(|n| *n > 0),
        "C imports X"
    );
    assert!(
        c.imports.get(&net.p_chain_id).is_some_and(|n| *n > 0),
        "C imports P"
    );
    assert!(
        c.exports.get(&net.x_chain_id).is_some_and(|n| *n > 1),
        "C exports X"
    );
    assert!(
        c.exports.get(&net.p_chain_id).is_some_and(|n| *n > 0),
        "C exports P"
    );
    assert!(
        recs.iter().any(|r| r.path == IndexPath::CBlock),
        "C/block containers"
    );
}

#[test]
fn other_seeds_and_shapes_replay_too() {
    let cfg = DevnetConfig {
        keys: 5,
        dag_vertices: 6,
        txs_per_vertex: 20,
        blocks: 12,
        txs_per_block: 9,
        ..DevnetConfig::small()
    }
    .with_seed(99);
    let (d, recs) = generate(cfg);
    let (ledger, _) = replay(&d, &recs);
    assert_eq!(
        ledger.avax_genesis + ledger.imported,
        ledger.avax_in_utxos() + ledger.exported + ledger.burned
    );
}

#[test]
fn large_preset_streams_and_replays() {
    let (d, recs) = generate(DevnetConfig::large(3_000));
    let n_tx = d.stats().txs;
    assert!(n_tx >= 2_900, "large(3000) made {n_tx} txs");
    replay(&d, &recs);
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let (_, a) = generate(DevnetConfig::small());
    let (_, b) = generate(DevnetConfig::small());
    assert_eq!(a, b);
    let (_, c) = generate(DevnetConfig::small().with_seed(2));
    assert_ne!(a.first(), c.first());
    let ids_a: HashSet<Id> = a.iter().map(|r| r.id).collect();
    assert!(c.iter().all(|r| !ids_a.contains(&r.id)));
}

#[test]
fn the_replay_catches_a_double_spend_and_a_wrong_id() {
    let (d, recs) = generate(DevnetConfig::small());
    // The funding tx accepted twice spends the ewoq genesis UTXO twice.
    let mut doubled = recs.clone();
    doubled.insert(1, recs[0].clone());
    doubled[1].timestamp_ns += 1;
    assert!(std::panic::catch_unwind(|| replay(&d, &doubled)).is_err());
    let mut wrong = recs.clone();
    wrong[0].id = Id([7; 32]);
    assert!(std::panic::catch_unwind(|| replay(&d, &wrong)).is_err());
}

#[test]
fn the_live_continuation_replays_after_the_history() {
    let (_, mut recs) = generate(DevnetConfig::small());
    let history = recs.len();
    let d = Devnet::generate(DevnetConfig::small()).unwrap();
    let mut live = d.into_live().unwrap();
    // A clock two years past the history, 1 ms a reading.
    let mut now = 1_790_000_000_000_000_000i64;
    let mut clock = || {
        now += 1_000_000;
        now
    };
    while recs.len() < history + 160 {
        recs.extend(live.step(&mut clock).unwrap());
    }
    let new = &recs[history..];
    assert!(new.iter().any(|r| r.path == IndexPath::XBlock));
    assert!(new.iter().any(|r| r.path == IndexPath::PBlock));
    let (ledger, _) = replay(live.devnet(), &recs);
    assert_eq!(
        ledger.avax_genesis + ledger.imported,
        ledger.avax_in_utxos() + ledger.exported + ledger.burned
    );
}
