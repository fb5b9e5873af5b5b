//! Decodes arbitrary bytes as an X-Chain standard block; on success re-encoding must give the same
//! bytes, each tx's range must hold its bytes, parsing owned bytes must agree, and rendering the
//! JSON must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::avm::{StandardBlock, block_tx_id};
use snowline_types::components::json::{JsonCtx, to_json_string};

fuzz_target!(|data: &[u8]| {
    let parsed = StandardBlock::parse(data);
    assert_eq!(StandardBlock::parse_vec(data.to_vec()), parsed);
    if let Ok(p) = parsed {
        assert_eq!(p.block.bytes(), data);
        for (i, id) in p.tx_ids.iter().enumerate() {
            assert_eq!(p.tx_bytes(i).map(block_tx_id), Some(*id));
        }
        if let Ok(ctx) = JsonCtx::new("X", "local") {
            let json = to_json_string(&p, &ctx);
            assert!(json.starts_with(r#"{"parentID":""#));
            assert!(json.ends_with(&format!(r#""id":"{}"}}"#, p.id)));
        }
    }
});
