//! Keyset positions: the last key a page served, as bytes, so the next page starts strictly after
//! it. Fields are written in key order: integers as u64 big-endian, ids raw, variable-length
//! bytes and strings with a u32 big-endian length first.

use crate::error::PositionError;

/// Builds a position field by field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionWriter {
    buf: Vec<u8>,
}

impl PositionWriter {
    /// An empty position.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a u64, big-endian.
    pub fn u64(&mut self, value: u64) -> &mut Self {
        self.buf.extend_from_slice(&value.to_be_bytes());
        self
    }

    /// Appends a 32-byte id raw.
    pub fn bytes32(&mut self, value: &[u8; 32]) -> &mut Self {
        self.buf.extend_from_slice(value);
        self
    }

    /// Appends a 20-byte id (an address) raw.
    pub fn bytes20(&mut self, value: &[u8; 20]) -> &mut Self {
        self.buf.extend_from_slice(value);
        self
    }

    /// Appends variable-length bytes: u32 BE length, then the bytes. Lengths above `u32::MAX` are
    /// not representable and are cut to `u32::MAX` bytes (positions are far smaller).
    pub fn bytes(&mut self, value: &[u8]) -> &mut Self {
        let len = u32::try_from(value.len()).unwrap_or(u32::MAX);
        self.buf.extend_from_slice(&len.to_be_bytes());
        self.buf
            .extend_from_slice(value.get(..len as usize).unwrap_or(value));
        self
    }

    /// Appends a string as [`PositionWriter::bytes`] of its UTF-8.
    pub fn str(&mut self, value: &str) -> &mut Self {
        self.bytes(value.as_bytes())
    }

    /// The position's bytes.
    pub fn finish(&self) -> Vec<u8> {
        self.buf.clone()
    }

    /// The position's bytes, consuming the writer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads a position back field by field; every read fails cleanly on short input.
#[derive(Debug, Clone)]
pub struct PositionReader<'a> {
    buf: &'a [u8],
    offset: usize,
}

impl<'a> PositionReader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf, offset: 0 }
    }

    /// Reads a big-endian u64.
    pub fn u64(&mut self) -> Result<u64, PositionError> {
        self.array::<8>("u64").map(u64::from_be_bytes)
    }

    /// Reads a raw 32-byte id.
    pub fn bytes32(&mut self) -> Result<[u8; 32], PositionError> {
        self.array::<32>("bytes32")
    }

    /// Reads a raw 20-byte id.
    pub fn bytes20(&mut self) -> Result<[u8; 20], PositionError> {
        self.array::<20>("bytes20")
    }

    /// Reads length-prefixed bytes.
    pub fn bytes(&mut self) -> Result<&'a [u8], PositionError> {
        let len = self.array::<4>("bytes length").map(u32::from_be_bytes)?;
        self.take("bytes", len as usize)
    }

    /// Reads a length-prefixed UTF-8 string.
    pub fn str(&mut self) -> Result<&'a str, PositionError> {
        let offset = self.offset;
        let bytes = self.bytes()?;
        std::str::from_utf8(bytes).map_err(|_| PositionError::NotUtf8 { offset })
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.offset)
    }

    /// Succeeds only when every byte was read.
    pub fn finish(self) -> Result<(), PositionError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(PositionError::Trailing(n)),
        }
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], PositionError> {
        let bytes = self.take(what, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    fn take(&mut self, what: &'static str, needed: usize) -> Result<&'a [u8], PositionError> {
        let truncated = PositionError::Truncated {
            what,
            needed,
            offset: self.offset,
            remaining: self.remaining(),
        };
        let end = self.offset.checked_add(needed).ok_or(truncated.clone())?;
        let bytes = self.buf.get(self.offset..end).ok_or(truncated)?;
        self.offset = end;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fields_round_trip_and_short_input_fails_cleanly() {
        let mut w = PositionWriter::new();
        w.u64(42)
            .bytes32(&[7; 32])
            .bytes20(&[3; 20])
            .str("héllo")
            .bytes(b"");
        let pos = w.into_bytes();
        let mut r = PositionReader::new(&pos);
        assert_eq!(r.u64().unwrap(), 42);
        assert_eq!(r.bytes32().unwrap(), [7; 32]);
        assert_eq!(r.bytes20().unwrap(), [3; 20]);
        assert_eq!(r.str().unwrap(), "héllo");
        assert_eq!(r.bytes().unwrap(), b"");
        r.finish().unwrap();

        let mut short = PositionReader::new(&pos[..5]);
        assert_eq!(
            short.u64(),
            Err(PositionError::Truncated {
                what: "u64",
                needed: 8,
                offset: 0,
                remaining: 5
            })
        );
        let mut huge_len = PositionReader::new(&[0xff, 0xff, 0xff, 0xff, 1]);
        assert!(matches!(
            huge_len.bytes(),
            Err(PositionError::Truncated {
                needed: 0xffff_ffff,
                ..
            })
        ));
        let mut bad_utf8 = PositionReader::new(&[0, 0, 0, 1, 0xff]);
        assert_eq!(bad_utf8.str(), Err(PositionError::NotUtf8 { offset: 0 }));
        let mut r = PositionReader::new(&[0; 9]);
        r.u64().unwrap();
        assert_eq!(r.finish(), Err(PositionError::Trailing(1)));
    }

    proptest! {
        #[test]
        fn u64_tuples_sort_as_their_bytes(a in any::<(u64, u64)>(), b in any::<(u64, u64)>()) {
            let enc = |(x, y): (u64, u64)| { let mut w = PositionWriter::new(); w.u64(x).u64(y); w.into_bytes() };
            prop_assert_eq!(a.cmp(&b), enc(a).cmp(&enc(b)));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let mut r = PositionReader::new(&bytes);
            let _ = r.u64();
            let _ = r.str();
            let _ = r.bytes32();
            let _ = r.bytes();
            let _ = r.bytes20();
            let _ = r.finish();
        }

        #[test]
        fn mixed_fields_round_trip(n in any::<u64>(), id in any::<[u8; 32]>(), s in ".{0,40}") {
            let mut w = PositionWriter::new();
            w.str(&s).u64(n).bytes32(&id);
            let pos = w.finish();
            let mut r = PositionReader::new(&pos);
            prop_assert_eq!(r.str().unwrap(), s.as_str());
            prop_assert_eq!(r.u64().unwrap(), n);
            prop_assert_eq!(r.bytes32().unwrap(), id);
            prop_assert!(r.finish().is_ok());
        }
    }
}
