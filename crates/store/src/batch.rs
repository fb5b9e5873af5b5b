//! Typed write batches: a list of puts and deletes across tables, applied atomically by
//! [`Store::write`](crate::Store::write).

use crate::key::KeyCodec;
use crate::table::Table;
use crate::value::ValueCodec;

#[derive(Debug, Clone, Copy)]
pub(crate) enum OpKind {
    Put,
    Delete,
}

/// One recorded operation: the table and where its key (and value) sit in the batch's buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Op {
    pub(crate) kind: OpKind,
    pub(crate) table: &'static str,
    pub(crate) start: usize,
    pub(crate) key_end: usize,
    pub(crate) end: usize,
}

/// A set of writes that become visible together or not at all. Built without a store (encoding
/// happens here), applied with [`Store::write`](crate::Store::write). An indexer puts its cursor
/// in the same batch as the containers it covers, so a crash never separates them.
#[derive(Debug, Clone, Default)]
pub struct WriteBatch {
    pub(crate) data: Vec<u8>,
    pub(crate) ops: Vec<Op>,
}

impl WriteBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `key -> value` in table `T` (replacing any previous value).
    pub fn put<T: Table>(&mut self, key: &T::Key, value: &T::Value) -> &mut Self {
        let start = self.data.len();
        key.encode_key(&mut self.data);
        let key_end = self.data.len();
        value.encode_value(&mut self.data);
        self.ops.push(Op {
            kind: OpKind::Put,
            table: T::NAME,
            start,
            key_end,
            end: self.data.len(),
        });
        self
    }

    /// Records the removal of `key` from table `T`.
    pub fn delete<T: Table>(&mut self, key: &T::Key) -> &mut Self {
        let start = self.data.len();
        key.encode_key(&mut self.data);
        let end = self.data.len();
        self.ops.push(Op {
            kind: OpKind::Delete,
            table: T::NAME,
            start,
            key_end: end,
            end,
        });
        self
    }

    /// Number of operations recorded.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Encoded keys and values held, in bytes (to cap batch sizes during ingest).
    pub fn size_bytes(&self) -> usize {
        self.data.len()
    }

    /// Forgets every operation, keeping the allocation for reuse.
    pub fn clear(&mut self) {
        self.data.clear();
        self.ops.clear();
    }
}
