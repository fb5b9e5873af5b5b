//! The place each P-Chain tx row keeps (where the tx's bytes lie in its block's container,
//! which a tx's rendering parses alone instead of its block) checked against the devnet's
//! containers as the node serves them: the bytes at that place, behind the codec version
//! (`0x0000`), are the tx's signed bytes, whose `sha256` is the tx id (avalanchego v1.13
//! `vms/platformvm/txs/tx.go`, `Initialize`: `signedBytes = Codec.Marshal(CodecVersion, tx)`,
//! `txID = hashing.ComputeHash256Array(signedBytes)`), and they parse on their own as the tx the
//! whole block holds at that position. Genesis txs are in no block and keep no place.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

#[path = "../src/test_devnet.rs"]
mod test_devnet;

use snowline_chain_p::tables::PhTxs;
use snowline_store::{Direction, Linear, ReadView};
use snowline_types::Id;
use snowline_types::hashing::sha256;
use snowline_types::platformvm::{Tx, parse_block};
use test_devnet::PDevnet;

#[test]
fn each_tx_row_points_at_its_signed_bytes_in_the_block() {
    let devnet = PDevnet::generate();
    let blocks = devnet.p_blocks();
    devnet.deriver(None).ingest(&blocks, 16);
    let store = &devnet.store;

    let (mut checked, mut wrapped) = (0, 0);
    let mut in_blocks = BTreeSet::new();
    for r in &blocks {
        let block = parse_block(&r.bytes).unwrap();
        wrapped += usize::from(block.proposer.is_some());
        for (tx, id) in block.block.block.txs().into_iter().zip(&block.block.tx_ids) {
            let Linear(row) = store.get::<PhTxs>(id).unwrap().expect("a row per block tx");
            let place = row
                .place
                .unwrap_or_else(|| panic!("tx {id} keeps no place"));
            let start = place.offset as usize;
            let body = &r.bytes[start..start + place.len as usize];
            let signed = [&[0u8, 0][..], body].concat();
            assert_eq!(Id(sha256(&signed)), *id, "tx {id}: the bytes at its place");
            let alone = Tx::parse(&signed).unwrap();
            assert_eq!(alone.tx.unsigned, tx.unsigned, "tx {id} parsed alone");
            in_blocks.insert(*id);
            checked += 1;
        }
    }
    assert!(
        checked > 40 && wrapped > 0,
        "{checked} txs, {wrapped} wrapped"
    );
    for e in store.scan::<PhTxs, _>(.., Direction::Forward).unwrap() {
        let (id, Linear(row)) = e.unwrap();
        if !in_blocks.contains(&id) {
            assert_eq!(
                row.event.height, 0,
                "tx {id} is in no block but not genesis"
            );
            assert_eq!(row.place, None, "genesis tx {id} keeps no place");
        }
    }
}
