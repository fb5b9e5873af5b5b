//! Byte-exact vectors for cb58, the API hex encodings and the id types, each taken from the
//! avalanchego test named beside it.

use snowline_types::cb58::{self, Cb58Error};
use snowline_types::formatting::{
    HexError, decode_hex_checksum, decode_hex_plain, encode_hex_checksum, encode_hex_plain,
};
use snowline_types::{Id, IdError, NodeId, ShortId};

/// `[1, 2, …, 32]`, the 32-byte value avalanchego's encoding tests use.
fn one_to_32() -> [u8; 32] {
    std::array::from_fn(|i| i as u8 + 1)
}

/// A fixed-size array starting with `prefix` and zero-filled, like Go's `ID{'a', 'v', …}`.
fn padded<const N: usize>(prefix: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out[..prefix.len()].copy_from_slice(prefix);
    out
}

// ---------------------------------------------------------------- cb58

#[test]
fn cb58_vectors() {
    // vector: avalanchego utils/cb58/cb58_test.go TestEncodeDecode
    let cases: [(&[u8], &str); 4] = [
        (&[], "45PJLL"),
        (&[0], "1c7hwa"),
        (&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255], "1NVSVezva3bAtJesnUj"),
        (
            &one_to_32(),
            "SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU",
        ),
    ];
    for (bytes, text) in cases {
        assert_eq!(cb58::encode(bytes), text);
        assert_eq!(cb58::decode(text).unwrap(), bytes);
    }
}

#[test]
fn cb58_errors() {
    // vector: avalanchego ids/id_test.go TestIDFromStringError ("" / "foo" / "foobar")
    assert_eq!(cb58::decode(""), Err(Cb58Error::InvalidBase58));
    assert_eq!(cb58::decode("foo"), Err(Cb58Error::MissingChecksum));
    assert_eq!(cb58::decode("foobar"), Err(Cb58Error::BadChecksum));
    // '0', 'O', 'I' and 'l' are not in the Bitcoin alphabet.
    assert_eq!(cb58::decode("0OIl"), Err(Cb58Error::InvalidBase58));
    // Messages are avalanchego's utils/cb58/cb58.go error strings.
    assert_eq!(
        Cb58Error::InvalidBase58.to_string(),
        "base58 decoding error"
    );
    assert_eq!(
        Cb58Error::MissingChecksum.to_string(),
        "input string is smaller than the checksum size"
    );
    assert_eq!(Cb58Error::BadChecksum.to_string(), "invalid input checksum");
}

// ---------------------------------------------------------------- API hex

#[test]
fn hex_checksum_vectors() {
    // vector: avalanchego utils/formatting/encoding_test.go TestEncodeDecode and TestEncodeNil
    let cases: [(&[u8], &str); 4] = [
        (&[], "0x7852b855"),
        (&[0], "0x0017afa01d"),
        (
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255],
            "0x00010203040506070809ff4482539c",
        ),
        (
            &one_to_32(),
            "0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20b7a612c9",
        ),
    ];
    for (bytes, text) in cases {
        assert_eq!(encode_hex_checksum(bytes), text);
        assert_eq!(decode_hex_checksum(text).unwrap(), bytes);
    }
}

#[test]
fn hex_decode_of_empty_string_is_empty() {
    // vector: avalanchego utils/formatting/encoding_test.go TestDecodeNil
    assert_eq!(decode_hex_checksum("").unwrap(), Vec::<u8>::new());
    assert_eq!(decode_hex_plain("").unwrap(), Vec::<u8>::new());
}

#[test]
fn hex_decode_errors() {
    // vector: avalanchego utils/formatting/encoding_test.go TestDecodeHexInvalid
    assert_eq!(decode_hex_checksum("0"), Err(HexError::MissingPrefix));
    assert_eq!(decode_hex_checksum("x"), Err(HexError::MissingPrefix));
    assert_eq!(decode_hex_checksum("0xg"), Err(HexError::InvalidByte(b'g')));
    assert_eq!(
        decode_hex_checksum("0x0017afa0Zd"),
        Err(HexError::InvalidByte(b'Z'))
    );
    assert_eq!(
        decode_hex_checksum("0xafafafafaf"),
        Err(HexError::BadChecksum)
    );
    // Fewer than four bytes cannot hold a checksum.
    assert_eq!(
        decode_hex_checksum("0xafaf"),
        Err(HexError::MissingChecksum)
    );
    assert_eq!(decode_hex_plain("0xabc"), Err(HexError::OddLength));

    // Messages are avalanchego's (utils/formatting/encoding.go) and Go encoding/hex's.
    assert_eq!(
        HexError::MissingPrefix.to_string(),
        "missing 0x prefix to hex encoding"
    );
    assert_eq!(
        HexError::InvalidByte(b'g').to_string(),
        "encoding/hex: invalid byte: U+0067 'g'"
    );
    assert_eq!(
        HexError::InvalidByte(0).to_string(),
        "encoding/hex: invalid byte: U+0000"
    );
    assert_eq!(
        HexError::OddLength.to_string(),
        "encoding/hex: odd length hex string"
    );
    assert_eq!(HexError::BadChecksum.to_string(), "invalid input checksum");
}

#[test]
fn hex_accepts_upper_case_digits_like_go() {
    // Go encoding/hex (used by utils/formatting/encoding.go Decode) accepts upper-case digits.
    assert_eq!(decode_hex_checksum("0x0017AFA01D").unwrap(), vec![0]);
    assert_eq!(decode_hex_plain("0xABcd").unwrap(), vec![0xab, 0xcd]);
}

#[test]
fn hex_plain_has_no_checksum() {
    assert_eq!(encode_hex_plain(&[]), "0x");
    assert_eq!(encode_hex_plain(&[0x00, 0xab, 0xff]), "0x00abff");
    assert_eq!(
        decode_hex_plain("0x00abff").unwrap(),
        vec![0x00, 0xab, 0xff]
    );
}

// ---------------------------------------------------------------- Id

#[test]
fn id_string_vectors() {
    // vector: avalanchego ids/id_test.go TestIDString
    assert_eq!(
        Id::EMPTY.to_string(),
        "11111111111111111111111111111111LpoYY"
    );
    assert_eq!(
        Id(padded(&[24])).to_string(),
        "Ba3mm8Ra8JYYebeZ9p7zw1ayorDbeD1euwxhgzSLsncKqGoNt"
    );
    // vector: avalanchego ids/id_test.go TestIDMarshalJSON / TestIDUnmarshalJSON
    let ava_labs = Id(padded(b"ava labs"));
    let text = "jvYi6Tn9idMi7BaymUVi9zWjg5tpmW7trfKG1AYJLKZJ2fsU7";
    assert_eq!(ava_labs.to_string(), text);
    assert_eq!(text.parse::<Id>().unwrap(), ava_labs);
}

#[test]
fn id_json_vectors() {
    // vector: avalanchego ids/id_test.go TestIDMarshalJSON / TestIDUnmarshalJSON
    let ava_labs = Id(padded(b"ava labs"));
    let json = r#""jvYi6Tn9idMi7BaymUVi9zWjg5tpmW7trfKG1AYJLKZJ2fsU7""#;
    assert_eq!(serde_json::to_string(&ava_labs).unwrap(), json);
    assert_eq!(serde_json::from_str::<Id>(json).unwrap(), ava_labs);
    assert_eq!(
        serde_json::to_string(&Id::EMPTY).unwrap(),
        r#""11111111111111111111111111111111LpoYY""#
    );
    // `null` leaves the id empty, as Go's UnmarshalJSON does.
    assert_eq!(serde_json::from_str::<Id>("null").unwrap(), Id::EMPTY);
    // Not a string at all.
    assert!(serde_json::from_str::<Id>("5").is_err());
    assert!(serde_json::from_str::<Id>(r#""foobar""#).is_err());
}

#[test]
fn id_hex_vector() {
    // vector: avalanchego ids/id_test.go TestIDHex
    assert_eq!(
        Id(padded(b"ava labs")).to_hex(),
        "617661206c616273000000000000000000000000000000000000000000000000"
    );
}

#[test]
fn id_parse_errors() {
    // vector: avalanchego ids/id_test.go TestIDFromStringError
    assert_eq!(
        "".parse::<Id>(),
        Err(IdError::Cb58(Cb58Error::InvalidBase58))
    );
    assert_eq!(
        "foo".parse::<Id>(),
        Err(IdError::Cb58(Cb58Error::MissingChecksum))
    );
    assert_eq!(
        "foobar".parse::<Id>(),
        Err(IdError::Cb58(Cb58Error::BadChecksum))
    );
    // A valid cb58 string of 20 bytes is not a 32-byte id (utils/hashing/hashing.go ToHash256).
    let err = "6HgC8KRBEhXYbF4riJyJFLSHt37UNuRt"
        .parse::<Id>()
        .unwrap_err();
    assert_eq!(
        err,
        IdError::Length {
            expected: 32,
            actual: 20
        }
    );
    assert_eq!(
        err.to_string(),
        "invalid hash length: expected 32 bytes but got 20"
    );
}

#[test]
fn ids_sort_by_raw_bytes() {
    // vector: avalanchego ids/id_test.go TestSortIDs
    let mut ids = vec![
        Id(padded(b"eva labs")),
        Id(padded(b"Walle labs")),
        Id(padded(b"ava labs")),
    ];
    ids.sort();
    assert_eq!(
        ids,
        vec![
            Id(padded(b"Walle labs")),
            Id(padded(b"ava labs")),
            Id(padded(b"eva labs")),
        ]
    );
    // vector: avalanchego ids/id_test.go TestIDCompare
    use std::cmp::Ordering::*;
    assert_eq!(Id(padded(&[1])).cmp(&Id(padded(&[0]))), Greater);
    assert_eq!(Id(padded(&[1])).cmp(&Id(padded(&[1]))), Equal);
    assert_eq!(Id(padded(&[1, 0])).cmp(&Id(padded(&[1, 2]))), Less);
}

#[test]
fn id_prefix_and_append_preimages() {
    // vector: avalanchego ids/id_test.go TestIDPrefix / TestIDAppend define the preimages.
    let id = Id(one_to_32());
    let mut pre = vec![0, 0, 0, 0, 0, 0, 0, 1];
    pre.extend_from_slice(&id.0);
    assert_eq!(id.prefix(1), Id::of_bytes(&pre));
    assert_eq!(id.prefixes(&[1]), Id::of_bytes(&pre));
    assert_eq!(id.prefixes(&[]), Id::of_bytes(&id.0));

    let mut pre2 = vec![0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    pre2.extend_from_slice(&id.0);
    assert_eq!(id.prefixes(&[1, 256]), Id::of_bytes(&pre2));

    let mut app = id.0.to_vec();
    app.extend_from_slice(&[0, 0, 0, 1, 0, 0, 1, 0]);
    assert_eq!(id.append(&[1, 256]), Id::of_bytes(&app));
    assert_eq!(id.append(&[]), Id::of_bytes(&id.0));
}

#[test]
fn utxo_id_is_tx_id_prefixed_with_output_index() {
    // vector: avalanchego vms/avm/service.md, avm.getUTXOs with sourceChain "P": the single UTXO
    // (txID 1f989ffa…c6fa, output index 0) is reported as endIndex.utxo
    // 2Sz2XwRYqUHwPeiKoRnZ6ht88YqzAF1SQjMYZQQaB5wBFkAqST.
    let utxo = decode_hex_checksum(
        "0x00001f989ffaf18a18a59bdfbf209342aa61c6a62a67e8639d02bb3c8ddab315c6fa0000000039c33a499ce4c33a3b09cdd2cfa01ae70dbf2d18b2d7d168524440e55d550088000000070011c304cd7eb5c0000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c83497819",
    )
    .unwrap();
    let tx_id = Id::from_slice(&utxo[2..34]).unwrap();
    let index = u32::from_be_bytes(utxo[34..38].try_into().unwrap());
    assert_eq!(index, 0);
    assert_eq!(
        tx_id.prefix(u64::from(index)).to_string(),
        "2Sz2XwRYqUHwPeiKoRnZ6ht88YqzAF1SQjMYZQQaB5wBFkAqST"
    );
    // The prefix is a big-endian u64, so index 2^32 differs from index 0.
    assert_ne!(tx_id.prefix(1 << 32), tx_id.prefix(0));
}

// ---------------------------------------------------------------- ShortId

#[test]
fn short_id_string_vectors() {
    // vector: avalanchego ids/short_test.go TestShortIDsToStrings (removed in 87ce2da8ac, read at its parent)
    assert_eq!(
        ShortId(padded(&[1])).to_string(),
        "6HgC8KRBEhXYbF4riJyJFLSHt37UNuRt"
    );
    assert_eq!(
        ShortId(padded(&[2])).to_string(),
        "BaMPFdqMUQ46BV8iRcwbVfsam55kMqcp"
    );
    assert_eq!(
        "BaMPFdqMUQ46BV8iRcwbVfsam55kMqcp"
            .parse::<ShortId>()
            .unwrap(),
        ShortId(padded(&[2]))
    );
    // vector: avalanchego utils/crypto/secp256k1/secp256k1_test.go TestExportedMethods
    assert_eq!(ShortId::EMPTY.to_string(), "111111111111111111116DBWJs");
}

#[test]
fn short_id_prefixed_strings() {
    // vector: avalanchego ids/short_test.go TestShortString (parent of 87ce2da8ac)
    let id = ShortId(padded(&[1]));
    let x = id.prefixed_string("X-");
    assert_eq!(x, "X-6HgC8KRBEhXYbF4riJyJFLSHt37UNuRt");
    assert_eq!(ShortId::from_prefixed_str(&x, "X-").unwrap(), id);
    let err = ShortId::from_prefixed_str(&id.prefixed_string("P-"), "X-").unwrap_err();
    assert_eq!(
        err.to_string(),
        "ID: P-6HgC8KRBEhXYbF4riJyJFLSHt37UNuRt is missing the prefix: X-"
    );
}

#[test]
fn short_ids_sort_by_raw_bytes() {
    // vector: avalanchego ids/short_test.go TestShortIDLess (parent of 87ce2da8ac)
    assert!(ShortId(padded(&[0])) < ShortId(padded(&[1])));
    assert!(ShortId(padded(&[1, 0])) < ShortId(padded(&[1, 2])));
    assert_eq!(
        ShortId::EMPTY.cmp(&ShortId::EMPTY),
        std::cmp::Ordering::Equal
    );
}

#[test]
fn short_id_wrong_length() {
    // A 32-byte cb58 id is not a short id (utils/hashing/hashing.go ToHash160).
    let err = "11111111111111111111111111111111LpoYY"
        .parse::<ShortId>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid hash length: expected 20 bytes but got 32"
    );
}

// ---------------------------------------------------------------- NodeId

#[test]
fn node_id_vectors() {
    // vector: avalanchego ids/node_id_test.go TestNodeIDFromString / TestNodeIDString
    let ava_labs = NodeId(ShortId(padded(b"ava labs")));
    assert_eq!(
        ava_labs.to_string(),
        "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz"
    );
    assert_eq!(
        "NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz"
            .parse::<NodeId>()
            .unwrap(),
        ava_labs
    );
    assert_eq!(
        NodeId::EMPTY.to_string(),
        "NodeID-111111111111111111116DBWJs"
    );
    assert_eq!(
        NodeId(ShortId(padded(&[24]))).to_string(),
        "NodeID-3BuDc2d1Efme5Apba6SJ8w3Tz7qeh6mHt"
    );
}

#[test]
fn node_id_json_vectors() {
    // vector: avalanchego ids/node_id_test.go TestNodeIDMarshalJSON / TestNodeIDUnmarshalJSON
    let ava_labs = NodeId(ShortId(padded(b"ava labs")));
    let json = r#""NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz""#;
    assert_eq!(serde_json::to_string(&ava_labs).unwrap(), json);
    assert_eq!(serde_json::from_str::<NodeId>(json).unwrap(), ava_labs);
    assert_eq!(
        serde_json::from_str::<NodeId>("null").unwrap(),
        NodeId::EMPTY
    );
    let short = serde_json::from_str::<NodeId>(r#""NodeID-""#).unwrap_err();
    assert!(
        short
            .to_string()
            .contains("insufficient NodeID length: expected to be > 9"),
        "{short}"
    );
    let missing = serde_json::from_str::<NodeId>(r#""NodeID-1""#).unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("input string is smaller than the checksum size"),
        "{missing}"
    );
}

#[test]
fn node_id_parse_errors() {
    // vector: avalanchego ids/node_id_test.go TestNodeIDFromStringError (via the cb58 part)
    assert_eq!(
        "NodeID-".parse::<NodeId>(),
        Err(IdError::Cb58(Cb58Error::InvalidBase58))
    );
    assert_eq!(
        "NodeID-foo".parse::<NodeId>(),
        Err(IdError::Cb58(Cb58Error::MissingChecksum))
    );
    assert_eq!(
        "NodeID-foobar".parse::<NodeId>(),
        Err(IdError::Cb58(Cb58Error::BadChecksum))
    );
    let err = "9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz"
        .parse::<NodeId>()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ID: 9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz is missing the prefix: NodeID-"
    );
}

#[test]
fn node_ids_sort_by_raw_bytes() {
    // vector: avalanchego ids/node_id_test.go TestNodeIDCompare
    let n = |p: &[u8]| NodeId(ShortId(padded(p)));
    assert!(n(&[1]) > n(&[0]));
    assert_eq!(n(&[1]), n(&[1]));
    assert!(n(&[1, 0]) < n(&[1, 2]));
}

#[test]
fn id_maps_round_trip_through_json() {
    // vector: avalanchego ids/id_test.go TestIDMapMarshalling / ids/node_id_test.go TestNodeIDMapMarshalling
    use std::collections::BTreeMap;
    let ids: BTreeMap<Id, i32> =
        [(Id(padded(b"eva labs")), 1), (Id(padded(b"ava labs")), 2)].into();
    let json = serde_json::to_string(&ids).unwrap();
    assert_eq!(
        serde_json::from_str::<BTreeMap<Id, i32>>(&json).unwrap(),
        ids
    );
    let nodes: BTreeMap<NodeId, i32> = [(NodeId(ShortId(padded(b"ava labs"))), 2)].into();
    let json = serde_json::to_string(&nodes).unwrap();
    assert_eq!(json, r#"{"NodeID-9tLMkeWFhWXd8QZc4rSiS5meuVXF5kRsz":2}"#);
    assert_eq!(
        serde_json::from_str::<BTreeMap<NodeId, i32>>(&json).unwrap(),
        nodes
    );
}
