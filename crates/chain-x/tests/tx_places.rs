//! The place a linear X-Chain block's tx row (`xh_txs`) and a C-Chain atomic tx row
//! (`xh_c_txs`) keep, where the tx's bytes lie in its container, checked against the devnet's
//! containers as the node serves them: the bytes there, behind the codec version (`0x0000`),
//! are the tx's signed bytes, whose `sha256` is the tx id (avalanchego v1.13
//! `vms/avm/txs/tx.go`, `Initialize`: `txID = hashing.ComputeHash256Array(signedBytes)`;
//! `graft/coreth/plugin/evm/atomic/tx.go`, `Sign`: `signedBytes = Codec.Marshal(CodecVersion,
//! tx)`, then `Initialize` likewise), and they parse alone as the tx the whole block holds. The
//! tx by hash of both chains, which reads those bytes alone, answers that tx. A C-Chain row keeps
//! its block's number, hash and time too; the DAG's txs keep no place.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod history_support;

use std::collections::BTreeSet;
use std::sync::Arc;

use history_support::{open, run, world};
use snowline_chain_x::history::XHistoryPages;
use snowline_chain_x::history::tables::{XhCTxs, XhTxs};
use snowline_devnet::DevnetConfig;
use snowline_store::ReadView;
use snowline_types::container::IndexPath;
use snowline_types::hashing::sha256;
use snowline_types::vertex::Vertex;
use snowline_types::{Id, avm, coreth, proposervm};

#[test]
fn each_tx_row_points_at_its_signed_bytes_in_the_container() {
    let w = world(DevnetConfig::small());
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    run(&store, &w, &w.records, 7, None).unwrap();
    let store = Arc::new(store);
    let pages = XHistoryPages::new(Arc::clone(&store));
    let signed_id = |body: &[u8]| Id(sha256(&[&[0u8, 0][..], body].concat()));

    let (mut x_checked, mut c_checked) = (0, 0);
    let mut dag = BTreeSet::new();
    for r in &w.records {
        match r.path {
            IndexPath::XBlock => {
                let outer = proposervm::Block::decode(&r.bytes).unwrap();
                let block = avm::StandardBlock::parse(outer.inner()).unwrap();
                for (tx, id) in block.block.txs.iter().zip(&block.tx_ids) {
                    let row = store.get::<XhTxs>(id).unwrap().expect("a row per block tx");
                    assert_eq!(row.height, Some(block.block.height), "tx {id}'s height");
                    let place = row
                        .place
                        .unwrap_or_else(|| panic!("tx {id} keeps no place"));
                    let body = place.slice(&r.bytes).expect("within the container");
                    assert_eq!(signed_id(body), *id, "tx {id}: the bytes at its place");
                    let alone = avm::Tx::parse_nested(body).unwrap();
                    assert_eq!(&alone, tx, "tx {id} parsed alone");
                    let details = pages.tx_details(id).unwrap().expect("tx by hash");
                    assert_eq!(details.tx, tx.unsigned, "tx {id} by hash");
                    x_checked += 1;
                }
            }
            IndexPath::XVtx => {
                let vertex = Vertex::parse(&r.bytes).unwrap().vertex;
                for bytes in &vertex.txs {
                    dag.insert(avm::Tx::parse(bytes).unwrap().id);
                }
            }
            IndexPath::CBlock => {
                let block = coreth::AtomicBlock::from_container_any_network(&r.bytes).unwrap();
                for tx in &block.txs {
                    let id = tx.id;
                    let row = store
                        .get::<XhCTxs>(&id)
                        .unwrap()
                        .expect("a row per atomic tx");
                    assert_eq!(
                        (row.container, row.number, row.hash, row.timestamp),
                        (
                            r.id,
                            block.block.number(),
                            block.block.hash,
                            block.block.timestamp()
                        ),
                        "C-Chain tx {id}'s block"
                    );
                    let place = row
                        .place
                        .unwrap_or_else(|| panic!("tx {id} keeps no place"));
                    let body = place.slice(&r.bytes).expect("within the container");
                    assert_eq!(
                        signed_id(body),
                        id,
                        "C-Chain tx {id}: the bytes at its place"
                    );
                    let alone = coreth::Tx::parse_nested(body).unwrap();
                    assert_eq!(alone, tx.tx, "C-Chain tx {id} parsed alone");
                    let by_hash = pages.c_tx(&id).unwrap().expect("C-Chain tx by hash");
                    assert_eq!(
                        (by_hash.tx, by_hash.block_number, by_hash.block_hash),
                        (tx.tx.clone(), block.block.number(), block.block.hash),
                        "C-Chain tx {id} by hash"
                    );
                    c_checked += 1;
                }
            }
            _ => {}
        }
    }
    for id in &dag {
        let row = store.get::<XhTxs>(id).unwrap().expect("a row per DAG tx");
        assert_eq!(row.place, None, "DAG tx {id} keeps no place");
    }
    assert!(
        x_checked > 40 && c_checked > 4 && !dag.is_empty(),
        "{x_checked} X block txs, {c_checked} C atomic txs, {} DAG txs",
        dag.len()
    );
}
