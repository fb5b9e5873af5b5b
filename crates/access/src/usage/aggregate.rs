//! Aggregation of the Data API's events: the query's range, organisation and filters, then
//! [`Buckets`].

use super::buckets::{Buckets, Sample};
use super::event::{UsageEvent, UsageEventRef};
use super::query::{GroupBy, UsageQuery};
use super::response::UsageMetrics;
use crate::error::{AccessError, Result};

/// Folds events one at a time into the answer of a [`UsageQuery`]: applies the range, the
/// organisation and the filters, buckets and groups what passes. Memory grows with the events
/// that pass (their latencies are kept for exact medians).
#[derive(Debug)]
pub struct Aggregator<'q> {
    query: &'q UsageQuery,
    response_code: Option<u16>,
    buckets: Buckets,
}

impl<'q> Aggregator<'q> {
    /// Checks the query (range order, a numeric `response_code` filter) and starts empty.
    pub fn new(query: &'q UsageQuery) -> Result<Self> {
        let buckets = Buckets::new(query.start_ms, query.end_ms, query.interval)?;
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
            buckets,
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
        self.buckets.add(
            e.timestamp_ms,
            group,
            Sample {
                success: (200..300).contains(&e.response_code),
                invalid: (400..500).contains(&e.response_code),
                credits_used: u64::from(e.credits_used),
                credits_wasted: u64::from(e.credits_wasted),
                latency_us: e.latency_us,
            },
        );
    }

    /// The answer: non-empty buckets ascending, groups by `totalRequests` desc then value.
    pub fn finish(self) -> UsageMetrics {
        UsageMetrics {
            aggregate_duration: self.query.interval.as_str().to_owned(),
            org_id: self.query.org_id.clone().unwrap_or_default(),
            metrics: self
                .buckets
                .finish(self.query.group_by.map(GroupBy::as_str)),
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
