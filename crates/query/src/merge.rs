//! A lazy k-way merge of sorted sources, emitting each key once.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::params::SortOrder;

/// Merges `sources`, each already sorted in `order` by `key`, into one sequence sorted the same
/// way. Items whose keys are equal — within or across sources — are emitted once, the one from the
/// lowest-numbered source winning; so the key must identify the item (for example
/// `(timestamp, utxo id)`: a multisig UTXO owned by two queried addresses then appears once).
///
/// Lazy: it holds one pending item per source and pulls the next from a source only when that
/// source's item is emitted or dropped as a duplicate, so `n` items cost O(n · log k) plus the
/// duplicates skipped.
pub fn merge_sorted<I, K, F>(sources: Vec<I>, order: SortOrder, key: F) -> MergeSorted<I, K, F>
where
    I: Iterator,
    K: Ord,
    F: FnMut(&I::Item) -> K,
{
    let mut merge = MergeSorted {
        heap: BinaryHeap::with_capacity(sources.len()),
        sources,
        order,
        key,
    };
    for source in 0..merge.sources.len() {
        merge.refill(source);
    }
    merge
}

/// The first `limit` items of [`merge_sorted`] over sources that can fail (store scans): the
/// first error any source yields ends the merge and is returned instead of a short answer.
pub fn merge_sorted_fallible<I, T, E, K, F>(
    sources: Vec<I>,
    order: SortOrder,
    key: F,
    limit: usize,
) -> Result<Vec<T>, E>
where
    I: Iterator<Item = Result<T, E>>,
    K: Ord,
    F: FnMut(&T) -> K,
{
    let failure: std::cell::RefCell<Option<E>> = std::cell::RefCell::new(None);
    let failure_ref = &failure;
    let sources = sources
        .into_iter()
        .map(|source| {
            source.map_while(move |item| match item {
                Ok(item) => Some(item),
                Err(e) => {
                    failure_ref.borrow_mut().get_or_insert(e);
                    None
                }
            })
        })
        .collect();
    let items: Vec<T> = merge_sorted(sources, order, key).take(limit).collect();
    match failure.into_inner() {
        Some(e) => Err(e),
        None => Ok(items),
    }
}

/// The iterator [`merge_sorted`] returns.
pub struct MergeSorted<I: Iterator, K, F> {
    sources: Vec<I>,
    heap: BinaryHeap<Head<I::Item, K>>,
    order: SortOrder,
    key: F,
}

/// A source's pending item, ordered so that the heap's maximum is the next to emit.
struct Head<T, K> {
    key: K,
    source: usize,
    order: SortOrder,
    item: T,
}

impl<T, K: Ord> Ord for Head<T, K> {
    fn cmp(&self, other: &Self) -> Ordering {
        let by_key = match self.order {
            SortOrder::Asc => other.key.cmp(&self.key),
            SortOrder::Desc => self.key.cmp(&other.key),
        };
        by_key.then_with(|| other.source.cmp(&self.source))
    }
}

impl<T, K: Ord> PartialOrd for Head<T, K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T, K: Ord> PartialEq for Head<T, K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T, K: Ord> Eq for Head<T, K> {}

impl<I, K, F> MergeSorted<I, K, F>
where
    I: Iterator,
    K: Ord,
    F: FnMut(&I::Item) -> K,
{
    /// Pulls the next item of `source` onto the heap, if it has one.
    fn refill(&mut self, source: usize) {
        let Some(next) = self.sources.get_mut(source).and_then(Iterator::next) else {
            return;
        };
        self.heap.push(Head {
            key: (self.key)(&next),
            source,
            order: self.order,
            item: next,
        });
    }
}

impl<I, K, F> Iterator for MergeSorted<I, K, F>
where
    I: Iterator,
    K: Ord,
    F: FnMut(&I::Item) -> K,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let head = self.heap.pop()?;
        self.refill(head.source);
        while self.heap.peek().is_some_and(|next| next.key == head.key) {
            if let Some(dup) = self.heap.pop() {
                self.refill(dup.source);
            }
        }
        Some(head.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallible_merge_takes_the_newest_or_returns_the_first_error() {
        let ok = |v: &[u32]| {
            v.iter()
                .map(|&x| Ok::<u32, &str>(x))
                .collect::<Vec<_>>()
                .into_iter()
        };
        let newest = merge_sorted_fallible(
            vec![ok(&[9, 5, 1]), ok(&[8, 5, 2])],
            SortOrder::Desc,
            |x| *x,
            4,
        );
        assert_eq!(newest, Ok(vec![9, 8, 5, 2]));
        let failing = vec![Ok(7), Err("disk"), Ok(1)].into_iter();
        let merged = merge_sorted_fallible(vec![ok(&[9, 3]), failing], SortOrder::Desc, |x| *x, 10);
        assert_eq!(merged, Err("disk"));
        // The merge holds the next item of each source: an error just past the items taken is
        // read, and fails the answer rather than leaving it silently short.
        let late = vec![Ok(7), Err("late")].into_iter();
        let merged = merge_sorted_fallible(vec![late], SortOrder::Desc, |x| *x, 1);
        assert_eq!(merged, Err("late"));
        let later = vec![Ok(7), Ok(6), Err("later")].into_iter();
        let merged = merge_sorted_fallible(vec![later], SortOrder::Desc, |x| *x, 1);
        assert_eq!(merged, Ok(vec![7]));
    }

    #[test]
    fn merges_in_either_order_and_emits_shared_keys_once() {
        let a = vec![(1, 'a'), (3, 'a'), (5, 'a')];
        let b = vec![(2, 'b'), (3, 'b'), (6, 'b')];
        let asc: Vec<_> = merge_sorted(
            vec![a.clone().into_iter(), b.clone().into_iter()],
            SortOrder::Asc,
            |x| x.0,
        )
        .collect();
        assert_eq!(asc, [(1, 'a'), (2, 'b'), (3, 'a'), (5, 'a'), (6, 'b')]);
        let desc: Vec<_> = merge_sorted(
            vec![a.into_iter().rev(), b.into_iter().rev()],
            SortOrder::Desc,
            |x| x.0,
        )
        .collect();
        assert_eq!(desc, [(6, 'b'), (5, 'a'), (3, 'a'), (2, 'b'), (1, 'a')]);
    }

    #[test]
    fn pulls_only_what_it_emits() {
        use std::cell::Cell;
        let pulled = Cell::new(0usize);
        let sources: Vec<_> = (0..4u64)
            .map(|s| {
                let pulled = &pulled;
                (0..).map(move |i| {
                    pulled.set(pulled.get() + 1);
                    i * 4 + s
                })
            })
            .collect();
        let first: Vec<u64> = merge_sorted(sources, SortOrder::Asc, |x| *x)
            .take(10)
            .collect();
        assert_eq!(first, (0..10).collect::<Vec<_>>());
        // One pending item per source, plus one refill per item emitted.
        assert_eq!(pulled.get(), 4 + 10);
    }

    proptest::proptest! {
        #[test]
        fn equals_the_sorted_distinct_union_first_source_winning(
            sets in proptest::collection::vec(proptest::collection::btree_set(0u8..60, 0..30), 0..6),
            desc in proptest::bool::ANY,
        ) {
            let order = if desc { SortOrder::Desc } else { SortOrder::Asc };
            let sources: Vec<Vec<(u8, usize)>> = sets
                .iter()
                .enumerate()
                .map(|(i, set)| {
                    let mut v: Vec<(u8, usize)> = set.iter().map(|k| (*k, i)).collect();
                    if desc { v.reverse(); }
                    v
                })
                .collect();
            let merged: Vec<(u8, usize)> =
                merge_sorted(sources.into_iter().map(Vec::into_iter).collect(), order, |x| x.0).collect();
            let mut want: Vec<(u8, usize)> = Vec::new();
            let mut keys: Vec<u8> = sets.iter().flatten().copied().collect::<std::collections::BTreeSet<_>>().into_iter().collect();
            if desc { keys.reverse(); }
            for k in keys {
                let first = sets.iter().position(|s| s.contains(&k)).unwrap();
                want.push((k, first));
            }
            proptest::prop_assert_eq!(merged, want);
        }
    }

    #[test]
    fn empty_sources_and_no_sources() {
        let none: Vec<std::vec::IntoIter<u8>> = Vec::new();
        assert_eq!(merge_sorted(none, SortOrder::Asc, |x| *x).count(), 0);
        let empties = vec![Vec::<u8>::new().into_iter(), vec![1].into_iter()];
        assert_eq!(
            merge_sorted(empties, SortOrder::Desc, |x| *x).collect::<Vec<_>>(),
            [1]
        );
    }
}
