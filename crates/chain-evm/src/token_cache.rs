//! [`TokenCache`]: the token rows (`ev_tokens`) the read pool serves most, kept in memory. A
//! token row is written when its contract is first probed and changes only when a later batch
//! completes it (its names), so a page of balances or transfers can skip the batched lookup of
//! its tokens. The deriver that writes the rows clears the cache once a batch that changed one
//! is written; a reader fills it only when no such write happened since it started reading.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use snowline_store::{Linear, ReadView, Store, StoreError};
use snowline_types::evm::Address;

use crate::rows::TokenRow;
use crate::tables::{Addr, EvTokens};

/// Token rows held at most (a few hundred bytes each); a full cache starts over.
pub const TOKEN_CACHE_ROWS: usize = 16_384;

/// Token rows of one store, shared by its writer (which clears it) and its readers (which fill
/// it). Only rows that exist are held: a contract never probed is looked up every time.
#[derive(Debug)]
pub struct TokenCache {
    store: Arc<Store>,
    /// Bumped (under the write lock) each time the writer clears the cache.
    generation: AtomicU64,
    rows: RwLock<HashMap<(u64, Addr), TokenRow>>,
    capacity: usize,
}

impl TokenCache {
    /// An empty cache of `store`'s token rows, holding at most [`TOKEN_CACHE_ROWS`].
    pub fn new(store: Arc<Store>) -> Self {
        Self::with_capacity(store, TOKEN_CACHE_ROWS)
    }

    /// An empty cache holding at most `capacity` rows.
    pub fn with_capacity(store: Arc<Store>, capacity: usize) -> Self {
        Self {
            store,
            generation: AtomicU64::new(0),
            rows: RwLock::new(HashMap::new()),
            capacity,
        }
    }

    /// Forgets every row: the writer calls it after writing a batch that changed a token row,
    /// before it derives from that batch's rows again.
    pub fn invalidate(&self) {
        let mut rows = self.rows.write().unwrap_or_else(|e| e.into_inner());
        self.generation.fetch_add(1, Ordering::AcqRel);
        rows.clear();
    }

    /// Rows held now.
    pub fn len(&self) -> usize {
        self.rows.read().map_or(0, |r| r.len())
    }

    /// Whether no row is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The token rows of `wanted` (sorted, without duplicates) on `chain`, as the store holds
    /// them now: the held ones from memory, the others in one batched lookup, which fills the
    /// cache unless the writer cleared it meanwhile (the rows read may then be older than the
    /// write, so they are not kept).
    pub fn rows(
        &self,
        chain: u64,
        wanted: Vec<Address>,
    ) -> Result<BTreeMap<Address, TokenRow>, StoreError> {
        let generation = self.generation.load(Ordering::Acquire);
        let mut found = BTreeMap::new();
        let mut missing: Vec<Address> = Vec::new();
        {
            let held = self.rows.read().unwrap_or_else(|e| e.into_inner());
            for a in wanted {
                match held.get(&(chain, a.0.0)) {
                    Some(row) => {
                        found.insert(a, row.clone());
                    }
                    None => missing.push(a),
                }
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        let keys: Vec<(u64, Addr)> = missing.iter().map(|a| (chain, a.0.0)).collect();
        let read = self.store.multi_get::<EvTokens>(&keys)?;
        let mut held = self.rows.write().unwrap_or_else(|e| e.into_inner());
        let keep = self.generation.load(Ordering::Acquire) == generation;
        if keep && held.len() + keys.len() > self.capacity {
            held.clear();
        }
        for (a, row) in missing.into_iter().zip(read) {
            if let Some(Linear(row)) = row {
                if keep && held.len() < self.capacity {
                    held.insert((chain, a.0.0), row.clone());
                }
                found.insert(a, row);
            }
        }
        Ok(found)
    }
}
