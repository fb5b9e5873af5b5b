//! Property tests: cb58, API hex and the id types round-trip, and their decoders survive any
//! input. Whatever a decoder accepts must re-encode to the same text (encodings are canonical).

use proptest::prelude::*;
use snowline_types::cb58;
use snowline_types::formatting::{
    decode_hex_checksum, decode_hex_plain, encode_hex_checksum, encode_hex_plain,
};
use snowline_types::{Id, NodeId, ShortId};

/// Strings drawn mostly from the characters these encodings use, plus anything else.
fn textish() -> impl Strategy<Value = String> {
    prop_oneof![
        "[1-9A-HJ-NP-Za-km-z]{0,60}",
        "0x[0-9a-fA-F]{0,80}",
        "(NodeID-)?[1-9A-HJ-NP-Za-km-z]{0,40}",
        any::<String>(),
    ]
}

proptest! {
    #[test]
    fn cb58_round_trips(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        let text = cb58::encode(&data);
        prop_assert_eq!(cb58::decode(&text).unwrap(), data);
    }

    #[test]
    fn cb58_decode_never_panics_and_is_canonical(s in textish()) {
        if let Ok(bytes) = cb58::decode(&s) {
            prop_assert_eq!(cb58::encode(&bytes), s);
        }
    }

    #[test]
    fn cb58_detects_a_changed_character(
        data in proptest::collection::vec(any::<u8>(), 1..64),
        pos in any::<prop::sample::Index>(),
        replacement in "[1-9A-HJ-NP-Za-km-z]",
    ) {
        let text = cb58::encode(&data);
        let i = pos.index(text.len());
        let mut changed = text.clone();
        changed.replace_range(i..=i, &replacement);
        // A single substituted character either leaves the text unchanged or is caught by the
        // checksum (or changes the length so that the checksum cannot match).
        if changed != text {
            prop_assert!(cb58::decode(&changed) != Ok(data));
        }
    }

    #[test]
    fn hex_checksum_round_trips(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        let text = encode_hex_checksum(&data);
        prop_assert_eq!(decode_hex_checksum(&text).unwrap(), data.clone());
        prop_assert_eq!(decode_hex_checksum(&text.to_uppercase().replacen("0X", "0x", 1)).unwrap(), data);
    }

    #[test]
    fn hex_plain_round_trips(data in proptest::collection::vec(any::<u8>(), 0..128)) {
        let text = encode_hex_plain(&data);
        prop_assert_eq!(decode_hex_plain(&text).unwrap(), data);
    }

    #[test]
    fn hex_decoders_never_panic_and_are_canonical(s in textish()) {
        if let Ok(bytes) = decode_hex_plain(&s) {
            if !s.is_empty() {
                prop_assert_eq!(encode_hex_plain(&bytes), s.to_lowercase());
            }
        }
        if let Ok(bytes) = decode_hex_checksum(&s) {
            if !s.is_empty() {
                prop_assert_eq!(encode_hex_checksum(&bytes), s.to_lowercase());
            }
        }
    }

    #[test]
    fn ids_round_trip_through_text_and_json(bytes in any::<[u8; 32]>()) {
        let id = Id(bytes);
        prop_assert_eq!(id.to_string().parse::<Id>().unwrap(), id);
        let json = serde_json::to_string(&id).unwrap();
        prop_assert_eq!(serde_json::from_str::<Id>(&json).unwrap(), id);
    }

    #[test]
    fn short_and_node_ids_round_trip(bytes in any::<[u8; 20]>()) {
        let short = ShortId(bytes);
        prop_assert_eq!(short.to_string().parse::<ShortId>().unwrap(), short);
        let node = NodeId(short);
        prop_assert_eq!(node.to_string().parse::<NodeId>().unwrap(), node);
        let json = serde_json::to_string(&node).unwrap();
        prop_assert_eq!(serde_json::from_str::<NodeId>(&json).unwrap(), node);
    }

    #[test]
    fn ids_order_by_raw_bytes(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        prop_assert_eq!(Id(a).cmp(&Id(b)), a.cmp(&b));
        let (sa, sb) = (ShortId(a[..20].try_into().unwrap()), ShortId(b[..20].try_into().unwrap()));
        prop_assert_eq!(NodeId(sa).cmp(&NodeId(sb)), sa.0.cmp(&sb.0));
    }

    #[test]
    fn id_parsers_never_panic_and_are_canonical(s in textish()) {
        if let Ok(id) = s.parse::<Id>() {
            prop_assert_eq!(id.to_string(), s.clone());
        }
        if let Ok(id) = s.parse::<ShortId>() {
            prop_assert_eq!(id.to_string(), s.clone());
        }
        if let Ok(id) = s.parse::<NodeId>() {
            prop_assert_eq!(id.to_string(), s.clone());
        }
        let _ = serde_json::from_str::<Id>(&s);
        let _ = serde_json::from_str::<NodeId>(&s);
    }
}
