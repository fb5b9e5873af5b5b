//! Aggregation of metered calls into buckets and groups, with the usage metrics' figures.

use std::collections::{BTreeMap, HashMap};

use super::call::{Outcome, RpcCall};
use super::query::{RpcGroupBy, RpcQuery, RpcScope, UNKNOWN_PLACE};
use crate::error::{AccessError, Result};
use crate::usage::aggregate::median;
use crate::usage::calendar::{bucket_len, bucket_start};
use crate::usage::{Metric, UsageMetricsValue};

/// Credits a call costs: one, whatever the method (`docs/access.md`, "RPC usage").
const CREDITS_PER_CALL: u64 = 1;

/// Running totals of one group in one bucket.
#[derive(Debug, Default)]
struct Totals {
    requests: u64,
    successes: u64,
    invalid: u64,
    latencies_us: Vec<u64>,
}

/// Folds calls one at a time into the buckets of an [`RpcQuery`].
#[derive(Debug)]
pub(crate) struct RpcAggregator<'q> {
    query: &'q RpcQuery,
    buckets: BTreeMap<i64, HashMap<String, Totals>>,
}

impl<'q> RpcAggregator<'q> {
    /// Checks the range and starts empty.
    pub(crate) fn new(query: &'q RpcQuery) -> Result<Self> {
        if query.start_ms > query.end_ms {
            return Err(AccessError::InvalidRange {
                start_ms: query.start_ms,
                end_ms: query.end_ms,
            });
        }
        Ok(Self {
            query,
            buckets: BTreeMap::new(),
        })
    }

    /// Whether `c` falls in the range, the network, the scope, the organisation and the filters.
    fn matches(&self, c: &RpcCall) -> bool {
        let q = self.query;
        let f = &q.filters;
        let eq = |want: &Option<String>, have: &str| want.as_deref().is_none_or(|w| w == have);
        c.timestamp_ms >= q.start_ms
            && c.timestamp_ms < q.end_ms
            && c.network_id == q.network_id
            && c.primary == (q.scope == RpcScope::Primary)
            && eq(&q.org_id, &c.org_id)
            && eq(&f.chain_id, &c.chain_id)
            && f.response_code.is_none_or(|code| code == c.response_code)
            && eq(&f.rpc_method, &c.rpc_method)
            && eq(&f.api_key_id, &c.api_key_id)
            && eq(&f.request_path, &c.request_path)
            && eq(&f.country, UNKNOWN_PLACE)
            && eq(&f.continent, UNKNOWN_PLACE)
            && eq(&f.user_agent, &c.user_agent)
    }

    /// Adds `c` if it matches.
    pub(crate) fn add(&mut self, c: &RpcCall) {
        if !self.matches(c) {
            return;
        }
        let code;
        let group: &str = match self.query.group_by {
            None => "",
            Some(RpcGroupBy::RpcMethod) => &c.rpc_method,
            Some(RpcGroupBy::RlBypassToken) => &c.api_key_id,
            Some(RpcGroupBy::RequestPath) => &c.request_path,
            Some(RpcGroupBy::UserAgent) => &c.user_agent,
            Some(RpcGroupBy::Country | RpcGroupBy::Continent) => UNKNOWN_PLACE,
            Some(RpcGroupBy::ResponseCode) => {
                code = c.response_code.to_string();
                &code
            }
        };
        let groups = self
            .buckets
            .entry(bucket_start(c.timestamp_ms, self.query.interval))
            .or_default();
        let totals = match groups.get_mut(group) {
            Some(t) => t,
            None => groups.entry(group.to_owned()).or_default(),
        };
        totals.requests += 1;
        totals.successes += u64::from(c.outcome == Outcome::Success);
        totals.invalid += u64::from(c.outcome == Outcome::Invalid);
        totals.latencies_us.push(c.latency_us);
    }

    /// The buckets: non-empty ones ascending, groups by `totalRequests` desc then value.
    pub(crate) fn finish(self) -> Vec<Metric> {
        let interval = self.query.interval;
        let group_by = self.query.group_by;
        let grouped_by = group_by.map_or("None", RpcGroupBy::as_str);
        self.buckets
            .into_iter()
            .map(|(timestamp, groups)| {
                let len = bucket_len(timestamp, interval) as f64;
                let mut values: Vec<UsageMetricsValue> = groups
                    .into_iter()
                    .map(|(value, mut t)| UsageMetricsValue {
                        grouped_by: grouped_by.to_owned(),
                        group_value: group_by.map(|_| value),
                        total_requests: t.requests,
                        requests_per_second: t.requests as f64 / len,
                        success_rate_percent: t.successes as f64 * 100.0 / t.requests as f64,
                        median_response_time_msecs: median(&mut t.latencies_us) / 1000.0,
                        invalid_requests: t.invalid,
                        api_credits_used: t.requests * CREDITS_PER_CALL,
                        api_credits_wasted: t.invalid * CREDITS_PER_CALL,
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

/// Aggregates calls held in memory, with the semantics of
/// [`RpcUsageLog::aggregate`](super::RpcUsageLog::aggregate).
pub fn aggregate_calls<'a>(
    calls: impl IntoIterator<Item = &'a RpcCall>,
    query: &RpcQuery,
) -> Result<Vec<Metric>> {
    let mut agg = RpcAggregator::new(query)?;
    for c in calls {
        agg.add(c);
    }
    Ok(agg.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::Interval;

    fn call(ts_s: u64, method: &str, code: i32, outcome: Outcome, latency_us: u64) -> RpcCall {
        RpcCall {
            timestamp_ms: ts_s * 1000,
            network_id: 1,
            primary: true,
            chain_id: "X".into(),
            request_path: "/ext/bc/X".into(),
            rpc_method: method.into(),
            response_code: code,
            outcome,
            latency_us,
            org_id: "o".into(),
            api_key_id: "k".into(),
            user_agent: "ua".into(),
        }
    }

    fn query(group_by: Option<RpcGroupBy>) -> RpcQuery {
        RpcQuery {
            org_id: Some("o".into()),
            network_id: 1,
            scope: RpcScope::Primary,
            start_ms: 0,
            end_ms: 7 * 86_400_000,
            interval: Interval::Daily,
            group_by,
            filters: Default::default(),
        }
    }

    #[test]
    fn figures_by_method_and_by_day() {
        let calls = [
            call(10, "avm.getHeight", 200, Outcome::Success, 1_000),
            call(20, "avm.getHeight", 200, Outcome::Success, 3_000),
            call(30, "avm.nope", -32000, Outcome::Invalid, 500),
            call(86_400 + 5, "avm.getHeight", 504, Outcome::Failed, 9_000),
        ];
        let m = aggregate_calls(&calls, &query(Some(RpcGroupBy::RpcMethod))).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].timestamp, m[1].timestamp), (0, 86_400));
        let first = &m[0].values;
        assert_eq!(first[0].group_value.as_deref(), Some("avm.getHeight"));
        assert_eq!((first[0].total_requests, first[0].invalid_requests), (2, 0));
        assert_eq!(first[0].median_response_time_msecs, 2.0);
        assert_eq!(first[0].success_rate_percent, 100.0);
        assert_eq!(
            (first[1].api_credits_used, first[1].api_credits_wasted),
            (1, 1)
        );
        assert_eq!(m[1].values[0].success_rate_percent, 0.0);
        assert_eq!(m[1].values[0].invalid_requests, 0);
        // Another organisation's, another network's or the other scope's calls are not counted.
        let mut q = query(None);
        q.scope = RpcScope::Subnet;
        assert!(aggregate_calls(&calls, &q).unwrap().is_empty());
        q.scope = RpcScope::Primary;
        q.org_id = Some("p".into());
        assert!(aggregate_calls(&calls, &q).unwrap().is_empty());
        q.org_id = None;
        q.filters.country = Some(UNKNOWN_PLACE.into());
        q.filters.response_code = Some(-32000);
        let m = aggregate_calls(&calls, &q).unwrap();
        assert_eq!(m[0].values[0].total_requests, 1);
        assert_eq!(m[0].values[0].grouped_by, "None");
        assert_eq!(m[0].values[0].group_value, None);
        q.filters.country = Some("FR".into());
        assert!(aggregate_calls(&calls, &q).unwrap().is_empty());
    }
}
