//! The bounded, panic-free decoding cursor of the linear codec.

use super::CodecError;

/// A cursor over codec bytes. Every read checks bounds and returns an error rather than panicking.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// Current offset from the start.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// The whole input this reader walks.
    #[inline]
    pub fn input(&self) -> &'a [u8] {
        self.buf
    }

    /// Fails with [`CodecError::TrailingBytes`] unless everything was read.
    pub fn finish(&self) -> Result<(), CodecError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(CodecError::TrailingBytes(n)),
        }
    }

    /// The next `n` bytes, borrowed.
    #[inline]
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], CodecError> {
        if self.remaining() < n {
            return Err(CodecError::UnexpectedEof {
                needed: n,
                offset: self.pos,
            });
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// A fixed-size array of raw bytes.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], CodecError> {
        let s = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8, CodecError> {
        Ok(self.array::<1>()?[0])
    }

    /// A big-endian `u16`.
    #[inline]
    pub fn u16(&mut self) -> Result<u16, CodecError> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A big-endian `u32`.
    #[inline]
    pub fn u32(&mut self) -> Result<u32, CodecError> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// A big-endian `u64`.
    #[inline]
    pub fn u64(&mut self) -> Result<u64, CodecError> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// A big-endian `i64` (packed as its unsigned bit pattern).
    #[inline]
    pub fn i64(&mut self) -> Result<i64, CodecError> {
        Ok(i64::from_be_bytes(self.array()?))
    }

    /// A bool: exactly 0 or 1.
    pub fn bool(&mut self) -> Result<bool, CodecError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(CodecError::InvalidBool(b)),
        }
    }

    /// A `u32` element count, checked so that `count * min_elem_size` fits in what remains.
    pub fn count(&mut self, min_elem_size: usize, what: &'static str) -> Result<usize, CodecError> {
        let n = self.u32()?;
        let need = u64::from(n) * min_elem_size.max(1) as u64;
        if need > self.remaining() as u64 {
            return Err(CodecError::CountTooLarge {
                count: u64::from(n),
                what,
                remaining: self.remaining(),
            });
        }
        Ok(n as usize)
    }

    /// A `u32`-counted slice of `N`-byte elements with one bounds check for all of them: the
    /// count, then `count × N` bytes, each chunk mapped by `f`. Faster than decoding element by
    /// element; the count is checked against the input before anything is allocated.
    pub fn array_vec<const N: usize, T>(
        &mut self,
        f: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, CodecError> {
        let n = self.count(N, std::any::type_name::<T>())?;
        if N == 0 {
            return Ok((0..n).map(|_| f([0u8; N])).collect());
        }
        // `count` checked n × N ≤ remaining, so this cannot overflow.
        let bytes = self.take(n * N)?;
        Ok(bytes
            .chunks_exact(N)
            .map(|c| {
                let mut a = [0u8; N];
                a.copy_from_slice(c);
                f(a)
            })
            .collect())
    }

    /// A `[]byte`: `u32` length then the bytes, borrowed.
    pub fn bytes(&mut self) -> Result<&'a [u8], CodecError> {
        let n = self.count(1, "bytes")?;
        self.take(n)
    }

    /// A string: `u16` length then UTF-8 bytes.
    pub fn str(&mut self) -> Result<&'a str, CodecError> {
        let n = self.u16()? as usize;
        let b = self.take(n)?;
        std::str::from_utf8(b).map_err(|_| CodecError::InvalidUtf8)
    }
}
