//! Value encodings: fixed ints, ids, raw bytes and the linear-codec helper.

use snowline_store::{DecodeError, Linear, ValueCodec, encode_value};
use snowline_types::codec::CodecError;

// vector: avalanchego codec/codectest/codectest.go TestEmptySliceSerialization — a struct holding
// an empty []uint32 marshals as codec version 00 00 then count 00 00 00 00.
#[test]
fn linear_values_carry_the_codec_version() {
    let v = Linear(Vec::<u32>::new());
    assert_eq!(encode_value(&v), vec![0, 0, 0, 0, 0, 0]);
    assert_eq!(
        Linear::<Vec<u32>>::decode_value(&[0, 0, 0, 0, 0, 0]).unwrap(),
        v
    );
}

// vector: avalanchego codec/codectest/codectest.go TestExtraSpace — 00 00 01 02 unmarshalled into a
// byte leaves one extra byte, which is an error (codec.ErrExtraSpace).
#[test]
fn linear_values_reject_extra_space() {
    assert_eq!(
        Linear::<u8>::decode_value(&[0x00, 0x00, 0x01, 0x02]),
        Err(DecodeError::Codec(CodecError::TrailingBytes(1)))
    );
    assert_eq!(
        Linear::<u8>::decode_value(&[0x00, 0x00, 0x01]).unwrap(),
        Linear(1)
    );
}

// vector: avalanchego codec/codectest/codectest.go TestUInt32 marshals uint32(500); with the
// version prefix that is 00 00 00 00 01 f4 (big-endian, utils/wrappers/packing.go).
#[test]
fn linear_u32_is_big_endian_after_version() {
    assert_eq!(encode_value(&Linear(500u32)), vec![0, 0, 0, 0, 0x01, 0xf4]);
}

// vector: avalanchego database/helpers.go PackUInt64 / ParseUInt64 — 8 bytes big-endian, and any
// other length is errWrongSize.
#[test]
fn integer_values_are_exact_big_endian() {
    assert_eq!(
        encode_value(&0x0102_0304_0506_0708u64),
        vec![1, 2, 3, 4, 5, 6, 7, 8]
    );
    assert_eq!(u64::decode_value(&[0, 0, 0, 0, 0, 0, 1, 0]).unwrap(), 256);
    assert!(matches!(
        u64::decode_value(&[1, 2, 3]),
        Err(DecodeError::UnexpectedEnd { .. })
    ));
    assert_eq!(
        u32::decode_value(&[0; 5]),
        Err(DecodeError::TrailingBytes(1))
    );
}

#[test]
fn raw_and_unit_values() {
    assert_eq!(encode_value(&vec![1u8, 2, 3]), vec![1, 2, 3]);
    assert_eq!(Vec::<u8>::decode_value(&[]).unwrap(), Vec::<u8>::new());
    assert_eq!(<()>::decode_value(&[]), Ok(()));
    assert_eq!(<()>::decode_value(&[1]), Err(DecodeError::TrailingBytes(1)));
    assert_eq!(String::decode_value(&[0xff]), Err(DecodeError::InvalidUtf8));
}
