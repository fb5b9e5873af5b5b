//! Feeds arbitrary strings to the API hex decoders: no panic, and whatever decodes re-encodes to
//! the same (lower-cased) text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::formatting::{
    decode_hex_checksum, decode_hex_plain, encode_hex_checksum, encode_hex_plain,
};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if s.is_empty() {
        // avalanchego decodes "" to no bytes; nothing to round-trip.
        return;
    }
    if let Ok(bytes) = decode_hex_plain(s) {
        assert_eq!(encode_hex_plain(&bytes), s.to_lowercase());
    }
    if let Ok(bytes) = decode_hex_checksum(s) {
        assert_eq!(encode_hex_checksum(&bytes), s.to_lowercase());
    }
});
