//! Decodes arbitrary bytes as a bare or proposervm-wrapped P-Chain block; on success the inner
//! block must re-encode to its bytes and every tx id must match its re-encoding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::platformvm::parse_block;

fuzz_target!(|data: &[u8]| {
    if let Ok(b) = parse_block(data) {
        assert_eq!(b.block.block.bytes(), b.block.bytes);
        let txs = b.block.block.txs();
        assert_eq!(txs.len(), b.block.tx_ids.len());
        for (tx, id) in txs.iter().zip(&b.block.tx_ids) {
            assert_eq!(&tx.id(), id);
        }
    }
});
