//! The encoding side of the linear codec.

/// An append-only buffer of codec bytes.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            buf: Vec::with_capacity(n),
        }
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Number of bytes written.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Takes the bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Raw bytes with no prefix.
    #[inline]
    pub fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// A big-endian `u16`.
    #[inline]
    pub fn u16(&mut self, v: u16) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `u32`.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `u64`.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.raw(&v.to_be_bytes());
    }

    /// A big-endian `i64`.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.raw(&v.to_be_bytes());
    }

    /// A bool as one byte.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }

    /// A `u32` slice length. Lengths above `u32::MAX` cannot come from decoded data; they saturate.
    #[inline]
    pub fn len_u32(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// A `[]byte`: `u32` length then the bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.len_u32(b.len());
        self.raw(b);
    }

    /// A string: `u16` length then the bytes. Callers keep strings under 64 KiB (the codec's limit).
    pub fn str(&mut self, s: &str) {
        self.u16(u16::try_from(s.len()).unwrap_or(u16::MAX));
        self.raw(s.as_bytes());
    }
}
