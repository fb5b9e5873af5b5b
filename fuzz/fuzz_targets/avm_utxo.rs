//! Decodes arbitrary bytes as an X-Chain UTXO; on success re-encoding must give the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::avm::Utxo;

fuzz_target!(|data: &[u8]| {
    if let Ok(u) = Utxo::parse(data) {
        assert_eq!(u.to_bytes(), data);
    }
});
