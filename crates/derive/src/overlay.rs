//! The generations of unwritten state a deriver or a cursor keeps: what the staged batch changed,
//! and what the sealed batch changed until it is written (write-behind, `docs/node-index.md`).
//! The store shows neither yet, so reads look here first.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use crate::staging::Staging;

/// A collection an [`Overlay`] can hold: emptied, tested for emptiness, and merged into.
pub trait OverlayCollection: Default + IntoIterator + Extend<<Self as IntoIterator>::Item> {
    /// Whether it holds nothing.
    fn is_empty(&self) -> bool;
    /// Empties it, keeping its allocation.
    fn clear(&mut self);
}

impl<K: Eq + Hash, V, S: BuildHasher + Default> OverlayCollection for HashMap<K, V, S> {
    fn is_empty(&self) -> bool {
        HashMap::is_empty(self)
    }
    fn clear(&mut self) {
        HashMap::clear(self);
    }
}

impl<T: Eq + Hash, S: BuildHasher + Default> OverlayCollection for HashSet<T, S> {
    fn is_empty(&self) -> bool {
        HashSet::is_empty(self)
    }
    fn clear(&mut self) {
        HashSet::clear(self);
    }
}

/// The entries of the staged batch and those of the sealed batch until it is written (at most one
/// sealed batch is unwritten: a batch is sealed only after the previous one was written).
#[derive(Debug, Clone, Default)]
pub struct Overlay<C> {
    staged: C,
    sealed: C,
}

impl<C: OverlayCollection> Overlay<C> {
    /// The staged batch's entries.
    pub fn staged(&self) -> &C {
        &self.staged
    }

    /// The staged batch's entries, to change.
    pub fn staged_mut(&mut self) -> &mut C {
        &mut self.staged
    }

    /// The sealed batch's entries (empty once it is written).
    pub fn sealed(&self) -> &C {
        &self.sealed
    }
}

impl<C: OverlayCollection> Staging for Overlay<C> {
    /// Moves the staged entries to the sealed generation. The sealed one is empty here (its
    /// batch was written before this one was sealed), so the two change places, which costs
    /// nothing per entry and keeps both allocations; otherwise they are merged, the newer
    /// entries winning.
    fn seal(&mut self) {
        if self.sealed.is_empty() {
            std::mem::swap(&mut self.staged, &mut self.sealed);
        } else {
            self.sealed.extend(std::mem::take(&mut self.staged));
        }
    }

    fn committed(&mut self) {
        self.sealed.clear();
    }

    fn discard(&mut self) {
        self.staged.clear();
        self.sealed.clear();
    }
}

/// A value as the staged batch leaves it, as the sealed batch leaves it, and as written (the
/// next index of a path, a sequence counter).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Versions<T> {
    staged: T,
    sealed: T,
    committed: T,
}

impl<T: Copy> Versions<T> {
    /// `value` in every generation (as loaded from the store).
    pub fn new(value: T) -> Self {
        Self {
            staged: value,
            sealed: value,
            committed: value,
        }
    }

    /// The value once the staged batch is written.
    pub fn staged(&self) -> T {
        self.staged
    }

    /// The value, to change in the staged batch.
    pub fn staged_mut(&mut self) -> &mut T {
        &mut self.staged
    }

    /// The value the store holds.
    pub fn written(&self) -> T {
        self.committed
    }
}

impl<T: Copy> Staging for Versions<T> {
    fn seal(&mut self) {
        self.sealed = self.staged;
    }

    fn committed(&mut self) {
        self.committed = self.sealed;
    }

    fn discard(&mut self) {
        self.sealed = self.committed;
        self.staged = self.committed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlay_seals_by_swapping_into_an_empty_generation_and_merges_otherwise() {
        let mut o = Overlay::<HashMap<u8, char>>::default();
        o.staged_mut().extend([(1, 'a'), (2, 'b')]);
        o.seal();
        assert!(o.staged().is_empty());
        assert_eq!(*o.sealed(), HashMap::from([(1, 'a'), (2, 'b')]));

        // Only reachable when a sealed batch was not written before the next seal.
        o.staged_mut().extend([(2, 'c'), (3, 'd')]);
        o.seal();
        assert_eq!(*o.sealed(), HashMap::from([(1, 'a'), (2, 'c'), (3, 'd')]));

        o.committed();
        assert!(o.sealed().is_empty());
        o.staged_mut().insert(4, 'e');
        o.seal();
        o.staged_mut().insert(5, 'f');
        o.discard();
        assert!(o.staged().is_empty() && o.sealed().is_empty());
    }

    #[test]
    fn versions_follow_a_batch_from_staged_to_committed_or_back() {
        let mut v = Versions::new(10u64);
        *v.staged_mut() = 12;
        v.seal();
        *v.staged_mut() = 15;
        assert_eq!((v.staged(), v.written()), (15, 10));
        v.committed();
        assert_eq!((v.staged(), v.written()), (15, 12));
        // The batch staged after the written one is dropped: back to what is written.
        v.discard();
        assert_eq!((v.staged(), v.written()), (12, 12));
    }
}
