#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns
//! Proposer-VM wrapper vectors from avalanchego `vms/proposervm/block/parse_test.go`.

use snowline_types::codec::CodecError;
use snowline_types::hashing::{hash160, sha256};
use snowline_types::proposervm::{Block, Epoch, StatelessBlock};
use snowline_types::{Id, NodeId, ShortId};

/// vector: avalanchego vms/proposervm/block/parse_test.go (TestParseBytes, "duplicate extensions in
/// certificate"): a signed type-0 block, parent `ids.ID{1}`, timestamp 123, P-Chain height 2, inner `[3]`.
const SIGNED: &str = include_str!("proposervm_signed_block.hex");

/// vector: avalanchego vms/proposervm/block/parse_test.go (TestParseBytes, "granite block with zero epoch").
const GRANITE_ZERO_EPOCH: &str = "0000000000020100000000000000000000000000000000000000000000000000000000000000000000000000007b000000000000000200000114308201103081b7a003020102020100300a06082a8648ce3d04030230003020170d3939313233313030303030305a180f32313235313030313139313935325a30003059301306072a8648ce3d020106082a8648ce3d03010703420004bd57e69df4a1562baa73dea9014e638aac699a9ded79850b348cd69b312c0344d09e2726f4a778ed23a63cd85c416fc2ce697f5a4fc3468d98a481aae8d396aea320301e300e0603551d0f0101ff040403020780300c0603551d130101ff04023000300a06082a8648ce3d0403020348003045022027f6aa68587db06a05e7bafd7b42bad7e98962fca1549c242c53d62721240bb3022100d0a79da9b971a825e0000350f842b941838da20a1338af79e7db5d4176fb51860000000103000000000000000000000000000000000000000000000000000000483046022100fea2be2c93b6c70d08f8c224e93f47b4547c33b19d36c5e8869627c5f47bc610022100a8d81e273a4483a97bdfa5eedcdba66a4e34e04bcf6d49f4e6bc738b650b69fa";

fn id1() -> Id {
    let mut b = [0u8; 32];
    b[0] = 1;
    Id(b)
}

fn stateless(b: &Block) -> &StatelessBlock {
    match b {
        Block::Stateless(s) => s,
        Block::Option { .. } => panic!("option"),
    }
}

#[test]
fn signed_block_parses_and_reencodes() {
    let bytes = hex::decode(SIGNED).unwrap();
    let p = Block::parse(&bytes).unwrap();
    assert_eq!(p.block.bytes(), bytes);
    let s = stateless(&p.block);
    assert_eq!(
        (s.parent_id, s.timestamp, s.p_chain_height),
        (id1(), 123, 2)
    );
    assert_eq!(s.inner, vec![3]);
    assert_eq!(s.epoch, None);
    assert_eq!(s.signature.len(), 512); // RSA-4096 signature
    assert_eq!(s.certificate.len(), 0x4bd);
    // The id covers everything but the trailing u32 length and signature.
    assert_eq!(p.id, Id(sha256(&bytes[..bytes.len() - 4 - 512])));
    assert_ne!(p.id, Id(sha256(&bytes)));
    assert_eq!(
        p.block.proposer(),
        Some(NodeId(ShortId(hash160(&s.certificate))))
    );
}

#[test]
fn granite_block_carries_its_epoch() {
    let bytes = hex::decode(GRANITE_ZERO_EPOCH).unwrap();
    let p = Block::parse(&bytes).unwrap();
    assert_eq!(p.block.bytes(), bytes);
    let s = stateless(&p.block);
    assert_eq!(
        (s.parent_id, s.timestamp, s.p_chain_height),
        (id1(), 123, 2)
    );
    // Parsing succeeds; avalanchego only rejects the zero epoch in `verify` (errZeroEpoch).
    assert_eq!(s.epoch, Some(Epoch::default()));
    assert!(p.block.proposer().is_some());
}

#[test]
fn gibberish_and_truncations_are_errors() {
    // vector: avalanchego vms/proposervm/block/parse_test.go (TestParseBytes, "gibberish")
    assert_eq!(
        Block::parse(&hex::decode("000102030405").unwrap()),
        Err(CodecError::UnknownVersion(1))
    );
    // TestParseBlocks: the signed block minus its last byte fails.
    let bytes = hex::decode(SIGNED).unwrap();
    for n in 0..bytes.len() {
        assert!(Block::parse(&bytes[..n]).is_err());
    }
}

#[test]
fn unsigned_and_option_builders_follow_build_go() {
    // vms/proposervm/block/build.go BuildUnsigned with the parse_test.go inputs: no certificate,
    // no signature, so the id is sha256 of the bytes minus the empty signature's length prefix.
    let p = Block::build_unsigned(id1(), 123, 2, Epoch::default(), vec![3]);
    let mut expected = vec![0, 0, 0, 0, 0, 0];
    expected.extend_from_slice(&id1().0);
    expected.extend_from_slice(&123i64.to_be_bytes());
    expected.extend_from_slice(&2u64.to_be_bytes());
    expected.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0]);
    assert_eq!(p.bytes, expected);
    assert_eq!(p.id, Id(sha256(&expected[..expected.len() - 4])));
    assert_eq!(p.block.proposer(), None);
    assert_eq!(Block::parse(&p.bytes).unwrap(), p);
    let epoch = Epoch {
        p_chain_height: 2,
        number: 1,
        start_time: 123,
    };
    let g = Block::build_unsigned(id1(), 123, 2, epoch, vec![3]);
    assert_eq!(g.bytes[5], 2);
    assert_eq!(g.bytes.len(), expected.len() + 24);
    assert_eq!(Block::parse(&g.bytes).unwrap(), g);
    // option.go: the id of an option is sha256 of all its bytes.
    let o = Block::build_option(id1(), vec![3]);
    assert_eq!(o.bytes.len(), 2 + 4 + 32 + 4 + 1);
    assert_eq!(o.id, Id(sha256(&o.bytes)));
    assert_eq!(Block::parse(&o.bytes).unwrap(), o);
}

#[test]
fn decode_is_parse_without_the_id() {
    // The avalanchego vectors above, plus the builders' option block: `decode` gives the block
    // `parse` gives, and fails exactly where `parse` fails.
    let option = Block::build_option(id1(), vec![7, 8, 9]).bytes;
    for bytes in [
        hex::decode(SIGNED).unwrap(),
        hex::decode(GRANITE_ZERO_EPOCH).unwrap(),
        option,
    ] {
        let parsed = Block::parse(&bytes).unwrap();
        assert_eq!(Block::decode(&bytes).unwrap(), parsed.block);
        let inner = parsed.block.inner().to_vec();
        assert_eq!(Block::decode(&bytes).unwrap().into_inner(), inner);
        for n in 0..bytes.len() {
            assert_eq!(
                Block::decode(&bytes[..n]).err(),
                Block::parse(&bytes[..n]).err()
            );
        }
    }
}

#[test]
fn inner_offset_points_at_the_inner_block() {
    // The avalanchego vectors (inner `[3]` and `[]`-less granite inner) and both builders.
    let unsigned = Block::build_unsigned(id1(), 5, 6, Epoch::default(), vec![4, 5, 6, 7]);
    let option = Block::build_option(id1(), vec![7, 8, 9]);
    for bytes in [
        hex::decode(SIGNED).unwrap(),
        hex::decode(GRANITE_ZERO_EPOCH).unwrap(),
        unsigned.bytes,
        option.bytes,
    ] {
        let block = Block::decode(&bytes).unwrap();
        let at = block.inner_offset();
        assert_eq!(&bytes[at..at + block.inner().len()], block.inner());
        // The u32 length right before it.
        let len = u32::from_be_bytes(bytes[at - 4..at].try_into().unwrap());
        assert_eq!(len as usize, block.inner().len());
    }
}
