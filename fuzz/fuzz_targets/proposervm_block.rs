//! Decodes arbitrary bytes as an outer proposervm block; on success re-encoding must give the same
//! bytes and the same id, and parsing owned bytes must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::proposervm::Block;

fuzz_target!(|data: &[u8]| {
    let parsed = Block::parse(data);
    assert_eq!(Block::parse_vec(data.to_vec()), parsed);
    if let Ok(p) = parsed {
        assert_eq!(p.block.bytes(), data);
        assert_eq!(p.block.id(), p.id);
        let _ = p.block.proposer();
    }
});
