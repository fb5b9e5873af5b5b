//! Typed write batches: a list of puts and deletes across tables, applied atomically by
//! [`Store::write`](crate::Store::write).

use crate::key::KeyCodec;
use crate::table::Table;
use crate::value::EncodesAs;

#[derive(Debug, Clone, Copy)]
pub(crate) enum OpKind {
    Put,
    Delete,
    /// Recorded, then withdrawn by [`WriteBatch::cancel`]: not written.
    Cancelled,
}

/// Where a put sits in its [`WriteBatch`], so the batch's author can withdraw it with
/// [`WriteBatch::cancel`] (a row created and removed again before the batch is written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpHandle(usize);

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
    cancelled: usize,
}

impl WriteBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `key -> value` in table `T` (replacing any previous value).
    pub fn put<T: Table>(&mut self, key: &T::Key, value: &T::Value) -> &mut Self {
        self.put_tracked::<T>(key, value);
        self
    }

    /// [`WriteBatch::put`], returning where the put sits so it can be withdrawn with
    /// [`WriteBatch::cancel`] while the batch is being built.
    pub fn put_tracked<T: Table>(&mut self, key: &T::Key, value: &T::Value) -> OpHandle {
        self.put_encoded::<T>(key, value)
    }

    /// [`WriteBatch::put`] of a borrowed form of the value (see [`EncodesAs`]): the same bytes
    /// are stored, without building the owned value first.
    pub fn put_as<T: Table>(
        &mut self,
        key: &T::Key,
        value: &impl EncodesAs<T::Value>,
    ) -> &mut Self {
        self.put_encoded::<T>(key, value);
        self
    }

    /// Records the put of anything encoding as `T`'s value (the value itself included).
    fn put_encoded<T: Table>(
        &mut self,
        key: &T::Key,
        value: &impl EncodesAs<T::Value>,
    ) -> OpHandle {
        let at = self.ops.len();
        let start = self.data.len();
        key.encode_key(&mut self.data);
        let key_end = self.data.len();
        value.encode_as(&mut self.data);
        self.ops.push(Op {
            kind: OpKind::Put,
            table: T::NAME,
            start,
            key_end,
            end: self.data.len(),
        });
        OpHandle(at)
    }

    /// Withdraws an operation `put_tracked` recorded in **this** batch (a handle from another
    /// batch, or from before [`WriteBatch::clear`], withdraws an unrelated operation): it will
    /// not be written. For a key the batch itself created (absent from the store before), this
    /// leaves the store as a later delete would, without writing the put and the delete
    /// (tombstone) at all. Returns whether an operation was withdrawn (`false` when the handle
    /// is out of range or already withdrawn).
    pub fn cancel(&mut self, op: OpHandle) -> bool {
        match self.ops.get_mut(op.0) {
            Some(o) if !matches!(o.kind, OpKind::Cancelled) => {
                o.kind = OpKind::Cancelled;
                self.cancelled += 1;
                true
            }
            _ => false,
        }
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

    /// Number of operations recorded and not withdrawn.
    pub fn len(&self) -> usize {
        self.ops.len().saturating_sub(self.cancelled)
    }

    /// Whether nothing is left to write.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Encoded keys and values held, in bytes (to cap batch sizes during ingest).
    pub fn size_bytes(&self) -> usize {
        self.data.len()
    }

    /// Forgets every operation, keeping the allocation for reuse.
    pub fn clear(&mut self) {
        self.data.clear();
        self.ops.clear();
        self.cancelled = 0;
    }
}
