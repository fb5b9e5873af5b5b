//! Reads of one path's index over any [`ReadView`] (the live store or a snapshot).

use std::sync::Arc;

use snowline_store::{Direction, ReadView, Store};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};

use crate::error::IndexError;
use crate::tables::{ContainerIds, Containers, StoredContainer, path_code};

/// A container with its position in its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedContainer {
    /// Its index (how many containers were accepted in this path before it).
    pub index: u64,
    /// The container id.
    pub id: Id,
    /// Acceptance time, ns since the Unix epoch.
    pub timestamp_ns: i64,
    /// The container bytes.
    pub bytes: Vec<u8>,
}

impl IndexedContainer {
    fn new(index: u64, c: StoredContainer) -> Self {
        Self {
            index,
            id: c.id,
            timestamp_ns: c.timestamp_ns,
            bytes: c.bytes,
        }
    }

    /// The record of this container in `path` (the import/export form).
    pub fn to_record(&self, path: IndexPath) -> ContainerRecord {
        ContainerRecord {
            path,
            id: self.id,
            bytes: self.bytes.clone(),
            timestamp_ns: self.timestamp_ns,
        }
    }
}

/// The container index of a shared store: what a service holds to read any path of it (one
/// [`IndexReader`] per call) without depending on the store itself.
#[derive(Debug, Clone)]
pub struct ContainerIndex {
    store: Arc<Store>,
}

impl ContainerIndex {
    /// The index in `store` (which holds [`tables`](crate::tables())).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// A reader of `path`.
    pub fn path(&self, path: IndexPath) -> IndexReader<'_, Store> {
        IndexReader::new(&self.store, path)
    }
}

/// Reads one path's index.
#[derive(Debug, Clone, Copy)]
pub struct IndexReader<'a, V: ReadView> {
    view: &'a V,
    path: IndexPath,
    code: u8,
}

impl<'a, V: ReadView> IndexReader<'a, V> {
    /// A reader of `path` over `view`.
    pub fn new(view: &'a V, path: IndexPath) -> Self {
        Self {
            view,
            path,
            code: path_code(path),
        }
    }

    /// The path read.
    pub fn path(&self) -> IndexPath {
        self.path
    }

    /// The container at `index`, if any.
    pub fn by_index(&self, index: u64) -> Result<Option<IndexedContainer>, IndexError> {
        Ok(self
            .view
            .get::<Containers>(&(self.code, index))?
            .map(|c| IndexedContainer::new(index, c)))
    }

    /// The index of container `id`, if it is in this path.
    pub fn index_of(&self, id: &Id) -> Result<Option<u64>, IndexError> {
        Ok(self.view.get::<ContainerIds>(&(self.code, *id))?)
    }

    /// The container `id` with its index, if it is in this path.
    pub fn by_id(&self, id: &Id) -> Result<Option<IndexedContainer>, IndexError> {
        let Some(index) = self.index_of(id)? else {
            return Ok(None);
        };
        match self.by_index(index)? {
            Some(c) if c.id == *id => Ok(Some(c)),
            _ => Err(IndexError::Corrupt(format!(
                "{} maps {id} to index {index}, which does not hold it",
                self.path
            ))),
        }
    }

    /// The last accepted container, or `None` when the path is empty.
    pub fn last_accepted(&self) -> Result<Option<IndexedContainer>, IndexError> {
        let mut scan =
            self.view
                .prefix_scan::<Containers, u8>(&self.code, None, Direction::Reverse)?;
        match scan.next() {
            None => Ok(None),
            Some(entry) => {
                let ((_, index), c) = entry?;
                Ok(Some(IndexedContainer::new(index, c)))
            }
        }
    }

    /// How many containers the path holds (= the index the next one gets).
    pub fn len(&self) -> Result<u64, IndexError> {
        Ok(self
            .last_accepted()?
            .map_or(0, |c| c.index.saturating_add(1)))
    }

    /// Whether the path holds no container.
    pub fn is_empty(&self) -> Result<bool, IndexError> {
        Ok(self.last_accepted()?.is_none())
    }

    /// Up to `n` containers from `start` on, in index order (fewer when the path ends).
    pub fn range(&self, start: u64, n: u64) -> Result<Vec<IndexedContainer>, IndexError> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let end = start.saturating_add(n - 1);
        let cap = usize::try_from(n.min(crate::MAX_FETCHED_BY_RANGE)).unwrap_or(1024);
        let mut out = Vec::with_capacity(cap);
        let scan = self
            .view
            .scan::<Containers, _>((self.code, start)..=(self.code, end), Direction::Forward)?;
        for entry in scan {
            let ((_, index), c) = entry?;
            out.push(IndexedContainer::new(index, c));
        }
        Ok(out)
    }
}
