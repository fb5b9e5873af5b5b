#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns
//! Round trips (encode → decode → same bytes) and "never panics" properties for the X-Chain and
//! proposervm decoders: random bytes, truncations and bit flips of a valid mainnet tx.

use proptest::prelude::*;
use snowline_types::avm::{
    BaseTx, Credential, ParsedBlock, StandardBlock, TransferableIn, TransferableInput,
    TransferableOut, TransferableOutput, Tx, UnsignedTx, Utxo,
};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::proposervm;
use snowline_types::{Id, ShortId};

fn id() -> impl Strategy<Value = Id> {
    any::<[u8; 32]>().prop_map(Id)
}

fn out() -> impl Strategy<Value = TransferableOutput> {
    (
        id(),
        any::<u64>(),
        any::<u64>(),
        any::<u32>(),
        prop::collection::vec(any::<[u8; 20]>(), 0..4),
    )
        .prop_map(
            |(asset_id, amount, locktime, threshold, addrs)| TransferableOutput {
                asset_id,
                output: TransferableOut::Secp256k1(TransferOutput {
                    amount,
                    owners: OutputOwners {
                        locktime,
                        threshold,
                        addrs: addrs.into_iter().map(ShortId).collect(),
                    },
                }),
            },
        )
}

fn inp() -> impl Strategy<Value = TransferableInput> {
    (
        id(),
        any::<u32>(),
        id(),
        any::<u64>(),
        prop::collection::vec(any::<u32>(), 0..4),
    )
        .prop_map(
            |(tx, idx, asset_id, amount, sig_indices)| TransferableInput {
                utxo_id: UtxoId::new(tx, idx),
                asset_id,
                input: TransferableIn::Secp256k1(TransferInput {
                    amount,
                    input: Input { sig_indices },
                }),
            },
        )
}

fn tx() -> impl Strategy<Value = Tx> {
    (
        any::<u32>(),
        id(),
        prop::collection::vec(out(), 0..3),
        prop::collection::vec(inp(), 0..3),
        prop::collection::vec(any::<u8>(), 0..40),
        prop::collection::vec(prop::collection::vec(any::<[u8; 32]>(), 0..3), 0..3),
    )
        .prop_map(
            |(network_id, blockchain_id, outputs, inputs, memo, creds)| {
                let credentials = creds
                    .into_iter()
                    .map(|sigs| {
                        Credential::Secp256k1(SecpCred {
                            sigs: sigs
                                .into_iter()
                                .map(|h| {
                                    let mut s = [0u8; 65];
                                    s[..32].copy_from_slice(&h);
                                    s
                                })
                                .collect(),
                        })
                    })
                    .collect();
                Tx::new(
                    UnsignedTx::Base(BaseTx {
                        network_id,
                        blockchain_id,
                        outputs,
                        inputs,
                        memo,
                    }),
                    credentials,
                )
            },
        )
}

/// Decoding must never panic; when it succeeds, encoding gives back the input.
fn decode_all(bytes: &[u8]) {
    let tx = Tx::parse(bytes);
    assert_eq!(Tx::parse_vec(bytes.to_vec()), tx);
    if let Ok(p) = tx {
        assert_eq!(p.tx.bytes(), bytes);
    }
    assert_eq!(
        StandardBlock::parse_vec(bytes.to_vec()),
        StandardBlock::parse(bytes)
    );
    if let Ok(u) = Utxo::parse(bytes) {
        assert_eq!(u.to_bytes(), bytes);
    }
    if let Ok(b) = StandardBlock::parse(bytes) {
        assert_eq!(b.block.bytes(), bytes);
    }
    assert_eq!(
        proposervm::Block::parse_vec(bytes.to_vec()),
        proposervm::Block::parse(bytes)
    );
    if let Ok(b) = proposervm::Block::parse(bytes) {
        assert_eq!(b.block.bytes(), bytes);
    }
}

proptest! {
    #[test]
    fn tx_round_trips(tx in tx()) {
        let bytes = tx.bytes();
        let parsed = Tx::parse(&bytes).unwrap();
        prop_assert_eq!(&parsed.tx, &tx);
        prop_assert_eq!(parsed.tx.bytes(), bytes.clone());
        prop_assert_eq!(parsed.id, tx.id());
        prop_assert!(bytes.starts_with(parsed.unsigned_bytes()));
    }

    #[test]
    fn block_round_trips(txs in prop::collection::vec(tx(), 0..3), height in any::<u64>(), time in any::<u64>(), parent in id()) {
        let block = StandardBlock { parent_id: parent, height, time, merkle_root: Id::EMPTY, txs };
        let parsed: ParsedBlock = StandardBlock::parse(&block.bytes()).unwrap();
        prop_assert_eq!(&parsed.block, &block);
        prop_assert_eq!(&StandardBlock::parse_vec(block.bytes()).unwrap(), &parsed);
        for (i, t) in block.txs.iter().enumerate() {
            prop_assert_eq!(parsed.tx_ids[i], t.id());
        }
    }

    #[test]
    fn proposervm_round_trips(parent in id(), ts in any::<i64>(), h in any::<u64>(), inner in prop::collection::vec(any::<u8>(), 0..64), n in any::<u64>()) {
        let epoch = proposervm::Epoch { p_chain_height: h, number: n, start_time: ts };
        let b = proposervm::Block::build_unsigned(parent, ts, h, epoch, inner);
        prop_assert_eq!(proposervm::Block::parse_vec(b.bytes.clone()).unwrap(), b.clone());
        prop_assert_eq!(proposervm::Block::parse(&b.bytes).unwrap(), b);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        decode_all(&bytes);
        // Also behind a valid version and each tx / block type id.
        for t in [0u32, 1, 2, 3, 4, 7, 20] {
            let mut b = vec![0, 0];
            b.extend_from_slice(&t.to_be_bytes());
            b.extend_from_slice(&bytes);
            decode_all(&b);
        }
    }

    #[test]
    fn bit_flips_never_panic(tx in tx(), pos in any::<prop::sample::Index>(), bit in 0u8..8) {
        let mut bytes = tx.bytes();
        let i = pos.index(bytes.len());
        bytes[i] ^= 1 << bit;
        decode_all(&bytes);
    }
}

#[test]
fn truncations_of_a_valid_tx_are_errors() {
    let tx = Tx::new(
        UnsignedTx::Base(BaseTx {
            network_id: 1,
            outputs: vec![TransferableOutput {
                asset_id: Id([1; 32]),
                output: TransferableOut::Secp256k1(TransferOutput {
                    amount: 5,
                    owners: OutputOwners::new(1, vec![ShortId([2; 20])]),
                }),
            }],
            memo: vec![1, 2, 3],
            ..BaseTx::default()
        }),
        vec![Credential::Secp256k1(SecpCred {
            sigs: vec![[9; 65]],
        })],
    );
    let bytes = tx.bytes();
    for n in 0..bytes.len() {
        assert!(
            Tx::parse(&bytes[..n]).is_err(),
            "prefix of {n} bytes parsed"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(Tx::parse(&long).is_err());
    // avalanchego's 256 KiB limit (codec.NewDefaultManager).
    assert!(Tx::parse(&vec![0u8; 256 * 1024 + 1]).is_err());
}
