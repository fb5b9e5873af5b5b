//! Shared helpers of the usage tests: a store with the usage tables, an event builder, and a
//! naive model of the aggregation to check the real one against.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_access::usage::{
    GroupBy, UsageEvent, UsageLog, UsageQuery, UsageWriter, WriterConfig, calendar, tables,
};
use snowline_store::{Schema, Store};

/// 2024-01-01T00:00:00Z in Unix seconds, a Monday (`date -u -d 2024-01-01 +%s`).
pub const JAN_1_2024: u64 = 1_704_067_200;
/// One day in seconds.
pub const DAY: u64 = 86_400;

/// A store holding only the usage tables, and a log over it; keep the dir alive.
pub fn open_log() -> (tempfile::TempDir, UsageLog) {
    let dir = tempfile::tempdir().unwrap();
    let schema = tables().into_iter().fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir.path(), &schema).unwrap();
    (dir, UsageLog::new(Arc::new(store)))
}

/// Records `events` through a writer and flushes.
pub fn record_all(log: &UsageLog, events: &[UsageEvent]) {
    let writer = UsageWriter::start(log.clone(), WriterConfig::default()).unwrap();
    for e in events {
        writer.record(e.clone());
    }
    writer.flush().unwrap();
    assert_eq!(writer.dropped(), 0);
    assert_eq!(writer.written(), events.len() as u64);
}

/// A successful `data` request of org `org-a` at `ts_ms`.
pub fn ev(ts_ms: u64) -> UsageEvent {
    UsageEvent {
        timestamp_ms: ts_ms,
        org_id: "org-a".into(),
        api_key_id: "00112233aabbccdd".into(),
        request_path: "/v1/chains".into(),
        response_code: 200,
        chain_id: Some("43114".into()),
        request_type: "data".into(),
        latency_us: 1_000,
        credits_used: 1,
        credits_wasted: 0,
        ip_address: "127.0.0.1".into(),
        host: "localhost".into(),
        user_agent: "test".into(),
    }
}

/// What a group's figures must be, computed the obvious way.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub total: u64,
    pub success_pct: f64,
    pub invalid: u64,
    pub used: u64,
    pub wasted: u64,
    pub median_ms: f64,
}

/// The value of `e`'s field `g`, as the aggregation reports it.
pub fn field(e: &UsageEvent, g: GroupBy) -> String {
    match g {
        GroupBy::RequestPath => e.request_path.clone(),
        GroupBy::ResponseCode => e.response_code.to_string(),
        GroupBy::ChainId => e.chain_id.clone().unwrap_or_default(),
        GroupBy::ApiKeyId => e.api_key_id.clone(),
        GroupBy::RequestType => e.request_type.clone(),
    }
}

/// Median by sorting.
pub fn naive_median(values: &[u64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
    }
}

/// The naive model: filter with plain comparisons, bucket, group, sum, sort.
pub fn model(events: &[UsageEvent], q: &UsageQuery) -> BTreeMap<(i64, Option<String>), Expected> {
    let mut groups: BTreeMap<(i64, Option<String>), Vec<&UsageEvent>> = BTreeMap::new();
    for e in events {
        let f = &q.filters;
        let keep = e.timestamp_ms >= q.start_ms
            && e.timestamp_ms < q.end_ms
            && q.org_id.as_ref().is_none_or(|o| *o == e.org_id)
            && f.chain_id
                .as_ref()
                .is_none_or(|v| *v == e.chain_id.clone().unwrap_or_default())
            && f.request_type.as_ref().is_none_or(|v| *v == e.request_type)
            && f.api_key_id.as_ref().is_none_or(|v| *v == e.api_key_id)
            && f.request_path.as_ref().is_none_or(|v| *v == e.request_path)
            && f.response_code
                .as_ref()
                .is_none_or(|v| *v == e.response_code.to_string());
        if keep {
            let bucket = calendar::bucket_start(e.timestamp_ms, q.interval);
            groups
                .entry((bucket, q.group_by.map(|g| field(e, g))))
                .or_default()
                .push(e);
        }
    }
    groups
        .into_iter()
        .map(|(k, es)| {
            let n = es.len() as u64;
            let ok = es.iter().filter(|e| e.response_code / 100 == 2).count() as f64;
            let lat: Vec<u64> = es.iter().map(|e| e.latency_us).collect();
            let exp = Expected {
                total: n,
                success_pct: ok * 100.0 / n as f64,
                invalid: es.iter().filter(|e| e.response_code / 100 == 4).count() as u64,
                used: es.iter().map(|e| u64::from(e.credits_used)).sum(),
                wasted: es.iter().map(|e| u64::from(e.credits_wasted)).sum(),
                median_ms: naive_median(&lat) / 1000.0,
            };
            (k, exp)
        })
        .collect()
}

/// Checks an answer against the model: same groups with the same figures, buckets ascending,
/// groups ordered by total desc then value, `groupedBy` right, rates consistent.
pub fn check_against_model(
    events: &[UsageEvent],
    q: &UsageQuery,
    got: &snowline_access::usage::UsageMetrics,
) {
    let want = model(events, q);
    let mut seen = BTreeMap::new();
    let mut last_ts = None;
    for m in &got.metrics {
        assert!(
            last_ts < Some(m.timestamp),
            "buckets ascending and distinct"
        );
        last_ts = Some(m.timestamp);
        assert!(!m.values.is_empty(), "empty buckets are omitted");
        let len = calendar::bucket_len(m.timestamp, q.interval) as f64;
        for pair in m.values.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(
                a.total_requests > b.total_requests
                    || (a.total_requests == b.total_requests && a.group_value < b.group_value),
                "groups sorted: {a:?} before {b:?}"
            );
        }
        for v in &m.values {
            assert_eq!(v.grouped_by, q.group_by.map_or("None", |g| g.as_str()));
            assert_eq!(v.group_value.is_some(), q.group_by.is_some());
            assert_eq!(v.requests_per_second, v.total_requests as f64 / len);
            let got = Expected {
                total: v.total_requests,
                success_pct: v.success_rate_percent,
                invalid: v.invalid_requests,
                used: v.api_credits_used,
                wasted: v.api_credits_wasted,
                median_ms: v.median_response_time_msecs,
            };
            seen.insert((m.timestamp, v.group_value.clone()), got);
        }
    }
    assert_eq!(seen, want);
}
