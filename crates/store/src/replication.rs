//! What a fleet asks of a store (`journal.rs` holds the format): the role, the position, the
//! outbox a publisher drains, the replica's apply, and checkpoints to start a replica from.

use std::path::Path;
use std::sync::Arc;

use crate::error::{Result, StoreError, rocks};
use crate::journal::{
    ACKED_KEY, FrameOp, JOURNAL_TABLE, JournalEntry, JournalPosition, JournalRole, OUTBOX_PREFIX,
    SEQ_KEY, TIME_KEY, be_u64, decode_frame, outbox_key,
};
use crate::store::{Mode, Store, cf};
use crate::table::{DEFAULT_CF, META_TABLE};

impl Store {
    /// The journal's role (`Off` unless set).
    pub fn journal_role(&self) -> JournalRole {
        self.journal
            .state
            .lock()
            .map_or(JournalRole::Off, |s| s.role)
    }

    /// Sets the journal's role; read-write stores only. Becoming a replica empties the outbox
    /// (a checkpoint of a primary carries one) and forgets the acknowledged position, and is
    /// refused to a store at position 0 that holds rows; becoming a primary continues the
    /// sequence where the store stands (a promoted replica continues its primary's), and a store
    /// with rows at position 0 counts them as batch 1, which replicas get from a checkpoint.
    pub fn set_journal_role(&self, role: JournalRole) -> Result<()> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let mut state = self
            .journal
            .state
            .lock()
            .map_err(|_| StoreError::Rocks("journal lock poisoned".to_owned()))?;
        let journal = cf(&self.db, JOURNAL_TABLE)?;
        if state.seq == 0 && role != JournalRole::Off && self.holds_rows() {
            if role == JournalRole::Replica {
                return Err(StoreError::InvalidArgument(
                    "a replica starts from an empty store or from a checkpoint of a fleet's node; \
                     this store holds data of its own"
                        .to_owned(),
                ));
            }
            // What a store held before it first published is its batch 1, which no stream
            // carries: an empty replica refuses batch 2 and must start from a checkpoint.
            let mut rb = rocksdb::WriteBatch::default();
            rb.put_cf(journal, SEQ_KEY, 1u64.to_be_bytes());
            rb.put_cf(journal, ACKED_KEY, 1u64.to_be_bytes());
            rb.put_cf(journal, TIME_KEY, crate::journal::now_ms().to_be_bytes());
            self.db.write(rb).map_err(rocks)?;
            state.seq = 1;
        }
        if state.role == JournalRole::Replica && role != JournalRole::Replica {
            // Batches a replica applied without the write-ahead log go to disk before any
            // logged write follows them (a promoted replica's own batches).
            self.set_unlogged_writes(false)?;
        }
        if role == JournalRole::Replica && state.role != JournalRole::Replica {
            let mut rb = rocksdb::WriteBatch::default();
            rb.delete_range_cf(journal, outbox_key(0), outbox_key(u64::MAX));
            rb.delete_cf(journal, outbox_key(u64::MAX));
            rb.delete_cf(journal, ACKED_KEY);
            self.db.write(rb).map_err(rocks)?;
        }
        state.role = role;
        Ok(())
    }

    /// Whether any table of the schema holds an entry.
    fn holds_rows(&self) -> bool {
        self.schema().tables().iter().any(|t| {
            cf(&self.db, t.name).is_ok_and(|h| {
                let mut it = self.db.raw_iterator_cf(h);
                it.seek_to_first();
                it.valid()
            })
        })
    }

    /// Calls `f` with each journaled commit's sequence number, right after it is committed (a
    /// publisher wakes on it). Replaces any earlier observer.
    pub fn on_commit(&self, f: impl Fn(u64) + Send + Sync + 'static) {
        if let Ok(mut o) = self.journal.observer.lock() {
            *o = Some(Arc::new(f));
        }
    }

    /// Where the journal stands: the last batch committed or applied, its commit time, the last
    /// acknowledged one.
    pub fn journal_position(&self) -> Result<JournalPosition> {
        let Some(journal) = self.db.cf_handle(JOURNAL_TABLE) else {
            return Ok(JournalPosition::default());
        };
        let get = |k: &[u8]| -> Result<u64> {
            Ok(be_u64(
                self.db.get_cf(journal, k).map_err(rocks)?.as_deref(),
            ))
        };
        Ok(JournalPosition {
            seq: get(SEQ_KEY)?,
            committed_ms: get(TIME_KEY)?,
            acked: get(ACKED_KEY)?,
        })
    }

    /// Outbox entries after `after`, in order, at most `max` of them and stopping once
    /// `max_bytes` of frames are gathered (at least one entry when any is there).
    pub fn journal_entries(
        &self,
        after: u64,
        max: usize,
        max_bytes: usize,
    ) -> Result<Vec<JournalEntry>> {
        let journal = cf(&self.db, JOURNAL_TABLE)?;
        let mut it = self.db.raw_iterator_cf(journal);
        it.seek(outbox_key(after.saturating_add(1)));
        let (mut out, mut bytes) = (Vec::new(), 0usize);
        while it.valid() && out.len() < max && (out.is_empty() || bytes < max_bytes) {
            let (Some(k), Some(v)) = (it.key(), it.value()) else {
                break;
            };
            if k.first() != Some(&OUTBOX_PREFIX) || k.len() != 9 {
                break;
            }
            let seq = be_u64(k.get(1..));
            let committed_ms = be_u64(v.get(..8));
            let frame = v.get(8..).unwrap_or_default().to_vec();
            bytes += frame.len();
            out.push(JournalEntry {
                seq,
                committed_ms,
                frame,
            });
            it.next();
        }
        it.status().map_err(rocks)?;
        Ok(out)
    }

    /// Records that the log acknowledged every batch through `through` and drops them from the
    /// outbox (a position behind the recorded one is ignored).
    pub fn journal_acked(&self, through: u64) -> Result<()> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let journal = cf(&self.db, JOURNAL_TABLE)?;
        let pos = self.journal_position()?;
        if through <= pos.acked {
            return Ok(());
        }
        if through > pos.seq {
            return Err(StoreError::InvalidArgument(format!(
                "batch {through} acknowledged, but only {} were committed",
                pos.seq
            )));
        }
        let mut rb = rocksdb::WriteBatch::default();
        rb.delete_range_cf(
            journal,
            outbox_key(0),
            outbox_key(through.saturating_add(1)),
        );
        rb.put_cf(journal, ACKED_KEY, through.to_be_bytes());
        self.write_rocks(rb, true)
    }

    /// A replica's write: batch `seq` (its frame as the primary's outbox held it, committed at
    /// `committed_ms` there), applied atomically with the new position. Refused unless the store
    /// is a replica at `seq - 1` ([`StoreError::JournalGap`]), the frame decodes, was written
    /// under this store's schema version and names only its tables.
    pub fn apply_journal(&self, seq: u64, committed_ms: u64, frame: &[u8]) -> Result<()> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let decoded = decode_frame(frame)?;
        if decoded.schema_version != self.schema().version() {
            return Err(StoreError::BadJournal(format!(
                "batch {seq} was written under schema version {}, this store has {}",
                decoded.schema_version,
                self.schema().version()
            )));
        }
        let journal = cf(&self.db, JOURNAL_TABLE)?;
        let mut rb = rocksdb::WriteBatch::with_capacity_bytes(frame.len() + 64);
        for op in &decoded.ops {
            let (FrameOp::Put { table, .. } | FrameOp::Delete { table, .. }) = *op;
            if !self.schema().contains(table) || [META_TABLE, DEFAULT_CF].contains(&table) {
                return Err(StoreError::BadJournal(format!(
                    "batch {seq} writes table {table}, which this store's schema lacks"
                )));
            }
            let handle = cf(&self.db, table)?;
            match *op {
                FrameOp::Put { key, value, .. } => rb.put_cf(handle, key, value),
                FrameOp::Delete { key, .. } => rb.delete_cf(handle, key),
            }
        }
        rb.put_cf(journal, SEQ_KEY, seq.to_be_bytes());
        rb.put_cf(journal, TIME_KEY, committed_ms.to_be_bytes());
        let mut state = self
            .journal
            .state
            .lock()
            .map_err(|_| StoreError::Rocks("journal lock poisoned".to_owned()))?;
        if state.role != JournalRole::Replica {
            return Err(StoreError::InvalidArgument(
                "batches are applied only to a replica".to_owned(),
            ));
        }
        if seq != state.seq.saturating_add(1) {
            return Err(StoreError::JournalGap {
                expected: state.seq.saturating_add(1),
                got: seq,
            });
        }
        // Logged unless the replica asked otherwise (`Store::set_unlogged_writes`): the stream
        // holds every batch, so one lost in a crash is fetched again from the store's position.
        self.write_rocks(rb, false)?;
        state.seq = seq;
        drop(state);
        self.journal.notify(seq);
        Ok(())
    }

    /// Makes every committed write durable on disk (fsyncs the write-ahead log): a publisher
    /// calls it before it publishes, so a batch a replica may hold is never lost here.
    pub fn sync_wal(&self) -> Result<()> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        self.db.flush_wal(true).map_err(rocks)
    }

    /// Writes a consistent copy of the store (a RocksDB checkpoint: hard links where it can)
    /// into `dir`, which must not exist. The copy carries the journal's position, so a replica
    /// opened on it continues the stream after it.
    pub fn checkpoint(&self, dir: impl AsRef<Path>) -> Result<()> {
        let c = rocksdb::checkpoint::Checkpoint::new(&self.db).map_err(rocks)?;
        c.create_checkpoint(dir.as_ref()).map_err(rocks)
    }
}
