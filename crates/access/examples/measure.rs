//! Measures key resolution and usage metering on a temporary store:
//! `cargo run --release -p snowline-access --example measure [EVENTS]`.

use std::error::Error;
use std::sync::Arc;
use std::time::Instant;

use snowline_access::keys::{ApiKeys, KeyLookup, Tier};
use snowline_access::usage::{
    GroupBy, Interval, UsageEvent, UsageLog, UsageQuery, UsageWriter, WriterConfig, tables,
};
use snowline_store::{ReadView, Schema, Store};

fn main() -> Result<(), Box<dyn Error>> {
    let events: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir()?;

    // Keys: 1,000 keys, then resolve each 100 times.
    let keys = ApiKeys::open(dir.path().join("keys"))?;
    let mut secrets = Vec::new();
    let t = Instant::now();
    for i in 0..1_000 {
        secrets.push(keys.create(&format!("k{i}"), "org", Tier::Free)?.1);
    }
    println!(
        "create: {:.1} µs/key",
        t.elapsed().as_secs_f64() * 1e6 / 1_000.0
    );
    let t = Instant::now();
    let mut active = 0u64;
    for _ in 0..100 {
        for s in &secrets {
            active += u64::from(matches!(keys.resolve(s)?, KeyLookup::Active(_)));
        }
    }
    println!(
        "resolve: {:.2} µs/lookup ({active} active)",
        t.elapsed().as_secs_f64() * 1e6 / 100_000.0
    );

    // Usage: record `events` over one day from 4 threads, flush, aggregate. The burst is far
    // above any real request rate, so first with the default queue (drops expected), then with a
    // queue holding them all (the writer's throughput).
    let schema = tables().into_iter().fold(Schema::new(1), Schema::with_spec);
    let burst = UsageLog::new(Arc::new(Store::open(dir.path().join("burst"), &schema)?));
    record(&burst, WriterConfig::default(), events)?;
    let log = UsageLog::new(Arc::new(Store::open(dir.path().join("data"), &schema)?));
    let config = WriterConfig {
        capacity: usize::try_from(events)?,
        ..WriterConfig::default()
    };
    let written = record(&log, config, events)?;
    let day_ms = DAY_MS;
    for (label, q) in [
        (
            "all orgs, hourly, by requestPath",
            UsageQuery {
                start_ms: day_ms,
                end_ms: day_ms + 86_400_000,
                interval: Interval::Hourly,
                group_by: Some(GroupBy::RequestPath),
                ..UsageQuery::default()
            },
        ),
        (
            "one org, daily, ungrouped",
            UsageQuery {
                org_id: Some("org-3".into()),
                start_ms: day_ms,
                end_ms: day_ms + 86_400_000,
                interval: Interval::Daily,
                ..UsageQuery::default()
            },
        ),
    ] {
        let t = Instant::now();
        let m = log.aggregate(&q)?;
        let groups: usize = m.metrics.iter().map(|b| b.values.len()).sum();
        println!(
            "aggregate ({label}): {:.0} ms over {} events, {} buckets, {groups} groups",
            t.elapsed().as_secs_f64() * 1e3,
            written,
            m.metrics.len()
        );
    }
    let t = Instant::now();
    let scanned = log
        .store()
        .scan::<RawEvents, _>(.., snowline_store::Direction::Forward)?
        .count();
    println!(
        "raw scan (no decoding): {:.0} ms over {scanned} events",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let pruned = log.prune_before(day_ms + 43_200_000)?;
    println!(
        "prune: {pruned} events in {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

/// 2024-01-01T00:00:00Z in ms.
const DAY_MS: u64 = 1_704_067_200_000;

/// Records `events` spread over one day from 4 threads into `log`, flushes, prints figures.
fn record(log: &UsageLog, config: WriterConfig, events: u64) -> Result<u64, Box<dyn Error>> {
    let day_ms = DAY_MS;
    let writer = Arc::new(UsageWriter::start(log.clone(), config)?);
    let t = Instant::now();
    let mut record_ns = 0u128;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4u64)
            .map(|th| {
                let writer = Arc::clone(&writer);
                s.spawn(move || {
                    let start = Instant::now();
                    for i in (th..events).step_by(4) {
                        writer.record(UsageEvent {
                            timestamp_ms: day_ms + i * 86_400_000 / events,
                            org_id: format!("org-{}", i % 10),
                            api_key_id: format!("{:016x}", i % 100),
                            request_path: format!("/v1/path/{}", i % 40),
                            response_code: [200, 200, 200, 404, 500][(i % 5) as usize],
                            chain_id: Some("43114".into()),
                            request_type: "data".into(),
                            latency_us: i % 10_000,
                            credits_used: 10,
                            credits_wasted: 0,
                            ip_address: "127.0.0.1".into(),
                            host: String::new(),
                            user_agent: String::new(),
                        });
                    }
                    start.elapsed().as_nanos()
                })
            })
            .collect();
        for h in handles {
            record_ns += h.join().unwrap_or(0);
        }
    });
    writer.flush()?;
    let elapsed = t.elapsed().as_secs_f64();
    println!(
        "record (queue {}): {:.2} µs/event on the request path; {} written, {} dropped, {:.0} written/s",
        config.capacity,
        record_ns as f64 / 1e3 / events as f64,
        writer.written(),
        writer.dropped(),
        writer.written() as f64 / elapsed
    );

    Ok(writer.written())
}

/// The events table with undecoded values, to separate scan cost from decoding cost.
struct RawEvents;

impl snowline_store::Table for RawEvents {
    const NAME: &'static str = snowline_access::usage::USAGE_EVENTS_TABLE;
    type Key = (u64, u64);
    type Value = Vec<u8>;
}
