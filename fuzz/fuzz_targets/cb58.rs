//! Feeds arbitrary strings to `cb58::decode` and the id parsers: no panic, and whatever decodes
//! re-encodes to the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::secp256k1::PrivateKey;
use snowline_types::{Id, NodeId, ShortId, cb58};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(bytes) = cb58::decode(s) {
        assert_eq!(cb58::encode(&bytes), s);
    }
    if let Ok(id) = s.parse::<Id>() {
        assert_eq!(id.to_string(), s);
    }
    if let Ok(id) = s.parse::<ShortId>() {
        assert_eq!(id.to_string(), s);
    }
    if let Ok(id) = s.parse::<NodeId>() {
        assert_eq!(id.to_string(), s);
    }
    if let Ok(key) = s.parse::<PrivateKey>() {
        assert_eq!(key.to_string(), s);
    }
});
