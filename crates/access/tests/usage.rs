//! Usage metering end to end: writer, storage, aggregation by every grouping and interval,
//! filters, medians, rates, retention.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use proptest::prelude::*;
use snowline_access::AccessError;
use snowline_access::usage::{
    GroupBy, Interval, UsageEvent, UsageEventRef, UsageFilters, UsageQuery, UsageWriter,
    WriterConfig, aggregate_events,
};

/// A mix of paths, codes, chains, keys and types over two days, with uneven counts.
fn mixed_events() -> Vec<UsageEvent> {
    let base = JAN_1_2024 * 1000;
    let paths = [
        "/v1/chains",
        "/v1/chains/{chainId}/blocks",
        "/v1/apiUsageMetrics",
    ];
    let codes = [200, 200, 201, 404, 429, 500, 200];
    let chains = ["43114", "", "43113"];
    let keys_ = [
        "00112233aabbccdd",
        "",
        "ffeeddccbbaa9988",
        "00112233aabbccdd",
    ];
    (0..60u64)
        .map(|i| UsageEvent {
            timestamp_ms: base + i * 47 * 60_000 + i,
            org_id: if i % 5 == 0 {
                "org-b".into()
            } else {
                "org-a".into()
            },
            api_key_id: keys_[(i % 4) as usize].into(),
            request_path: paths[(i * i % 3) as usize].into(),
            response_code: codes[(i % 7) as usize],
            chain_id: chain(chains[(i % 3) as usize]),
            request_type: if i % 6 == 0 {
                "rpc".into()
            } else {
                "data".into()
            },
            latency_us: (i * 7_919) % 5_000 + 100,
            credits_used: u32::try_from(i % 4 + 1).unwrap_or(u32::MAX),
            credits_wasted: u32::from(i % 7 == 3),
            ip_address: String::new(),
            host: String::new(),
            user_agent: String::new(),
        })
        .collect()
}

fn whole_range() -> UsageQuery {
    UsageQuery {
        start_ms: 0,
        end_ms: u64::MAX,
        ..UsageQuery::default()
    }
}

/// A route's chain parameter as the REST edge records it: none for routes without one.
fn chain(id: &str) -> Option<String> {
    (!id.is_empty()).then(|| id.to_owned())
}

#[test]
fn every_grouping_and_interval_matches_the_model() {
    let (_dir, log) = open_log();
    let events = mixed_events();
    record_all(&log, &events);
    let mut groupings: Vec<Option<GroupBy>> = GroupBy::ALL.into_iter().map(Some).collect();
    groupings.push(None);
    for interval in Interval::ALL {
        for group_by in &groupings {
            let q = UsageQuery {
                interval,
                group_by: *group_by,
                ..whole_range()
            };
            let got = log.aggregate(&q).unwrap();
            assert_eq!(got.aggregate_duration, interval.as_str());
            assert_eq!(got.org_id, "");
            check_against_model(&events, &q, &got);
            let total: u64 = got
                .metrics
                .iter()
                .flat_map(|m| &m.values)
                .map(|v| v.total_requests)
                .sum();
            assert_eq!(total, events.len() as u64, "{interval} {group_by:?}");
        }
    }
}

#[test]
fn response_codes_group_as_decimal_strings() {
    let (_dir, log) = open_log();
    let mut events = vec![ev(JAN_1_2024 * 1000); 3];
    events[1].response_code = 404;
    record_all(&log, &events);
    let q = UsageQuery {
        group_by: Some(GroupBy::ResponseCode),
        ..whole_range()
    };
    let m = log.aggregate(&q).unwrap();
    let values: Vec<(Option<&str>, u64)> = m.metrics[0]
        .values
        .iter()
        .map(|v| (v.group_value.as_deref(), v.total_requests))
        .collect();
    assert_eq!(values, [(Some("200"), 2), (Some("404"), 1)]);
}

/// Events 1 ms before and at `edge_s`, aggregated by `interval`: two buckets, starting at
/// `before_start` and `edge_s`, each with one request.
fn assert_edge(interval: Interval, edge_s: u64, before_start: u64) {
    let (_dir, log) = open_log();
    record_all(&log, &[ev(edge_s * 1000 - 1), ev(edge_s * 1000)]);
    let m = log
        .aggregate(&UsageQuery {
            interval,
            ..whole_range()
        })
        .unwrap();
    let got: Vec<(i64, u64)> = m
        .metrics
        .iter()
        .map(|b| (b.timestamp, b.values[0].total_requests))
        .collect();
    let want = [(before_start as i64, 1), (edge_s as i64, 1)];
    assert_eq!(got, want, "{interval} edge at {edge_s}");
}

#[test]
fn buckets_cut_on_minute_hour_day_monday_and_month_edges() {
    let t = JAN_1_2024 + 10 * DAY; // Thursday 2024-01-11
    assert_edge(Interval::Minute, t + 60, t);
    assert_edge(Interval::Hourly, t + 3_600, t);
    assert_edge(Interval::Daily, t + DAY, t);
    // Monday 2024-01-15; the Sunday before belongs to the week of Monday 2024-01-08.
    assert_edge(
        Interval::Weekly,
        JAN_1_2024 + 14 * DAY,
        JAN_1_2024 + 7 * DAY,
    );
    // December -> January: 2023-12-01 is 31 days before 2024-01-01.
    assert_edge(Interval::Monthly, JAN_1_2024, JAN_1_2024 - 31 * DAY);
    // February 2024 has 29 days: 2024-03-01 is 60 days after 2024-01-01.
    assert_edge(
        Interval::Monthly,
        JAN_1_2024 + 60 * DAY,
        JAN_1_2024 + 31 * DAY,
    );
}

#[test]
fn rates_divide_by_the_bucket_length_and_empty_buckets_are_omitted() {
    let (_dir, log) = open_log();
    // Two requests in December 2023, one in February 2024, none in January.
    let dec = (JAN_1_2024 - 5 * DAY) * 1000;
    let feb = (JAN_1_2024 + 40 * DAY) * 1000;
    record_all(&log, &[ev(dec), ev(dec + 1), ev(feb)]);
    let m = log
        .aggregate(&UsageQuery {
            interval: Interval::Monthly,
            ..whole_range()
        })
        .unwrap();
    assert_eq!(m.metrics.len(), 2);
    assert_eq!(
        m.metrics[0].values[0].requests_per_second,
        2.0 / (31.0 * 86_400.0)
    );
    assert_eq!(
        m.metrics[1].values[0].requests_per_second,
        1.0 / (29.0 * 86_400.0)
    );
}

#[test]
fn success_rate_invalid_requests_and_credits() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    let events: Vec<UsageEvent> = [
        (200, 3, 0),
        (204, 1, 0),
        (404, 2, 2),
        (429, 5, 5),
        (503, 1, 0),
    ]
    .into_iter()
    .map(|(code, used, wasted)| UsageEvent {
        response_code: code,
        credits_used: used,
        credits_wasted: wasted,
        ..ev(t)
    })
    .collect();
    record_all(&log, &events);
    let m = log.aggregate(&whole_range()).unwrap();
    let v = &m.metrics[0].values[0];
    assert_eq!(v.total_requests, 5);
    assert_eq!(v.success_rate_percent, 40.0);
    assert_eq!(v.invalid_requests, 2);
    assert_eq!((v.api_credits_used, v.api_credits_wasted), (12, 7));
}

#[test]
fn medians_of_odd_and_even_counts_in_ms() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    let with_latency = |us: u64, path: &str| UsageEvent {
        latency_us: us,
        request_path: path.into(),
        ..ev(t)
    };
    record_all(
        &log,
        &[
            with_latency(9_000, "/odd"),
            with_latency(1_000, "/odd"),
            with_latency(2_500, "/odd"),
            with_latency(4_000, "/even"),
            with_latency(1_000, "/even"),
            with_latency(3_000, "/even"),
            with_latency(8_000, "/even"),
        ],
    );
    let m = log
        .aggregate(&UsageQuery {
            group_by: Some(GroupBy::RequestPath),
            ..whole_range()
        })
        .unwrap();
    let medians: Vec<(Option<&str>, f64)> = m.metrics[0]
        .values
        .iter()
        .map(|v| (v.group_value.as_deref(), v.median_response_time_msecs))
        .collect();
    assert_eq!(medians, [(Some("/even"), 3.5), (Some("/odd"), 2.5)]);
}

#[test]
fn every_filter_and_the_org_narrow_the_events() {
    let (_dir, log) = open_log();
    let events = mixed_events();
    record_all(&log, &events);
    let some = |s: &str| Some(s.to_owned());
    let filters = [
        UsageFilters {
            chain_id: some("43114"),
            ..UsageFilters::default()
        },
        UsageFilters {
            chain_id: some(""),
            ..UsageFilters::default()
        },
        UsageFilters {
            response_code: some("404"),
            ..UsageFilters::default()
        },
        UsageFilters {
            request_type: some("rpc"),
            ..UsageFilters::default()
        },
        UsageFilters {
            api_key_id: some(""),
            ..UsageFilters::default()
        },
        UsageFilters {
            api_key_id: some("ffeeddccbbaa9988"),
            ..UsageFilters::default()
        },
        UsageFilters {
            request_path: some("/v1/apiUsageMetrics"),
            ..UsageFilters::default()
        },
        UsageFilters {
            request_type: some("data"),
            response_code: some("200"),
            chain_id: some("43113"),
            ..UsageFilters::default()
        },
        UsageFilters {
            request_path: some("/nowhere"),
            ..UsageFilters::default()
        },
    ];
    for org_id in [None, some("org-a"), some("org-b"), some("org-z")] {
        for f in &filters {
            let q = UsageQuery {
                org_id: org_id.clone(),
                filters: f.clone(),
                group_by: Some(GroupBy::ApiKeyId),
                ..whole_range()
            };
            let got = log.aggregate(&q).unwrap();
            assert_eq!(got.org_id, org_id.clone().unwrap_or_default());
            check_against_model(&events, &q, &got);
        }
    }
    let bad = UsageQuery {
        filters: UsageFilters {
            response_code: some("2xx"),
            ..UsageFilters::default()
        },
        ..whole_range()
    };
    assert!(matches!(
        log.aggregate(&bad),
        Err(AccessError::InvalidParameter {
            name: "responseCode",
            ..
        })
    ));
}

#[test]
fn the_range_includes_its_start_and_excludes_its_end() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    record_all(&log, &[ev(t - 1), ev(t), ev(t + 5), ev(t + 10)]);
    let q = UsageQuery {
        start_ms: t,
        end_ms: t + 10,
        interval: Interval::Minute,
        ..UsageQuery::default()
    };
    let m = log.aggregate(&q).unwrap();
    assert_eq!(m.metrics.len(), 1);
    assert_eq!(m.metrics[0].values[0].total_requests, 2);
    let stamps: Vec<u64> = log
        .events(t, t + 10)
        .unwrap()
        .iter()
        .map(|e| e.timestamp_ms)
        .collect();
    assert_eq!(stamps, [t, t + 5]);

    let empty = UsageQuery {
        end_ms: t,
        ..q.clone()
    };
    assert!(log.aggregate(&empty).unwrap().metrics.is_empty());
    let reversed = UsageQuery { end_ms: t - 1, ..q };
    assert_eq!(
        log.aggregate(&reversed),
        Err(AccessError::InvalidRange {
            start_ms: t,
            end_ms: t - 1
        })
    );
}

#[test]
fn pruning_deletes_exactly_the_older_events() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    let events: Vec<UsageEvent> = (0..10).map(|i| ev(t + i * 1_000)).collect();
    record_all(&log, &events);
    assert_eq!(log.prune_before(t + 5_000).unwrap(), 5);
    let left: Vec<u64> = log
        .events(0, u64::MAX)
        .unwrap()
        .iter()
        .map(|e| e.timestamp_ms)
        .collect();
    assert_eq!(left, (5..10).map(|i| t + i * 1_000).collect::<Vec<_>>());
    assert_eq!(log.prune_before(t + 5_000).unwrap(), 0);
    assert_eq!(log.prune_before(u64::MAX).unwrap(), 5);
    assert!(log.events(0, u64::MAX).unwrap().is_empty());
}

#[test]
fn events_round_trip_and_same_millisecond_events_are_all_kept_across_writers() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    let events: Vec<UsageEvent> = (0..500u64)
        .map(|i| UsageEvent {
            latency_us: i,
            ..ev(t)
        })
        .collect();
    // Two writer runs (a restart) writing the same millisecond.
    record_all(&log, &events[..250]);
    record_all(&log, &events[250..]);
    let mut stored = log.events(t, t + 1).unwrap();
    stored.sort_by_key(|e| e.latency_us);
    assert_eq!(stored, events);
}

#[test]
fn borrowed_events_are_stored_like_owned_ones() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    // Across a minute edge, anonymous and keyed, with and without a chain.
    let events: Vec<UsageEvent> = (0..6u64)
        .map(|i| UsageEvent {
            latency_us: i,
            org_id: if i % 2 == 0 {
                String::new()
            } else {
                format!("org-{i}")
            },
            chain_id: (i % 3 != 0).then(|| "43114".to_owned()),
            ..ev(t + 59_998 + i)
        })
        .collect();
    let writer = UsageWriter::start(log.clone(), WriterConfig::default()).unwrap();
    for (i, e) in events.iter().enumerate() {
        if i % 2 == 0 {
            writer.record_ref(&UsageEventRef {
                org_id: &e.org_id.clone(),
                ..e.as_ref()
            });
        } else {
            writer.record(e.clone());
        }
    }
    writer.flush().unwrap();
    assert_eq!(writer.written(), 6);
    assert_eq!(log.events(t, t + 120_000).unwrap(), events);
    assert_eq!(log.events(t + 60_000, t + 120_000).unwrap(), events[2..]);
}

#[test]
fn a_dropped_writer_writes_what_was_queued() {
    let (_dir, log) = open_log();
    let t = JAN_1_2024 * 1000;
    {
        let config = WriterConfig {
            flush_interval: std::time::Duration::from_secs(3_600),
            ..WriterConfig::default()
        };
        let writer = UsageWriter::start(log.clone(), config).unwrap();
        for i in 0..2_500 {
            writer.record(ev(t + i));
        }
    }
    assert_eq!(log.events(0, u64::MAX).unwrap().len(), 2_500);
}

#[test]
fn a_full_queue_drops_and_counts_instead_of_blocking() {
    let (_dir, log) = open_log();
    let config = WriterConfig {
        capacity: 2,
        batch_events: 1,
        ..WriterConfig::default()
    };
    let writer = UsageWriter::start(log.clone(), config).unwrap();
    let n = 5_000u64;
    for i in 0..n {
        writer.record(ev(JAN_1_2024 * 1000 + i));
    }
    writer.flush().unwrap();
    let stored = log.events(0, u64::MAX).unwrap().len() as u64;
    assert_eq!(stored, writer.written());
    assert_eq!(writer.written() + writer.dropped(), n);
    assert_eq!(writer.failed(), 0);
    writer.shutdown().unwrap();
}

fn arb_event() -> impl Strategy<Value = UsageEvent> {
    (
        0u64..(70 * DAY * 1000),
        0usize..3,
        prop::sample::select(vec![200u16, 201, 301, 400, 404, 429, 500]),
        0usize..3,
        0u64..20_000,
        0u32..50,
        0u32..5,
    )
        .prop_map(|(dt, k, code, p, latency_us, used, wasted)| UsageEvent {
            timestamp_ms: (JAN_1_2024 - 20 * DAY) * 1000 + dt,
            org_id: ["org-a", "org-b", "org-c"][k].into(),
            api_key_id: ["", "00112233aabbccdd", "ffeeddccbbaa9988"][k].into(),
            request_path: ["/a", "/b", "/c"][p].into(),
            response_code: code,
            chain_id: chain(["", "43114", "43113"][(p + k) % 3]),
            request_type: ["data", "rpc"][p % 2].into(),
            latency_us,
            credits_used: used,
            credits_wasted: wasted,
            ip_address: String::new(),
            host: String::new(),
            user_agent: String::new(),
        })
}

fn arb_query() -> impl Strategy<Value = UsageQuery> {
    (
        0usize..5,
        0usize..6,
        prop::option::of(prop::sample::select(vec!["org-a", "org-b"])),
        0u64..(30 * DAY * 1000),
        0u64..(80 * DAY * 1000),
        prop::option::of(prop::sample::select(vec!["200", "404", "500"])),
    )
        .prop_map(|(i, g, org, start, len, code)| {
            let start_ms = (JAN_1_2024 - 25 * DAY) * 1000 + start;
            UsageQuery {
                org_id: org.map(str::to_owned),
                start_ms,
                end_ms: start_ms + len,
                interval: Interval::ALL[i],
                group_by: GroupBy::ALL.get(g).copied(),
                filters: UsageFilters {
                    response_code: code.map(str::to_owned),
                    ..UsageFilters::default()
                },
            }
        })
}

proptest! {
    #[test]
    fn in_memory_aggregation_matches_the_model(
        events in prop::collection::vec(arb_event(), 0..300),
        q in arb_query(),
    ) {
        let got = aggregate_events(&events, &q).unwrap();
        check_against_model(&events, &q, &got);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn stored_medians_match_sorting(latencies in prop::collection::vec(0u64..1_000_000, 1..120)) {
        let (_dir, log) = open_log();
        let t = JAN_1_2024 * 1000;
        let events: Vec<UsageEvent> = latencies
            .iter()
            .map(|&l| UsageEvent { latency_us: l, ..ev(t) })
            .collect();
        record_all(&log, &events);
        let m = log.aggregate(&UsageQuery { interval: Interval::Minute, ..whole_range() }).unwrap();
        prop_assert_eq!(m.metrics[0].values[0].median_response_time_msecs, naive_median(&latencies) / 1000.0);
    }
}

/// A fleet's node forwards its rows instead of writing them; every node stores the rows it is
/// handed (after they cross the wire as one message) and answers exactly as a node that wrote
/// the events itself: the same aggregates and the same request log, positions included.
#[test]
fn forwarded_rows_stored_on_two_nodes_answer_as_the_writer_would() {
    use snowline_access::usage::{decode_rows, encode_rows};
    use std::sync::{Arc, Mutex};
    let events = mixed_events();
    let sent: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let writer = {
        let sent = Arc::clone(&sent);
        UsageWriter::start_forwarding(WriterConfig::default(), move |rows| {
            sent.lock().unwrap().push(encode_rows(&rows));
            Ok(())
        })
        .unwrap()
    };
    for e in &events {
        writer.record(e.clone());
    }
    writer.flush().unwrap();
    assert_eq!(writer.written(), events.len() as u64);
    let (_a_dir, a) = open_log();
    let (_b_dir, b) = open_log();
    let mut forwarded = 0;
    for message in sent.lock().unwrap().iter() {
        let rows = decode_rows(message).unwrap();
        for row in &rows {
            row.for_each_event(|_| forwarded += 1).unwrap();
        }
        a.write_rows(&rows).unwrap();
        // Stored twice on one node (a message delivered again): nothing changes.
        b.write_rows(&rows).unwrap();
        b.write_rows(&rows).unwrap();
        assert!(decode_rows(&message[..message.len() - 1]).is_err());
    }
    assert_eq!(forwarded, events.len());
    let (_c_dir, c) = open_log();
    record_all(&c, &events);
    let q = UsageQuery {
        group_by: Some(GroupBy::RequestPath),
        ..whole_range()
    };
    assert_eq!(a.aggregate(&q).unwrap(), c.aggregate(&q).unwrap());
    assert_eq!(
        a.logs(&whole_range(), None, 1000).unwrap(),
        b.logs(&whole_range(), None, 1000).unwrap()
    );
    let mut stored = a.events(0, u64::MAX).unwrap();
    let mut expected = events.clone();
    stored.sort_by_key(|e| (e.timestamp_ms, e.latency_us));
    expected.sort_by_key(|e| (e.timestamp_ms, e.latency_us));
    assert_eq!(stored, expected);
}
