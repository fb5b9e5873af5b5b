//! The two RPC usage operations end to end: the real `node-rpc` (with the Data API's keys
//! required) answers a known mix of JSON-RPC calls (good, unknown method, bad params, a parse
//! error, no key, a chain it does not serve), and `data-api` reports them through
//! `getPrimaryNetworkRpcUsageMetrics` and `getSubnetRpcUsageMetrics`. Every answer is compared
//! with a model the test computes from the calls it made and the answers it saw on the wire
//! (the response code rule of `docs/jsonrpc.md`, the buckets of the OpenAPI's
//! `timeInterval`s derived here from the UTC calendar), for every group-by, interval and filter
//! the OpenAPI (`crates/data-api/openapi/glacier-data-api.json`) names; bad input is a 400.
//!
//! The `node-rpc` binary is the one cargo builds next to `data-api` (`bins/node-rpc/tests/
//! rpc_usage.rs` has the same name, so `cargo test --test rpc_usage` builds both).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use common::{create_key, has_null, request, start};
use serde_json::{Value, json};
use snowline_data_api::openapi::GLACIER_DATA_API;
use snowline_test_support::service::{Service, poll_until};

/// A chain the devnet's node does not serve: a subnet's, for the subnet metrics.
const SUBNET: &str = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
const SUBNET_2: &str = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp";
/// The local network's X- and P-Chain ids.
const X_CHAIN: &str = "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed";
const P_CHAIN: &str = "11111111111111111111111111111111LpoYY";

/// One call the test made, with what it saw.
#[derive(Debug, Clone)]
struct Made {
    before_ms: u64,
    after_ms: u64,
    path: String,
    /// The method as metered: the one sent, or empty when the call was not read.
    method: String,
    code: i32,
    success: bool,
    org: String,
    key_id: String,
    primary: bool,
    chain: String,
    user_agent: String,
    round_trip_ms: f64,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

struct Caller<'a> {
    secret: Option<&'a str>,
    key_id: &'a str,
    org: &'a str,
    user_agent: Option<&'a str>,
}

/// POSTs `body` to `path` as `who`, and notes the call with the code the wire shows: the HTTP
/// status, or for a 200 carrying a JSON-RPC error object, its code.
fn make(rpc: &Service, made: &mut Vec<Made>, who: &Caller<'_>, path: &str, body: &str) {
    let mut headers = Vec::new();
    if let Some(s) = who.secret {
        headers.push(("x-data-api-key", s));
    }
    if let Some(ua) = who.user_agent {
        headers.push(("user-agent", ua));
    }
    let before_ms = now_ms();
    let started = Instant::now();
    let r = request(&rpc.addr, "POST", path, &headers, body);
    let round_trip_ms = started.elapsed().as_secs_f64() * 1000.0;
    let after_ms = now_ms();
    let v: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    let error = v["error"]["code"].as_i64();
    let code = match (r.status, error) {
        (200, Some(c)) => i32::try_from(c).unwrap(),
        (s, _) => i32::from(s),
    };
    let read = r.status == 200 && error != Some(-32700);
    let sent: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let (primary, chain) = if path.starts_with(&format!("/ext/bc/{SUBNET}")) {
        (false, SUBNET)
    } else if path.starts_with(&format!("/ext/bc/{SUBNET_2}")) {
        (false, SUBNET_2)
    } else if path.contains("/P") {
        (true, P_CHAIN)
    } else {
        (true, X_CHAIN)
    };
    let refused = r.status == 401;
    made.push(Made {
        before_ms,
        after_ms,
        path: path.to_owned(),
        method: if read {
            sent["method"].as_str().unwrap_or_default().to_owned()
        } else {
            String::new()
        },
        code,
        success: r.status == 200 && v.get("result").is_some(),
        org: if refused { "" } else { who.org }.to_owned(),
        key_id: if refused { "" } else { who.key_id }.to_owned(),
        primary,
        chain: chain.to_owned(),
        user_agent: who.user_agent.unwrap_or_default().to_owned(),
        round_trip_ms,
    });
}

fn rpc_body(method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string()
}

/// Days since 1970-01-01 to (year, month) in the proleptic Gregorian calendar (Howard
/// Hinnant's `civil_from_days`, written here for the model).
fn year_month(days: i64) -> (i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m)
}

/// Days from 1970-01-01 to the first of (year, month), by counting.
fn first_of(y: i64, m: i64) -> i64 {
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mut days = 0;
    for year in 1970..y {
        days += if leap(year) { 366 } else { 365 };
    }
    let lengths = [
        31,
        if leap(y) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    days + lengths[..(m - 1) as usize].iter().sum::<i64>()
}

/// The start (Unix seconds) of the bucket of `interval` holding `ms`.
fn bucket(ms: u64, interval: &str) -> i64 {
    let s = (ms / 1000) as i64;
    let days = s / 86_400;
    match interval {
        "hourly" => s - s % 3_600,
        "daily" => days * 86_400,
        // 1970-01-01 was a Thursday, three days after a Monday.
        "weekly" => (days - (days + 3) % 7) * 86_400,
        "monthly" => {
            let (y, m) = year_month(days);
            first_of(y, m) * 86_400
        }
        other => panic!("{other}"),
    }
}

/// A group-by name of the OpenAPI and the model's value of it for a call.
type Grouping<'a> = (&'a str, &'a dyn Fn(&Made) -> String);
/// A filter's query and whether the model keeps a call under it.
type Filter<'a, Q> = (Q, &'a dyn Fn(&Made) -> bool);

/// One group's figures: (groupValue, totalRequests, invalidRequests, apiCreditsUsed,
/// apiCreditsWasted, successRatePercent × 1000 rounded).
type Figures = (Option<String>, u64, u64, u64, u64, i64);

/// What the model expects: each bucket's groups, sorted.
fn model(
    made: &[&Made],
    interval: &str,
    group: Option<&dyn Fn(&Made) -> String>,
) -> BTreeMap<i64, Vec<Figures>> {
    let mut buckets: BTreeMap<i64, BTreeMap<Option<String>, (u64, u64)>> = BTreeMap::new();
    for m in made {
        let g = group.map(|f| f(m));
        let t = buckets
            .entry(bucket(m.before_ms, interval))
            .or_default()
            .entry(g)
            .or_default();
        t.0 += 1;
        t.1 += u64::from(!m.success);
    }
    buckets
        .into_iter()
        .map(|(ts, groups)| {
            let mut v: Vec<Figures> = groups
                .into_iter()
                .map(|(g, (total, invalid))| {
                    let rate = ((total - invalid) as f64 * 100.0 / total as f64 * 1000.0).round();
                    (g, total, invalid, total, invalid, rate as i64)
                })
                .collect();
            v.sort();
            (ts, v)
        })
        .collect()
}

/// The answer's buckets in the model's form, after checking each value's shape.
fn observed(answer: &Value, grouped_by: &str, made: &[&Made]) -> BTreeMap<i64, Vec<Figures>> {
    let max_ms = made.iter().map(|m| m.round_trip_ms).fold(0.0, f64::max);
    let mut out = BTreeMap::new();
    for metric in answer["metrics"].as_array().unwrap() {
        let ts = metric["timestamp"].as_i64().unwrap();
        let mut v: Vec<Figures> = metric["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                assert_eq!(x["groupedBy"], grouped_by, "{x}");
                assert_eq!(x.get("groupValue").is_some(), grouped_by != "None", "{x}");
                let median = x["medianResponseTimeMsecs"].as_f64().unwrap();
                assert!(median > 0.0 && median <= max_ms, "{x}: {max_ms}");
                let total = x["totalRequests"].as_u64().unwrap();
                assert!(x["requestsPerSecond"].as_f64().unwrap() > 0.0, "{x}");
                (
                    x["groupValue"].as_str().map(str::to_owned),
                    total,
                    x["invalidRequests"].as_u64().unwrap(),
                    x["apiCreditsUsed"].as_u64().unwrap(),
                    x["apiCreditsWasted"].as_u64().unwrap(),
                    (x["successRatePercent"].as_f64().unwrap() * 1000.0).round() as i64,
                )
            })
            .collect();
        // Groups come by totalRequests descending, then groupValue ascending.
        let order: Vec<(std::cmp::Reverse<u64>, Option<String>)> = v
            .iter()
            .map(|f| (std::cmp::Reverse(f.1), f.0.clone()))
            .collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(order, sorted, "{metric}");
        v.sort();
        out.insert(ts, v);
    }
    out
}

/// Compares one answer with the model: exactly, bucket by bucket, unless a call's round trip
/// straddled a bucket edge (then the server's stamp may fall on either side: totals only).
fn check(
    answer: &Value,
    made: &[&Made],
    interval: &str,
    grouped_by: &str,
    group: Option<&dyn Fn(&Made) -> String>,
) {
    assert!(!has_null(answer), "{answer}");
    assert_eq!(answer["aggregateDuration"], interval, "{answer}");
    let got = observed(answer, grouped_by, made);
    let want = model(made, interval, group);
    let straddled = made
        .iter()
        .any(|m| bucket(m.before_ms, interval) != bucket(m.after_ms, interval));
    if straddled {
        let total =
            |b: &BTreeMap<i64, Vec<Figures>>| -> u64 { b.values().flatten().map(|f| f.1).sum() };
        assert_eq!(
            total(&got),
            total(&want),
            "{interval} {grouped_by}: {answer}"
        );
    } else {
        assert_eq!(got, want, "{interval} {grouped_by}: {answer}");
    }
    if !straddled && interval != "monthly" {
        let len = match interval {
            "hourly" => 3_600.0,
            "daily" => 86_400.0,
            _ => 604_800.0,
        };
        for metric in answer["metrics"].as_array().unwrap() {
            for x in metric["values"].as_array().unwrap() {
                let rps = x["requestsPerSecond"].as_f64().unwrap();
                let total = x["totalRequests"].as_f64().unwrap();
                assert!((rps - total / len).abs() < 1e-12, "{x}");
            }
        }
    }
}

/// `GET path` on data-api with `secret`.
fn get(api: &Service, path: &str, secret: &str) -> (u16, Value) {
    let r = api.get_with(path, &[("x-data-api-key", secret)]);
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

fn ok(api: &Service, path: &str, secret: &str) -> Value {
    let (status, v) = get(api, path, secret);
    assert_eq!(status, 200, "{path}: {v}");
    v
}

/// The values of an enum schema of the OpenAPI.
fn openapi_enum(name: &str) -> Vec<String> {
    let doc: Value = serde_json::from_str(GLACIER_DATA_API).unwrap();
    doc["components"]["schemas"][name]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn start_node_rpc(data: &Path, keys: &Path) -> Service {
    let exe = Path::new(env!("CARGO_BIN_EXE_data-api"))
        .with_file_name(format!("node-rpc{}", std::env::consts::EXE_SUFFIX));
    assert!(exe.exists(), "{} not built", exe.display());
    let mut cmd = Command::new(exe);
    cmd.args(["serve", "--data-dir", data.to_str().unwrap()])
        .args(["--keys-from", keys.to_str().unwrap(), "--require-api-key"])
        .args(["--listen", "127.0.0.1:0"]);
    Service::start(cmd)
}

#[test]
fn rpc_usage_metrics_report_the_calls_made() {
    let dir = tempfile::tempdir().unwrap();
    let api_dir = dir.path().join("data-api");
    let rpc_dir = dir.path().join("node-rpc");
    let (acme_id, acme) = create_key(&api_dir, "app", "acme", "free");
    let (globex_id, globex) = create_key(&api_dir, "app", "globex", "free");
    let (ops_id, ops) = create_key(&api_dir, "ops", "ops", "admin");
    // data-api first: the record it reads is created empty for node-rpc to write into.
    let record = rpc_dir.join("rpc-usage");
    let api = start(
        &api_dir,
        &[
            "--no-rate-limits",
            "--rpc-usage-from",
            record.to_str().unwrap(),
        ],
    );
    let rpc = start_node_rpc(&rpc_dir, &api_dir.join("keys"));

    let a = Caller {
        secret: Some(&acme),
        key_id: &acme_id,
        org: "acme",
        user_agent: Some("rpc-test/1"),
    };
    let g = Caller {
        secret: Some(&globex),
        key_id: &globex_id,
        org: "globex",
        user_agent: Some("other/2"),
    };
    let anon = Caller {
        secret: None,
        key_id: "",
        org: "",
        user_agent: None,
    };
    let admin = Caller {
        secret: Some(&ops),
        key_id: &ops_id,
        org: "ops",
        user_agent: Some("rpc-test/1"),
    };
    let mut made = Vec::new();
    let height = rpc_body("avm.getHeight", json!({}));
    let subnet_path = format!("/ext/bc/{SUBNET}/rpc");
    for _ in 0..3 {
        make(&rpc, &mut made, &a, "/ext/bc/X", &height);
    }
    for _ in 0..2 {
        let last = rpc_body("index.getLastAccepted", json!({"encoding": "hex"}));
        make(&rpc, &mut made, &a, "/ext/index/X/tx", &last);
        make(
            &rpc,
            &mut made,
            &a,
            "/ext/bc/X",
            &rpc_body("avm.nope", json!({})),
        );
        make(
            &rpc,
            &mut made,
            &a,
            &subnet_path,
            &rpc_body("eth_chainId", json!([])),
        );
        make(&rpc, &mut made, &g, "/ext/bc/X", &height);
        make(&rpc, &mut made, &anon, "/ext/bc/X", &height);
    }
    let bad_params = rpc_body("avm.getAssetDescription", json!({"assetID": 5}));
    make(&rpc, &mut made, &a, "/ext/bc/X", &bad_params);
    make(&rpc, &mut made, &a, "/ext/bc/X", "{");
    let validators = rpc_body("platform.getCurrentValidators", json!({}));
    make(&rpc, &mut made, &a, "/ext/bc/P", &validators);
    let subnet_2 = format!("/ext/bc/{SUBNET_2}/rpc");
    make(
        &rpc,
        &mut made,
        &g,
        &subnet_2,
        &rpc_body("eth_chainId", json!([])),
    );
    make(&rpc, &mut made, &admin, "/ext/bc/X", &height);
    // What the wire showed, so the model rests on it: results, the error codes, refusals.
    let codes: Vec<i32> = made.iter().map(|m| m.code).collect();
    for (code, n) in [(200, 9), (-32000, 3), (-32700, 1), (401, 2), (404, 3)] {
        assert_eq!(codes.iter().filter(|c| **c == code).count(), n, "{codes:?}");
    }
    assert_eq!(made.iter().filter(|m| m.success).count(), 9);

    // node-rpc writes its record within a fraction of a second; data-api reads it as a secondary.
    let primary = "/v1/primaryNetworkRpcUsageMetrics?network=local";
    let total = |v: &Value| -> u64 {
        v["metrics"]
            .as_array()
            .map(|m| {
                m.iter()
                    .flat_map(|b| b["values"].as_array().unwrap().iter())
                    .map(|x| x["totalRequests"].as_u64().unwrap())
                    .sum()
            })
            .unwrap_or(0)
    };
    let primary_made = made.iter().filter(|m| m.primary).count() as u64;
    assert!(
        poll_until(30, || total(&get(&api, primary, &ops).1) == primary_made),
        "{}",
        get(&api, primary, &ops).1
    );

    let of = |org: Option<&str>, primary: bool| -> Vec<&Made> {
        made.iter()
            .filter(|m| m.primary == primary && org.is_none_or(|o| m.org == o))
            .collect()
    };
    let groups_primary: [Grouping<'_>; 6] = [
        ("rpcMethod", &|m| m.method.clone()),
        ("requestPath", &|m| m.path.clone()),
        ("responseCode", &|m| m.code.to_string()),
        ("country", &|_| "XX".to_owned()),
        ("continent", &|_| "XX".to_owned()),
        ("userAgent", &|m| m.user_agent.clone()),
    ];
    let groups_subnet: [Grouping<'_>; 3] = [
        ("rpcMethod", &|m| m.method.clone()),
        ("responseCode", &|m| m.code.to_string()),
        ("rlBypassToken", &|m| m.key_id.clone()),
    ];
    // The OpenAPI's enumerations are the ones served.
    let names =
        |g: &[Grouping<'_>]| -> Vec<String> { g.iter().map(|(n, _)| (*n).to_owned()).collect() };
    assert_eq!(
        names(&groups_primary),
        openapi_enum("PrimaryNetworkRpcMetricsGroupByEnum")
    );
    assert_eq!(
        names(&groups_subnet),
        openapi_enum("RpcUsageMetricsGroupByEnum")
    );
    let intervals = openapi_enum("SubnetRpcTimeIntervalGranularity");
    assert_eq!(
        intervals,
        openapi_enum("PrimaryNetworkRpcTimeIntervalGranularity")
    );

    for interval in &intervals {
        let acme_primary = of(Some("acme"), true);
        let path = format!("{primary}&timeInterval={interval}");
        let v = ok(&api, &path, &acme);
        assert_eq!(v["network"], "local");
        check(&v, &acme_primary, interval, "None", None);
        for (name, f) in &groups_primary {
            let v = ok(&api, &format!("{path}&groupBy={name}"), &acme);
            check(&v, &acme_primary, interval, name, Some(*f));
        }
        let acme_subnet = of(Some("acme"), false);
        let path = format!("/v1/subnetRpcUsageMetrics?timeInterval={interval}");
        let v = ok(&api, &path, &acme);
        assert_eq!(v["chainId"], "");
        check(&v, &acme_subnet, interval, "None", None);
        for (name, f) in &groups_subnet {
            let v = ok(&api, &format!("{path}&groupBy={name}"), &acme);
            check(&v, &acme_subnet, interval, name, Some(*f));
        }
    }
    // Each organisation sees its own calls; an admin key every organisation's and the refused.
    let by_code: &dyn Fn(&Made) -> String = &|m| m.code.to_string();
    let v = ok(&api, &format!("{primary}&groupBy=responseCode"), &globex);
    check(
        &v,
        &of(Some("globex"), true),
        "daily",
        "responseCode",
        Some(by_code),
    );
    let v = ok(&api, &format!("{primary}&groupBy=responseCode"), &ops);
    check(&v, &of(None, true), "daily", "responseCode", Some(by_code));
    let v = ok(
        &api,
        "/v1/subnetRpcUsageMetrics?groupBy=rlBypassToken",
        &ops,
    );
    let by_key: &dyn Fn(&Made) -> String = &|m| m.key_id.clone();
    check(&v, &of(None, false), "daily", "rlBypassToken", Some(by_key));

    // Filters, each against the model filtered the same way.
    let acme_primary = of(Some("acme"), true);
    let primary_filters: [Filter<'_, &str>; 10] = [
        ("rpcMethod=avm.getHeight", &|m| m.method == "avm.getHeight"),
        ("responseCode=-32000", &|m| m.code == -32000),
        ("responseCode=200", &|m| m.code == 200),
        ("requestPath=/ext/index/X/tx", &|m| {
            m.path == "/ext/index/X/tx"
        }),
        ("userAgent=rpc-test/1", &|m| m.user_agent == "rpc-test/1"),
        ("country=XX", &|_| true),
        ("country=FR", &|_| false),
        ("continent=XX", &|_| true),
        ("continent=EU", &|_| false),
        (
            "rpcMethod=avm.getHeight&responseCode=200&requestPath=/ext/bc/X",
            &|m| m.method == "avm.getHeight" && m.code == 200 && m.path == "/ext/bc/X",
        ),
    ];
    for (q, keep) in &primary_filters {
        let kept: Vec<&Made> = acme_primary.iter().copied().filter(|m| keep(m)).collect();
        let v = ok(&api, &format!("{primary}&{q}"), &acme);
        check(&v, &kept, "daily", "None", None);
    }
    let all_subnet = of(None, false);
    let subnet_filters: [Filter<'_, String>; 5] = [
        (format!("chainId={SUBNET}"), &|m| m.chain == SUBNET),
        (format!("chainId={SUBNET_2}"), &|m| m.chain == SUBNET_2),
        (format!("rlBypassApiToken={acme_id}"), &|m| {
            m.key_id == acme_id
        }),
        ("responseCode=404".to_owned(), &|m| m.code == 404),
        ("rpcMethod=eth_chainId".to_owned(), &|m| {
            m.method == "eth_chainId"
        }),
    ];
    for (q, keep) in &subnet_filters {
        let kept: Vec<&Made> = all_subnet.iter().copied().filter(|m| keep(m)).collect();
        let v = ok(&api, &format!("/v1/subnetRpcUsageMetrics?{q}"), &ops);
        check(&v, &kept, "daily", "None", None);
        let chain = q.strip_prefix("chainId=").unwrap_or_default();
        assert_eq!(v["chainId"], chain, "{v}");
    }
    // A range of other days holds none of them; today alone holds them all.
    let today = now_ms() / 1000;
    let v = ok(
        &api,
        &format!("{primary}&startTimestamp=86400&endTimestamp=864000"),
        &acme,
    );
    assert_eq!(v["metrics"], json!([]));
    let v = ok(
        &api,
        &format!("{primary}&startTimestamp={today}&endTimestamp={today}"),
        &acme,
    );
    if made
        .iter()
        .all(|m| bucket(m.before_ms, "daily") == bucket(now_ms(), "daily"))
    {
        check(&v, &acme_primary, "daily", "None", None);
    }

    // Bad input: a 400 naming the parameter; no key: 401; another network: 404.
    let bad = [
        (format!("{primary}&timeInterval=minute"), "timeInterval"),
        (format!("{primary}&groupBy=rlBypassToken"), "groupBy"),
        (
            "/v1/subnetRpcUsageMetrics?groupBy=country".to_owned(),
            "groupBy",
        ),
        (format!("{primary}&startTimestamp=-1"), "startTimestamp"),
        (format!("{primary}&endTimestamp=soon"), "endTimestamp"),
        (
            format!("{primary}&startTimestamp=864000&endTimestamp=86400"),
            "startTimestamp",
        ),
        (format!("{primary}&responseCode=ok"), "responseCode"),
        (format!("{primary}&country=FRA"), "country"),
        (format!("{primary}&continent=XY"), "continent"),
        ("/v1/primaryNetworkRpcUsageMetrics".to_owned(), "network"),
        (
            "/v1/primaryNetworkRpcUsageMetrics?network=moon".to_owned(),
            "network",
        ),
        (
            "/v1/subnetRpcUsageMetrics?responseCode=2x".to_owned(),
            "responseCode",
        ),
    ];
    for (path, param) in &bad {
        let r = api.get_with(path, &[("x-data-api-key", &acme)]);
        let m = r.error(400, "Bad Request");
        assert!(m.contains(param), "{path}: {m}");
    }
    api.get(primary).error(401, "Unauthorized");
    // The key is checked first, before the parameters.
    api.get("/v1/primaryNetworkRpcUsageMetrics?network=moon")
        .error(401, "Unauthorized");
    api.get("/v1/subnetRpcUsageMetrics")
        .error(401, "Unauthorized");
    api.get_with(
        "/v1/primaryNetworkRpcUsageMetrics?network=mainnet",
        &[("x-data-api-key", &acme)],
    )
    .error(404, "Not Found");
}
