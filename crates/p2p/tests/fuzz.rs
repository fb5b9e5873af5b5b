//! Fuzz-style properties: arbitrary bytes through the frame splitter, the message decoder, the
//! handler prefix and the handshake checks never panic.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::LazyLock;

use proptest::prelude::*;
use snowline_devnet::nodes::DevnetNode;
use snowline_p2p::frame::split_frames;
use snowline_p2p::handshake::{HandshakeConfig, check_handshake};
use snowline_p2p::proto::{
    Handshake, SignatureRequest, decode_message, encode_message, split_handler,
};

static NODE: LazyLock<DevnetNode> = LazyLock::new(|| DevnetNode::new(1, 0).unwrap());

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn frames_and_messages_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(frames) = split_frames(&bytes) {
            for f in frames {
                let _ = decode_message(f);
            }
        }
        let _ = decode_message(&bytes);
        if let Some((_, body)) = split_handler(&bytes) {
            let _ = <SignatureRequest as prost::Message>::decode(body);
        }
    }

    #[test]
    fn decoded_messages_reencode_to_a_fixed_point(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(msg) = decode_message(&bytes) {
            let again = encode_message(&msg);
            prop_assert_eq!(decode_message(&again).unwrap(), msg);
        }
    }

    #[test]
    fn handshake_checks_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256), now in any::<u64>()) {
        if let Ok(h) = <Handshake as prost::Message>::decode(bytes.as_slice()) {
            let _ = check_handshake(&h, &NODE.cert_der, &HandshakeConfig::new(12345), now);
        }
    }
}
