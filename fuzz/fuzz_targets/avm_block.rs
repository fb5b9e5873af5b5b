//! Decodes arbitrary bytes as an X-Chain standard block; on success re-encoding must give the same
//! bytes and each tx's range must hold its bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::avm::{StandardBlock, block_tx_id};

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = StandardBlock::parse(data) {
        assert_eq!(p.block.bytes(), data);
        for (i, id) in p.tx_ids.iter().enumerate() {
            assert_eq!(p.tx_bytes(i).map(block_tx_id), Some(*id));
        }
    }
});
