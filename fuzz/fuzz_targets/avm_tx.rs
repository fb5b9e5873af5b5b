//! Decodes arbitrary bytes as a signed X-Chain tx; on success re-encoding must give the same bytes,
//! parsing owned bytes must agree, and verifying and rendering the JSON must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::Id;
use snowline_types::avm::Tx;
use snowline_types::components::json::{JsonCtx, to_json_string};

fuzz_target!(|data: &[u8]| {
    let parsed = Tx::parse(data);
    assert_eq!(Tx::parse_vec(data.to_vec()), parsed);
    if let Ok(p) = parsed {
        assert_eq!(p.tx.bytes(), data);
        assert!(data.starts_with(p.unsigned_bytes()));
        let _ = p.tx.verify(1, &Id::EMPTY);
        if let Ok(ctx) = JsonCtx::new("X", "avax") {
            let json = to_json_string(&p, &ctx);
            assert!(json.starts_with(r#"{"unsignedTx":{"networkID":"#));
            assert!(json.ends_with(&format!(r#""id":"{}"}}"#, p.id)));
        }
    }
});
