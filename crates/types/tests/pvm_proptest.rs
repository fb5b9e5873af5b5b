//! Property tests: P-Chain txs, blocks and Warp messages round-trip, and every decoder survives
//! random bytes, truncations and bit flips of valid inputs without panicking.
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use proptest::prelude::*;
use pvm_data::*;
use snowline_types::codec::{marshal, unmarshal};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::platformvm::txs::{
    BaseTx, RewardAutoRenewedValidatorTx, SetAutoRenewedValidatorConfigTx, UnsignedTx,
};
use snowline_types::platformvm::{
    Auth, Block, CommonBlock, Credential, LockOut, TransferableIn, TransferableInput,
    TransferableOut, TransferableOutput, Tx, parse_block,
};
use snowline_types::warp::{BitSetSignature, L1Message, Message, Payload, UnsignedMessage};
use snowline_types::{Id, ShortId};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("test hex")
}

prop_compose! {
    fn arb_output()(asset in any::<[u8; 32]>(), amount in any::<u64>(), lock in any::<Option<u64>>(),
                    addrs in prop::collection::vec(any::<[u8; 20]>(), 0..3), threshold in any::<u32>())
        -> TransferableOutput {
        let out = TransferOutput {
            amount,
            owners: OutputOwners { locktime: 0, threshold, addrs: addrs.into_iter().map(ShortId).collect() },
        };
        TransferableOutput {
            asset_id: Id(asset),
            output: match lock {
                Some(locktime) => TransferableOut::StakeableLock(LockOut { locktime, output: out }),
                None => TransferableOut::Secp256k1(out),
            },
        }
    }
}

prop_compose! {
    fn arb_input()(tx in any::<[u8; 32]>(), idx in any::<u32>(), amount in any::<u64>(),
                   sigs in prop::collection::vec(any::<u32>(), 0..3)) -> TransferableInput {
        TransferableInput {
            utxo_id: UtxoId::new(Id(tx), idx),
            asset_id: Id([0x21; 32]),
            input: TransferableIn::Secp256k1(TransferInput { amount, input: Input { sig_indices: sigs } }),
        }
    }
}

prop_compose! {
    fn arb_tx()(network_id in any::<u32>(), outs in prop::collection::vec(arb_output(), 0..3),
                ins in prop::collection::vec(arb_input(), 0..3),
                memo in prop::collection::vec(any::<u8>(), 0..16), nsig in 0usize..3) -> Tx {
        Tx::new(
            UnsignedTx::BaseTx(BaseTx { network_id, blockchain_id: Id([0; 32]), outputs: outs, inputs: ins, memo }),
            vec![Credential::Secp256k1(SecpCred { sigs: vec![[7; 65]; nsig] })],
        )
    }
}

fn valid_samples() -> Vec<Vec<u8>> {
    [
        BASE_COMPLEX,
        APV_COMPLEX_PRIMARY,
        CONVERT_COMPLEX,
        BANFF_PROPOSAL_BLOCK,
        GLACIER_SIGNED_MESSAGE,
        ADD_AUTO_RENEWED,
    ]
    .iter()
    .map(|s| hex(s))
    .collect()
}

/// Runs every decoder on `b`; none may panic, and whatever decodes must re-encode identically.
fn decode_all(b: &[u8]) {
    if let Ok(t) = unmarshal::<UnsignedTx>(b) {
        assert_eq!(marshal(&t), b);
    }
    if let Ok(p) = Tx::parse(b) {
        assert_eq!(p.tx.bytes(), b);
    }
    if let Ok(p) = parse_block(b) {
        assert_eq!(p.block.block.bytes(), p.block.bytes);
    }
    if let Ok(m) = Message::parse(b) {
        assert_eq!(m.bytes(), b);
    }
    if let Ok(m) = UnsignedMessage::parse(b) {
        assert_eq!(m.bytes(), b);
    }
    if let Ok(p) = Payload::parse(b) {
        assert_eq!(p.bytes(), b);
    }
    if let Ok(m) = L1Message::parse(b) {
        assert_eq!(m.bytes(), b);
    }
}

proptest! {
    #[test]
    fn tx_round_trips(tx in arb_tx()) {
        let bytes = tx.bytes();
        let parsed = Tx::parse(&bytes).expect("own encoding parses");
        prop_assert_eq!(&parsed.tx, &tx);
        prop_assert_eq!(parsed.id, tx.id());
        let unsigned = tx.unsigned_bytes();
        prop_assert_eq!(parsed.unsigned_bytes(), unsigned.as_slice());
    }

    #[test]
    fn block_round_trips(txs in prop::collection::vec(arb_tx(), 0..4), time in any::<u64>(),
                         parent in any::<[u8; 32]>(), height in any::<u64>()) {
        let block = Block::BanffStandard { time, common: CommonBlock { parent_id: Id(parent), height }, txs };
        let bytes = block.bytes();
        let parsed = Block::parse(&bytes).expect("own encoding parses");
        prop_assert_eq!(&parsed.block, &block);
        prop_assert_eq!(parsed.id, block.id());
        let ids: Vec<Id> = block.txs().iter().map(|t| t.id()).collect();
        prop_assert_eq!(parsed.tx_ids, ids);
    }

    #[test]
    fn warp_round_trips(network_id in any::<u32>(), chain in any::<[u8; 32]>(),
                        src in prop::collection::vec(any::<u8>(), 0..21),
                        body in prop::collection::vec(any::<u8>(), 0..64),
                        signers in prop::collection::btree_set(0usize..64, 0..5)) {
        let payload = Payload::AddressedCall(snowline_types::warp::AddressedCall { source_address: src, payload: body });
        prop_assert_eq!(Payload::parse(&payload.bytes()).expect("parses"), payload.clone());
        let unsigned = UnsignedMessage { network_id, source_chain_id: Id(chain), payload: payload.bytes() };
        let idx: Vec<usize> = signers.into_iter().collect();
        let msg = Message { unsigned, signature: BitSetSignature {
            signers: BitSetSignature::signers_from_indices(&idx), signature: [3; 96] } };
        let parsed = Message::parse(&msg.bytes()).expect("parses");
        prop_assert_eq!(parsed.signature.signer_indices().expect("minimal"), idx);
        prop_assert_eq!(parsed, msg);
    }

    #[test]
    fn helicon_round_trips(tx in arb_tx(), id in any::<[u8; 32]>(), time in any::<u64>(),
                           shares in any::<u32>(), period in any::<u64>(),
                           sigs in prop::collection::vec(any::<u32>(), 0..3)) {
        let UnsignedTx::BaseTx(base) = tx.unsigned else { unreachable!("arb_tx builds BaseTx") };
        for unsigned in [
            UnsignedTx::RewardAutoRenewedValidatorTx(RewardAutoRenewedValidatorTx { tx_id: Id(id), timestamp: time }),
            UnsignedTx::SetAutoRenewedValidatorConfigTx(SetAutoRenewedValidatorConfigTx {
                base: base.clone(), tx_id: Id(id), auth: Auth::Secp256k1(Input { sig_indices: sigs.clone() }),
                auto_compound_reward_shares: shares, period,
            }),
        ] {
            let tx = Tx::new(unsigned, tx.credentials.clone());
            let parsed = Tx::parse(&tx.bytes()).expect("own encoding parses");
            prop_assert_eq!(&parsed.tx, &tx);
        }
    }

    #[test]
    fn random_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..512)) {
        decode_all(&b);
        let mut with_header = vec![0, 0, 0, 0, 0, (b.len() % 43) as u8];
        with_header.extend_from_slice(&b);
        decode_all(&with_header);
    }

    #[test]
    fn mutations_never_panic(which in 0usize..6, pos in any::<usize>(), bit in 0u8..8, cut in any::<usize>()) {
        let samples = valid_samples();
        let s = &samples[which % samples.len()];
        let mut flipped = s.clone();
        let i = pos % flipped.len();
        flipped[i] ^= 1 << bit;
        decode_all(&flipped);
        decode_all(&s[..cut % s.len()]);
    }
}

#[test]
fn hostile_counts_fail_without_allocating() {
    // A BaseTx claiming u32::MAX outputs in a tiny input fails on the count check.
    let mut b = hex("00000000002200000001");
    b.extend_from_slice(&[0; 32]);
    b.extend_from_slice(&u32::MAX.to_be_bytes());
    assert!(unmarshal::<UnsignedTx>(&b).is_err());
    // A Banff standard block claiming u32::MAX txs.
    let mut blk = hex("000000000020");
    blk.extend_from_slice(&[0; 48]);
    blk.extend_from_slice(&u32::MAX.to_be_bytes());
    assert!(Block::parse(&blk).is_err());
}
