//! The C-Chain's coreth block and atomic txs against coreth's own vectors
//! (`graft/coreth/plugin/evm/customtypes/{block_test,header_ext_test}.go`, data files in
//! `coreth_data/`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_types::Id;
use snowline_types::coreth::{
    AtomicBlock, Block, EMPTY_EXT_DATA_HASH, Header, ParsedTx, TransferableIn, UnsignedTx,
    apricot_phase5_time, encode_ext_data, ext_data_hash, is_batch, parse_ext_data,
};
use snowline_types::hashing::{keccak256, sha256};
use snowline_types::proposervm;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/coreth_data/{name}", env!("CARGO_MANIFEST_DIR"));
    hex::decode(std::fs::read_to_string(path).unwrap().trim()).unwrap()
}

fn hash32(hex_str: &str) -> [u8; 32] {
    hex::decode(hex_str).unwrap().try_into().unwrap()
}

fn id(hex_str: &str) -> Id {
    Id(hex::decode(hex_str).unwrap().try_into().unwrap())
}

#[test]
fn block_encoding() {
    // vector: coreth customtypes/block_test.go TestBlockEncoding
    let bytes = data("block_encoding.hex");
    let b = Block::decode(&bytes).unwrap();
    let h = &b.header;
    assert_eq!(
        h.parent_hash,
        hash32("4504ee98a94d16dbd70a35370501a3cb00c2965b012672085fbd328a72962902")
    );
    assert_eq!(
        h.root,
        hash32("0202e12a30c13562445052414c24dce5f1c530bb164e2a50897f0a6a1f78f158")
    );
    assert_eq!(h.difficulty, 1);
    assert_eq!(b.number(), 3);
    assert_eq!(h.gas_limit, 8_000_000);
    assert_eq!(h.gas_used, 21_000);
    assert_eq!(b.timestamp(), 1_617_383_050);
    assert_eq!(h.ext_data_hash, EMPTY_EXT_DATA_HASH);
    assert_eq!(h.base_fee, None);
    assert_eq!(h.ext_data_gas_used, None);
    assert_eq!(
        b.hash,
        hash32("0608e5d5e13c337f226b621a0b08b3d50470f1961329826fd59f5a241d1df49e")
    );
    assert_eq!(h.hash(), b.hash);
    assert_eq!(b.transactions.len(), 1);
    // The tx hash of a legacy tx is the keccak of its RLP item.
    assert_eq!(
        keccak256(&b.transactions[0]),
        hash32("f5a60149da2ea4e97061a9f47c66036ee843fa76cd1f9ce5a71eb55ff90b2e0e")
    );
    assert!(b.uncles.is_empty());
    assert_eq!(b.version, 0);
    assert!(b.ext_data.is_empty());
    assert!(parse_ext_data(&b.ext_data, true).unwrap().is_empty());
    assert_eq!(b.rlp(), bytes);
}

#[test]
fn eip1559_and_ap4_blocks() {
    // vector: coreth customtypes/block_test.go TestEIP1559BlockEncoding
    let bytes = data("eip1559_block.hex");
    let b = Block::decode(&bytes).unwrap();
    assert_eq!(
        b.hash,
        hash32("2aefaa81ae43541bf2d608e2bb26a157212394abad4d219c06163be0d5d010f8")
    );
    assert_eq!(b.header.base_fee, Some(1_000_000_000));
    assert_eq!(b.header.ext_data_gas_used, None);
    assert_eq!(b.timestamp(), 1_426_516_743);
    assert_eq!(b.transactions.len(), 2);
    assert_eq!(b.rlp(), bytes);

    // vector: coreth customtypes/block_test.go TestAP4BlockEncoding
    let bytes = data("ap4_block.hex");
    let b = Block::decode(&bytes).unwrap();
    assert_eq!(
        b.hash,
        hash32("c41340f5d2af79a12373bc8d6f0f05f9f98b240834608f428da171449e8a1468")
    );
    assert_eq!(b.header.base_fee, Some(1_000_000_000));
    assert_eq!(b.header.ext_data_gas_used, Some(25_000));
    assert_eq!(b.header.block_gas_cost, Some(1_000_000));
    assert_eq!(b.header.time_milliseconds, None);
    assert_eq!(b.transactions.len(), 2);
    assert_eq!(b.rlp(), bytes);
}

#[test]
fn header_with_every_field_set() {
    // vector: coreth customtypes/header_ext_test.go TestHeaderRLP (golden data; fields set to
    // 1..31 by headerWithNonZeroFields, WithdrawalsHash (17) not part of coreth's header)
    let golden = data("header_rlp.hex");
    let mut buf = golden.as_slice();
    let h = Header::decode(&mut buf).unwrap();
    assert!(buf.is_empty());
    assert_eq!(h.parent_hash[0], 1);
    assert_eq!(h.parent_hash[1..], [0; 31]);
    assert_eq!(h.difficulty, 8);
    assert_eq!((h.number, h.gas_limit, h.gas_used, h.time), (9, 10, 11, 12));
    assert_eq!(h.extra, [13]);
    assert_eq!(h.ext_data_hash[0], 21);
    assert_eq!(h.base_fee, Some(16));
    assert_eq!(h.ext_data_gas_used, Some(22));
    assert_eq!(h.block_gas_cost, Some(23));
    assert_eq!((h.blob_gas_used, h.excess_blob_gas), (Some(18), Some(19)));
    assert_eq!(h.parent_beacon_root.map(|r| r[0]), Some(20));
    assert_eq!(h.time_milliseconds, Some(24));
    assert_eq!(h.min_delay_excess, Some(25));
    assert_eq!(h.target_exponent, Some(26));
    assert_eq!(h.min_price_exponent, Some(27));
    assert_eq!(
        (
            h.settled_height,
            h.settled_gas_unix,
            h.settled_gas_numerator,
            h.settled_excess
        ),
        (Some(28), Some(29), Some(30), Some(31))
    );
    assert_eq!(h.rlp(), golden);
    assert_eq!(h.hash(), keccak256(&golden));
}

#[test]
fn empty_ext_data_hash() {
    // vector: coreth customtypes/hashes_ext.go EmptyExtDataHash = RLPHash([]byte(nil)); the
    // value is the ExtDataHash of block_test.go TestBlockEncoding's block, which has none.
    assert_eq!(ext_data_hash(&[]), EMPTY_EXT_DATA_HASH);
}

/// The pre-Apricot-Phase-5 import tx of `TestBlockEncodingWithExtraData`.
fn block_with_extra_data() -> (Vec<u8>, Block) {
    let bytes = data("block_with_extra_data.hex");
    let b = Block::decode(&bytes).unwrap();
    (bytes, b)
}

#[test]
fn block_with_a_single_import_tx() {
    // vector: coreth customtypes/block_test.go TestBlockEncodingWithExtraData
    let (bytes, b) = block_with_extra_data();
    assert_eq!(
        b.hash,
        hash32("4504ee98a94d16dbd70a35370501a3cb00c2965b012672085fbd328a72962902")
    );
    assert_eq!(b.number(), 2);
    assert_eq!(b.timestamp(), 1_617_382_963);
    assert!(b.transactions.is_empty());
    assert_eq!(
        b.header.ext_data_hash,
        hash32("296ff3bfdebf7c4b1fb71f589d69ed03b1c59b278d1780d54dc86ea7cb87cf17")
    );
    assert_eq!(ext_data_hash(&b.ext_data), b.header.ext_data_hash);
    assert_eq!(b.rlp(), bytes);

    // The extra data, fields read off its hex: an ImportTx (type 0) on network 12345 from
    // chain d891…c6bf of two 0x2d79883d2000 inputs, crediting 0x5af3107a4000 to 6dc8…6fd8.
    let txs = parse_ext_data(&b.ext_data, false).unwrap();
    assert_eq!(txs.len(), 1);
    let tx = &txs[0];
    assert_eq!(tx.bytes, b.ext_data);
    assert_eq!(tx.id, Id(sha256(&b.ext_data)));
    let UnsignedTx::Import(i) = &tx.tx.unsigned else {
        panic!("an import");
    };
    assert_eq!(i.network_id, 12345);
    assert_eq!(
        i.blockchain_id,
        id("c85fc1980a77c5da78fe5486233fc09a769bb812bcb2cc548cf9495d046b3f1b")
    );
    assert_eq!(
        i.source_chain,
        id("d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf")
    );
    let asset = id("dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db");
    let ins: Vec<_> = i
        .imported_inputs
        .iter()
        .map(|x| {
            let TransferableIn::Secp256k1(t) = &x.input;
            (
                x.utxo_id.tx_id,
                x.utxo_id.output_index,
                x.asset_id,
                t.amount,
            )
        })
        .collect();
    assert_eq!(
        ins,
        [
            (
                id("8a0f7c3e4d840143671a4c4ecacccb4d60fb97dce97a7aa5d60dfd072a7509cf"),
                1,
                asset,
                0x2d79883d2000
            ),
            (
                id("e0d5c4edc78f594b79025a56c44933c28e8ba3e51e6e23318727eeaac10eb27d"),
                1,
                asset,
                0x2d79883d2000
            ),
        ]
    );
    assert_eq!(i.outs.len(), 1);
    assert_eq!(
        hex::encode(i.outs[0].address),
        "6dc8ea73dd39ab12fa2ecbc3427abaeb87d56fd8"
    );
    assert_eq!(i.outs[0].amount, 0x5af3107a4000);
    assert_eq!(i.outs[0].asset_id, asset);
    assert_eq!(tx.tx.credentials.len(), 2);
    assert_eq!(tx.tx.bytes(), b.ext_data);
    assert_eq!(
        encode_ext_data(std::slice::from_ref(&tx.tx), false),
        b.ext_data
    );
    // Read as a batch the same bytes are a count of 0 txs and fail, as coreth's do.
    assert!(parse_ext_data(&b.ext_data, true).is_err());
}

#[test]
fn a_batch_holds_each_tx_without_its_version() {
    // atomic/codec.go ExtractAtomicTxsBatch: `[]*Tx` is `u16 version | u32 n | tx…`, each tx's
    // id the sha256 of `u16 version | tx` (Tx.Sign marshals it alone).
    let (_, b) = block_with_extra_data();
    let single = &b.ext_data;
    let mut batch = vec![0, 0, 0, 0, 0, 2];
    batch.extend_from_slice(&single[2..]);
    batch.extend_from_slice(&single[2..]);
    let txs: Vec<ParsedTx> = parse_ext_data(&batch, true).unwrap();
    assert_eq!(txs.len(), 2);
    for tx in &txs {
        assert_eq!(tx.id, Id(sha256(single)));
        assert_eq!(&tx.bytes, single);
    }
    let built: Vec<_> = txs.iter().map(|t| t.tx.clone()).collect();
    assert_eq!(encode_ext_data(&built, true), batch);
    // An empty batch is refused (errMissingAtomicTxs).
    assert!(parse_ext_data(&[0, 0, 0, 0, 0, 0], true).is_err());
    assert!(parse_ext_data(&[], true).unwrap().is_empty());
}

#[test]
fn each_tx_range_spans_the_tx_in_the_container() {
    // A tx's id is the sha256 of `u16 version | tx` (atomic/tx.go Sign); its range in the
    // container, bare or wrapped, single or batched, spans the tx without its version.
    let (bytes, b) = block_with_extra_data();
    let mut batched = b.clone();
    batched.ext_data = vec![0, 0, 0, 0, 0, 2];
    batched.ext_data.extend_from_slice(&b.ext_data[2..]);
    batched.ext_data.extend_from_slice(&b.ext_data[2..]);
    for (inner, n) in [(bytes, 1), (batched.rlp(), 2)] {
        let wrapped = proposervm::Block::Stateless(proposervm::StatelessBlock {
            parent_id: Id([7; 32]),
            timestamp: 1_617_382_963,
            p_chain_height: 4,
            inner: inner.clone(),
            ..Default::default()
        })
        .bytes();
        for container in [inner, wrapped] {
            let block = AtomicBlock::from_container_any_network(&container).unwrap();
            assert_eq!((block.txs.len(), block.tx_ranges.len()), (n, n));
            for (tx, range) in block.txs.iter().zip(&block.tx_ranges) {
                let signed = [&[0u8, 0][..], &container[range.clone()]].concat();
                assert_eq!(Id(sha256(&signed)), tx.id);
                assert_eq!(signed, tx.bytes);
            }
        }
    }
}

#[test]
fn apricot_phase5_times() {
    // vector: avalanchego upgrade/upgrade.go Mainnet/Fuji ApricotPhase5Time
    // (2021-12-02T18:00Z, 2021-11-24T15:00Z); Default (local) is initially active.
    assert_eq!(apricot_phase5_time(1), 1_638_468_000);
    assert_eq!(apricot_phase5_time(5), 1_637_766_000);
    assert!(is_batch(12345, 0));
    assert!(!is_batch(1, 1_638_467_999));
    assert!(is_batch(1, 1_638_468_000));
}

#[test]
fn a_wrapped_block_reads_as_the_bare_one() {
    // C/block serves proposervm blocks around the coreth block (vms/proposervm/block).
    let (bytes, bare) = block_with_extra_data();
    let outer = proposervm::Block::Stateless(proposervm::StatelessBlock {
        parent_id: Id([7; 32]),
        timestamp: 1_617_382_963,
        p_chain_height: 4,
        inner: bytes.clone(),
        ..Default::default()
    });
    assert_eq!(Block::from_container(&outer.bytes()).unwrap(), bare);
    assert_eq!(Block::from_container(&bytes).unwrap(), bare);
}

#[test]
fn a_c_block_container_moves_shared_memory() {
    // The TestBlockEncodingWithExtraData block (time 2021-04-02, before mainnet's Apricot Phase
    // 5) as a mainnet C/block container: its import takes the two UTXOs out of the source
    // chain's shared memory with C.
    use snowline_types::atomic::{AtomicTxs, SharedMove, c_container_atomic};
    use snowline_types::components::UtxoId;
    use snowline_types::container::{ContainerRecord, IndexPath};
    let (bytes, b) = block_with_extra_data();
    let record = ContainerRecord {
        path: IndexPath::CBlock,
        id: Id([0; 32]),
        bytes,
        timestamp_ns: 0,
    };
    let atomic: AtomicTxs<snowline_types::avm::Utxo> =
        c_container_atomic(&record, Some(1)).unwrap().unwrap();
    assert_eq!((atomic.height, atomic.timestamp), (2, b.timestamp()));
    let source = id("d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf");
    let tx_id = Id(sha256(&b.ext_data));
    let moves: Vec<_> = atomic.moves_for(source).collect();
    let left = |t: &str| SharedMove::Leaves {
        tx_id,
        utxo_id: UtxoId::new(id(t), 1).id(),
    };
    assert_eq!(
        moves,
        [
            left("8a0f7c3e4d840143671a4c4ecacccb4d60fb97dce97a7aa5d60dfd072a7509cf"),
            left("e0d5c4edc78f594b79025a56c44933c28e8ba3e51e6e23318727eeaac10eb27d"),
        ]
    );
    // On a network with Apricot Phase 5 from genesis the same extra data is not a batch.
    assert!(c_container_atomic::<snowline_types::avm::Utxo>(&record, Some(12345)).is_err());
    // A reader that does not know the network falls back to the framing that decodes.
    let any: AtomicTxs<snowline_types::avm::Utxo> =
        c_container_atomic(&record, None).unwrap().unwrap();
    assert_eq!(any, atomic);
}
