//! Feeds arbitrary bytes to the TeleporterMessenger decoders: as a log (topic0 picked from the six
//! events so the decoders are reached, then topics and data) and as a Teleporter message, bare or
//! in a Warp payload. No panic; a decoded message re-encodes to the same bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::evm::B256;
use snowline_types::evm::teleporter::{
    TELEPORTER_EVENTS, decode_teleporter_log, decode_teleporter_message, encode_teleporter_message,
    teleporter_message_from_payload,
};
use snowline_types::warp::Payload;

fuzz_target!(|data: &[u8]| {
    // Byte 0: topic0 (one of the six, or the next 32 bytes when past them); byte 1: how many more
    // 32-byte topics follow (0..=3); the rest is log data.
    if let [pick, n, rest @ ..] = data {
        let mut rest = rest;
        let mut topics: Vec<B256> = Vec::new();
        match TELEPORTER_EVENTS.get(usize::from(*pick % 8)) {
            Some((_, topic)) => topics.push(*topic),
            None if rest.len() >= 32 => {
                let (t, r) = rest.split_at(32);
                topics.push(B256::from_slice(t));
                rest = r;
            }
            None => {}
        }
        let n = usize::from(n % 4).min(rest.len() / 32);
        let (topic_bytes, log_data) = rest.split_at(n * 32);
        topics.extend(topic_bytes.chunks_exact(32).map(B256::from_slice));
        if let Ok(Some(event)) = decode_teleporter_log(&topics, log_data) {
            assert_eq!(event.message_id(), topics[1]);
            let _ = event.expected_message_id(Default::default(), B256::ZERO);
        }
    }
    if let Ok(m) = decode_teleporter_message(data) {
        assert_eq!(encode_teleporter_message(&m), data);
    }
    if let Ok(p) = Payload::parse(data) {
        let _ = teleporter_message_from_payload(&p);
    }
});
