//! Write batches: the store orders a batch by key before applying it and withdraws cancelled
//! puts; neither may change what the batch means (operations on one key keep their order).

// Test helpers outside #[test] fns may unwrap: a failure there is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use common::*;
use proptest::prelude::*;
use snowline_store::{Direction, ReadView, Store, WriteBatch};

/// One step of a generated batch: `table` 0 is `BlockIds`, 1 is `Blocks` (at height `key`).
#[derive(Debug, Clone)]
enum Step {
    Put {
        table: u8,
        key: u8,
        value: u8,
    },
    Delete {
        table: u8,
        key: u8,
    },
    /// Cancel the `n`-th put recorded so far (modulo their count), if there is one.
    Cancel {
        n: usize,
    },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0u8..2, 0u8..12, any::<u8>()).prop_map(|(table, key, value)| Step::Put { table, key, value }),
        2 => (0u8..2, 0u8..12).prop_map(|(table, key)| Step::Delete { table, key }),
        1 => any::<usize>().prop_map(|n| Step::Cancel { n }),
    ]
}

type Model = BTreeMap<(u8, u8), u8>;

/// The `Blocks` key of generated key `k`: four keys per height, so many distinct keys share
/// their first 8 bytes (the store's sort settles those with the full key).
fn blocks_key(k: u8) -> (u64, snowline_types::Id) {
    (u64::from(k / 4), id(u64::from(k % 4)))
}

/// Applies `steps` to `model` as one batch would, and records them in a `WriteBatch`.
fn record(steps: &[Step], model: &mut Model) -> WriteBatch {
    let mut batch = WriteBatch::new();
    // The puts recorded so far: handle, and the step they came from.
    let mut puts = Vec::new();
    let mut live: Vec<Option<&Step>> = Vec::new();
    for s in steps {
        match *s {
            Step::Put { table, key, value } => {
                let h = match table {
                    0 => batch.put_tracked::<BlockIds>(&id(u64::from(key)), &u64::from(value)),
                    _ => batch.put_tracked::<Blocks>(&blocks_key(key), &vec![value]),
                };
                puts.push((h, live.len()));
                live.push(Some(s));
            }
            Step::Delete { table, key } => {
                match table {
                    0 => batch.delete::<BlockIds>(&id(u64::from(key))),
                    _ => batch.delete::<Blocks>(&blocks_key(key)),
                };
                live.push(Some(s));
            }
            Step::Cancel { n } => {
                if !puts.is_empty() {
                    let (h, at) = puts[n % puts.len()];
                    let first = live[at].is_some();
                    assert_eq!(batch.cancel(h), first, "cancel reports whether it withdrew");
                    live[at] = None;
                }
            }
        }
    }
    assert_eq!(batch.len(), live.iter().flatten().count());
    for s in live.into_iter().flatten() {
        match *s {
            Step::Put { table, key, value } => {
                model.insert((table, key), value);
            }
            Step::Delete { table, key } => {
                model.remove(&(table, key));
            }
            Step::Cancel { .. } => {}
        }
    }
    batch
}

fn contents(store: &Store) -> Model {
    let mut m = Model::new();
    for r in store.scan::<BlockIds, _>(.., Direction::Forward).unwrap() {
        let (k, v) = r.unwrap();
        m.insert((0, k.0[7]), u8::try_from(v).unwrap());
    }
    for r in store.scan::<Blocks, _>(.., Direction::Forward).unwrap() {
        let ((h, i), v) = r.unwrap();
        m.insert((1, u8::try_from(h * 4).unwrap() + i.0[7]), v[0]);
    }
    m
}

#[test]
fn same_key_operations_keep_their_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    let mut b = WriteBatch::new();
    // Keys deliberately out of order; each key's operations in an order that matters.
    b.put::<BlockIds>(&id(9), &1);
    b.put::<BlockIds>(&id(2), &1);
    b.delete::<BlockIds>(&id(9));
    b.delete::<BlockIds>(&id(5));
    b.put::<BlockIds>(&id(5), &7);
    b.put::<BlockIds>(&id(2), &3);
    store.write(b).unwrap();
    assert_eq!(store.get::<BlockIds>(&id(9)).unwrap(), None);
    assert_eq!(store.get::<BlockIds>(&id(5)).unwrap(), Some(7));
    assert_eq!(store.get::<BlockIds>(&id(2)).unwrap(), Some(3));
}

#[test]
fn a_cancelled_put_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    store.put::<BlockIds>(&id(1), &10).unwrap();
    let mut b = WriteBatch::new();
    let h = b.put_tracked::<BlockIds>(&id(1), &11);
    b.put::<BlockIds>(&id(2), &2);
    let h3 = b.put_tracked::<BlockIds>(&id(3), &3);
    assert_eq!(b.len(), 3);
    assert!(b.cancel(h));
    assert!(b.cancel(h3));
    assert!(!b.cancel(h3), "a second cancel withdraws nothing");
    assert_eq!(b.len(), 1);
    store.write(b).unwrap();
    // The earlier value stays: a cancel withdraws the put, it is not a delete.
    assert_eq!(store.get::<BlockIds>(&id(1)).unwrap(), Some(10));
    assert_eq!(store.get::<BlockIds>(&id(2)).unwrap(), Some(2));
    assert_eq!(store.get::<BlockIds>(&id(3)).unwrap(), None);

    let mut empty = WriteBatch::new();
    let h = empty.put_tracked::<BlockIds>(&id(4), &4);
    empty.cancel(h);
    assert!(empty.is_empty());
    store.write(empty).unwrap();
    assert_eq!(store.get::<BlockIds>(&id(4)).unwrap(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Batches written one after another leave exactly what applying their live operations in
    /// recorded order to a map leaves.
    #[test]
    fn batches_mean_their_operations_in_order(
        batches in proptest::collection::vec(proptest::collection::vec(step(), 0..40), 1..4)
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &schema()).unwrap();
        let mut model = Model::new();
        for steps in &batches {
            let batch = record(steps, &mut model);
            store.write(batch).unwrap();
            prop_assert_eq!(&contents(&store), &model);
        }
    }
}
