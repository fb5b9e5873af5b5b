//! The place each P-Chain tx row keeps (where the tx's bytes lie in its block's container,
//! which a tx's rendering parses alone instead of its block) checked against the devnet's
//! containers as the node serves them: the bytes at that place, behind the codec version
//! (`0x0000`), are the tx's signed bytes, whose `sha256` is the tx id (avalanchego v1.13
//! `vms/platformvm/txs/tx.go`, `Initialize`: `signedBytes = Codec.Marshal(CodecVersion, tx)`,
//! `txID = hashing.ComputeHash256Array(signedBytes)`), and they parse on their own as the tx the
//! whole block holds at that position. Genesis txs are in no block and keep no place.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use snowline_chain_p::tables::PhTxs;
use snowline_chain_p::{P_PATHS, PChain};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, Linear, ReadView, Schema, Store};
use snowline_types::Id;
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{Tx, parse_block};

#[test]
fn each_tx_row_points_at_its_signed_bytes_in_the_block() {
    let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let records: Vec<ContainerRecord> = devnet
        .by_ref()
        .map(|r| r.unwrap())
        .filter(|r| P_PATHS.contains(&r.path))
        .collect();
    let genesis = devnet.p_genesis();
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_p::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir.path(), &schema).unwrap();
    let net = &NetworkInfo::LOCAL;
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(&store, &genesis).unwrap();
    let mut writer = IndexWriter::open(&store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(&store, &mut writer, src, 16, &mut p, |_| {}).unwrap();

    let (mut checked, mut wrapped) = (0, 0);
    let mut in_blocks = BTreeSet::new();
    for r in records.iter().filter(|r| r.path == IndexPath::PBlock) {
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
