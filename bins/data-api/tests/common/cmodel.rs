//! An independent model of the C-Chain's atomic memory in a devnet: every UTXO the X- or
//! P-Chain exported to the C-Chain and every one the C-Chain exported to them, with the tx that
//! imported it, if any. The X-Chain's half is read here from the devnet's own container bytes
//! (parsed with `snowline_types`); the P-Chain's half is the P-Chain replay's (`pmodel`), which
//! reads `P/block` and `C/block` the same way. It never calls the chain crates, the code under
//! test.
//!
//! Rules (avalanchego `vms/avm/txs/executor`, coreth `plugin/evm/atomic/{export,import}_tx.go`):
//! - an X-Chain `ExportTx` puts its exported outputs in the destination's atomic memory at the
//!   indexes after its outputs; a C-Chain `ExportTx` puts its exported outputs there at indexes
//!   `0..`;
//! - an `ImportTx` takes the UTXOs its imported inputs name out of atomic memory;
//! - an X tx happens at its container's acceptance time: a DAG-era tx is in `X/tx` and in its
//!   vertex a millisecond later, and the index times it by whichever it reads first, so it has
//!   two possible seconds (equal but where a second ends between them); a C-Chain tx happens at
//!   its block's own time.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use snowline_devnet::Devnet;
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::TransferOutput;
use snowline_types::network::NetworkInfo;
use snowline_types::{Id, ShortId, avm, coreth, platformvm};

use super::pmodel::{Kind, PModel};

/// A tx's time as the index may give it: `ts`, or `alt_ts` (equal except for DAG-era X txs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ev {
    pub tx: Id,
    pub ts: u64,
    pub alt_ts: u64,
}

impl Ev {
    fn at(tx: Id, ts: u64) -> Self {
        Ev { tx, ts, alt_ts: ts }
    }

    /// Whether it happened by `t`: `None` when its two possible times fall either side of `t`.
    pub fn by(&self, t: u64) -> Option<bool> {
        let (a, b) = (self.ts <= t, self.alt_ts <= t);
        (a == b).then_some(a)
    }

    /// Whether `ts` is one of its possible times.
    pub fn is_at(&self, ts: u64) -> bool {
        ts == self.ts || ts == self.alt_ts
    }
}

/// A UTXO in atomic memory shared with the C-Chain.
#[derive(Debug, Clone)]
pub struct CUtxo {
    pub id: Id,
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub out: TransferOutput,
    /// The exporting chain.
    pub created_on: Id,
    /// The importing chain.
    pub consumed_on: Id,
    /// The export.
    pub created: Ev,
    /// The import, once accepted.
    pub consumed: Option<Ev>,
}

impl CUtxo {
    /// Owned (in part) by one of `addrs`.
    pub fn owned_by(&self, addrs: &BTreeSet<ShortId>) -> bool {
        self.out.owners.addrs.iter().any(|a| addrs.contains(a))
    }

    /// The chain other than the C-Chain it is shared with.
    pub fn other_chain(&self, c: Id) -> Id {
        if self.created_on == c {
            self.consumed_on
        } else {
            self.created_on
        }
    }

    /// In atomic memory at `t` (exported by then, not imported by then); `None` when the index
    /// may answer either way (an X tx's two possible times fall either side of `t`).
    pub fn live_at(&self, t: u64) -> Option<bool> {
        let created = self.created.by(t)?;
        let consumed = match &self.consumed {
            Some(c) => c.by(t)?,
            None => false,
        };
        Some(created && !consumed)
    }

    /// The UTXO as every chain's codec writes it: codec version 0, tx id, output index, asset,
    /// secp256k1fx `TransferOutput` (type 7: amount, locktime, threshold, addresses), all
    /// big-endian (avalanchego `codec/linearcodec`, `vms/components/avax/utxo.go`).
    pub fn bytes(&self) -> Vec<u8> {
        let mut b = vec![0, 0];
        b.extend_from_slice(&self.utxo_id.tx_id.0);
        b.extend_from_slice(&self.utxo_id.output_index.to_be_bytes());
        b.extend_from_slice(&self.asset.0);
        b.extend_from_slice(&7u32.to_be_bytes());
        b.extend_from_slice(&self.out.amount.to_be_bytes());
        b.extend_from_slice(&self.out.owners.locktime.to_be_bytes());
        b.extend_from_slice(&self.out.owners.threshold.to_be_bytes());
        let n = u32::try_from(self.out.owners.addrs.len()).unwrap();
        b.extend_from_slice(&n.to_be_bytes());
        for a in &self.out.owners.addrs {
            b.extend_from_slice(&a.0);
        }
        b
    }
}

/// A C-Chain atomic tx as its block's bytes give it.
#[derive(Debug, Clone)]
pub struct CTx {
    pub id: Id,
    /// An `ExportTx` (else an `ImportTx`).
    pub export: bool,
    /// Its block's number, hash (keccak-256 of the header RLP) and own time.
    pub number: u64,
    pub hash: [u8; 32],
    pub ts: u64,
    /// The X- or P-Chain it trades with.
    pub other: Id,
    /// An export's debits or an import's credits: `(EVM address, amount)`, in order.
    pub evm: Vec<([u8; 20], u64)>,
    /// The UTXOs it moves, in order: an import's inputs, an export's outputs (`(tx id, i)`).
    pub utxos: Vec<Id>,
    /// What it moves through shared memory: the imported inputs' or exported outputs' amounts.
    pub moved: Vec<u64>,
    /// The signing preimage (`u16 0 ‖ unsigned tx`, as the block holds it) and each
    /// credential's signatures.
    pub unsigned: Vec<u8>,
    pub sigs: Vec<Vec<[u8; 65]>>,
}

/// Atomic-memory sums: `(bucket, other chain, asset) -> (amount, UTXO count)`.
pub type Sums = BTreeMap<(&'static str, Id, Id), (u128, u64)>;

/// The C-Chain's atomic memory over a devnet's history.
#[derive(Debug)]
pub struct CModel {
    pub net: &'static NetworkInfo,
    /// Every UTXO shared with the C-Chain, by id.
    pub utxos: BTreeMap<Id, CUtxo>,
    /// The C-Chain's blocks' own times.
    pub c_times: Vec<u64>,
    /// Every C-Chain atomic tx, by id.
    pub txs: BTreeMap<Id, CTx>,
}

fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap()
}

fn secs(rec: &ContainerRecord) -> u64 {
    u64::try_from(rec.timestamp_ns / 1_000_000_000).unwrap()
}

/// Tx `tx` of block `b`, read off its fields.
fn c_tx(b: &coreth::AtomicBlock, tx: &coreth::ParsedTx) -> CTx {
    let unsigned = tx.unsigned_bytes().to_vec();
    let sigs = tx
        .tx
        .credentials
        .iter()
        .map(|c| {
            let coreth::Credential::Secp256k1(c) = c;
            c.sigs.clone()
        })
        .collect();
    let (export, other, evm, utxos, moved) = match &tx.tx.unsigned {
        coreth::UnsignedTx::Export(e) => (
            true,
            e.destination_chain,
            e.ins.iter().map(|i| (i.address, i.amount)).collect(),
            (0..e.exported_outputs.len())
                .map(|i| UtxoId::new(tx.id, idx(i)).id())
                .collect(),
            e.exported_outputs
                .iter()
                .map(|o| {
                    let coreth::TransferableOut::Secp256k1(out) = &o.output;
                    out.amount
                })
                .collect(),
        ),
        coreth::UnsignedTx::Import(i) => (
            false,
            i.source_chain,
            i.outs.iter().map(|o| (o.address, o.amount)).collect(),
            i.imported_inputs.iter().map(|t| t.utxo_id.id()).collect(),
            i.imported_inputs
                .iter()
                .map(|t| {
                    let coreth::TransferableIn::Secp256k1(input) = &t.input;
                    input.amount
                })
                .collect(),
        ),
    };
    CTx {
        id: tx.id,
        export,
        number: b.block.number(),
        hash: b.block.hash,
        ts: b.block.timestamp(),
        other,
        evm,
        utxos,
        moved,
        unsigned,
        sigs,
    }
}

impl CModel {
    /// The model of `d`'s records `recs` (every container, in acceptance order), the P-Chain's
    /// half taken from its replay `p`.
    pub fn replay(d: &Devnet, recs: &[ContainerRecord], p: &PModel) -> CModel {
        let net = &NetworkInfo::LOCAL;
        assert_eq!(d.genesis().network.network_id, net.network_id);
        let (x, c) = (net.x_chain_id, net.c_chain_id);
        let mut m = CModel {
            net,
            utxos: BTreeMap::new(),
            c_times: Vec::new(),
            txs: BTreeMap::new(),
        };
        let put = |m: &mut CModel, u: CUtxo| {
            assert!(m.utxos.insert(u.id, u).is_none(), "a UTXO exported twice");
        };
        // The X-Chain's half: when each DAG tx was indexed in `X/tx`, then every tx once, at
        // its vertex's or block's time.
        let tx_times: HashMap<Id, u64> = recs
            .iter()
            .filter(|r| r.path == IndexPath::XTx)
            .map(|r| (avm::Tx::parse(&r.bytes).unwrap().id, secs(r)))
            .collect();
        let mut seen = BTreeSet::new();
        let mut imports: Vec<(Id, Ev)> = Vec::new();
        for rec in recs {
            let ts = secs(rec);
            let txs: Vec<avm::ParsedTx> = match rec.path {
                IndexPath::XVtx | IndexPath::XBlock => {
                    super::pmodel::x_container_txs(rec).unwrap_or_default()
                }
                IndexPath::CBlock => {
                    let b =
                        coreth::AtomicBlock::from_container(&rec.bytes, net.network_id).unwrap();
                    let ts = b.block.timestamp();
                    m.c_times.push(ts);
                    for tx in &b.txs {
                        m.txs.insert(tx.id, c_tx(&b, tx));
                        let ev = Ev::at(tx.id, ts);
                        match &tx.tx.unsigned {
                            coreth::UnsignedTx::Export(e) if e.destination_chain == x => {
                                for (i, o) in e.exported_outputs.iter().enumerate() {
                                    let coreth::TransferableOut::Secp256k1(out) = &o.output;
                                    let utxo_id = UtxoId::new(tx.id, idx(i));
                                    put(
                                        &mut m,
                                        CUtxo {
                                            id: utxo_id.id(),
                                            utxo_id,
                                            asset: o.asset_id,
                                            out: out.clone(),
                                            created_on: c,
                                            consumed_on: x,
                                            created: ev,
                                            consumed: None,
                                        },
                                    );
                                }
                            }
                            coreth::UnsignedTx::Import(i) if i.source_chain == x => {
                                imports.extend(i.imported_utxo_ids().map(|u| (u, ev)));
                            }
                            _ => {}
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            for t in txs {
                if !seen.insert(t.id) {
                    continue;
                }
                let ev = Ev {
                    tx: t.id,
                    ts,
                    alt_ts: tx_times.get(&t.id).copied().unwrap_or(ts),
                };
                match &t.tx.unsigned {
                    avm::UnsignedTx::Export(e) if e.destination_chain == c => {
                        let first = e.base.outputs.len();
                        for (i, o) in e.exported_outputs.iter().enumerate() {
                            let avm::TransferableOut::Secp256k1(out) = &o.output;
                            let utxo_id = UtxoId::new(t.id, idx(first + i));
                            put(
                                &mut m,
                                CUtxo {
                                    id: utxo_id.id(),
                                    utxo_id,
                                    asset: o.asset_id,
                                    out: out.clone(),
                                    created_on: x,
                                    consumed_on: c,
                                    created: ev,
                                    consumed: None,
                                },
                            );
                        }
                    }
                    avm::UnsignedTx::Import(i) if i.source_chain == c => {
                        imports.extend(i.imported_inputs.iter().map(|u| (u.utxo_id.id(), ev)));
                    }
                    _ => {}
                }
            }
        }
        for (id, ev) in imports {
            let u = m.utxos.get_mut(&id).expect("an import of a known export");
            assert!(u.consumed.is_none(), "{id} imported twice");
            u.consumed = Some(ev);
        }
        // The P-Chain's half: its exports to C (imported as C's blocks show) and C's exports to
        // P (imported as P's blocks show).
        for u in p.utxos.values() {
            if u.kind != Kind::Exported || u.consumed_on != c {
                continue;
            }
            let platformvm::TransferableOut::Secp256k1(out) = &u.out else {
                panic!("P exports plain outputs")
            };
            put(
                &mut m,
                CUtxo {
                    id: u.id,
                    utxo_id: u.utxo_id,
                    asset: u.asset,
                    out: out.clone(),
                    created_on: net.p_chain_id,
                    consumed_on: c,
                    created: Ev::at(u.created.tx, u.created.ts),
                    consumed: p.x_imported.get(&u.id).map(|e| Ev::at(e.tx, e.ts)),
                },
            );
        }
        for u in p.x_to_p.values() {
            if p.x_to_p_source.get(&u.id) != Some(&c) {
                continue;
            }
            let platformvm::TransferableOut::Secp256k1(out) = &u.out else {
                panic!("C exports plain outputs")
            };
            put(
                &mut m,
                CUtxo {
                    id: u.id,
                    utxo_id: u.utxo_id,
                    asset: u.asset,
                    out: out.clone(),
                    created_on: c,
                    consumed_on: net.p_chain_id,
                    created: Ev::at(u.created.tx, u.created.ts),
                    consumed: u.consumed.map(|e| Ev::at(e.tx, e.ts)),
                },
            );
        }
        m
    }

    /// What the C-Chain's UTXO listing shows for `addrs`: the UTXOs in atomic memory now, and
    /// the imported ones too with `include_spent`.
    pub fn listed(&self, addrs: &BTreeSet<ShortId>, include_spent: bool) -> Vec<&CUtxo> {
        self.utxos
            .values()
            .filter(|u| u.owned_by(addrs) && (include_spent || u.consumed.is_none()))
            .collect()
    }

    /// The owners of the UTXOs C-Chain tx `tx` moved through shared memory (an export's
    /// outputs, an import's inputs): the bech32 addresses taking part in it.
    pub fn tx_owners(&self, tx: &Id) -> BTreeSet<ShortId> {
        let c = self.net.c_chain_id;
        self.utxos
            .values()
            .filter(|u| {
                (u.created_on == c && u.created.tx == *tx)
                    || (u.consumed_on == c && u.consumed.is_some_and(|e| e.tx == *tx))
            })
            .flat_map(|u| u.out.owners.addrs.iter().copied())
            .collect()
    }

    /// Whether the balances of `addrs` as of `t` depend on which of its two times the index
    /// gave an X tx.
    pub fn ambiguous(&self, addrs: &BTreeSet<ShortId>, t: u64) -> bool {
        self.utxos
            .values()
            .any(|u| u.owned_by(addrs) && u.live_at(t).is_none())
    }

    /// The atomic-memory sums of `addrs` as of `at` (now when `None`), locked when the locktime
    /// is after `t`.
    pub fn balances(&self, addrs: &BTreeSet<ShortId>, at: Option<u64>, t: u64) -> Sums {
        let mut out = Sums::new();
        for u in self.utxos.values().filter(|u| u.owned_by(addrs)) {
            let live = match at {
                Some(at) => u.live_at(at).expect("an unambiguous time"),
                None => u.consumed.is_none(),
            };
            if !live {
                continue;
            }
            let bucket = if u.out.owners.locktime > t {
                "atomicMemoryLocked"
            } else {
                "atomicMemoryUnlocked"
            };
            let e = out
                .entry((bucket, u.other_chain(self.net.c_chain_id), u.asset))
                .or_default();
            e.0 += u128::from(u.out.amount);
            e.1 += 1;
        }
        out
    }
}
