//! Appending containers: [`IndexWriter`] stages rows into a caller's batch and advances once the
//! batch is durably written, so an append is atomic with everything derived from it.

use rustc_hash::FxHashMap;
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

/// Holds the next index of every path (loaded from the store at open), the containers staged
/// in the current batch, and those of a sealed batch being written. One writer per store.
#[derive(Debug, Clone, Default)]
pub struct IndexWriter {
    next: [u64; 5],
    /// The next indexes once the sealed batch is written.
    sealed_next: [u64; 5],
    staged_next: [u64; 5],
    /// FxHash: the keys are container ids (hashes); SipHash cost more than the lookups.
    staged_ids: FxHashMap<(u8, Id), u64>,
    /// The containers of the sealed batch, which the store may not show yet.
    sealed_ids: FxHashMap<(u8, Id), u64>,
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
            next,
            sealed_next: next,
            staged_next: next,
            staged_ids: FxHashMap::default(),
            sealed_ids: FxHashMap::default(),
        })
    }

    /// The index the next committed container of `path` gets (= containers written).
    pub fn next_index(&self, path: IndexPath) -> u64 {
        self.next.get(slot(path)).copied().unwrap_or(0)
    }

    /// Like [`IndexWriter::next_index`] but counting containers staged and not yet committed.
    pub fn staged_next_index(&self, path: IndexPath) -> u64 {
        self.staged_next.get(slot(path)).copied().unwrap_or(0)
    }

    /// Whether containers are staged and not yet committed.
    pub fn has_staged(&self) -> bool {
        self.staged_next != self.next
    }

    /// Adds the rows of `record` to `batch` (unless it is already in its path, see
    /// [`Staged::Duplicate`]). `view` must show the committed index (the store this writer was
    /// opened on). Call [`IndexWriter::committed`] after the batch is written, or
    /// [`IndexWriter::discard`] if it is dropped.
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
        let Some(next) = self.staged_next.get_mut(slot(record.path)) else {
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
        self.staged_ids.insert((code, record.id), index);
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
        self.staged_ids
            .get(&(code, id))
            .or_else(|| self.sealed_ids.get(&(code, id)))
            .copied()
    }

    /// The staged batch is complete and goes to the store: containers staged from now on
    /// belong to the next batch. [`IndexWriter::committed`] follows once it is written.
    pub fn seal(&mut self) {
        self.sealed_next = self.staged_next;
        self.sealed_ids.extend(self.staged_ids.drain());
    }

    /// The sealed batch was written: its containers become committed.
    pub fn committed(&mut self) {
        self.next = self.sealed_next;
        self.sealed_ids.clear();
    }

    /// The batches not written (staged, and sealed if its write failed) were dropped: forget
    /// what they held.
    pub fn discard(&mut self) {
        self.sealed_next = self.next;
        self.staged_next = self.next;
        self.staged_ids.clear();
        self.sealed_ids.clear();
    }

    /// Seals the staged batch, writes `batch` to `store` and then marks it committed (or
    /// discards the staging when the write fails).
    pub fn write(&mut self, store: &Store, batch: &WriteBatch) -> Result<(), IndexError> {
        self.seal();
        match store.write(batch) {
            Ok(()) => {
                self.committed();
                Ok(())
            }
            Err(e) => {
                self.discard();
                Err(e.into())
            }
        }
    }
}
