//! The C-Chain's atomic side: `C/block` containers in coreth's shape (a proposervm block signed
//! by a genesis validator around the coreth block's RLP, `ExtDataHash` over the extra data), holding only atomic txs signed
//! with the devnet keys. The EVM side (EVM txs, state) is not modelled here.
//!
//! Its history: at the start time, opening blocks export to X (the C-sourced UTXOs the X-Chain's
//! imports spend); then `c_blocks` blocks, the first half spread over the X-Chain's era and the
//! rest over the P-Chain's, each importing what X and P exported to C before it (up to four
//! UTXOs per source) and exporting one output, to X and to P in turn.

use std::collections::{HashMap, VecDeque};

use snowline_types::atomic::{c_exported, from_c};
use snowline_types::components::transferables::sort_outputs;
use snowline_types::components::{TransferableInput, TransferableOutput};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::coreth::{
    self, Credential, EvmInput, EvmOutput, ExportTx, Header, ImportTx, TransferableIn,
    TransferableOut, Tx, UnsignedTx, encode_ext_data, ext_data_hash,
};
use snowline_types::fx::secp256k1fx::{self, Input, OutputOwners, TransferInput, TransferOutput};
use snowline_types::hashing::{keccak256, sha256};
use snowline_types::network::NetworkInfo;
use snowline_types::proposervm::Block as ProposerBlock;
use snowline_types::{Id, avm, platformvm};

use crate::atomic::AtomicUtxo;
use crate::error::DevnetError;
use crate::keys::{EWOQ, KeyRing};
use crate::nodes::DevnetNode;
use crate::pgenesis::GENESIS_VALIDATORS;
use crate::rng::DetRng;

const NANOS: i64 = 1_000_000_000;
/// The fee each C-Chain atomic tx burns here: 1 mAVAX (coreth's is gas-priced).
pub const C_TX_FEE: u64 = 1_000_000;
/// Outputs per ExportTx of the opening blocks.
const EXPORTS_PER_TX: usize = 1024;
/// UTXOs one ImportTx takes at most.
const MAX_IMPORT: usize = 4;
/// At most 1 AVAX leaves in a later export.
const MAX_EXPORT: u64 = 1_000_000_000;
/// `keccak256(rlp([]))`: the uncles hash of a block without uncles.
const EMPTY_UNCLE_HASH: [u8; 32] = [
    0x1d, 0xcc, 0x4d, 0xe8, 0xde, 0xc7, 0x5d, 0x7a, 0xab, 0x85, 0xb5, 0x67, 0xb6, 0xcc, 0xd4, 0x1a,
    0xd3, 0x12, 0x45, 0x1b, 0x94, 0x8a, 0x74, 0x13, 0xf0, 0xa1, 0x42, 0xfd, 0x40, 0xd4, 0x93, 0x47,
];
/// coreth's `BlackholeAddr`, every Avalanche C-Chain block's coinbase.
const BLACKHOLE: [u8; 20] = [
    0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// 25 gwei: the base fee the blocks carry.
const BASE_FEE: u128 = 25_000_000_000;

/// An output a C block exported: the destination chain and the UTXO.
pub(crate) type Export = (Id, coreth::Utxo);

/// What shapes the C-Chain's history.
#[derive(Debug, Clone)]
pub(crate) struct CParams {
    /// The devnet seed.
    pub seed: u64,
    /// Start time (Unix s): the opening blocks' time.
    pub start_s: u64,
    /// Block times of the history after the opening blocks, increasing.
    pub times: Vec<u64>,
}

/// The C-Chain generator.
pub(crate) struct CChain {
    net: NetworkInfo,
    avax: Id,
    ring: KeyRing,
    rng: DetRng,
    times: VecDeque<u64>,
    height: u64,
    prev_hash: [u8; 32],
    prev_outer: Id,
    root: [u8; 32],
    nonces: HashMap<[u8; 20], u64>,
    /// The genesis validators, proposing the blocks in turn (as on the P-Chain).
    proposers: Vec<DevnetNode>,
    /// UTXOs X and P exported to C, with their acceptance stamps: what C may import.
    incoming: VecDeque<(i64, Id, coreth::Utxo)>,
    /// The opening exports to X, handed over once.
    opening_to_x: Vec<AtomicUtxo>,
    /// Exports of records not yet returned, by record timestamp.
    exports: VecDeque<(i64, Id, coreth::Utxo)>,
    out: VecDeque<ContainerRecord>,
    last_ts: i64,
    blocks: u64,
    txs: u64,
    to_x_next: bool,
}

impl CChain {
    /// The chain with its opening exports to X made: `opening` gives each exported output's
    /// owner and amount, in order.
    pub fn new(
        p: CParams,
        net: NetworkInfo,
        avax: Id,
        ring: KeyRing,
        opening: &[(OutputOwners, u64)],
    ) -> Result<Self, DevnetError> {
        let mut pre = b"snowline/devnet/cchain/genesis/v1".to_vec();
        pre.extend_from_slice(&p.seed.to_be_bytes());
        let genesis_hash = keccak256(&pre);
        let proposers = (0..GENESIS_VALIDATORS)
            .map(|i| DevnetNode::new(p.seed, i))
            .collect::<Result<Vec<_>, _>>()?;
        let mut me = Self {
            proposers,
            net,
            avax,
            ring,
            rng: DetRng::new(p.seed, 0x6363_6861),
            times: p.times.into_iter().collect(),
            height: 0,
            prev_hash: genesis_hash,
            prev_outer: Id(genesis_hash),
            root: keccak256(&genesis_hash),
            nonces: HashMap::new(),
            incoming: VecDeque::new(),
            opening_to_x: Vec::new(),
            exports: VecDeque::new(),
            out: VecDeque::new(),
            last_ts: i64::MIN,
            blocks: 0,
            txs: 0,
            to_x_next: true,
        };
        let start = i64::try_from(p.start_s).unwrap_or(0);
        for (k, chunk) in opening.chunks(EXPORTS_PER_TX).enumerate() {
            let outs = chunk
                .iter()
                .map(|(owners, amount)| me.out(*amount, owners.clone()))
                .collect();
            let tx = me.export(me.net.x_chain_id, outs)?;
            let ts = start * NANOS + 700_000_000 + i64::try_from(k).unwrap_or(0) * 1_000_000;
            me.emit(p.start_s, ts, vec![tx])?;
        }
        // The opening blocks are returned like any other, but their exports go to the X
        // wallet now: X imports nothing before them.
        for (_, _, u) in &me.exports {
            me.opening_to_x.push(AtomicUtxo {
                source_chain: me.net.c_chain_id,
                utxo: from_c::<avm::Utxo>(u),
            });
        }
        me.exports.clear();
        Ok(me)
    }

    /// The opening exports to X, once (the X wallet's C-sourced atomic UTXOs).
    pub fn take_opening_exports(&mut self) -> Vec<AtomicUtxo> {
        std::mem::take(&mut self.opening_to_x)
    }

    /// The X-Chain exported `utxo` to C in a container stamped `ts`.
    pub fn x_exported(&mut self, ts: i64, utxo: &avm::Utxo) {
        if let Some(u) = snowline_types::atomic::from_x::<coreth::Utxo>(utxo) {
            self.incoming.push_back((ts, self.net.x_chain_id, u));
        }
    }

    /// The P-Chain exported `utxo` to C in a block stamped `ts`.
    pub fn p_exported(&mut self, ts: i64, utxo: &platformvm::Utxo) {
        if let Some(u) = snowline_types::atomic::from_p::<coreth::Utxo>(utxo) {
            self.incoming.push_back((ts, self.net.p_chain_id, u));
        }
    }

    /// Blocks and atomic txs made so far (opening blocks included).
    pub fn counts(&self) -> (u64, u64) {
        (self.blocks, self.txs)
    }

    /// The index timestamp of the next record, `None` when the history is done.
    pub fn peek_ts(&self) -> Option<i64> {
        if let Some(r) = self.out.front() {
            return Some(r.timestamp_ns);
        }
        self.times.front().map(|t| self.planned_ts(*t))
    }

    /// Moves the next record 1 ns later (it tied with another chain's).
    pub fn bump(&mut self) {
        if self.out.is_empty() {
            // Generated on demand: its stamp is planned from the clock of the last one.
            self.last_ts += 1;
        } else if let Some(r) = self.out.front_mut() {
            r.timestamp_ns += 1;
        }
    }

    fn planned_ts(&self, time: u64) -> i64 {
        (i64::try_from(time).unwrap_or(0) * NANOS + 800_000_000).max(self.last_ts + 1_000_000)
    }

    /// The next record with the exports it makes (destination chain, UTXO in C's shape), which
    /// the caller hands to X and P once the record is out.
    pub fn next_record(&mut self) -> Result<Option<(ContainerRecord, Vec<Export>)>, DevnetError> {
        if self.out.is_empty() {
            if let Some(time) = self.times.pop_front() {
                let ts = self.planned_ts(time);
                self.block(time, ts)?;
            }
        }
        let Some(record) = self.out.pop_front() else {
            return Ok(None);
        };
        let mut made = Vec::new();
        while self
            .exports
            .front()
            .is_some_and(|(ts, _, _)| *ts <= record.timestamp_ns)
        {
            if let Some((_, dest, u)) = self.exports.pop_front() {
                made.push((dest, u));
            }
        }
        Ok(Some((record, made)))
    }

    /// A history block at `time`, stamped `ts`: imports of what arrived before, one export.
    fn block(&mut self, time: u64, ts: i64) -> Result<(), DevnetError> {
        let mut txs = Vec::new();
        for source in [self.net.x_chain_id, self.net.p_chain_id] {
            if let Some(tx) = self.import(source, ts)? {
                txs.push(tx);
            }
        }
        let dest = if self.to_x_next {
            self.net.x_chain_id
        } else {
            self.net.p_chain_id
        };
        self.to_x_next = !self.to_x_next;
        let seeded = u64::try_from(self.ring.len().saturating_sub(1).max(1)).unwrap_or(1);
        let to = 1 + u32::try_from(self.rng.below(seeded)).unwrap_or(0);
        let amount = self.rng.range(1_000_000, MAX_EXPORT);
        let owners = OutputOwners::new(1, vec![self.ring.addr(to)]);
        let out = self.out(amount, owners);
        txs.push(self.export(dest, vec![out])?);
        self.emit(time, ts, txs)
    }

    /// Imports up to four UTXOs `source` exported to C before `before_ts`, credited to the EVM
    /// address of the first one's owner, less the fee.
    fn import(&mut self, source: Id, before_ts: i64) -> Result<Option<Tx>, DevnetError> {
        let mut picked = Vec::new();
        let mut keep = VecDeque::new();
        while let Some((ts, s, u)) = self.incoming.pop_front() {
            if picked.len() < MAX_IMPORT && s == source && ts < before_ts {
                picked.push(u);
            } else {
                keep.push_back((ts, s, u));
            }
        }
        self.incoming = keep;
        if picked.is_empty() {
            return Ok(None);
        }
        picked.sort_by_key(|u| u.utxo_id);
        let mut inputs = Vec::with_capacity(picked.len());
        let mut signers = Vec::with_capacity(picked.len());
        let mut total = 0u64;
        for u in &picked {
            let coreth::TransferableOut::Secp256k1(o) = &u.output;
            let Some(k) = o.owners.addrs.first().and_then(|a| self.ring.index_of(a)) else {
                return Err(DevnetError::OutOfUtxos(
                    "a C-Chain import of a foreign UTXO",
                ));
            };
            total = total.saturating_add(o.amount);
            inputs.push(TransferableInput {
                utxo_id: u.utxo_id,
                asset_id: u.asset_id,
                input: TransferableIn::Secp256k1(TransferInput {
                    amount: o.amount,
                    input: Input {
                        sig_indices: vec![0],
                    },
                }),
            });
            signers.push(k);
        }
        let owner = signers.first().copied().unwrap_or(EWOQ);
        let address = self
            .ring
            .key(owner)
            .map(|k| k.public_key().eth_address())
            .unwrap_or_default();
        let tx = UnsignedTx::Import(ImportTx {
            network_id: self.net.network_id,
            blockchain_id: self.net.c_chain_id,
            source_chain: source,
            imported_inputs: inputs,
            outs: vec![EvmOutput {
                address,
                amount: total.saturating_sub(C_TX_FEE),
                asset_id: self.avax,
            }],
        });
        self.sign(tx, &signers).map(Some)
    }

    /// An export of `outs` to `dest`, paid (with the fee) from ewoq's EVM balance.
    fn export(
        &mut self,
        dest: Id,
        mut outs: Vec<coreth::TransferableOutput>,
    ) -> Result<Tx, DevnetError> {
        sort_outputs(&mut outs);
        let sent: u64 = outs
            .iter()
            .map(|o| match &o.output {
                TransferableOut::Secp256k1(t) => t.amount,
            })
            .sum();
        let address = self
            .ring
            .key(EWOQ)
            .map(|k| k.public_key().eth_address())
            .unwrap_or_default();
        let nonce = self.nonces.entry(address).or_insert(0);
        let input = EvmInput {
            address,
            amount: sent + C_TX_FEE,
            asset_id: self.avax,
            nonce: *nonce,
        };
        *nonce += 1;
        let tx = UnsignedTx::Export(ExportTx {
            network_id: self.net.network_id,
            blockchain_id: self.net.c_chain_id,
            destination_chain: dest,
            ins: vec![input],
            exported_outputs: outs,
        });
        self.sign(tx, &[EWOQ])
    }

    fn out(&self, amount: u64, owners: OutputOwners) -> coreth::TransferableOutput {
        TransferableOutput {
            asset_id: self.avax,
            output: TransferableOut::Secp256k1(TransferOutput { amount, owners }),
        }
    }

    /// Signs `sha256(unsigned bytes)` with one key per input (`atomic.Tx.Sign`).
    fn sign(&self, unsigned: UnsignedTx, keys: &[u32]) -> Result<Tx, DevnetError> {
        let hash = sha256(&snowline_types::codec::marshal(&unsigned));
        let mut creds = Vec::with_capacity(keys.len());
        for k in keys {
            let key = self
                .ring
                .key(*k)
                .ok_or(DevnetError::OutOfUtxos("an unknown C-Chain signer"))?;
            creds.push(Credential::Secp256k1(secp256k1fx::Credential {
                sigs: vec![key.sign_hash(&hash)?],
            }));
        }
        Ok(Tx::new(unsigned, creds))
    }

    /// Wraps `txs` in the next coreth block at `time` and its proposervm block, signed by the
    /// next genesis validator in turn, stamped `ts`.
    fn emit(&mut self, time: u64, ts: i64, txs: Vec<Tx>) -> Result<(), DevnetError> {
        let ext_data = encode_ext_data(&txs, true);
        self.height += 1;
        let mut root_pre = self.root.to_vec();
        root_pre.extend_from_slice(&ext_data);
        self.root = keccak256(&root_pre);
        let header = Header {
            parent_hash: self.prev_hash,
            uncle_hash: EMPTY_UNCLE_HASH,
            coinbase: BLACKHOLE,
            root: self.root,
            tx_hash: coreth::EMPTY_EXT_DATA_HASH,
            receipt_hash: coreth::EMPTY_EXT_DATA_HASH,
            difficulty: 1,
            number: self.height,
            gas_limit: 15_000_000,
            time,
            ext_data_hash: ext_data_hash(&ext_data),
            base_fee: Some(BASE_FEE),
            ext_data_gas_used: Some(0),
            block_gas_cost: Some(0),
            ..Header::default()
        };
        for tx in &txs {
            let id = tx.id();
            if let UnsignedTx::Export(e) = &tx.unsigned {
                for u in c_exported(e, id) {
                    self.exports.push_back((ts, e.destination_chain, u));
                }
            }
        }
        self.txs += txs.len() as u64;
        let block = coreth::Block {
            hash: header.hash(),
            header,
            ext_data,
            ..coreth::Block::default()
        };
        self.prev_hash = block.hash;
        let idx = (self.height as usize) % self.proposers.len().max(1);
        let node = self
            .proposers
            .get(idx)
            .ok_or(DevnetError::Crypto("no proposer"))?;
        let outer = ProposerBlock::build_signed(
            self.prev_outer,
            i64::try_from(time).unwrap_or(0),
            1 + self.height / 16,
            node.cert_der.clone(),
            block.rlp(),
            self.net.c_chain_id,
            |digest| node.sign_digest(digest),
        )?;
        self.prev_outer = outer.id;
        self.blocks += 1;
        self.last_ts = ts;
        self.out.push_back(ContainerRecord {
            path: IndexPath::CBlock,
            id: outer.id,
            bytes: outer.bytes,
            timestamp_ns: ts,
        });
        Ok(())
    }
}
