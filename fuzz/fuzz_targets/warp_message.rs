//! Decodes arbitrary bytes as Warp signed and unsigned messages, payloads and P-Chain messages;
//! whatever decodes must re-encode to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::warp::{L1Message, Message, Payload, UnsignedMessage};

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Message::parse(data) {
        assert_eq!(m.bytes(), data);
        let _ = m.signature.signer_indices();
    }
    if let Ok(m) = UnsignedMessage::parse(data) {
        assert_eq!(m.bytes(), data);
    }
    if let Ok(p) = Payload::parse(data) {
        assert_eq!(p.bytes(), data);
    }
    if let Ok(m) = L1Message::parse(data) {
        assert_eq!(m.bytes(), data);
    }
});
