//! Appending containers: [`IndexWriter`] stages rows into a caller's batch and advances once the
//! batch is durably written, so an append is atomic with everything derived from it.

use rustc_hash::FxHashMap;
use snowline_derive::{Overlay, Staging, Versions, settle};
use snowline_store::{ReadView, Store, WriteBatch};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};

use crate::error::IndexError;
use crate::reader::IndexReader;
use crate::tables::{ContainerIds, Containers, StoredContainerRef, path_code};

/// What [`IndexWriter::stage`] did with a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staged {
    /// Rows for a new container were added to the batch; it gets this index.
    New {
        /// The index it gets.
        index: u64,
    },
    /// The container is already in its path (committed or staged earlier): nothing was added.
    /// This is what makes a re-import or a resumed follow idempotent (avalanchego's `Accept` does
    /// the same).
    Duplicate {
        /// The index it already has.
        index: u64,
    },
}

impl Staged {
    /// The container's index either way.
    pub fn index(self) -> u64 {
        match self {
            Staged::New { index } | Staged::Duplicate { index } => index,
        }
    }
}

/// The cursor of the index: the next index of every path (loaded from the store at open) as the
/// staged, sealed and written batches leave it, and the ids of the containers staged or sealed
/// and not yet written, which the store does not show. One writer per store.
#[derive(Debug, Clone, Default)]
pub struct IndexWriter {
    next: Versions<[u64; 5]>,
    /// FxHash: the keys are container ids (hashes); SipHash cost more than the lookups.
    unwritten: Overlay<FxHashMap<(u8, Id), u64>>,
}

fn slot(path: IndexPath) -> usize {
    usize::from(path_code(path))
}

impl IndexWriter {
    /// Loads the next index of every path from `view`.
    pub fn open<V: ReadView>(view: &V) -> Result<Self, IndexError> {
        let mut next = [0u64; 5];
        for path in IndexPath::ALL {
            if let Some(n) = next.get_mut(slot(path)) {
                *n = IndexReader::new(view, path).len()?;
            }
        }
        Ok(Self {
            next: Versions::new(next),
            unwritten: Overlay::default(),
        })
    }

    /// The index the next committed container of `path` gets (= containers written).
    pub fn next_index(&self, path: IndexPath) -> u64 {
        self.next.written().get(slot(path)).copied().unwrap_or(0)
    }

    /// Like [`IndexWriter::next_index`] but counting containers staged and not yet committed.
    pub fn staged_next_index(&self, path: IndexPath) -> u64 {
        self.next.staged().get(slot(path)).copied().unwrap_or(0)
    }

    /// Whether containers are staged and not yet committed.
    pub fn has_staged(&self) -> bool {
        self.next.staged() != self.next.written()
    }

    /// Adds the rows of `record` to `batch` (unless it is already in its path, see
    /// [`Staged::Duplicate`]). `view` must show the committed index (the store this writer was
    /// opened on). The batch then follows the [`Staging`] protocol: sealed, then committed
    /// once written, or discarded if dropped.
    pub fn stage<V: ReadView>(
        &mut self,
        view: &V,
        batch: &mut WriteBatch,
        record: &ContainerRecord,
    ) -> Result<Staged, IndexError> {
        let code = path_code(record.path);
        if let Some(index) = self.unwritten_index(code, record.id) {
            return Ok(Staged::Duplicate { index });
        }
        if let Some(index) = view.get::<ContainerIds>(&(code, record.id))? {
            return Ok(Staged::Duplicate { index });
        }
        let Some(next) = self.next.staged_mut().get_mut(slot(record.path)) else {
            return Err(IndexError::Corrupt(format!("no slot for {}", record.path)));
        };
        let index = *next;
        batch.put_as::<Containers>(
            &(code, index),
            &StoredContainerRef {
                id: record.id,
                timestamp_ns: record.timestamp_ns,
                bytes: &record.bytes,
            },
        );
        batch.put::<ContainerIds>(&(code, record.id), &index);
        *next = index.saturating_add(1);
        self.unwritten.staged_mut().insert((code, record.id), index);
        Ok(Staged::New { index })
    }

    /// [`IndexWriter::stage`], checking that the container gets (or already has) index `stated`.
    pub fn stage_expecting<V: ReadView>(
        &mut self,
        view: &V,
        batch: &mut WriteBatch,
        record: &ContainerRecord,
        stated: u64,
    ) -> Result<Staged, IndexError> {
        let code = path_code(record.path);
        let actual = match self.unwritten_index(code, record.id) {
            Some(i) => Some(i),
            None => view.get::<ContainerIds>(&(code, record.id))?,
        }
        .unwrap_or_else(|| self.staged_next_index(record.path));
        if actual != stated {
            return Err(IndexError::IndexMismatch {
                path: record.path,
                id: record.id,
                stated,
                actual,
            });
        }
        self.stage(view, batch, record)
    }

    /// The index of a container staged or sealed and not yet written.
    fn unwritten_index(&self, code: u8, id: Id) -> Option<u64> {
        let key = (code, id);
        self.unwritten
            .staged()
            .get(&key)
            .or_else(|| self.unwritten.sealed().get(&key))
            .copied()
    }

    /// Seals the staged batch, writes `batch` to `store` and then marks it committed (or
    /// discards the staging when the write fails).
    pub fn write(&mut self, store: &Store, batch: &WriteBatch) -> Result<(), IndexError> {
        self.seal();
        Ok(settle(store.write(batch), self)?)
    }
}

impl Staging for IndexWriter {
    fn seal(&mut self) {
        self.next.seal();
        self.unwritten.seal();
    }

    fn committed(&mut self) {
        self.next.committed();
        self.unwritten.committed();
    }

    fn discard(&mut self) {
        self.next.discard();
        self.unwritten.discard();
    }
}
