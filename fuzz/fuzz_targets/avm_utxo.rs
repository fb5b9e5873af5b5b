//! Decodes arbitrary bytes as an X-Chain UTXO; on success re-encoding must give the same bytes,
//! and verifying and rendering the JSON must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::avm::Utxo;
use snowline_types::components::json::{JsonCtx, to_json_string};

fuzz_target!(|data: &[u8]| {
    if let Ok(u) = Utxo::parse(data) {
        assert_eq!(u.to_bytes(), data);
        let _ = u.verify();
        if let Ok(ctx) = JsonCtx::new("X", "fuji") {
            let json = to_json_string(&u, &ctx);
            assert!(json.starts_with(r#"{"txID":""#) && json.ends_with('}'));
        }
    }
});
