//! Decodes arbitrary bytes as a signed P-Chain tx; on success re-encoding must give the same
//! bytes and the unsigned bytes must be a prefix.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::platformvm::Tx;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Tx::parse(data) {
        assert_eq!(p.tx.bytes(), data);
        assert!(data.starts_with(p.unsigned_bytes()));
        assert_eq!(p.tx.id(), p.id);
    }
});
