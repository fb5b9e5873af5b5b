use super::*;

#[test]
fn integers_are_big_endian() {
    // utils/wrappers/packing_test.go packs 0x01020304 as 01 02 03 04.
    let mut w = Writer::new();
    w.u32(0x0102_0304);
    w.u16(0x0506);
    w.u64(0x0708_090a_0b0c_0d0e);
    assert_eq!(
        w.as_bytes(),
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    );
    let mut r = Reader::new(w.as_bytes());
    assert_eq!(r.u32().unwrap(), 0x0102_0304);
    assert_eq!(r.u16().unwrap(), 0x0506);
    assert_eq!(r.u64().unwrap(), 0x0708_090a_0b0c_0d0e);
    r.finish().unwrap();
}

#[test]
fn strings_and_bytes_carry_their_prefixes() {
    let mut w = Writer::new();
    w.str("AVAX");
    w.bytes(&[0xaa, 0xbb]);
    assert_eq!(
        w.as_bytes(),
        &[0, 4, b'A', b'V', b'A', b'X', 0, 0, 0, 2, 0xaa, 0xbb]
    );
}

#[test]
fn hostile_counts_are_rejected_before_allocating() {
    // A slice of u64 claiming 2^32-1 elements in a 10-byte buffer.
    let bytes = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0];
    let mut r = Reader::new(&bytes);
    assert!(matches!(
        Vec::<u64>::decode(&mut r),
        Err(CodecError::CountTooLarge { .. })
    ));
}

#[test]
fn trailing_bytes_and_versions_are_rejected() {
    assert_eq!(
        unmarshal::<u32>(&[0, 0, 0, 0, 0, 1, 9]),
        Err(CodecError::TrailingBytes(1))
    );
    assert_eq!(
        unmarshal::<u32>(&[0, 1, 0, 0, 0, 1]),
        Err(CodecError::UnknownVersion(1))
    );
    assert_eq!(unmarshal::<u32>(&[0, 0, 0, 0, 0, 7]), Ok(7));
    assert_eq!(marshal(&7u32), vec![0, 0, 0, 0, 0, 7]);
}

#[test]
fn bools_are_strict() {
    assert_eq!(Reader::new(&[2]).bool(), Err(CodecError::InvalidBool(2)));
}

#[test]
fn array_vec_matches_element_decoding() {
    // Two big-endian u32s after their count, then one trailing byte.
    let bytes = [0, 0, 0, 2, 0, 0, 0, 1, 0xff, 0, 0, 0, 9];
    let mut fast = Reader::new(&bytes);
    let mut slow = Reader::new(&bytes);
    assert_eq!(
        fast.array_vec(u32::from_be_bytes).unwrap(),
        Vec::<u32>::decode(&mut slow).unwrap()
    );
    assert_eq!(fast.position(), slow.position());
    assert_eq!(fast.remaining(), 1);
    // Zero-sized elements: the count alone, bounded by the bytes left as for any slice.
    let mut r = Reader::new(&[0, 0, 0, 3, 9, 9, 9]);
    assert_eq!(r.array_vec(|a: [u8; 0]| a.len()), Ok(vec![0, 0, 0]));
    assert_eq!(r.remaining(), 3);
}

#[test]
fn array_vec_rejects_short_and_hostile_input() {
    // Three 20-byte elements claimed, 40 bytes present.
    let mut bytes = vec![0, 0, 0, 3];
    bytes.extend_from_slice(&[7; 40]);
    assert!(matches!(
        Reader::new(&bytes).array_vec(crate::ShortId),
        Err(CodecError::CountTooLarge { count: 3, .. })
    ));
    assert!(matches!(
        Reader::new(&[0xff, 0xff, 0xff, 0xff, 1]).array_vec(|a: [u8; 65]| a),
        Err(CodecError::CountTooLarge { .. })
    ));
    assert!(matches!(
        Reader::new(&[0, 0]).array_vec(u32::from_be_bytes),
        Err(CodecError::UnexpectedEof { .. })
    ));
}
