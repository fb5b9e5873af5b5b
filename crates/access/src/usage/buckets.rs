//! [`Buckets`]: what both usage aggregations (the Data API's events and `node-rpc`'s calls)
//! share: totals per interval bucket and group, then each group's figures.

use std::collections::{BTreeMap, HashMap};

use super::calendar::{bucket_len, bucket_start};
use super::query::Interval;
use super::response::{Metric, UsageMetricsValue};
use crate::error::{AccessError, Result};

/// What one request adds to its group's totals.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sample {
    /// Answered successfully.
    pub(crate) success: bool,
    /// Refused as the caller's mistake.
    pub(crate) invalid: bool,
    /// Credits it cost.
    pub(crate) credits_used: u64,
    /// Credits it cost for nothing.
    pub(crate) credits_wasted: u64,
    /// How long it took, in microseconds.
    pub(crate) latency_us: u64,
}

/// Running totals of one group in one bucket.
#[derive(Debug, Default)]
struct Totals {
    requests: u64,
    successes: u64,
    invalid: u64,
    credits_used: u64,
    credits_wasted: u64,
    latencies_us: Vec<u64>,
}

/// Requests bucketed by interval and grouped by a value. Memory grows with the requests added
/// (their latencies are kept for exact medians).
#[derive(Debug)]
pub(crate) struct Buckets {
    interval: Interval,
    buckets: BTreeMap<i64, HashMap<String, Totals>>,
}

impl Buckets {
    /// Empty buckets of `interval` for the range `[start_ms, end_ms)`, which must not be
    /// reversed.
    pub(crate) fn new(start_ms: u64, end_ms: u64, interval: Interval) -> Result<Self> {
        if start_ms > end_ms {
            return Err(AccessError::InvalidRange { start_ms, end_ms });
        }
        Ok(Self {
            interval,
            buckets: BTreeMap::new(),
        })
    }

    /// Adds a request made at `timestamp_ms` to the group `group` of its bucket.
    pub(crate) fn add(&mut self, timestamp_ms: u64, group: &str, sample: Sample) {
        let groups = self
            .buckets
            .entry(bucket_start(timestamp_ms, self.interval))
            .or_default();
        let totals = match groups.get_mut(group) {
            Some(t) => t,
            None => groups.entry(group.to_owned()).or_default(),
        };
        totals.requests += 1;
        totals.successes += u64::from(sample.success);
        totals.invalid += u64::from(sample.invalid);
        totals.credits_used = totals.credits_used.saturating_add(sample.credits_used);
        totals.credits_wasted = totals.credits_wasted.saturating_add(sample.credits_wasted);
        totals.latencies_us.push(sample.latency_us);
    }

    /// The figures: non-empty buckets ascending, groups by `totalRequests` desc then value.
    /// `grouped_by` names the grouping (`None`: one group per bucket, named `"None"`).
    pub(crate) fn finish(self, grouped_by: Option<&str>) -> Vec<Metric> {
        let interval = self.interval;
        self.buckets
            .into_iter()
            .map(|(timestamp, groups)| {
                let len = bucket_len(timestamp, interval) as f64;
                let mut values: Vec<UsageMetricsValue> = groups
                    .into_iter()
                    .map(|(value, mut t)| UsageMetricsValue {
                        grouped_by: grouped_by.unwrap_or("None").to_owned(),
                        group_value: grouped_by.map(|_| value),
                        total_requests: t.requests,
                        requests_per_second: t.requests as f64 / len,
                        success_rate_percent: t.successes as f64 * 100.0 / t.requests as f64,
                        median_response_time_msecs: median(&mut t.latencies_us) / 1000.0,
                        invalid_requests: t.invalid,
                        api_credits_used: t.credits_used,
                        api_credits_wasted: t.credits_wasted,
                    })
                    .collect();
                values.sort_by(|a, b| {
                    b.total_requests
                        .cmp(&a.total_requests)
                        .then_with(|| a.group_value.cmp(&b.group_value))
                });
                Metric { timestamp, values }
            })
            .collect()
    }
}

/// The true median of `values` (mean of the two middle ones for an even count; 0 when empty),
/// in O(n) by selection; reorders `values`.
fn median(values: &mut [u64]) -> f64 {
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    let (below, &mut upper, _) = values.select_nth_unstable(n / 2);
    if n % 2 == 1 {
        return upper as f64;
    }
    let lower = below.iter().copied().max().unwrap_or(upper);
    (lower as f64 + upper as f64) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_median(values: &[u64]) -> f64 {
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2] as f64
        } else {
            (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
        }
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&mut [5, 1, 3]), 3.0);
        assert_eq!(median(&mut [4, 1, 3, 2]), 2.5);
        assert_eq!(median(&mut [7]), 7.0);
        assert_eq!(median(&mut [1, 2]), 1.5);
        assert_eq!(median(&mut []), 0.0);
    }

    proptest! {
        #[test]
        fn median_matches_sorting(values in prop::collection::vec(0u64..10_000_000, 1..200)) {
            prop_assert_eq!(median(&mut values.clone()), naive_median(&values));
        }
    }
}
