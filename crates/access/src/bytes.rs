//! Compact binary encoding helpers for stored values: LEB128 varints and length-prefixed strings.

use snowline_store::DecodeError;

/// Appends `v` as an unsigned LEB128 varint (1 byte below 128, at most 10).
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends `s` as its length (varint) then its UTF-8 bytes.
pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Reads values written by the `put_*` functions from the front of a byte slice.
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    /// One byte.
    pub(crate) fn u8(&mut self) -> Result<u8, DecodeError> {
        let (&b, tail) = self.rest.split_first().ok_or(DecodeError::UnexpectedEnd {
            needed: 1,
            remaining: 0,
        })?;
        self.rest = tail;
        Ok(b)
    }

    /// `N` bytes as they are.
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let (head, tail) =
            self.rest
                .split_first_chunk::<N>()
                .ok_or(DecodeError::UnexpectedEnd {
                    needed: N,
                    remaining: self.rest.len(),
                })?;
        self.rest = tail;
        Ok(*head)
    }

    /// One varint; more than 10 bytes or an overflow is an error.
    pub(crate) fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            let part = u64::from(b & 0x7F);
            if shift == 63 && part > 1 {
                return Err(DecodeError::Other("varint overflows u64".to_owned()));
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::Other("varint longer than 10 bytes".to_owned()))
    }

    /// One length-prefixed UTF-8 string.
    pub(crate) fn string(&mut self) -> Result<String, DecodeError> {
        self.str().map(str::to_owned)
    }

    /// One length-prefixed UTF-8 string, borrowed from the input.
    pub(crate) fn str(&mut self) -> Result<&'a str, DecodeError> {
        std::str::from_utf8(self.bytes()?).map_err(|_| DecodeError::InvalidUtf8)
    }

    /// One length-prefixed byte string, borrowed from the input.
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let len = usize::try_from(self.varint()?)
            .map_err(|_| DecodeError::Other("length overflows usize".to_owned()))?;
        let (head, tail) = self
            .rest
            .split_at_checked(len)
            .ok_or(DecodeError::UnexpectedEnd {
                needed: len,
                remaining: self.rest.len(),
            })?;
        self.rest = tail;
        Ok(head)
    }

    /// Whether every byte was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// Fails unless every byte was read.
    pub(crate) fn finish(self) -> Result<(), DecodeError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes(self.rest.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn varints_and_strings_round_trip(v in any::<u64>(), s in ".{0,40}") {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            put_str(&mut out, &s);
            let mut r = Reader::new(&out);
            prop_assert_eq!(r.varint().unwrap(), v);
            prop_assert_eq!(r.string().unwrap(), s);
            prop_assert!(r.finish().is_ok());
        }

        #[test]
        fn truncated_input_is_an_error_not_a_panic(v in any::<u64>(), s in ".{1,40}", cut in 0usize..8) {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            put_str(&mut out, &s);
            out.truncate(out.len().saturating_sub(cut + 1));
            let mut r = Reader::new(&out);
            let decoded = r.varint().and_then(|_| r.string());
            prop_assert!(decoded.is_err());
        }
    }

    #[test]
    fn overlong_varint_is_rejected() {
        let bytes = [0xFFu8; 11];
        assert!(Reader::new(&bytes).varint().is_err());
        let overflow = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02];
        assert!(Reader::new(&overflow).varint().is_err());
    }
}
