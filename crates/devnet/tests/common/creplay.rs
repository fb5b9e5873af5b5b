//! An independent replay of the devnet's `C/block` containers, shared by the X- and P-Chain
//! replays: each block wraps a coreth block whose `ExtDataHash` covers its extra data
//! (coreth `customtypes/block_ext.go`), numbers and parents chain, and each atomic tx is signed
//! by the right keys and conserves AVAX up to the fee.

use std::collections::HashMap;

use snowline_types::Id;
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::coreth::{self, AtomicBlock, TransferableIn, TransferableOut, UnsignedTx};
use snowline_types::fx::secp256k1fx::TransferOutput;
use snowline_types::hashing::{keccak256, sha256};
use snowline_types::proposervm;
use snowline_types::secp256k1::recover;

/// One exported output: the UTXO, its asset and output.
pub type Export = (UtxoId, Id, TransferOutput);

/// What the replay keeps between blocks.
#[derive(Default)]
pub struct CReplay {
    prev_hash: Option<[u8; 32]>,
    prev_outer: Option<Id>,
    number: u64,
    nonces: HashMap<[u8; 20], u64>,
    /// Imports seen, by source chain.
    pub imports: HashMap<Id, u32>,
    /// Exports seen, by destination chain.
    pub exports: HashMap<Id, u32>,
    /// AVAX burned.
    pub burned: u128,
}

impl CReplay {
    /// Replays one `C/block` of network `network_id`: imports take UTXOs out of `to_c` (what X
    /// and P exported to C, by UTXO id, with the exporting chain); returns the block's exports
    /// with their destinations.
    pub fn apply(
        &mut self,
        rec: &ContainerRecord,
        network_id: u32,
        c_chain: Id,
        avax: Id,
        fee: u64,
        to_c: &mut HashMap<Id, (Id, TransferOutput)>,
    ) -> Vec<(Id, Export)> {
        assert_eq!(rec.path, IndexPath::CBlock);
        rec.check_id().unwrap();
        let outer = proposervm::Block::parse(&rec.bytes).unwrap();
        if let Some(prev) = self.prev_outer {
            let proposervm::Block::Stateless(s) = &outer.block else {
                panic!("a stateless proposervm block")
            };
            assert_eq!(s.parent_id, prev, "proposervm parents chain");
        }
        self.prev_outer = Some(outer.id);
        let b = AtomicBlock::from_container(&rec.bytes, network_id).unwrap();
        assert_eq!(b.block.number(), self.number + 1, "numbers chain");
        self.number += 1;
        if let Some(prev) = self.prev_hash {
            assert_eq!(b.block.parent_hash(), prev, "parents chain");
        }
        self.prev_hash = Some(b.block.hash);
        assert_eq!(b.block.hash, keccak256(&b.block.header.rlp()));
        // ExtDataHash = keccak256(rlp(extData)): the RLP string header then the bytes.
        let ext = &b.block.ext_data;
        let mut rlp = Vec::new();
        if ext.len() < 56 {
            rlp.push(0x80 + u8::try_from(ext.len()).unwrap());
        } else {
            let len = ext.len().to_be_bytes();
            let skip = len.iter().take_while(|b| **b == 0).count();
            rlp.push(0xb7 + u8::try_from(len.len() - skip).unwrap());
            rlp.extend_from_slice(&len[skip..]);
        }
        rlp.extend_from_slice(ext);
        assert_eq!(b.block.header.ext_data_hash, keccak256(&rlp), "ExtDataHash");
        assert!(!b.txs.is_empty(), "every devnet C block has atomic txs");
        let mut out = Vec::new();
        for tx in &b.txs {
            assert_eq!(tx.id, Id(sha256(&tx.bytes)));
            let hash = sha256(tx.unsigned_bytes());
            let creds = &tx.tx.credentials;
            match &tx.tx.unsigned {
                UnsignedTx::Import(i) => {
                    assert_eq!((i.network_id, i.blockchain_id), (network_id, c_chain));
                    assert_eq!(creds.len(), i.imported_inputs.len());
                    let mut total = 0u64;
                    for (input, cred) in i.imported_inputs.iter().zip(creds) {
                        let (source, o) = to_c
                            .remove(&input.utxo_id.id())
                            .expect("imports a UTXO exported to C");
                        assert_eq!(source, i.source_chain);
                        assert_eq!(input.asset_id, avax);
                        let TransferableIn::Secp256k1(t) = &input.input;
                        assert_eq!(t.amount, o.amount);
                        let coreth::Credential::Secp256k1(c) = cred;
                        for (k, sig) in t.input.sig_indices.iter().zip(&c.sigs) {
                            let key = recover(&hash, sig).unwrap();
                            assert_eq!(key.address(), o.owners.addrs[*k as usize]);
                        }
                        total += o.amount;
                    }
                    let credited: u64 = i.outs.iter().map(|o| o.amount).sum();
                    assert_eq!(total, credited + fee, "import conserves AVAX");
                    self.burned += u128::from(fee);
                    *self.imports.entry(i.source_chain).or_default() += 1;
                }
                UnsignedTx::Export(e) => {
                    assert_eq!((e.network_id, e.blockchain_id), (network_id, c_chain));
                    assert_eq!(creds.len(), e.ins.len());
                    let mut debited = 0u64;
                    for (input, cred) in e.ins.iter().zip(creds) {
                        let coreth::Credential::Secp256k1(c) = cred;
                        let key = recover(&hash, &c.sigs[0]).unwrap();
                        assert_eq!(key.eth_address(), input.address, "signed by the payer");
                        let nonce = self.nonces.entry(input.address).or_default();
                        assert_eq!(input.nonce, *nonce, "EVM nonces follow");
                        *nonce += 1;
                        debited += input.amount;
                    }
                    let mut sent = 0u64;
                    for (k, o) in e.exported_outputs.iter().enumerate() {
                        let TransferableOut::Secp256k1(t) = &o.output;
                        sent += t.amount;
                        // coreth UnsignedExportTx.AtomicOps: OutputIndex i.
                        let id = UtxoId::new(tx.id, u32::try_from(k).unwrap());
                        out.push((e.destination_chain, (id, o.asset_id, t.clone())));
                    }
                    assert_eq!(debited, sent + fee, "export conserves AVAX");
                    self.burned += u128::from(fee);
                    *self.exports.entry(e.destination_chain).or_default() += 1;
                }
            }
        }
        out
    }
}
