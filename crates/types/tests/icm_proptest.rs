//! The TeleporterMessenger decoders of `snowline_types::evm::teleporter` on arbitrary input: never
//! a panic, and whatever decodes as a message is its canonical encoding. The same properties as
//! the `icm_log_and_payload` fuzz target, for runs where nobody fuzzes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use proptest::prelude::*;
use snowline_types::evm::B256;
use snowline_types::evm::teleporter::{
    TELEPORTER_EVENTS, decode_teleporter_log, decode_teleporter_message, encode_teleporter_message,
    teleporter_message_from_payload,
};
use snowline_types::warp::{Message, Payload};

fn topic() -> impl Strategy<Value = B256> {
    prop_oneof![
        (0..TELEPORTER_EVENTS.len()).prop_map(|i| TELEPORTER_EVENTS[i].1),
        any::<[u8; 32]>().prop_map(B256::from),
        any::<[u8; 20]>().prop_map(|a| {
            let mut t = [0u8; 32];
            t[12..].copy_from_slice(&a);
            B256::from(t)
        }),
    ]
}

/// Word-aligned data with plausible offsets and lengths, which reaches deep into the decoder.
fn words() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            Just(0u64),
            Just(1),
            Just(0x20),
            Just(0x40),
            Just(0x60),
            Just(0x100),
            Just(u64::MAX),
            any::<u64>()
        ],
        0..40,
    )
    .prop_map(|ws| {
        ws.iter()
            .flat_map(|w| {
                let mut b = [0u8; 32];
                b[24..].copy_from_slice(&w.to_be_bytes());
                b
            })
            .collect()
    })
}

/// The abi-encoded Teleporter message of the Glacier example's Warp message.
fn real_payload() -> Vec<u8> {
    let bytes = hex::decode(pvm_data::GLACIER_SIGNED_MESSAGE).unwrap();
    let msg = Message::parse(&bytes).unwrap();
    match Payload::parse(&msg.unsigned.payload).unwrap() {
        Payload::AddressedCall(c) => c.payload,
        Payload::Hash(_) => panic!("addressed call"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn logs_never_panic(
        topics in prop::collection::vec(topic(), 0..6),
        data in prop_oneof![words(), prop::collection::vec(any::<u8>(), 0..300)],
    ) {
        if let Ok(Some(e)) = decode_teleporter_log(&topics, &data) {
            prop_assert_eq!(e.message_id(), topics[1]);
        }
    }

    #[test]
    fn messages_decode_only_canonically(data in prop_oneof![words(), prop::collection::vec(any::<u8>(), 0..300)]) {
        if let Ok(m) = decode_teleporter_message(&data) {
            prop_assert_eq!(encode_teleporter_message(&m), data.clone());
        }
        if let Ok(p) = Payload::parse(&data) {
            let _ = teleporter_message_from_payload(&p);
        }
    }

    #[test]
    fn mutated_real_messages_never_panic(at in 0usize..896, byte in any::<u8>(), cut in 0usize..897) {
        let mut data = real_payload();
        data[at] = byte;
        data.truncate(cut);
        if let Ok(m) = decode_teleporter_message(&data) {
            prop_assert_eq!(encode_teleporter_message(&m), data);
        }
    }
}
