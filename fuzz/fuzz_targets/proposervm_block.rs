//! Decodes arbitrary bytes as an outer proposervm block; on success re-encoding must give the same
//! bytes and the same id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::proposervm::Block;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Block::parse(data) {
        assert_eq!(p.block.bytes(), data);
        assert_eq!(p.block.id(), p.id);
    }
});
