//! The readers' token-row cache: followed through the recorded C-Chain one block at a time,
//! with the cache read (and so filled) after every batch, every token row it answers equals the
//! row the store holds then, although rows change after they are first written (a token's names
//! come with its first transfer, after its probes at deployment). A deriver that is not told of
//! the cache leaves it stale, which is what the first test would catch.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use snowline_chain_evm::rows::TokenRow;
use snowline_chain_evm::tables::EvTokens;
use snowline_chain_evm::{SyncConfig, TokenCache, sync};
use snowline_evm_devnet::{C_CHAIN_ID, Recording, recording_path};
use snowline_store::{Direction, ReadView, Store};
use snowline_types::evm::Address;

/// Every token row of `chain` the store holds, read without the cache.
fn stored(store: &Store, chain: u64) -> BTreeMap<Address, TokenRow> {
    store
        .prefix_scan::<EvTokens, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, a), row) = e.unwrap();
            (Address::from(a), row.0)
        })
        .collect()
}

/// Follows the recording at `url` to `to`, the deriver clearing `tokens` when given.
async fn follow_to(store: &Store, url: &str, to: u64, tokens: Option<Arc<TokenCache>>) {
    let config = SyncConfig {
        poll: Duration::from_millis(5),
        stop_after: Some(to),
        tokens,
        ..SyncConfig::default()
    };
    sync(store, &source(url, 1), &config).await.unwrap();
}

/// The recording's head and a node replaying it.
async fn recorded() -> (u64, String) {
    let text = std::fs::read_to_string(recording_path(C_CHAIN_ID)).unwrap();
    let head = Recording::parse(&text).unwrap().head().unwrap();
    (head, replay(Recording::parse(&text).unwrap()).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cached_rows_follow_every_write_of_the_deriver() {
    let (head, url) = recorded().await;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    let cache = Arc::new(TokenCache::new(Arc::clone(&store)));
    let mut first_seen: BTreeMap<Address, TokenRow> = BTreeMap::new();
    let mut changed = 0;
    for block in 0..=head {
        follow_to(&store, &url, block, Some(Arc::clone(&cache))).await;
        let want = stored(&store, C_CHAIN_ID);
        // Twice: the first read fills the cache, the second answers from it.
        for _ in 0..2 {
            let got = cache
                .rows(C_CHAIN_ID, want.keys().copied().collect())
                .unwrap();
            assert_eq!(got, want, "after block {block}");
        }
        assert_eq!(cache.len(), want.len(), "after block {block}");
        for (a, row) in &want {
            match first_seen.get(a) {
                Some(first) if first != row => {
                    changed += 1;
                    first_seen.insert(*a, row.clone());
                }
                Some(_) => {}
                None => {
                    first_seen.insert(*a, row.clone());
                }
            }
        }
    }
    assert!(!first_seen.is_empty(), "the recording deploys tokens");
    assert!(changed > 0, "some token row changes after it is written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deriver_not_told_of_the_cache_leaves_it_stale() {
    let (head, url) = recorded().await;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    let cache = TokenCache::new(Arc::clone(&store));
    let mut stale = false;
    for block in 0..=head {
        follow_to(&store, &url, block, None).await;
        let want = stored(&store, C_CHAIN_ID);
        let got = cache
            .rows(C_CHAIN_ID, want.keys().copied().collect())
            .unwrap();
        stale |= got != want;
    }
    assert!(
        stale,
        "without the writer's clearing, a cached row outlives its change"
    );
}

#[test]
fn a_full_cache_starts_over_and_a_cleared_one_reads_the_store_again() {
    use snowline_store::{Linear, WriteBatch};
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    let cache = TokenCache::with_capacity(Arc::clone(&store), 3);
    let addrs: Vec<Address> = (1u8..=5).map(|i| Address::from([i; 20])).collect();
    let row = |first_block| TokenRow {
        first_block,
        ..TokenRow::default()
    };
    let mut batch = WriteBatch::new();
    for (i, a) in addrs.iter().enumerate() {
        batch.put::<EvTokens>(&(C_CHAIN_ID, a.0.0), &Linear(row(i as u64)));
    }
    store.write(batch).unwrap();

    let got = cache.rows(C_CHAIN_ID, addrs[..3].to_vec()).unwrap();
    assert_eq!(got.len(), 3);
    assert_eq!(cache.len(), 3);
    // Two more do not fit: the cache starts over with them.
    let got = cache.rows(C_CHAIN_ID, addrs[3..].to_vec()).unwrap();
    assert_eq!(got[&addrs[4]], row(4));
    assert_eq!(cache.len(), 2);
    // A contract never probed is absent, and not held.
    let unknown = Address::from([9; 20]);
    assert!(cache.rows(C_CHAIN_ID, vec![unknown]).unwrap().is_empty());
    assert_eq!(cache.len(), 2);

    // The writer changes a held row, then clears the cache: the next read has the new row.
    let mut batch = WriteBatch::new();
    batch.put::<EvTokens>(&(C_CHAIN_ID, addrs[4].0.0), &Linear(row(40)));
    store.write(batch).unwrap();
    assert_eq!(
        cache.rows(C_CHAIN_ID, vec![addrs[4]]).unwrap()[&addrs[4]],
        row(4)
    );
    cache.invalidate();
    assert!(cache.is_empty());
    assert_eq!(
        cache.rows(C_CHAIN_ID, vec![addrs[4]]).unwrap()[&addrs[4]],
        row(40)
    );
}
