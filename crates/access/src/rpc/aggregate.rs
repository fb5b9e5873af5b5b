//! Aggregation of metered calls: the query's range, network, scope, organisation and filters,
//! then [`Buckets`], with the usage metrics' figures.

use super::call::{Outcome, RpcCall};
use super::query::{RpcGroupBy, RpcQuery, RpcScope, UNKNOWN_PLACE};
use crate::error::Result;
use crate::usage::Metric;
use crate::usage::buckets::{Buckets, Sample};

/// Credits a call costs: one, whatever the method (`docs/access.md`, "RPC usage").
const CREDITS_PER_CALL: u64 = 1;

/// Folds calls one at a time into the buckets of an [`RpcQuery`].
#[derive(Debug)]
pub(crate) struct RpcAggregator<'q> {
    query: &'q RpcQuery,
    buckets: Buckets,
}

impl<'q> RpcAggregator<'q> {
    /// Checks the range and starts empty.
    pub(crate) fn new(query: &'q RpcQuery) -> Result<Self> {
        Ok(Self {
            query,
            buckets: Buckets::new(query.start_ms, query.end_ms, query.interval)?,
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
        let invalid = c.outcome == Outcome::Invalid;
        self.buckets.add(
            c.timestamp_ms,
            group,
            Sample {
                success: c.outcome == Outcome::Success,
                invalid,
                credits_used: CREDITS_PER_CALL,
                credits_wasted: if invalid { CREDITS_PER_CALL } else { 0 },
                latency_us: c.latency_us,
            },
        );
    }

    /// The buckets: non-empty ones ascending, groups by `totalRequests` desc then value.
    pub(crate) fn finish(self) -> Vec<Metric> {
        self.buckets
            .finish(self.query.group_by.map(RpcGroupBy::as_str))
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
