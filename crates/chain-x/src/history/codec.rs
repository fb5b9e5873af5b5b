//! A tiny fixed-layout writer and reader for the history rows' values: big-endian integers, raw
//! ids and `u32`-counted lists, so each row decodes without a schema and fails cleanly when cut.

use snowline_store::DecodeError;
use snowline_types::Id;
use snowline_types::container::TxPlace;

/// Appends big-endian integers and raw ids to a buffer.
pub(crate) struct Out<'a>(pub(crate) &'a mut Vec<u8>);

impl Out<'_> {
    pub(crate) fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub(crate) fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub(crate) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub(crate) fn id(&mut self, v: &Id) -> &mut Self {
        self.0.extend_from_slice(&v.0);
        self
    }
    /// A `u32` count then the ids (a count beyond `u32::MAX` is cut: never reached by a
    /// container, which is at most a few MiB).
    pub(crate) fn ids(&mut self, v: &[Id]) -> &mut Self {
        let n = u32::try_from(v.len()).unwrap_or(u32::MAX);
        self.u32(n);
        for id in v.iter().take(n as usize) {
            self.id(id);
        }
        self
    }
    /// A tx's place, if it has one: `u8 has place ‖ u32 offset ‖ u32 len`.
    pub(crate) fn place(&mut self, v: Option<TxPlace>) -> &mut Self {
        let p = v.unwrap_or(TxPlace { offset: 0, len: 0 });
        self.u8(u8::from(v.is_some())).u32(p.offset).u32(p.len)
    }
    /// A `u32` length then the bytes.
    pub(crate) fn bytes(&mut self, v: &[u8]) -> &mut Self {
        let n = u32::try_from(v.len()).unwrap_or(u32::MAX);
        self.u32(n);
        self.0.extend_from_slice(v.get(..n as usize).unwrap_or(v));
        self
    }
}

/// Reads what [`Out`] wrote, from the front of a slice.
pub(crate) struct In<'a>(pub(crate) &'a [u8]);

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        match self.0.split_at_checked(n) {
            Some((head, tail)) => {
                self.0 = tail;
                Ok(head)
            }
            None => Err(DecodeError::UnexpectedEnd {
                needed: n,
                remaining: self.0.len(),
            }),
        }
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let head = self.take(N)?;
        <[u8; N]>::try_from(head).map_err(|e| DecodeError::Other(e.to_string()))
    }
    pub(crate) fn u8(&mut self) -> Result<u8, DecodeError> {
        let [b] = self.array::<1>()?;
        Ok(b)
    }
    pub(crate) fn u32(&mut self) -> Result<u32, DecodeError> {
        self.array().map(u32::from_be_bytes)
    }
    pub(crate) fn u64(&mut self) -> Result<u64, DecodeError> {
        self.array().map(u64::from_be_bytes)
    }
    pub(crate) fn id(&mut self) -> Result<Id, DecodeError> {
        self.array().map(Id)
    }
    /// A counted id list; the count is checked against the bytes left before allocating.
    pub(crate) fn ids(&mut self) -> Result<Vec<Id>, DecodeError> {
        let n = self.u32()? as usize;
        let needed = n.saturating_mul(32);
        if needed > self.0.len() {
            return Err(DecodeError::UnexpectedEnd {
                needed,
                remaining: self.0.len(),
            });
        }
        (0..n).map(|_| self.id()).collect()
    }
    /// What [`Out::place`] wrote.
    pub(crate) fn place(&mut self) -> Result<Option<TxPlace>, DecodeError> {
        let has = self.u8()?;
        let (offset, len) = (self.u32()?, self.u32()?);
        Ok((has != 0).then_some(TxPlace { offset, len }))
    }
    /// Thirty-two raw bytes.
    pub(crate) fn hash(&mut self) -> Result<[u8; 32], DecodeError> {
        self.array()
    }
    /// A length-prefixed byte string.
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    /// Everything left.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.0)
    }
    /// Fails when bytes remain.
    pub(crate) fn end(&self) -> Result<(), DecodeError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes(self.0.len()))
        }
    }
}
