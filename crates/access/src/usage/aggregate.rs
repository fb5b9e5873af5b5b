//! Aggregation: events into buckets and groups, then the figures of each group.

use std::collections::{BTreeMap, HashMap};

use super::calendar::{bucket_len, bucket_start};
use super::event::{UsageEvent, UsageEventRef};
use super::query::{GroupBy, UsageQuery};
use super::response::{Metric, UsageMetrics, UsageMetricsValue};
use crate::error::{AccessError, Result};

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

/// Folds events one at a time into the answer of a [`UsageQuery`]: applies the range, the
/// organisation and the filters, buckets and groups what passes. Memory grows with the events
/// that pass (their latencies are kept for exact medians).
#[derive(Debug)]
pub struct Aggregator<'q> {
    query: &'q UsageQuery,
    response_code: Option<u16>,
    buckets: BTreeMap<i64, HashMap<String, Totals>>,
}

impl<'q> Aggregator<'q> {
    /// Checks the query (range order, a numeric `response_code` filter) and starts empty.
    pub fn new(query: &'q UsageQuery) -> Result<Self> {
        if query.start_ms > query.end_ms {
            return Err(AccessError::InvalidRange {
                start_ms: query.start_ms,
                end_ms: query.end_ms,
            });
        }
        let response_code = match &query.filters.response_code {
            None => None,
            Some(code) => Some(
                code.parse::<u16>()
                    .map_err(|_| AccessError::InvalidParameter {
                        name: "responseCode",
                        value: code.clone(),
                        reason: "expected an HTTP status code (0 to 65535)".to_owned(),
                    })?,
            ),
        };
        Ok(Self {
            query,
            response_code,
            buckets: BTreeMap::new(),
        })
    }

    /// Whether `e` falls in the query's range and passes its organisation and filters.
    pub fn matches(&self, e: &UsageEvent) -> bool {
        self.matches_ref(&e.as_ref())
    }

    /// [`matches`](Self::matches) on a borrowed view.
    pub fn matches_ref(&self, e: &UsageEventRef<'_>) -> bool {
        let q = self.query;
        let f = &q.filters;
        let eq = |want: &Option<String>, have: &str| want.as_deref().is_none_or(|w| w == have);
        e.timestamp_ms >= q.start_ms
            && e.timestamp_ms < q.end_ms
            && eq(&q.org_id, e.org_id)
            && eq(&f.chain_id, e.chain_id.unwrap_or_default())
            && eq(&f.request_type, e.request_type)
            && eq(&f.api_key_id, e.api_key_id)
            && eq(&f.request_path, e.request_path)
            && self.response_code.is_none_or(|c| c == e.response_code)
    }

    /// Adds `e` if it [`matches`](Self::matches).
    pub fn add(&mut self, e: &UsageEvent) {
        self.add_ref(&e.as_ref());
    }

    /// [`Aggregator::add`] for a borrowed event.
    pub(crate) fn add_ref(&mut self, e: &UsageEventRef<'_>) {
        if !self.matches_ref(e) {
            return;
        }
        let code;
        let group: &str = match self.query.group_by {
            None => "",
            Some(GroupBy::RequestPath) => e.request_path,
            Some(GroupBy::ChainId) => e.chain_id.unwrap_or_default(),
            Some(GroupBy::ApiKeyId) => e.api_key_id,
            Some(GroupBy::RequestType) => e.request_type,
            Some(GroupBy::ResponseCode) => {
                code = e.response_code.to_string();
                &code
            }
        };
        let groups = self
            .buckets
            .entry(bucket_start(e.timestamp_ms, self.query.interval))
            .or_default();
        let totals = match groups.get_mut(group) {
            Some(t) => t,
            None => groups.entry(group.to_owned()).or_default(),
        };
        totals.requests += 1;
        totals.successes += u64::from((200..300).contains(&e.response_code));
        totals.invalid += u64::from((400..500).contains(&e.response_code));
        totals.credits_used = totals
            .credits_used
            .saturating_add(u64::from(e.credits_used));
        totals.credits_wasted = totals
            .credits_wasted
            .saturating_add(u64::from(e.credits_wasted));
        totals.latencies_us.push(e.latency_us);
    }

    /// The answer: non-empty buckets ascending, groups by `totalRequests` desc then value.
    pub fn finish(self) -> UsageMetrics {
        let interval = self.query.interval;
        let grouped_by = self.query.group_by.map_or("None", GroupBy::as_str);
        let metrics = self
            .buckets
            .into_iter()
            .map(|(timestamp, groups)| {
                let len = bucket_len(timestamp, interval) as f64;
                let mut values: Vec<UsageMetricsValue> = groups
                    .into_iter()
                    .map(|(value, mut t)| UsageMetricsValue {
                        grouped_by: grouped_by.to_owned(),
                        group_value: self.query.group_by.map(|_| value),
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
            .collect();
        UsageMetrics {
            aggregate_duration: interval.as_str().to_owned(),
            org_id: self.query.org_id.clone().unwrap_or_default(),
            metrics,
        }
    }
}

/// Aggregates events held in memory (the same semantics as
/// [`UsageLog::aggregate`](super::UsageLog::aggregate), which feeds stored events through here).
pub fn aggregate_events<'a>(
    events: impl IntoIterator<Item = &'a UsageEvent>,
    query: &UsageQuery,
) -> Result<UsageMetrics> {
    let mut agg = Aggregator::new(query)?;
    for e in events {
        agg.add(e);
    }
    Ok(agg.finish())
}

/// The true median of `values` (mean of the two middle ones for an even count; 0 when empty),
/// in O(n) by selection; reorders `values`.
pub(crate) fn median(values: &mut [u64]) -> f64 {
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
