//! [`MetadataQueue`]: the durable queue of tokens whose metadata is to be fetched, the reads a
//! fetch needs, the write of a result, and reindexing on request (at most once per interval per
//! token, as Glacier's `reindexNft` allows once an hour).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use snowline_store::{Direction, Linear, ReadView, Store, WriteBatch};
use snowline_types::evm::{Address, U256};
use tokio::sync::Notify;

use crate::error::EvmError;
use crate::rows::{MetadataRow, TransferKind};
use crate::tables::{Addr, EvNftMetadata, EvNftQueue, EvNftTokens, EvNftUris, Word};

/// A queued token: `(chain, order, contract, token id)`.
pub type QueueKey = (u64, u64, Addr, Word);

/// What a reindex request did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reindex {
    /// Queued, ahead of the tokens ingest queued.
    Queued,
    /// The collection never moved this token.
    Unknown,
    /// Reindexed less than the interval ago: this many seconds remain.
    TooSoon(u64),
}

/// The queue, over the index store.
#[derive(Debug)]
pub struct MetadataQueue {
    store: Arc<Store>,
    wake: Notify,
    interval: Duration,
    last: Mutex<HashMap<(u64, Addr, Word), Instant>>,
}

impl MetadataQueue {
    /// The queue in `store`; a token may be reindexed once per `interval`.
    pub fn new(store: Arc<Store>, interval: Duration) -> Self {
        Self {
            store,
            wake: Notify::new(),
            interval,
            last: Mutex::new(HashMap::new()),
        }
    }

    /// Queues token `id` of `contract` on `chain` again, unless it was less than the interval ago.
    pub fn reindex(&self, chain: u64, contract: Address, id: U256) -> Result<Reindex, EvmError> {
        let (c, w) = (contract.0.0, id.to_be_bytes::<32>());
        if self.store.get::<EvNftTokens>(&(chain, c, w))?.is_none() {
            return Ok(Reindex::Unknown);
        }
        {
            let mut last = self
                .last
                .lock()
                .map_err(|_| EvmError::Corrupt("reindex bookkeeping poisoned".to_owned()))?;
            let now = Instant::now();
            last.retain(|_, at| now.duration_since(*at) < self.interval);
            if let Some(at) = last.get(&(chain, c, w)) {
                let left = self.interval.saturating_sub(now.duration_since(*at));
                return Ok(Reindex::TooSoon(left.as_secs().max(1)));
            }
            last.insert((chain, c, w), now);
        }
        let mut batch = WriteBatch::new();
        batch.put::<EvNftQueue>(&(chain, 0, c, w), &());
        self.store.write(batch)?;
        self.wake.notify_one();
        Ok(Reindex::Queued)
    }

    /// At most `limit` queued tokens, reindexed ones first, then by block.
    pub(crate) fn pending(&self, limit: usize) -> Result<Vec<QueueKey>, EvmError> {
        self.store
            .scan::<EvNftQueue, _>(.., Direction::Forward)?
            .take(limit)
            .map(|e| e.map(|(k, ())| k).map_err(EvmError::from))
            .collect()
    }

    /// The token's URI as of its last move and its standard.
    pub(crate) fn token(
        &self,
        key: &QueueKey,
    ) -> Result<(Option<String>, Option<TransferKind>), EvmError> {
        let (chain, _, c, id) = *key;
        let uri = self.store.get::<EvNftUris>(&(chain, c, id))?;
        let kind = self
            .store
            .get::<EvNftTokens>(&(chain, c, id))?
            .and_then(|code| TransferKind::from_code(code).ok());
        Ok((uri, kind))
    }

    /// Writes `row` for the token of `key` and removes `key` from the queue, in one batch.
    pub(crate) fn finish(&self, key: &QueueKey, row: MetadataRow) -> Result<(), EvmError> {
        let (chain, _, c, id) = *key;
        let mut batch = WriteBatch::new();
        batch.put::<EvNftMetadata>(&(chain, c, id), &Linear(row));
        batch.delete::<EvNftQueue>(key);
        self.store.write(batch)?;
        Ok(())
    }

    /// Resolves when a token was queued by a reindex (or a permit was left by an earlier one).
    pub(crate) async fn woken(&self) {
        self.wake.notified().await;
    }
}
