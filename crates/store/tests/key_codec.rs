//! Key encodings: byte order equals value order, tuples compare component-wise, decoding is exact
//! and survives arbitrary bytes.

use proptest::prelude::*;
use snowline_store::{DecodeError, Desc, KeyCodec, decode_key, encode_key};
use snowline_types::{Id, NodeId, ShortId};

// vector: avalanchego database/helpers.go — PackUInt64 / PackUInt32 are binary.BigEndian, and
// database/helpers_test.go (TestSortednessUint64) relies on that order. Our integer keys must be
// byte-identical so a height key reads the same as avalanchego's index keys.
#[test]
fn unsigned_keys_are_avalanchego_packed_big_endian() {
    assert_eq!(
        encode_key(&0x0102_0304_0506_0708u64),
        vec![1, 2, 3, 4, 5, 6, 7, 8]
    );
    assert_eq!(encode_key(&500u32), vec![0, 0, 0x01, 0xf4]);
    assert_eq!(encode_key(&0u64), vec![0; 8]);
    assert_eq!(decode_key::<u64>(&[0, 0, 0, 0, 0, 0, 1, 0]).unwrap(), 256);
}

// vector: avalanchego ids/id.go — an ids.ID is a [32]byte and is stored as id[:] (see
// database/helpers.go PutID), so an Id key is exactly its 32 raw bytes; same for ShortId
// (ids/short.go, [20]byte) and NodeID (ids/node_id.go, [20]byte).
#[test]
fn id_keys_are_raw_bytes() {
    let id = Id(core::array::from_fn(|i| i as u8));
    assert_eq!(encode_key(&id), id.0.to_vec());
    let short = ShortId([0xab; 20]);
    assert_eq!(encode_key(&short), vec![0xab; 20]);
    assert_eq!(encode_key(&NodeId(short)), vec![0xab; 20]);
    assert_eq!(decode_key::<Id>(&id.0).unwrap(), id);
    assert_eq!(decode_key::<NodeId>(&[0xab; 20]).unwrap(), NodeId(short));
}

#[test]
fn tuples_concatenate_their_parts() {
    let key = (7u64, Id([9; 32]), 3u32);
    let mut expected = vec![0, 0, 0, 0, 0, 0, 0, 7];
    expected.extend_from_slice(&[9; 32]);
    expected.extend_from_slice(&[0, 0, 0, 3]);
    assert_eq!(encode_key(&key), expected);
    assert_eq!(decode_key::<(u64, Id, u32)>(&expected).unwrap(), key);
}

#[test]
fn signed_keys_put_negatives_first() {
    assert_eq!(
        encode_key(&-1i64),
        vec![0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
    );
    assert_eq!(encode_key(&0i64), vec![0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert!(encode_key(&i32::MIN) < encode_key(&-1i32));
    assert!(encode_key(&-1i32) < encode_key(&0i32));
    assert!(encode_key(&0i32) < encode_key(&i32::MAX));
}

#[test]
fn byte_strings_are_escaped_and_terminated() {
    assert_eq!(
        encode_key(&b"a\x00b".to_vec()),
        vec![b'a', 0, 0xff, b'b', 0, 1]
    );
    assert_eq!(encode_key(&Vec::<u8>::new()), vec![0, 1]);
    assert_eq!(encode_key(&"hi".to_owned()), vec![b'h', b'i', 0, 1]);
    // "a" < "a\0" < "ab" in both worlds.
    let a = encode_key(&b"a".to_vec());
    let a0 = encode_key(&b"a\x00".to_vec());
    let ab = encode_key(&b"ab".to_vec());
    assert!(a < a0 && a0 < ab);
}

#[test]
fn malformed_keys_are_errors() {
    assert_eq!(
        decode_key::<u64>(&[1, 2, 3]),
        Err(DecodeError::UnexpectedEnd {
            needed: 8,
            remaining: 3
        })
    );
    assert_eq!(
        decode_key::<u32>(&[0; 5]),
        Err(DecodeError::TrailingBytes(1))
    );
    assert_eq!(decode_key::<Vec<u8>>(b"abc"), Err(DecodeError::BadEscape));
    assert_eq!(
        decode_key::<Vec<u8>>(&[b'a', 0, 7]),
        Err(DecodeError::BadEscape)
    );
    assert_eq!(
        decode_key::<Vec<u8>>(&[b'a', 0]),
        Err(DecodeError::BadEscape)
    );
    assert_eq!(decode_key::<bool>(&[2]), Err(DecodeError::InvalidBool(2)));
    assert_eq!(
        decode_key::<String>(&[0xff, 0, 1]),
        Err(DecodeError::InvalidUtf8)
    );
}

#[test]
fn desc_reverses_order() {
    assert!(encode_key(&Desc(5u64)) < encode_key(&Desc(4u64)));
    assert!(encode_key(&Desc(b"b".to_vec())) < encode_key(&Desc(b"a".to_vec())));
    let key = (1u8, Desc(b"x\x00y".to_vec()), 2u16);
    assert_eq!(
        decode_key::<(u8, Desc<Vec<u8>>, u16)>(&encode_key(&key)).unwrap(),
        key
    );
}

type Composite = (u32, Vec<u8>, i64, Desc<u16>, [u8; 3]);

fn composite() -> impl Strategy<Value = Composite> {
    (
        0u32..4,
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1u8), Just(0xffu8), any::<u8>()],
            0..4,
        ),
        prop_oneof![Just(i64::MIN), Just(-1i64), Just(0i64), any::<i64>()],
        any::<u16>().prop_map(Desc),
        any::<[u8; 3]>(),
    )
}

fn check_order<K: KeyCodec + Ord + Clone + std::fmt::Debug>(mut keys: Vec<K>) {
    let mut by_bytes: Vec<(Vec<u8>, K)> = keys.iter().map(|k| (encode_key(k), k.clone())).collect();
    by_bytes.sort_by(|a, b| a.0.cmp(&b.0));
    keys.sort();
    let from_bytes: Vec<K> = by_bytes.into_iter().map(|(_, k)| k).collect();
    assert_eq!(from_bytes, keys);
}

proptest! {
    #[test]
    fn composite_byte_order_is_tuple_order(keys in proptest::collection::vec(composite(), 0..64)) {
        check_order(keys);
    }

    #[test]
    fn height_id_byte_order_is_tuple_order(
        keys in proptest::collection::vec((0u64..8, any::<[u8; 32]>().prop_map(Id)), 0..64)
    ) {
        check_order(keys);
    }

    #[test]
    fn strings_order_like_their_bytes(keys in proptest::collection::vec((".{0,4}", 0u8..3), 0..64)) {
        check_order(keys);
    }

    #[test]
    fn composite_round_trips(key in composite()) {
        let bytes = encode_key(&key);
        prop_assert_eq!(decode_key::<Composite>(&bytes).unwrap(), key);
    }

    #[test]
    fn equal_iff_bytes_equal(a in composite(), b in composite()) {
        prop_assert_eq!(a == b, encode_key(&a) == encode_key(&b));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = decode_key::<Composite>(&bytes);
        let _ = decode_key::<(String, Desc<Vec<u8>>)>(&bytes);
        let _ = decode_key::<(u64, Id)>(&bytes);
    }
}
