//! Decodes arbitrary bytes as a signed X-Chain tx; on success re-encoding must give the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::avm::Tx;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Tx::parse(data) {
        assert_eq!(p.tx.bytes(), data);
        assert!(data.starts_with(p.unsigned_bytes()));
    }
});
