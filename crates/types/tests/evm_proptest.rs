//! Decoders of `snowline_types::evm` on arbitrary input: never a panic.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use proptest::prelude::*;
use snowline_types::evm::{
    B256, CallFrame, HexStr, RpcBlock, RpcReceipt, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC,
    TRANSFER_TOPIC, TraceEntry, decode_bool, decode_decimals, decode_text, decode_transfer_log,
    internal_transactions, method_name, transaction_method,
};

fn topic() -> impl Strategy<Value = B256> {
    prop_oneof![
        Just(TRANSFER_TOPIC),
        Just(TRANSFER_SINGLE_TOPIC),
        Just(TRANSFER_BATCH_TOPIC),
        any::<[u8; 32]>().prop_map(B256::from),
        any::<[u8; 20]>().prop_map(|a| {
            let mut t = [0u8; 32];
            t[12..].copy_from_slice(&a);
            B256::from(t)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn transfer_logs_never_panic(
        topics in prop::collection::vec(topic(), 0..6),
        data in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let _ = decode_transfer_log(&topics, &data);
    }

    #[test]
    fn batch_data_never_panics(words in prop::collection::vec(
        prop_oneof![Just(0u64), Just(0x20), Just(0x40), Just(0x60), Just(u64::MAX), any::<u64>()], 0..12)
    ) {
        // Word-aligned data with plausible offsets and lengths reaches deep into the ABI decoder.
        let data: Vec<u8> = words.iter().flat_map(|w| {
            let mut b = [0u8; 32];
            b[24..].copy_from_slice(&w.to_be_bytes());
            b
        }).collect();
        let t = B256::ZERO;
        let _ = decode_transfer_log(&[TRANSFER_BATCH_TOPIC, t, t, t], &data);
        let _ = decode_text(&data);
    }

    #[test]
    fn call_answers_never_panic(data in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode_text(&data);
        let _ = decode_decimals(&data);
        let _ = decode_bool(&data);
        let _ = transaction_method(None, &data);
        let _ = transaction_method(Some(Default::default()), &data);
        if data.len() >= 4 {
            let _ = method_name([data[0], data[1], data[2], data[3]]);
        }
    }

    #[test]
    fn hex_text_never_panics(s in "\\PC{0,40}") {
        let h = HexStr::new(s.as_str());
        let _ = h.decode();
        let _ = h.selector();
        let _ = h.byte_len();
    }

    #[test]
    fn rpc_json_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = serde_json::from_slice::<RpcBlock<'_>>(&bytes);
        let _ = serde_json::from_slice::<RpcReceipt<'_>>(&bytes);
        let _ = serde_json::from_slice::<Vec<TraceEntry<'_>>>(&bytes);
        if let Ok(f) = serde_json::from_slice::<CallFrame<'_>>(&bytes) {
            let _ = internal_transactions(&f);
        }
    }
}
