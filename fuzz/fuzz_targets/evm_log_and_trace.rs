//! Feeds arbitrary bytes to the EVM decoders: as log topics and data (transfer decode), as
//! `eth_call` answers, and as `callTracer` / receipt JSON. No panic, no stack overflow; a decoded
//! transfer re-derives the same transfers.

#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::evm::{
    B256, RpcBlock, RpcReceipt, decode_text, decode_transfer_log, internal_transactions,
    parse_block_trace, parse_call_frame,
};

fuzz_target!(|data: &[u8]| {
    // First byte: how many 32-byte topics follow (0..=4); the rest is log data.
    if let Some((&n, rest)) = data.split_first() {
        let n = usize::from(n % 5).min(rest.len() / 32);
        let (topic_bytes, log_data) = rest.split_at(n * 32);
        let topics: Vec<B256> = topic_bytes.chunks_exact(32).map(B256::from_slice).collect();
        if let Some(t) = decode_transfer_log(&topics, log_data) {
            let _ = t.transfers(Default::default(), 0);
        }
    }
    let _ = decode_text(data);
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(entries) = parse_block_trace(s) {
            for e in entries {
                if let Ok(root) = e.into_result() {
                    let _ = internal_transactions(&root);
                }
            }
        }
        if let Ok(root) = parse_call_frame(s) {
            let _ = internal_transactions(&root);
        }
        let _ = serde_json::from_str::<RpcBlock<'_>>(s);
        let _ = serde_json::from_str::<RpcReceipt<'_>>(s);
    }
});
