//! [`PendingRows`]: the rows of one table that the current batch changes, by key, written once
//! with their final value when the batch is complete. A batch then holds only what the store
//! must end with: one balance row per key however many txs changed it, one row per UTXO however
//! often the batch touched it.

use std::hash::Hash;

use rustc_hash::FxHashMap;
use snowline_store::{Table, WriteBatch};

/// What the batch does to one key.
#[derive(Debug, Clone)]
struct Row<V> {
    /// The value the key ends with (`None`: removed).
    value: Option<V>,
    /// Whether the key is in the committed store (a removal then needs a delete).
    stored: bool,
}

/// The rows of table `T` the current batch changes.
#[derive(Debug)]
pub(crate) struct PendingRows<T: Table>
where
    T::Key: Eq + Hash,
{
    rows: FxHashMap<T::Key, Row<T::Value>>,
}

impl<T: Table> Default for PendingRows<T>
where
    T::Key: Eq + Hash,
{
    fn default() -> Self {
        Self {
            rows: FxHashMap::default(),
        }
    }
}

impl<T: Table> PendingRows<T>
where
    T::Key: Eq + Hash,
{
    /// What the batch holds for `key`: `None` if untouched, `Some(None)` if removed.
    pub(crate) fn get(&self, key: &T::Key) -> Option<Option<&T::Value>> {
        self.rows.get(key).map(|r| r.value.as_ref())
    }

    /// The batch's value for `key`, to change in place; `None` if untouched or removed.
    pub(crate) fn get_mut(&mut self, key: &T::Key) -> Option<&mut T::Value> {
        self.rows.get_mut(key).and_then(|r| r.value.as_mut())
    }

    /// Sets `key -> value`. `stored` says whether the key is in the committed store; only the
    /// batch's first change of a key uses it.
    pub(crate) fn put(&mut self, key: T::Key, value: T::Value, stored: bool) {
        self.rows
            .entry(key)
            .or_insert(Row {
                value: None,
                stored,
            })
            .value = Some(value);
    }

    /// Removes `key`; `stored` as for [`PendingRows::put`].
    pub(crate) fn delete(&mut self, key: T::Key, stored: bool) {
        self.rows
            .entry(key)
            .or_insert(Row {
                value: None,
                stored,
            })
            .value = None;
    }

    /// Adds the final state of every changed key to `batch` (a put, or a delete of a key the
    /// store has) and forgets them.
    pub(crate) fn finish(&mut self, batch: &mut WriteBatch) {
        for (key, row) in self.rows.drain() {
            match row.value {
                Some(value) => {
                    batch.put::<T>(&key, &value);
                }
                None if row.stored => {
                    batch.delete::<T>(&key);
                }
                None => {}
            }
        }
    }

    /// Forgets everything (the batch was dropped).
    pub(crate) fn clear(&mut self) {
        self.rows.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use snowline_store::{ReadView, Schema, Store};
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

        /// Whatever the committed rows and the batch's puts and deletes, the store ends as if
        /// each had been written, and the batch holds at most one operation per key.
        #[test]
        fn batch_ends_as_the_plain_writes_would(
            before in proptest::collection::btree_map(0u8..6, any::<u8>(), 0..6),
            ops in proptest::collection::vec(op(), 0..40),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path(), &Schema::new(1).with::<Rows>()).unwrap();
            let mut first = WriteBatch::new();
            for (k, v) in &before {
                first.put::<Rows>(k, v);
            }
            store.write(first).unwrap();

            let mut model: BTreeMap<u8, u8> = before.clone();
            let mut pending = PendingRows::<Rows>::default();
            let mut batch = WriteBatch::new();
            for op in &ops {
                match *op {
                    Op::Put(k, v) => {
                        pending.put(k, v, before.contains_key(&k));
                        model.insert(k, v);
                    }
                    Op::Delete(k) => {
                        pending.delete(k, before.contains_key(&k));
                        model.remove(&k);
                    }
                }
                let got = pending.get(&match *op { Op::Put(k, _) | Op::Delete(k) => k });
                prop_assert_eq!(got.flatten().copied(), model.get(&match *op { Op::Put(k, _) | Op::Delete(k) => k }).copied());
            }
            let touched = ops.iter().map(|o| match *o { Op::Put(k, _) | Op::Delete(k) => k }).collect::<std::collections::BTreeSet<_>>();
            pending.finish(&mut batch);
            prop_assert!(batch.len() <= touched.len());
            prop_assert_eq!(pending.get(&0), None);
            store.write(&batch).unwrap();
            let stored: BTreeMap<u8, u8> = store
                .scan::<Rows, _>(.., snowline_store::Direction::Forward)
                .unwrap()
                .map(|e| e.unwrap())
                .collect();
            prop_assert_eq!(stored, model);
        }
    }
}
