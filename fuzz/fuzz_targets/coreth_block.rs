//! Decodes arbitrary bytes as a `C/block` container (bare or proposervm-wrapped coreth block)
//! and as extra data; what decodes must re-encode to its bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::coreth::{Block, encode_ext_data, parse_ext_data};

fuzz_target!(|data: &[u8]| {
    if let Ok(b) = Block::decode(data) {
        assert_eq!(b.rlp(), data);
        assert_eq!(b.header.hash(), b.hash);
    }
    let _ = Block::from_container(data);
    for batch in [false, true] {
        if let Ok(txs) = parse_ext_data(data, batch) {
            let txs: Vec<_> = txs.into_iter().map(|t| t.tx).collect();
            assert_eq!(encode_ext_data(&txs, batch), data);
        }
    }
});
