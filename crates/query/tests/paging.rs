//! Walking every page of a merged listing against an in-memory model (one sorted key set per
//! "address"), with each page resumed from the position sealed in the previous page's token.
//!
//! Invariants: every distinct key is served exactly once, in order, for any sources, page size
//! and order; and when keys are added between pages, those beyond the last position served appear,
//! none repeats and none of the earlier ones is skipped.

// Test helpers outside #[test] fns may unwrap: a failure there is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::ops::Bound;

use proptest::prelude::*;
use snowline_query::{
    FilterDigest, PositionReader, PositionWriter, SealedPageTokens, SortOrder, TokenSecret,
    merge_sorted, take_page,
};

/// A listing's key: (timestamp, item id), as a UTXO listing sorts.
type Key = (u64, u64);

const NOW: u64 = 1_700_000_000;

fn position_of(key: &Key) -> Vec<u8> {
    let mut w = PositionWriter::new();
    w.u64(key.0).u64(key.1);
    w.into_bytes()
}

fn key_of(position: &[u8]) -> Key {
    let mut r = PositionReader::new(position);
    let key = (r.u64().unwrap(), r.u64().unwrap());
    r.finish().unwrap();
    key
}

/// Every source's keys strictly after `after` in `order`, as the store's range scans give them.
fn scans<'a>(
    sources: &'a [BTreeSet<Key>],
    order: SortOrder,
    after: Option<Key>,
) -> Vec<Box<dyn Iterator<Item = Key> + 'a>> {
    sources
        .iter()
        .map(|set| -> Box<dyn Iterator<Item = Key> + 'a> {
            match (order, after) {
                (SortOrder::Asc, None) => Box::new(set.iter().copied()),
                (SortOrder::Desc, None) => Box::new(set.iter().rev().copied()),
                (SortOrder::Asc, Some(a)) => {
                    Box::new(set.range((Bound::Excluded(a), Bound::Unbounded)).copied())
                }
                (SortOrder::Desc, Some(a)) => Box::new(
                    set.range((Bound::Unbounded, Bound::Excluded(a)))
                        .rev()
                        .copied(),
                ),
            }
        })
        .collect()
}

/// Whether `key` comes after `pos` in `order`.
fn beyond(order: SortOrder, key: Key, pos: Key) -> bool {
    match order {
        SortOrder::Asc => key > pos,
        SortOrder::Desc => key < pos,
    }
}

/// Builds the sources: each key goes to the sources its owner mask names (at least one).
fn build(n: usize, items: &[(Key, u8)]) -> Vec<BTreeSet<Key>> {
    let mut sources = vec![BTreeSet::new(); n];
    for (key, mask) in items {
        for (i, set) in sources.iter_mut().enumerate() {
            if mask & (1 << i) != 0 || usize::from(*mask) % n == i {
                set.insert(*key);
            }
        }
    }
    sources
}

fn items(max: usize) -> impl Strategy<Value = Vec<(Key, u8)>> {
    proptest::collection::vec(((0u64..40, 0u64..1_000), any::<u8>()), 0..max)
}

/// Walks all pages; between pages `j` and `j + 1` adds `inserts[j]`. Returns the keys served and
/// the keys expected to be served.
fn walk(
    n: usize,
    initial: &[(Key, u8)],
    inserts: &[Vec<(Key, u8)>],
    page_size: u32,
    order: SortOrder,
) -> (Vec<Key>, BTreeSet<Key>) {
    let tokens = SealedPageTokens::new(TokenSecret::from_bytes([42; 32]));
    let digest = FilterDigest::new("test.walk")
        .field("sources", &n.to_string())
        .field("sortOrder", order.as_str())
        .finish();
    let mut sources = build(n, initial);
    let mut expected: BTreeSet<Key> = sources.iter().flatten().copied().collect();
    let mut served = Vec::new();
    let mut token: Option<String> = None;
    for page_no in 0.. {
        let after = token
            .as_deref()
            .map(|t| key_of(&tokens.decode(t, &digest, NOW).unwrap()));
        let page = take_page(
            merge_sorted(scans(&sources, order, after), order, |k| *k),
            page_size,
            position_of,
        );
        assert!(page.items.len() <= page_size as usize);
        served.extend_from_slice(&page.items);
        let Some(next) = page.next else { break };
        assert_eq!(
            page.items.len(),
            page_size as usize,
            "a short page claims more"
        );
        token = Some(tokens.encode(&digest, &next, Some(NOW + 3_600)));
        // New keys arrive between pages; those beyond the position must be served later.
        let pos = key_of(&next);
        if let Some(batch) = inserts.get(page_no) {
            for (key, mask) in batch {
                let i = usize::from(*mask) % n;
                sources[i].insert(*key);
                if beyond(order, *key, pos) {
                    expected.insert(*key);
                }
            }
        }
    }
    (served, expected)
}

fn check(served: &[Key], expected: &BTreeSet<Key>, order: SortOrder) {
    for pair in served.windows(2) {
        assert!(
            beyond(order, pair[1], pair[0]),
            "out of order or repeated: {pair:?}"
        );
    }
    let served_set: BTreeSet<Key> = served.iter().copied().collect();
    assert_eq!(served_set.len(), served.len(), "a key was served twice");
    assert_eq!(&served_set, expected);
}

proptest! {
    #[test]
    fn every_key_exactly_once_in_order(
        n in 1usize..6,
        initial in items(200),
        page_size in 1u32..=100,
        desc in any::<bool>(),
    ) {
        let order = if desc { SortOrder::Desc } else { SortOrder::Asc };
        let (served, expected) = walk(n, &initial, &[], page_size, order);
        check(&served, &expected, order);
    }

    #[test]
    fn appends_between_pages_neither_repeat_nor_skip(
        n in 1usize..6,
        initial in items(150),
        inserts in proptest::collection::vec(items(8), 0..40),
        page_size in 1u32..=20,
        desc in any::<bool>(),
    ) {
        let order = if desc { SortOrder::Desc } else { SortOrder::Asc };
        let (served, expected) = walk(n, &initial, &inserts, page_size, order);
        check(&served, &expected, order);
    }
}

#[test]
fn a_token_of_one_order_does_not_resume_the_other() {
    let tokens = SealedPageTokens::new(TokenSecret::from_bytes([42; 32]));
    let digest = |order: SortOrder| {
        FilterDigest::new("test.walk")
            .field("sortOrder", order.as_str())
            .finish()
    };
    let token = tokens.encode(&digest(SortOrder::Asc), &position_of(&(1, 2)), None);
    assert!(
        tokens
            .decode(&token, &digest(SortOrder::Desc), NOW)
            .is_err()
    );
    assert_eq!(
        key_of(&tokens.decode(&token, &digest(SortOrder::Asc), NOW).unwrap()),
        (1, 2)
    );
}
