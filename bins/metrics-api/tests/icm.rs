//! The real `metrics-api` binary on port 0 over an index holding the ICM tables, built here from
//! both devnet ICM recordings (43112's blocks moved apart across hours, days, weeks and months):
//! `/v2/icm/timeseries` at every interval, grouped every way, filtered by each end (cb58 and
//! hex), page by page, equals counts made here from `snowline_evm_devnet::icm_model`;
//! `/v2/icm/summary` equals the model's totals over its windows; the 400s and 404s; and an
//! index without the ICM tables answers the ICM routes with a 404.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use snowline_chain_icm::IcmDeriver;
use snowline_evm_devnet::icm_model::{IcmModel, ModelMessage};
use snowline_evm_devnet::metrics_model::retime;
use snowline_store::Store;
use snowline_types::Id;
use snowline_types::evm::B256;
use snowline_types::time::{civil_from_days, days_from_civil};

use common::MetricsApi;

const DAY: u64 = 86_400;

/// Gaps between 43112's blocks: the same second, hour, day, then across days, weeks, months.
const GAPS: [u64; 11] = [
    2,
    0,
    1_500,
    3 * 3_600,
    20 * 3_600,
    2 * DAY,
    5 * DAY,
    1,
    9 * DAY,
    1_800,
    40_000,
];

/// The recording's text: 43112 spread out in time, 99999 as recorded.
fn text(chain: u64) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evm/icm")
        .join(format!("{chain}.jsonl"));
    let raw = std::fs::read_to_string(path).unwrap();
    if chain == 43112 {
        retime(&raw, 1_700_000_000, &GAPS)
    } else {
        raw
    }
}

fn model() -> IcmModel {
    let lines = |chain| {
        text(chain)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<Value>>()
    };
    IcmModel::from_lines(&[lines(43112), lines(99999)])
}

/// The data-api store: the EVM and metrics tables, and the ICM tables when `icm`.
fn open_index(dir: &Path, icm: bool) -> Arc<Store> {
    let icm_tables = if icm {
        snowline_chain_icm::tables()
    } else {
        Vec::new()
    };
    common::index::open(dir, icm_tables)
}

fn index(rt: &tokio::runtime::Runtime, store: &Store, chain: u64) {
    let hooks = IcmDeriver::hooks(BTreeMap::new());
    common::index::recording(rt, store, &text(chain), u64::MAX, hooks);
}

fn start(dir: &Path) -> MetricsApi {
    common::start(dir, &["--no-rate-limits"])
}

/// Bucket starts, written out here.
fn bucket(interval: &str, t: u64) -> u64 {
    match interval {
        "hour" => t / 3_600 * 3_600,
        "day" => t / DAY * DAY,
        // 1970-01-01 was a Thursday, 3 days after a Monday.
        "week" => (t / DAY).saturating_sub((t / DAY + 3) % 7) * DAY,
        "month" => {
            let (y, m, _) = civil_from_days((t / DAY) as i64);
            days_from_civil(y, m, 1) as u64 * DAY
        }
        _ => unreachable!(),
    }
}

fn counted_at(m: &ModelMessage) -> u64 {
    m.source_tx
        .map(|t| t.timestamp)
        .or(m.destination_tx.map(|(t, _, _)| t.timestamp))
        .unwrap()
}

fn cb58(b: B256) -> String {
    Id(b.0).to_string()
}

/// A count's place: its bucket, newest first, then its source and destination.
type Key = (std::cmp::Reverse<u64>, Option<B256>, Option<B256>);

/// The results the model gives: newest bucket first, then by source and destination id bytes.
fn expected(
    model: &IcmModel,
    interval: &str,
    group: &str,
    src: Option<B256>,
    dst: Option<B256>,
    range: (u64, u64),
) -> Vec<Value> {
    let mut by: BTreeMap<Key, u64> = BTreeMap::new();
    for m in &model.messages {
        let (s, d) = (m.source_blockchain_id, m.destination_blockchain_id);
        if src.is_some_and(|x| x != s) || dst.is_some_and(|x| x != d) {
            continue;
        }
        let start = bucket(interval, counted_at(m));
        // Buckets from the one holding the start up to those starting at the end.
        if start < bucket(interval, range.0) || start > range.1 {
            continue;
        }
        let label = match group {
            "" => (src, dst),
            "srcBlockchainId" => (Some(s), dst),
            "destBlockchainId" => (src, Some(d)),
            _ => (Some(s), Some(d)),
        };
        *by.entry((std::cmp::Reverse(start), label.0, label.1))
            .or_insert(0) += 1;
    }
    by.into_iter()
        .map(|((std::cmp::Reverse(t), s, d), n)| {
            serde_json::json!({
                "value": n,
                "timestamp": t,
                "srcBlockchainId": s.map(cb58).unwrap_or_default(),
                "destBlockchainId": d.map(cb58).unwrap_or_default(),
            })
        })
        .collect()
}

/// Every page of `path` (which has a `?`), `size` results a page.
fn all_pages(api: &MetricsApi, path: &str, size: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let url = match &token {
            Some(t) => format!("{path}&pageSize={size}&pageToken={t}"),
            None => format!("{path}&pageSize={size}"),
        };
        let (status, v) = api.get(&url);
        assert_eq!(status, 200, "{url}: {v}");
        let results = v["results"].as_array().unwrap();
        assert!(results.len() <= size, "{url}");
        out.extend(results.iter().cloned());
        match v.get("nextPageToken") {
            Some(t) => token = Some(t.as_str().unwrap().to_owned()),
            None => return out,
        }
    }
}

#[test]
fn icm_routes_equal_the_model_over_http() {
    let model = model();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    {
        let store = open_index(dir.path(), true);
        index(&rt, &store, 43112);
        index(&rt, &store, 99999);
    }
    let api = start(dir.path());
    let chains: Vec<B256> = model.chains.values().copied().collect();
    let mut times: Vec<u64> = model.messages.iter().map(counted_at).collect();
    times.sort();
    let (first, last) = (times[0], *times.last().unwrap());
    let mid = times[times.len() / 2];
    let mut buckets_seen = 0;
    for interval in ["hour", "day", "week", "month"] {
        for group in [
            "",
            "srcBlockchainId",
            "destBlockchainId",
            "srcBlockchainId,destBlockchainId",
        ] {
            let mut filters: Vec<(Option<B256>, Option<B256>)> = vec![(None, None)];
            for &c in &chains {
                filters.extend([(Some(c), None), (None, Some(c))]);
                filters.extend(chains.iter().map(|&d| (Some(c), Some(d))));
            }
            for (src, dst) in filters {
                let mut path = format!("/v2/icm/timeseries?timeInterval={interval}");
                if !group.is_empty() {
                    path += &format!("&groupBy={group}");
                }
                if let Some(s) = src {
                    path += &format!("&srcBlockchainId={}", cb58(s));
                }
                if let Some(d) = dst {
                    // Hex is accepted too.
                    path += &format!("&destBlockchainId={d:x}");
                }
                let want = expected(&model, interval, group, src, dst, (0, u64::MAX));
                buckets_seen += want.len();
                let (status, v) = api.get(&format!("{path}&pageSize=2160"));
                assert_eq!(status, 200, "{path}: {v}");
                assert_eq!(v["results"].as_array().unwrap(), &want, "{path}");
                assert!(v.get("nextPageToken").is_none(), "{v}");
                if src.is_none() || dst.is_none() {
                    assert_eq!(all_pages(&api, &path, 2), want, "{path} by 2");
                }
            }
            // A time range: buckets from the one holding the start to the end.
            let path = format!(
                "/v2/icm/timeseries?timeInterval={interval}&groupBy=srcBlockchainId,\
                 destBlockchainId&startTimestamp={mid}&endTimestamp={last}"
            );
            let want = expected(&model, interval, "pair", None, None, (mid, last));
            assert_eq!(all_pages(&api, &path, 3), want, "{path}");
        }
    }
    assert!(buckets_seen > 150, "{buckets_seen}");
    // The default is a day, 100 a page, one series over every chain with "" for the ends.
    let (status, v) = api.get("/v2/icm/timeseries");
    assert_eq!(status, 200);
    let want = expected(&model, "day", "", None, None, (0, u64::MAX));
    assert_eq!(v["results"].as_array().unwrap(), &want);
    assert_eq!(v["results"][0]["srcBlockchainId"], "");
    assert_eq!(
        api.get(&format!(
            "/v2/icm/timeseries?endTimestamp={}",
            bucket("day", first) - 1
        ))
        .1["results"],
        serde_json::json!([])
    );

    // The summary: windows ending with the hour of the newest send or delivery (the index has no
    // chain metrics here), the filters' ids echoed, groupBy answered as the filtered total.
    let tip = model
        .messages
        .iter()
        .flat_map(|m| {
            [
                m.source_tx.map(|t| t.timestamp),
                m.destination_tx.map(|(t, _, _)| t.timestamp),
            ]
        })
        .flatten()
        .max()
        .unwrap();
    let hours = [1u64, 24, 7 * 24, 30 * 24, 90 * 24, 365 * 24];
    let names = [
        "lastHour",
        "lastDay",
        "lastWeek",
        "lastMonth",
        "last90Days",
        "lastYear",
    ];
    for (src, dst) in [
        (None, None),
        (Some(chains[0]), None),
        (None, Some(chains[1])),
        (Some(chains[1]), Some(chains[0])),
    ] {
        let keep = |m: &&ModelMessage| {
            src.is_none_or(|s| s == m.source_blockchain_id)
                && dst.is_none_or(|d| d == m.destination_blockchain_id)
        };
        let mut path = "/v2/icm/summary?groupBy=destBlockchainId&network=local".to_owned();
        if let Some(s) = src {
            path += &format!("&srcBlockchainId={}", cb58(s));
        }
        if let Some(d) = dst {
            path += &format!("&destBlockchainId={}", cb58(d));
        }
        let (status, v) = api.get(&path);
        assert_eq!(status, 200, "{path}: {v}");
        let r = &v["result"];
        let kept: Vec<&ModelMessage> = model.messages.iter().filter(keep).collect();
        assert_eq!(r["allTime"], kept.len(), "{path}");
        for (h, name) in hours.iter().zip(names) {
            let start = (tip / 3_600 * 3_600).saturating_sub((h - 1) * 3_600);
            let n = kept.iter().filter(|m| counted_at(m) >= start).count();
            assert_eq!(r[name], n, "{path} {name}");
        }
        assert_eq!(r["srcBlockchainId"], src.map(cb58).unwrap_or_default());
        assert_eq!(r["destBlockchainId"], dst.map(cb58).unwrap_or_default());
    }

    // The client's mistakes are 400s with the error shape; another network is a 404.
    let (_, first_page) = api.get("/v2/icm/timeseries?timeInterval=hour&pageSize=1");
    let token = first_page["nextPageToken"].as_str().unwrap().to_owned();
    for (path, code) in [
        ("/v2/icm/timeseries?groupBy=chain".to_owned(), 400),
        ("/v2/icm/timeseries?groupBy=".to_owned(), 400),
        ("/v2/icm/timeseries?timeInterval=year".to_owned(), 400),
        ("/v2/icm/timeseries?pageSize=0".to_owned(), 400),
        ("/v2/icm/timeseries?pageSize=2161".to_owned(), 400),
        ("/v2/icm/timeseries?startTimestamp=-1".to_owned(), 400),
        (
            "/v2/icm/timeseries?startTimestamp=10&endTimestamp=9".to_owned(),
            400,
        ),
        ("/v2/icm/timeseries?srcBlockchainId=nope".to_owned(), 400),
        ("/v2/icm/timeseries?destBlockchainId=0x12".to_owned(), 400),
        ("/v2/icm/timeseries?network=moon".to_owned(), 400),
        ("/v2/icm/timeseries?network=mainnet".to_owned(), 404),
        ("/v2/icm/timeseries?pageToken=nope".to_owned(), 400),
        (
            "/v2/icm/timeseries?pageToken=00000000-0000-4000-8000-000000000000".to_owned(),
            400,
        ),
        (
            format!("/v2/icm/timeseries?timeInterval=day&pageSize=1&pageToken={token}"),
            400,
        ),
        ("/v2/icm/summary?groupBy=x".to_owned(), 400),
        ("/v2/icm/summary?srcBlockchainId=x".to_owned(), 400),
        ("/v2/icm/summary?network=fuji".to_owned(), 404),
    ] {
        let (status, v) = api.get(&path);
        assert_eq!(status, code, "{path}: {v}");
        assert!(v["message"].is_array(), "{path}: {v}");
    }
    let (status, _) = api.get(&format!(
        "/v2/icm/timeseries?timeInterval=hour&pageSize=1&pageToken={token}"
    ));
    assert_eq!(status, 200);
}

#[test]
fn an_index_without_the_icm_tables_answers_404() {
    let dir = tempfile::tempdir().unwrap();
    drop(open_index(dir.path(), false));
    let api = start(dir.path());
    for path in ["/v2/icm/timeseries", "/v2/icm/summary"] {
        let (status, v) = api.get(path);
        assert_eq!(status, 404, "{path}: {v}");
        assert!(v.to_string().contains("ICM"), "{v}");
    }
    assert_eq!(api.get("/v2/chains").0, 200);
}
