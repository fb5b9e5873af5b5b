//! Property tests: the coreth block and extra-data decoders survive random bytes, truncations
//! and byte flips of coreth's own vectors, and whatever decodes re-encodes to the same bytes.
#![allow(clippy::expect_used)] // test helpers outside #[test] fns

use proptest::prelude::*;
use snowline_types::coreth::{AtomicBlock, Block, Header, encode_ext_data, parse_ext_data};

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/coreth_data/{name}", env!("CARGO_MANIFEST_DIR"));
    hex::decode(std::fs::read_to_string(path).expect("vector").trim()).expect("hex")
}

fn vectors() -> Vec<Vec<u8>> {
    [
        "block_encoding.hex",
        "eip1559_block.hex",
        "block_with_extra_data.hex",
        "ap4_block.hex",
    ]
    .iter()
    .map(|n| data(n))
    .collect()
}

/// Feeds `bytes` to every decoder; what decodes must re-encode to the same bytes.
fn check(bytes: &[u8]) {
    if let Ok(b) = Block::decode(bytes) {
        assert_eq!(b.rlp(), bytes);
        assert_eq!(b.header.hash(), b.hash);
    }
    let _ = Block::from_container(bytes);
    let _ = AtomicBlock::from_container(bytes, 1);
    let mut buf = bytes;
    if let Ok(h) = Header::decode(&mut buf) {
        let used = bytes.len() - buf.len();
        assert_eq!(h.rlp(), &bytes[..used]);
    }
    for batch in [false, true] {
        if let Ok(txs) = parse_ext_data(bytes, batch) {
            let txs: Vec<_> = txs.into_iter().map(|t| t.tx).collect();
            assert_eq!(encode_ext_data(&txs, batch), bytes);
        }
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&bytes);
    }

    #[test]
    fn truncated_and_flipped_vectors_never_panic(which in 0usize..4, cut in any::<prop::sample::Index>(),
                                                 at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let v = &vectors()[which];
        check(&v[..cut.index(v.len() + 1)]);
        let mut flipped = v.clone();
        let i = at.index(flipped.len());
        flipped[i] = byte;
        check(&flipped);
        // The extra data alone, flipped.
        let ext = Block::decode(v).expect("vector").ext_data;
        if !ext.is_empty() {
            let mut e = ext.clone();
            let j = at.index(e.len());
            e[j] ^= byte;
            check(&e);
        }
    }
}
