//! [`PendingRows`]: the rows of one table that the current batch changes, by key, written once
//! with their final value when the batch is complete. A batch then holds only what the store
//! must end with: one balance row per key however many txs changed it, one row per UTXO however
//! often the batch touched it. The rows of a finished batch stay readable until it is written,
//! so the next batch can be derived while the store writes the previous one.

use std::hash::Hash;

use rustc_hash::FxHashMap;
use snowline_store::{Store, Table, WriteBatch};

use crate::error::DeriveError;
use crate::overlay::Overlay;
use crate::staging::Staging;

/// What the batch does to one key.
#[derive(Debug, Clone)]
struct Row<V> {
    /// The value the key ends with (`None`: removed).
    value: Option<V>,
    /// Whether the key is in the committed store (a removal then needs a delete).
    stored: bool,
}

/// The rows of table `T` the staged batch changes, and those of the sealed batch until it is
/// written.
#[derive(Debug)]
pub struct PendingRows<T: Table>
where
    T::Key: Eq + Hash,
{
    rows: Overlay<FxHashMap<T::Key, Row<T::Value>>>,
}

impl<T: Table> Default for PendingRows<T>
where
    T::Key: Eq + Hash,
{
    fn default() -> Self {
        Self {
            rows: Overlay::default(),
        }
    }
}

impl<T: Table> PendingRows<T>
where
    T::Key: Eq + Hash,
{
    /// What the unwritten batches hold for `key` (the staged one first): `None` if neither
    /// touched it, else its value (`None` if removed) and whether the key is in the store once
    /// they are written — the `stored` to pass to [`PendingRows::put`] or
    /// [`PendingRows::delete`].
    pub fn get(&self, key: &T::Key) -> Option<(Option<&T::Value>, bool)> {
        match self.rows.staged().get(key) {
            Some(r) => Some((r.value.as_ref(), r.stored)),
            None => self
                .rows
                .sealed()
                .get(key)
                .map(|r| (r.value.as_ref(), r.value.is_some())),
        }
    }

    /// The staged batch's value for `key`, to change in place; `None` if it did not set one.
    pub fn get_mut(&mut self, key: &T::Key) -> Option<&mut T::Value> {
        self.rows
            .staged_mut()
            .get_mut(key)
            .and_then(|r| r.value.as_mut())
    }

    /// Sets `key -> value`. `stored` says whether the key is in the store as the earlier
    /// batches leave it; only the staged batch's first change of a key uses it.
    pub fn put(&mut self, key: T::Key, value: T::Value, stored: bool) {
        self.row(key, stored).value = Some(value);
    }

    /// Removes `key`; `stored` as for [`PendingRows::put`].
    pub fn delete(&mut self, key: T::Key, stored: bool) {
        self.row(key, stored).value = None;
    }

    /// Every key the unwritten batches changed, with the value it ends with (`None`: removed),
    /// the staged batch's first: what a range scan of the store misses until they are written.
    pub fn changes(&self) -> impl Iterator<Item = (&T::Key, Option<&T::Value>)> {
        let staged = self.rows.staged();
        staged.iter().map(|(k, r)| (k, r.value.as_ref())).chain(
            self.rows
                .sealed()
                .iter()
                .filter(move |(k, _)| !staged.contains_key(*k))
                .map(|(k, r)| (k, r.value.as_ref())),
        )
    }

    /// Adds the final state of every key the staged batch changed to `batch`: a put, or a
    /// delete of a key the store has.
    pub fn write_to(&self, batch: &mut WriteBatch) {
        for (key, row) in self.rows.staged() {
            match &row.value {
                Some(value) => {
                    batch.put::<T>(key, value);
                }
                None if row.stored => {
                    batch.delete::<T>(key);
                }
                None => {}
            }
        }
    }

    fn row(&mut self, key: T::Key, stored: bool) -> &mut Row<T::Value> {
        self.rows.staged_mut().entry(key).or_insert(Row {
            value: None,
            stored,
        })
    }
}

impl<T: Table> Staging for PendingRows<T>
where
    T::Key: Eq + Hash,
{
    fn finish(&mut self, batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        self.write_to(batch);
        Ok(())
    }

    /// The staged rows stay readable, as the sealed batch's, until it is written.
    fn seal(&mut self) {
        self.rows.seal();
    }

    fn committed(&mut self) {
        self.rows.committed();
    }

    fn discard(&mut self) {
        self.rows.discard();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;
    use snowline_store::{ReadView, Schema};
    use std::collections::BTreeMap;

    #[derive(Debug, Clone, Copy)]
    struct Rows;
    impl Table for Rows {
        const NAME: &'static str = "rows";
        type Key = u8;
        type Value = u8;
    }

    #[derive(Debug, Clone)]
    enum Op {
        Put(u8, u8),
        Delete(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u8..6, any::<u8>()).prop_map(|(k, v)| Op::Put(k, v)),
            (0u8..6).prop_map(Op::Delete),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the committed rows and the batches' puts and deletes, the store ends as if
        /// each had been written, each batch holds at most one operation per key, and reads see
        /// every earlier change. Each batch is derived while the previous finished one is still
        /// unwritten, as the follower does, and written before the next one finishes.
        #[test]
        fn batches_end_as_the_plain_writes_would(
            before in proptest::collection::btree_map(0u8..6, any::<u8>(), 0..6),
            batches in proptest::collection::vec(proptest::collection::vec(op(), 0..20), 1..4),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path(), &Schema::new(1).with::<Rows>()).unwrap();
            let mut first = WriteBatch::new();
            for (k, v) in &before {
                first.put::<Rows>(k, v);
            }
            store.write(first).unwrap();

            let key = |op: &Op| match *op { Op::Put(k, _) | Op::Delete(k) => k };
            let mut model: BTreeMap<u8, u8> = before.clone();
            let mut pending = PendingRows::<Rows>::default();
            let mut sealed: Option<WriteBatch> = None;
            for ops in &batches {
                let mut batch = WriteBatch::new();
                for op in ops {
                    let k = key(op);
                    let stored = match pending.get(&k) {
                        Some((_, stored)) => stored,
                        None => store.get::<Rows>(&k).unwrap().is_some(),
                    };
                    match *op {
                        Op::Put(k, v) => {
                            pending.put(k, v, stored);
                            model.insert(k, v);
                        }
                        Op::Delete(k) => {
                            pending.delete(k, stored);
                            model.remove(&k);
                        }
                    }
                    let seen = match pending.get(&k) {
                        Some((v, _)) => v.copied(),
                        None => store.get::<Rows>(&k).unwrap(),
                    };
                    prop_assert_eq!(seen, model.get(&k).copied());
                }
                if let Some(previous) = sealed.take() {
                    store.write(&previous).unwrap();
                    pending.committed();
                }
                let touched = ops.iter().map(key).collect::<std::collections::BTreeSet<_>>();
                pending.finish(&mut batch, &store).unwrap();
                pending.seal();
                prop_assert!(batch.len() <= touched.len());
                // The finished batch stays readable until it is written.
                for k in 0u8..6 {
                    let seen = match pending.get(&k) {
                        Some((v, _)) => v.copied(),
                        None => store.get::<Rows>(&k).unwrap(),
                    };
                    prop_assert_eq!(seen, model.get(&k).copied());
                }
                sealed = Some(batch);
            }
            if let Some(last) = sealed {
                store.write(&last).unwrap();
                pending.committed();
            }
            prop_assert!((0u8..6).all(|k| pending.get(&k).is_none()));
            let stored: BTreeMap<u8, u8> = store
                .scan::<Rows, _>(.., snowline_store::Direction::Forward)
                .unwrap()
                .map(|e| e.unwrap())
                .collect();
            prop_assert_eq!(stored, model);
        }
    }
}
