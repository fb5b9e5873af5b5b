//! [`RpcUsageLog`]: the stored calls — appending, pruning, aggregating.

use snowline_store::{Direction, Part, ReadView, StoreError, Table, WriteBatch};

use super::aggregate::RpcAggregator;
use super::call::RpcCall;
use super::query::RpcQuery;
use super::table::{RpcCallsTable, schema};
use crate::error::Result;
use crate::side_store::{SideStore, side_store_owner};
use crate::usage::Metric;

/// Deletes per write batch while pruning.
const PRUNE_BATCH: usize = 10_000;

/// The metered calls, in a store of their own: `node-rpc` writes it ([`RpcUsageLog::open`]);
/// `data-api` follows it as a secondary ([`RpcUsageLog::open_secondary`]).
#[derive(Debug)]
pub struct RpcUsageLog {
    store: SideStore,
}

side_store_owner!(RpcUsageLog, schema, "the writer's calls");

impl RpcUsageLog {
    /// Writes `calls` in one atomic batch, keyed `(arrival ms, seq)` with `seq` taken from
    /// `next_seq` and advanced.
    pub fn append(&self, calls: &[RpcCall], next_seq: &mut u64) -> Result<()> {
        if calls.is_empty() {
            return Ok(());
        }
        let mut batch = WriteBatch::new();
        for c in calls {
            batch.put::<RpcCallsTable>(&(c.timestamp_ms, *next_seq), &c.encode());
            *next_seq = next_seq.wrapping_add(1);
        }
        Ok(self.store.write(batch)?)
    }

    /// Every stored call with `start_ms <= timestamp_ms < end_ms`, oldest first.
    pub fn calls(&self, start_ms: u64, end_ms: u64) -> Result<Vec<RpcCall>> {
        let mut out = Vec::new();
        self.for_each(start_ms, end_ms, |c| out.push(c))?;
        Ok(out)
    }

    /// Deletes every call older than `ts_ms` (retention); returns how many were deleted, in
    /// batches (tombstones; compaction reclaims the space later).
    pub fn prune_before(&self, ts_ms: u64) -> Result<u64> {
        let mut deleted = 0u64;
        let mut batch = WriteBatch::new();
        for entry in self
            .store
            .scan::<RpcCallsTable, _>(..(ts_ms, 0), Direction::Forward)?
        {
            let (key, _) = entry?;
            batch.delete::<RpcCallsTable>(&key);
            deleted += 1;
            if batch.len() >= PRUNE_BATCH {
                self.store.write(std::mem::take(&mut batch))?;
            }
        }
        if !batch.is_empty() {
            self.store.write(batch)?;
        }
        Ok(deleted)
    }

    /// Aggregates the calls of `q`'s range: one forward scan of `[start_ms, end_ms)`, every call
    /// decoded and folded; O(calls in range) time, O(matching calls) memory (their latencies,
    /// for exact medians).
    pub fn aggregate(&self, q: &RpcQuery) -> Result<Vec<Metric>> {
        let mut agg = RpcAggregator::new(q)?;
        self.for_each(q.start_ms, q.end_ms, |c| agg.add(&c))?;
        Ok(agg.finish())
    }

    /// Calls `f` on every call of `[start_ms, end_ms)`, oldest first.
    fn for_each(&self, start_ms: u64, end_ms: u64, mut f: impl FnMut(RpcCall)) -> Result<()> {
        if start_ms >= end_ms {
            return Ok(());
        }
        for entry in self
            .store
            .scan::<RpcCallsTable, _>((start_ms, 0)..(end_ms, 0), Direction::Forward)?
        {
            let ((ts, _), bytes) = entry?;
            let call = RpcCall::decode(&bytes, ts).map_err(|source| StoreError::Decode {
                table: RpcCallsTable::NAME,
                part: Part::Value,
                source,
            })?;
            f(call);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::{Outcome, RpcGroupBy, RpcScope};
    use crate::usage::Interval;

    fn call(ts_ms: u64, method: &str) -> RpcCall {
        RpcCall {
            timestamp_ms: ts_ms,
            network_id: 12_345,
            primary: false,
            chain_id: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5".into(),
            request_path: "/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc".into(),
            rpc_method: method.into(),
            response_code: 404,
            outcome: Outcome::Invalid,
            latency_us: 10,
            org_id: String::new(),
            api_key_id: String::new(),
            user_agent: String::new(),
        }
    }

    #[test]
    fn calls_are_kept_by_time_pruned_and_seen_by_a_secondary() {
        let dir = tempfile::tempdir().unwrap();
        let primary = dir.path().join("rpc-usage");
        let log = RpcUsageLog::open(&primary).unwrap();
        let mut seq = 0;
        // Two calls in the same millisecond stay apart.
        let calls = [call(1_000, "a"), call(1_000, "b"), call(90_000, "c")];
        log.append(&calls, &mut seq).unwrap();
        assert_eq!(log.calls(0, u64::MAX).unwrap(), calls);
        let reader = RpcUsageLog::open_secondary(&primary, dir.path().join("second")).unwrap();
        log.append(&[call(95_000, "d")], &mut seq).unwrap();
        reader.catch_up().unwrap();
        let q = RpcQuery {
            org_id: None,
            network_id: 12_345,
            scope: RpcScope::Subnet,
            start_ms: 0,
            end_ms: 86_400_000,
            interval: Interval::Hourly,
            group_by: Some(RpcGroupBy::RpcMethod),
            filters: Default::default(),
        };
        let m = reader.aggregate(&q).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].values.len(), 4);
        assert_eq!(log.prune_before(90_000).unwrap(), 2);
        let left: Vec<String> = log
            .calls(0, u64::MAX)
            .unwrap()
            .into_iter()
            .map(|c| c.rpc_method)
            .collect();
        assert_eq!(left, ["c", "d"]);
    }
}
