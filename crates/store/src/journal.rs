//! The commit journal: what a store needs to take part in a fleet, without its callers knowing
//! RocksDB. A primary's store records every committed write batch, numbered in commit order, in
//! an outbox written in the same atomic write as the batch; a publisher reads the outbox and
//! marks what its log acknowledged. A replica's store takes such batches with
//! [`Store::apply_journal`](crate::Store::apply_journal), strictly in sequence, each written
//! atomically with the replica's position. The batch bytes are the store's own encoding of the
//! puts and deletes per table ([`encode_frame`]), so another engine could sit behind it.

use std::sync::{Arc, Mutex};

use crate::error::{Result, StoreError};

/// Column family of the journal: the position, the acknowledged position and the outbox;
/// reserved. Each node's own bookkeeping: it is never replicated (`docs/fleet.md`).
pub const JOURNAL_TABLE: &str = "__snowline_journal";

/// Key of the last committed (or applied) batch's sequence number, a big-endian `u64`.
pub(crate) const SEQ_KEY: &[u8] = b"seq";
/// Key of the commit time of that batch, Unix milliseconds (the primary's clock).
pub(crate) const TIME_KEY: &[u8] = b"time";
/// Key of the last sequence number the publisher's log acknowledged.
pub(crate) const ACKED_KEY: &[u8] = b"acked";
/// Prefix of the outbox entries: `o` ‖ sequence (big-endian) -> commit time ‖ frame.
pub(crate) const OUTBOX_PREFIX: u8 = b'o';

/// Version byte that leads every frame.
const FRAME_VERSION: u8 = 1;
const OP_PUT: u8 = 1;
const OP_DELETE: u8 = 2;

/// What a store does with its commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalRole {
    /// A standalone store: writes are not recorded (the default).
    Off,
    /// A primary: every write is numbered and kept in the outbox until acknowledged.
    Primary,
    /// A replica: local writes are refused; only [`Store::apply_journal`](crate::Store::apply_journal)
    /// writes.
    Replica,
}

/// Where a store's journal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JournalPosition {
    /// The last batch committed here (a primary's own, or a replica's last applied); 0 for none.
    pub seq: u64,
    /// When that batch was committed on the primary, Unix milliseconds (0 when unknown).
    pub committed_ms: u64,
    /// The last batch the publisher's log acknowledged (a primary's).
    pub acked: u64,
}

/// One committed batch from the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    /// Its sequence number.
    pub seq: u64,
    /// Its commit time, Unix milliseconds.
    pub committed_ms: u64,
    /// Its frame ([`encode_frame`]).
    pub frame: Vec<u8>,
}

/// One operation of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameOp<'a> {
    /// `key -> value` in `table`.
    Put {
        /// The table's name.
        table: &'a str,
        /// The encoded key.
        key: &'a [u8],
        /// The encoded value.
        value: &'a [u8],
    },
    /// The removal of `key` from `table`.
    Delete {
        /// The table's name.
        table: &'a str,
        /// The encoded key.
        key: &'a [u8],
    },
}

/// A decoded frame: the schema version it was written under and its operations in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The writer's schema version.
    pub schema_version: u32,
    /// The operations, in the order they were applied.
    pub ops: Vec<FrameOp<'a>>,
}

/// Builds a frame: `version u8 ‖ schema u32 ‖ count u32`, then per operation `kind u8 ‖
/// name_len u8 ‖ name ‖ key_len u32 ‖ key` and, for a put, `value_len u32 ‖ value` (big-endian).
pub(crate) struct FrameWriter {
    buf: Vec<u8>,
    count: u32,
}

impl FrameWriter {
    pub(crate) fn new(schema_version: u32, capacity: usize) -> Self {
        let mut buf = Vec::with_capacity(capacity + 9);
        buf.push(FRAME_VERSION);
        buf.extend_from_slice(&schema_version.to_be_bytes());
        buf.extend_from_slice(&0u32.to_be_bytes());
        Self { buf, count: 0 }
    }

    pub(crate) fn push(&mut self, op: FrameOp<'_>) -> Result<()> {
        let (kind, table, key, value) = match op {
            FrameOp::Put { table, key, value } => (OP_PUT, table, key, Some(value)),
            FrameOp::Delete { table, key } => (OP_DELETE, table, key, None),
        };
        let name_len = u8::try_from(table.len())
            .map_err(|_| StoreError::InvalidArgument(format!("table name {table} too long")))?;
        let len = |b: &[u8]| {
            u32::try_from(b.len())
                .map_err(|_| StoreError::InvalidArgument("entry over 4 GiB".to_owned()))
        };
        self.buf.push(kind);
        self.buf.push(name_len);
        self.buf.extend_from_slice(table.as_bytes());
        self.buf.extend_from_slice(&len(key)?.to_be_bytes());
        self.buf.extend_from_slice(key);
        if let Some(v) = value {
            self.buf.extend_from_slice(&len(v)?.to_be_bytes());
            self.buf.extend_from_slice(v);
        }
        self.count += 1;
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Vec<u8> {
        if let Some(c) = self.buf.get_mut(5..9) {
            c.copy_from_slice(&self.count.to_be_bytes());
        }
        self.buf
    }
}

/// Encodes `ops` as a frame of `schema_version` (what a primary's store does for each write).
pub fn encode_frame(schema_version: u32, ops: &[FrameOp<'_>]) -> Result<Vec<u8>> {
    let mut w = FrameWriter::new(schema_version, 0);
    for op in ops {
        w.push(*op)?;
    }
    Ok(w.finish())
}

/// Decodes a frame, checking every length against the input: malformed bytes are an error,
/// never a panic or an allocation beyond the input's size.
pub fn decode_frame(bytes: &[u8]) -> Result<Frame<'_>> {
    let bad = |why: &str| StoreError::BadJournal(why.to_owned());
    let mut r = Reader { bytes, at: 0 };
    let version = r.take(1).ok_or_else(|| bad("empty frame"))?;
    if version != [FRAME_VERSION] {
        return Err(bad(&format!("unknown frame version {version:?}")));
    }
    let schema_version = r.u32().ok_or_else(|| bad("frame header cut short"))?;
    let count = r.u32().ok_or_else(|| bad("frame header cut short"))?;
    // Each operation takes at least 6 bytes: a count beyond that is a lie, refused up front.
    let room = bytes.len().saturating_sub(9) / 6;
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    if count > room {
        return Err(bad("operation count exceeds the frame"));
    }
    let mut ops = Vec::with_capacity(count);
    for _ in 0..count {
        let kind = r.take(1).ok_or_else(|| bad("operation cut short"))?;
        let name_len = r.take(1).ok_or_else(|| bad("operation cut short"))?;
        let name = r
            .take(usize::from(name_len.first().copied().unwrap_or(0)))
            .ok_or_else(|| bad("table name cut short"))?;
        let table = std::str::from_utf8(name).map_err(|_| bad("table name is not UTF-8"))?;
        let key = r.field().ok_or_else(|| bad("key cut short"))?;
        ops.push(match kind {
            [OP_PUT] => {
                let value = r.field().ok_or_else(|| bad("value cut short"))?;
                FrameOp::Put { table, key, value }
            }
            [OP_DELETE] => FrameOp::Delete { table, key },
            other => return Err(bad(&format!("unknown operation kind {other:?}"))),
        });
    }
    if r.at != bytes.len() {
        return Err(bad("trailing bytes after the operations"));
    }
    Ok(Frame {
        schema_version,
        ops,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }

    fn field(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u32()?).ok()?;
        self.take(n)
    }
}

/// The outbox key of batch `seq`.
pub(crate) fn outbox_key(seq: u64) -> [u8; 9] {
    let mut k = [OUTBOX_PREFIX; 9];
    if let Some(rest) = k.get_mut(1..) {
        rest.copy_from_slice(&seq.to_be_bytes());
    }
    k
}

/// A stored big-endian `u64`, or 0 when absent or malformed.
pub(crate) fn be_u64(raw: Option<&[u8]>) -> u64 {
    raw.and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_be_bytes)
}

/// Called with each committed batch's sequence number, right after the commit.
pub type CommitObserver = Arc<dyn Fn(u64) + Send + Sync>;

/// The journal's in-memory side: the role and the position, changed only under the lock that
/// also covers each journaled write, so sequence numbers follow commit order.
pub(crate) struct Journal {
    pub(crate) state: Mutex<JournalState>,
    pub(crate) observer: Mutex<Option<CommitObserver>>,
}

pub(crate) struct JournalState {
    pub(crate) role: JournalRole,
    pub(crate) seq: u64,
}

impl Journal {
    pub(crate) fn new(seq: u64) -> Self {
        Self {
            state: Mutex::new(JournalState {
                role: JournalRole::Off,
                seq,
            }),
            observer: Mutex::new(None),
        }
    }

    pub(crate) fn notify(&self, seq: u64) {
        let observer = self.observer.lock().ok().and_then(|o| o.clone());
        if let Some(f) = observer {
            f(seq);
        }
    }
}

/// Now, Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_refuse_malformed_bytes() {
        let ops = [
            FrameOp::Put {
                table: "blocks",
                key: b"k1",
                value: b"v1",
            },
            FrameOp::Delete {
                table: "ids",
                key: b"",
            },
            FrameOp::Put {
                table: "blocks",
                key: b"k2",
                value: b"",
            },
        ];
        let bytes = encode_frame(7, &ops).unwrap();
        let frame = decode_frame(&bytes).unwrap();
        assert_eq!(frame.schema_version, 7);
        assert_eq!(frame.ops, ops);
        // Every truncation and an extra byte are refused, never a panic.
        for cut in 0..bytes.len() {
            assert!(decode_frame(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_frame(&longer).is_err());
        // A count claiming more operations than the bytes can hold.
        let mut lying = bytes.clone();
        lying[5..9].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(decode_frame(&lying).is_err());
        let mut kind = bytes;
        kind[9] = 9;
        assert!(decode_frame(&kind).is_err());
    }
}
