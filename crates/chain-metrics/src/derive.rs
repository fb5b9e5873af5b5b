//! [`ChainMetrics`]: the EVM deriver's hook that adds each block to its hour, day, week and month
//! buckets (sums, maxima, exact distinct counts) and to the running totals, in the block's own
//! batch. Distinct counts come from when each address was last seen in each role
//! ([`LastSeen`]): block times never go back, so an address is new to a bucket exactly when it
//! was last seen before the bucket's start. Rows many blocks of a batch change are written once,
//! with their final value ([`PendingRows`]).

use std::hash::Hash;

use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_derive::{DeriveError, PendingRows, Staging, StagingParts};
use snowline_store::{Linear, ReadView, Store, StoreError, Table, WriteBatch};

use crate::activity::Activity;
use crate::interval::Interval;
use crate::rows::{Bucket, LastSeen, MetricsCursor, Rate, Totals};
use crate::tables::{Addr, CmAddresses, CmBuckets, CmCursor, seen};

/// The metrics deriver of one chain.
#[derive(Debug)]
pub struct ChainMetrics {
    chain: u64,
    /// The cursor after the staged blocks.
    staged: Option<MetricsCursor>,
    /// The cursor the store holds.
    written: Option<MetricsCursor>,
    buckets: PendingRows<CmBuckets>,
    addresses: PendingRows<CmAddresses>,
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

/// How many addresses a block makes new to each interval's bucket (in [`Interval::ALL`]'s
/// order), as actives, senders and deployers.
#[derive(Debug, Default)]
struct Fresh([[u64; 3]; 4]);

impl ChainMetrics {
    /// The deriver of chain `chain`'s metrics, from where `store` stands.
    pub fn open(store: &Store, chain: u64) -> Result<Self, StoreError> {
        let written = store.get::<CmCursor>(&chain)?.map(|Linear(c)| c);
        Ok(Self {
            chain,
            staged: written,
            written,
            buckets: PendingRows::default(),
            addresses: PendingRows::default(),
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
        let fresh = self.see(store, &activity, time, &mut totals)?;
        // The block's rates: over the seconds since its parent (a block in its parent's second
        // counts as one second); the first block the metrics see has none.
        let since_parent = prev.map(|p| time.saturating_sub(p.last_time).max(1));
        let rate = |amount| Rate {
            amount,
            seconds: since_parent.unwrap_or(0),
        };

        for (interval, [actives, senders, deployers]) in Interval::ALL.into_iter().zip(fresh.0) {
            let start = interval.start(time);
            let key = (c, interval.code(), start);
            let (row, stored) = current(&self.buckets, store, &key)?;
            let mut b = row.unwrap_or(Bucket {
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
            b.active_addresses += actives;
            b.active_senders += senders;
            b.deployers += deployers;
            b.totals = totals;
            self.buckets.put(key, b, stored);
        }
        self.staged = Some(MetricsCursor {
            first: prev.map_or(block.number, |p| p.first),
            next: block.number + 1,
            last_time: time,
            totals,
        });
        Ok(())
    }

    /// Records when the block's addresses were seen; counts those new to each bucket and to
    /// the chain (into `totals`). The rows the unwritten batches lack are read in one
    /// `multi_get`.
    fn see(
        &mut self,
        store: &Store,
        activity: &Activity,
        time: u64,
        totals: &mut Totals,
    ) -> Result<Fresh, StoreError> {
        let c = self.chain;
        let unknown: Vec<(u64, Addr)> = activity
            .addresses
            .keys()
            .map(|a| (c, *a))
            .filter(|k| self.addresses.get(k).is_none())
            .collect();
        let mut read = store.multi_get::<CmAddresses>(&unknown)?.into_iter();
        let starts = Interval::ALL.map(|i| i.start(time));
        let mut fresh = Fresh::default();
        for (address, bits) in &activity.addresses {
            let key = (c, *address);
            let (row, stored) = match self.addresses.get(&key) {
                Some((row, stored)) => (row.map(|Linear(l)| *l), stored),
                None => {
                    let row = read.next().flatten().map(|Linear(l)| l);
                    (row, row.is_some())
                }
            };
            let mut last: LastSeen = row.unwrap_or_default();
            totals.addresses += u64::from(bits & seen::ACTIVE != 0 && last.active.is_none());
            totals.deployers += u64::from(bits & seen::DEPLOYER != 0 && last.deployer.is_none());
            let mut changed = false;
            let roles = [
                (seen::ACTIVE, &mut last.active),
                (seen::SENDER, &mut last.sender),
                (seen::DEPLOYER, &mut last.deployer),
            ];
            for (role, (bit, slot)) in roles.into_iter().enumerate() {
                if bits & bit == 0 {
                    continue;
                }
                for (i, interval) in Interval::ALL.into_iter().enumerate() {
                    if slot.is_none_or(|t| interval.start(t) < starts[i]) {
                        fresh.0[i][role] += 1;
                    }
                }
                // Every bucket boundary is an hour's: a time in the same hour says the same.
                if slot.is_none_or(|t| Interval::Hour.start(t) < starts[0]) {
                    *slot = Some(time);
                    changed = true;
                }
            }
            if changed {
                self.addresses.put(key, Linear(last), stored);
            }
        }
        Ok(fresh)
    }
}

impl StagingParts for ChainMetrics {
    fn parts(&mut self) -> impl Staging + '_ {
        [&mut self.buckets as &mut dyn Staging, &mut self.addresses]
    }

    /// After the rows: the cursor, when the batch moved it.
    fn finish_own(&mut self, batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        if let Some(cursor) = self.staged.filter(|s| Some(*s) != self.written) {
            batch.put::<CmCursor>(&self.chain, &Linear(cursor));
        }
        Ok(())
    }

    fn committed_own(&mut self) {
        self.written = self.staged;
    }

    fn discard_own(&mut self) {
        self.staged = self.written;
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
