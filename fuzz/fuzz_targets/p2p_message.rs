//! Feeds arbitrary bytes to the P2P layer's decoders: the length-prefixed frame splitter, the
//! `p2p.Message` decoder (with its bounded zstd inflation), the ACP-118 handler prefix and
//! `SignatureRequest`/`SignatureResponse`; none may panic, and a decoded message re-encodes to
//! bytes that decode to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_p2p::frame::split_frames;
use snowline_p2p::proto::{
    SignatureRequest, SignatureResponse, decode_message, encode_message, split_handler,
};

fuzz_target!(|data: &[u8]| {
    if let Ok(frames) = split_frames(data) {
        for f in frames {
            let _ = decode_message(f);
        }
    }
    if let Ok(m) = decode_message(data) {
        let again = decode_message(&encode_message(&m)).expect("re-encoded message decodes");
        assert_eq!(again, m);
    }
    if let Some((_, rest)) = split_handler(data) {
        let _ = <SignatureRequest as prost::Message>::decode(rest);
    }
    let _ = <SignatureResponse as prost::Message>::decode(data);
});
