//! [`ChainMetrics`]: the EVM deriver's hook that adds each block to its hour, day, week and month
//! buckets (sums, maxima, exact distinct counts through each bucket's address set) and to the
//! running totals, in the block's own batch. Rows many blocks of a batch change are written once,
//! with their final value ([`PendingRows`]). A bucket's address set is needed only while blocks
//! still fall in it: once a block lands in a later bucket (block times never go back), the
//! finished bucket's set is deleted, so the sets hold the current buckets only.

use std::hash::Hash;

use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_node_index::IndexError;
use snowline_node_index::derive::{PendingRows, Staging};
use snowline_store::{Direction, Linear, ReadView, Store, StoreError, Table, WriteBatch};

use crate::activity::Activity;
use crate::interval::Interval;
use crate::rows::{Bucket, MetricsCursor, Rate};
use crate::tables::{CmBuckets, CmCursor, CmEver, CmSeen, seen};

/// The metrics deriver of one chain.
#[derive(Debug)]
pub struct ChainMetrics {
    chain: u64,
    /// The cursor after the staged blocks.
    staged: Option<MetricsCursor>,
    /// The cursor the store holds.
    written: Option<MetricsCursor>,
    buckets: PendingRows<CmBuckets>,
    seen: PendingRows<CmSeen>,
    ever: PendingRows<CmEver>,
}

/// A row as the unwritten batches leave it, else as the store has it; and whether the store
/// will hold the key once they are written.
fn current<T: Table>(
    rows: &PendingRows<T>,
    store: &Store,
    key: &T::Key,
) -> Result<(Option<T::Value>, bool), StoreError>
where
    T::Key: Eq + Hash,
    T::Value: Clone,
{
    Ok(match rows.get(key) {
        Some((value, stored)) => (value.cloned(), stored),
        None => {
            let value = store.get::<T>(key)?;
            let stored = value.is_some();
            (value, stored)
        }
    })
}

/// Merges `bits` into a seen-set row; returns the bits that are new.
fn merge<T: Table<Value = u8>>(
    rows: &mut PendingRows<T>,
    store: &Store,
    key: T::Key,
    bits: u8,
) -> Result<u8, StoreError>
where
    T::Key: Eq + Hash,
{
    let (old, stored) = current(rows, store, &key)?;
    let old = old.unwrap_or(0);
    let new = bits & !old;
    if new != 0 {
        rows.put(key, old | bits, stored);
    }
    Ok(new)
}

impl ChainMetrics {
    /// The deriver of chain `chain`'s metrics, from where `store` stands.
    pub fn open(store: &Store, chain: u64) -> Result<Self, StoreError> {
        let written = store.get::<CmCursor>(&chain)?.map(|Linear(c)| c);
        Ok(Self {
            chain,
            staged: written,
            written,
            buckets: PendingRows::default(),
            seen: PendingRows::default(),
            ever: PendingRows::default(),
        })
    }

    /// The hooks that give every followed EVM chain its metrics.
    pub fn hooks() -> BlockHooks {
        BlockHooks::new().with(|store, chain| {
            let hook: Box<dyn BlockHook> = Box::new(ChainMetrics::open(store, chain)?);
            Ok(hook)
        })
    }

    /// Where the staged blocks leave the metrics.
    pub fn cursor(&self) -> Option<MetricsCursor> {
        self.staged
    }

    /// Adds `block` (the next one; a block already counted is skipped).
    pub fn add(&mut self, store: &Store, block: &Block) -> Result<(), StoreError> {
        let prev = self.staged;
        if prev.is_some_and(|c| block.number < c.next) {
            return Ok(());
        }
        let c = self.chain;
        let time = block.timestamp;
        let activity = Activity::of(block);

        let mut totals = prev.map(|c| c.totals).unwrap_or_default();
        totals.txs += activity.txs;
        totals.contracts += activity.contracts;
        for (address, bits) in &activity.addresses {
            let bits = bits & (seen::ACTIVE | seen::DEPLOYER);
            let new = merge(&mut self.ever, store, (c, *address), bits)?;
            totals.addresses += u64::from(new & seen::ACTIVE != 0);
            totals.deployers += u64::from(new & seen::DEPLOYER != 0);
        }
        // The block's rates: over the seconds since its parent (a block in its parent's second
        // counts as one second); the first block the metrics see has none.
        let since_parent = prev.map(|p| time.saturating_sub(p.last_time).max(1));
        let rate = |amount| Rate {
            amount,
            seconds: since_parent.unwrap_or(0),
        };

        for interval in Interval::ALL {
            let start = interval.start(time);
            if let Some(p) = prev {
                let finished = interval.start(p.last_time);
                if finished < start {
                    self.forget_addresses(store, interval, finished)?;
                }
            }
            let key = (c, interval.code(), start);
            let (row, stored) = current(&self.buckets, store, &key)?;
            let mut b = row.map(|Linear(b)| b).unwrap_or(Bucket {
                span_from: prev.map_or(time, |p| p.last_time),
                ..Bucket::default()
            });
            b.blocks += 1;
            b.txs += activity.txs;
            b.gas_used = b.gas_used.saturating_add(activity.gas_used);
            b.fees = b.fees.saturating_add(activity.fees);
            b.gas_price_sum = b.gas_price_sum.saturating_add(activity.gas_price_sum);
            b.gas_price_max = b.gas_price_max.max(activity.gas_price_max);
            if since_parent.is_some() {
                let (tps, gps) = (rate(activity.txs), rate(activity.gas_used));
                if tps.exceeds(&b.max_tps) {
                    b.max_tps = tps;
                }
                if gps.exceeds(&b.max_gps) {
                    b.max_gps = gps;
                }
            }
            b.last_time = time;
            b.contracts += activity.contracts;
            for (address, bits) in &activity.addresses {
                let seen_key = (c, interval.code(), start, *address);
                let new = merge(&mut self.seen, store, seen_key, *bits)?;
                b.active_addresses += u64::from(new & seen::ACTIVE != 0);
                b.active_senders += u64::from(new & seen::SENDER != 0);
                b.deployers += u64::from(new & seen::DEPLOYER != 0);
            }
            b.totals = totals;
            self.buckets.put(key, Linear(b), stored);
        }
        self.staged = Some(MetricsCursor {
            first: prev.map_or(block.number, |p| p.first),
            next: block.number + 1,
            last_time: time,
            totals,
        });
        Ok(())
    }

    /// Deletes the address set of the bucket of `interval` starting at `start`, which has ended:
    /// its rows in the store and those the unwritten batches added.
    fn forget_addresses(
        &mut self,
        store: &Store,
        interval: Interval,
        start: u64,
    ) -> Result<(), StoreError> {
        let prefix = (self.chain, interval.code(), start);
        let mut keys = Vec::new();
        for entry in store.prefix_scan::<CmSeen, _>(&prefix, None, Direction::Forward)? {
            keys.push(entry?.0);
        }
        keys.extend(
            self.seen
                .changes()
                .map(|(k, _)| *k)
                .filter(|(c, i, s, _)| (*c, *i, *s) == prefix),
        );
        for key in keys {
            let (_, stored) = current(&self.seen, store, &key)?;
            self.seen.delete(key, stored);
        }
        Ok(())
    }

    fn parts(&mut self) -> [&mut dyn Staging; 3] {
        [&mut self.buckets, &mut self.seen, &mut self.ever]
    }
}

impl BlockHook for ChainMetrics {
    fn block(
        &mut self,
        store: &Store,
        chain: u64,
        block: &Block,
        _batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        if chain != self.chain {
            return Err(EvmError::Corrupt(format!(
                "the metrics of chain {} were given a block of chain {chain}",
                self.chain
            )));
        }
        Ok(self.add(store, block)?)
    }
}

impl Staging for ChainMetrics {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), IndexError> {
        self.parts().finish(batch, view)?;
        if let Some(cursor) = self.staged.filter(|s| Some(*s) != self.written) {
            batch.put::<CmCursor>(&self.chain, &Linear(cursor));
        }
        Ok(())
    }

    fn seal(&mut self) {
        self.parts().seal();
    }

    fn committed(&mut self) {
        self.parts().committed();
        self.written = self.staged;
    }

    fn discard(&mut self) {
        self.parts().discard();
        self.staged = self.written;
    }
}
