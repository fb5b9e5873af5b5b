//! `data-api serve` over HTTP: the chain endpoints, validation and error bodies, API keys
//! managed by the CLI while the server runs, rate limits with their headers, and usage metrics
//! aggregated from what the server metered.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::{create_key, run, start};

#[test]
fn chains_are_listed_filtered_and_looked_up_by_either_id() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let all = api.get("/v1/chains");
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(all.header("content-type"), Some("application/json"));
    let chains = all.json()["chains"].as_array().unwrap().clone();
    assert_eq!(chains.len(), 3);
    assert!(!all.body.contains("null"));
    for (network, expect) in [
        ("mainnet", "43114"),
        ("fuji", "43113"),
        ("testnet", "43113"),
        ("local", "43112"),
    ] {
        let r = api.get(&format!("/v1/chains?network={network}"));
        let ids: Vec<_> = r.json()["chains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["chainId"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(ids, [expect], "{network}");
    }
    assert_eq!(
        api.get("/v1/chains?feature=teleporter").json()["chains"],
        serde_json::json!([])
    );
    // By EVM chain id and by blockchain id, the same record as in the listing.
    let c = api.get("/v1/chains/43114").json();
    assert_eq!(c, chains[0]);
    let by_id = api.get(&format!(
        "/v1/chains/{}",
        c["platformChainId"].as_str().unwrap()
    ));
    assert_eq!(by_id.json(), c);
}

#[test]
fn bad_input_gets_the_spec_error_body_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let m = api.get("/v1/chains?network=moon").error(400, "Bad Request");
    assert!(m.contains("network") && m.contains("moon"), "{m}");
    let m = api.get("/v1/chains?feature=NFT").error(400, "Bad Request");
    assert!(m.contains("feature") && m.contains("nftIndexing"), "{m}");
    let m = api.get("/v1/chains/0xa86a").error(400, "Bad Request");
    assert!(m.contains("chainId"), "{m}");
    let m = api.get("/v1/chains/999999").error(404, "Not Found");
    assert!(m.contains("999999"), "{m}");
    api.get("/v1/nothing/here").error(404, "Not Found");
    let r = common::request(&api.addr, "POST", "/v1/chains", &[], "{}");
    r.error(405, "Method Not Allowed");
    assert!(r.header("allow").unwrap().contains("GET"));
    // Percent-encoded path segments are decoded before matching.
    assert_eq!(api.get("/v1/chains/%34%33%31%31%34").status, 200);
}

#[test]
fn glacier_profile_sends_validation_messages_as_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &["--compat", "glacier"]);
    let r = api.get("/v1/chains?network=moon");
    assert_eq!(r.status, 400);
    let v = r.json();
    assert!(
        v["message"].as_array().unwrap()[0]
            .as_str()
            .unwrap()
            .contains("network")
    );
    // Not-found messages stay strings under every profile.
    assert!(api.get("/v1/chains/999999").json()["message"].is_string());
}

#[test]
fn keys_made_by_the_cli_apply_to_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let (id, secret) = create_key(dir.path(), "ci", "acme", "pro");
    let d = dir.path().to_str().unwrap();
    // The server follows the keys store within about a second.
    assert!(api.wait_until(10, |a| {
        a.get_with("/v1/chains", &[("x-data-api-key", &secret)])
            .status
            == 200
    }));
    // Both headers are accepted; the glacier one too.
    let r = api.get_with("/v1/chains", &[("x-glacier-api-key", &secret)]);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("ratelimit-limit"),
        Some("100000"),
        "pro tier limits"
    );
    api.get_with("/v1/chains", &[("x-data-api-key", "snl_unknown")])
        .error(401, "Unauthorized");
    let (ok, out, _) = run(&["keys", "--data-dir", d, "list"]);
    assert!(ok && out.contains(&id) && out.contains("acme") && !out.contains(&secret));
    assert!(run(&["keys", "--data-dir", d, "disable", &id]).0);
    assert!(api.wait_until(10, |a| {
        a.get_with("/v1/chains", &[("x-data-api-key", &secret)])
            .status
            == 403
    }));
    api.get_with("/v1/chains", &[("x-data-api-key", &secret)])
        .error(403, "Forbidden");
    assert!(run(&["keys", "--data-dir", d, "enable", &id]).0);
    assert!(api.wait_until(10, |a| {
        a.get_with("/v1/chains", &[("x-data-api-key", &secret)])
            .status
            == 200
    }));
    assert!(run(&["keys", "--data-dir", d, "delete", &id]).0);
    assert!(api.wait_until(10, |a| {
        a.get_with("/v1/chains", &[("x-data-api-key", &secret)])
            .status
            == 401
    }));
    // Bad CLI input says why.
    let (ok, _, err) = run(&[
        "keys",
        "--data-dir",
        d,
        "create",
        "--name",
        "x",
        "--tier",
        "gold",
    ]);
    assert!(!ok && err.contains("gold"), "{err}");
    let (ok, _, err) = run(&["keys", "--data-dir", d, "disable", "nope"]);
    assert!(!ok && !err.is_empty());
}

#[test]
fn rate_limits_answer_429_with_their_headers_per_caller() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(
        dir.path(),
        &["--rate-limit", "anonymous=5/1000,free=50/1000"],
    );
    // `/v1/chains` weighs 1 unit: five pass, the sixth is refused.
    for left in (0..5).rev() {
        let r = api.get("/v1/chains");
        assert_eq!(r.status, 200);
        assert_eq!(r.header("ratelimit-limit"), Some("5"));
        assert_eq!(
            r.header("ratelimit-remaining"),
            Some(left.to_string().as_str())
        );
        assert!(r.header("ratelimit-policy").unwrap().contains("5;w=60"));
    }
    let r = api.get("/v1/chains");
    let m = r.error(429, "Too Many Requests");
    assert!(m.to_lowercase().contains("rate limit"), "{m}");
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert!(r.header("ratelimit-reset").is_some());
    // A keyed caller has its own budget.
    let (_, secret) = create_key(dir.path(), "k", "acme", "free");
    assert!(api.wait_until(10, |a| {
        a.get_with("/v1/chains", &[("x-data-api-key", &secret)])
            .status
            == 200
    }));
    let r = api.get_with("/v1/chains", &[("x-data-api-key", &secret)]);
    assert_eq!(r.header("ratelimit-limit"), Some("50"));
}

#[test]
fn usage_metrics_aggregate_what_the_server_metered() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let (id, secret) = create_key(dir.path(), "m", "acme", "free");
    let key = [("x-data-api-key", secret.as_str())];
    assert!(api.wait_until(10, |a| a.get_with("/v1/chains", &key).status == 200));
    // Known traffic: 3 more OK chain lookups, 2 bad ones, 1 not found.
    for p in ["/v1/chains/43114", "/v1/chains/43113", "/v1/chains/43112"] {
        assert_eq!(api.get_with(p, &key).status, 200);
    }
    for p in ["/v1/chains/zz", "/v1/chains?network=x"] {
        assert_eq!(api.get_with(p, &key).status, 400);
    }
    assert_eq!(api.get_with("/v1/chains/5", &key).status, 404);
    // Anonymous traffic is not this organisation's.
    assert_eq!(api.get("/v1/chains").status, 200);
    let metrics = |q: &str| {
        let r = api.get_with(&format!("/v1/apiUsageMetrics?{q}"), &key);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    // Events are written in batches: wait until all 7 keyed ones are visible.
    assert!(api.wait_until(10, |_| {
        let v = metrics("groupBy=requestType");
        v["metrics"][0]["values"][0]["totalRequests"].as_u64() >= Some(7)
    }));
    let v = metrics("groupBy=requestPath&timeInterval=daily");
    assert_eq!(v["orgId"], "acme");
    assert_eq!(v["aggregateDuration"], "daily");
    let values = v["metrics"][0]["values"].as_array().unwrap();
    let by_path = |p: &str| {
        values
            .iter()
            .find(|x| x["groupValue"] == p)
            .unwrap()
            .clone()
    };
    let one = by_path("/v1/chains/{chainId}");
    assert_eq!(one["groupedBy"], "requestPath");
    assert_eq!(one["totalRequests"], 5);
    assert_eq!(one["invalidRequests"], 2);
    assert_eq!(one["apiCreditsUsed"], 3);
    assert_eq!(one["apiCreditsWasted"], 2);
    assert_eq!(one["successRatePercent"], 60.0);
    let list = by_path("/v1/chains");
    assert_eq!(
        (
            list["totalRequests"].as_u64(),
            list["invalidRequests"].as_u64()
        ),
        (Some(2), Some(1))
    );
    // By status code, by key, filtered.
    let v = metrics("groupBy=responseCode");
    let codes: Vec<_> = v["metrics"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["groupValue"].as_str().unwrap().to_owned())
        .collect();
    for c in ["200", "400", "404"] {
        assert!(codes.iter().any(|x| x == c), "{codes:?}");
    }
    let v = metrics(&format!("groupBy=apiKeyId&apiKeyId={id}"));
    assert_eq!(v["metrics"][0]["values"][0]["groupValue"], id.as_str());
    let v = metrics("responseCode=404");
    assert_eq!(v["metrics"][0]["values"][0]["totalRequests"], 1);
    assert_eq!(v["metrics"][0]["values"][0]["groupedBy"], "None");
    let v = metrics("groupBy=chainId&chainId=43114");
    assert_eq!(v["metrics"][0]["values"][0]["totalRequests"], 1);
    // Each interval buckets the same events.
    for interval in ["minute", "hourly", "daily", "weekly", "monthly"] {
        let v = metrics(&format!("timeInterval={interval}&groupBy=requestType"));
        let total: u64 = v["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["values"].as_array().unwrap().iter())
            .map(|x| x["totalRequests"].as_u64().unwrap())
            .sum();
        assert!(total >= 7, "{interval}: {v}");
        assert_eq!(v["aggregateDuration"], interval);
    }
    // A range before any traffic is empty; bad parameters are 400; another org is 403.
    let v = metrics("startTimestamp=0&endTimestamp=86400");
    assert_eq!(v["metrics"], serde_json::json!([]));
    for q in [
        "timeInterval=yearly",
        "groupBy=country",
        "requestType=ws",
        "startTimestamp=-1",
        "startTimestamp=2000000000&endTimestamp=0",
    ] {
        api.get_with(&format!("/v1/apiUsageMetrics?{q}"), &key)
            .error(400, "Bad Request");
    }
    api.get_with("/v1/apiUsageMetrics?orgId=other", &key)
        .error(403, "Forbidden");
    api.get("/v1/apiUsageMetrics").error(401, "Unauthorized");
}

#[test]
fn api_logs_list_each_metered_request_newest_first_with_its_client() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let (id, secret) = create_key(dir.path(), "l", "acme", "free");
    let key = [("x-data-api-key", secret.as_str())];
    assert!(api.wait_until(10, |a| a.get_with("/v1/chains", &key).status == 200));
    // Known traffic from one client, told apart by its user agent: in this order, a 200, a
    // 400 and a 404 on the same route; and an anonymous call, not the organisation's.
    let probe = [
        ("x-data-api-key", secret.as_str()),
        ("user-agent", "probe/1"),
    ];
    let sent = [
        ("/v1/chains/43114", 200),
        ("/v1/chains/zz", 400),
        ("/v1/chains/5", 404),
    ];
    for (path, status) in sent {
        assert_eq!(api.get_with(path, &probe).status, status, "{path}");
    }
    assert_eq!(
        api.get_with("/v1/chains/43113", &[("user-agent", "probe/1")])
            .status,
        200
    );
    let logs = |q: &str| {
        let r = api.get_with(&format!("/v1/apiLogs?{q}"), &key);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let probes = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["logs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["metadata"]["userAgent"] == "probe/1")
            .cloned()
            .collect()
    };
    // Events are written in batches: wait until the three are visible.
    assert!(api.wait_until(10, |_| probes(&logs("pageSize=100")).len() >= 3));
    // Page by page, one at a time: the same entries as one page, newest first. (The log's
    // own requests are logged as they are made: the pages are of one route's only.)
    let route = "requestPath=/v1/chains/{chainId}";
    let whole = logs(&format!("pageSize=100&{route}"));
    assert_eq!(whole["orgId"], "acme");
    let mut paged = Vec::new();
    let mut q = format!("pageSize=1&{route}");
    loop {
        let v = logs(&q);
        assert!(v["logs"].as_array().unwrap().len() <= 1, "{v}");
        paged.extend(v["logs"].as_array().unwrap().iter().cloned());
        match v.get("nextPageToken") {
            Some(t) => q = format!("pageSize=1&{route}&pageToken={}", t.as_str().unwrap()),
            None => break,
        }
    }
    assert_eq!(&paged, whole["logs"].as_array().unwrap());
    let ids: BTreeSet<&str> = paged.iter().map(|l| l["logId"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), paged.len(), "log ids are unique");
    let times: Vec<u64> = paged
        .iter()
        .map(|l| l["eventTimestamp"].as_u64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    let mine = probes(&whole);
    let codes: Vec<u64> = mine
        .iter()
        .map(|l| l["responseCode"].as_u64().unwrap())
        .collect();
    assert_eq!(codes, [404, 400, 200], "newest first");
    for l in &mine {
        assert_eq!(l["orgId"], "acme");
        assert_eq!(l["apiKeyId"], id.as_str());
        assert_eq!(l["requestType"], "data");
        assert_eq!(l["requestPath"], "/v1/chains/{chainId}");
        assert_eq!(l["metadata"]["ipAddress"], "127.0.0.1");
        assert_eq!(l["metadata"]["host"], api.addr.as_str());
        assert!(l["requestDurationMsecs"].as_f64().unwrap() >= 0.0);
        assert!(l.as_object().unwrap().values().all(|x| !x.is_null()), "{l}");
    }
    // Credits: the route's weight is charged on a success and on a client error alike.
    assert!(
        mine.iter()
            .all(|l| l["apiCreditsConsumed"].as_u64() >= Some(1))
    );
    // Filters: each narrows to what it names.
    let only = |q: &str| probes(&logs(&format!("pageSize=100&{q}")));
    let one = only("responseCode=404");
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["logId"], mine[0]["logId"]);
    assert_eq!(only("chainId=43114").len(), 1);
    assert_eq!(only(&format!("apiKeyId={id}")).len(), 3);
    assert_eq!(only("requestPath=/v1/chains/{chainId}").len(), 3);
    assert!(only("requestType=rpc").is_empty());
    assert!(only("apiKeyId=nobody").is_empty());
    // A token belongs to its filters; bad input is a 400, another organisation a 403, no key a
    // 401.
    let first = logs("pageSize=1");
    let token = first["nextPageToken"].as_str().unwrap();
    api.get_with(
        &format!("/v1/apiLogs?pageSize=1&responseCode=200&pageToken={token}"),
        &key,
    )
    .error(400, "Bad Request");
    for q in [
        "pageSize=0",
        "pageSize=101",
        "requestType=ws",
        "pageToken=zz",
    ] {
        api.get_with(&format!("/v1/apiLogs?{q}"), &key)
            .error(400, "Bad Request");
    }
    api.get_with("/v1/apiLogs?orgId=other", &key)
        .error(403, "Forbidden");
    api.get("/v1/apiLogs").error(401, "Unauthorized");
}

#[test]
fn health_readiness_and_prometheus_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    assert_eq!(api.get("/healthz").status, 200);
    assert_eq!(api.get("/readyz").status, 200);
    assert_eq!(api.get("/v1/chains/43114").status, 200);
    let m = api.get("/metrics");
    assert_eq!(m.status, 200);
    assert!(m.body.contains("http_requests_total{"), "{}", m.body);
    assert!(m.body.contains("route=\"/v1/chains/{chainId}\""));
    assert!(m.body.contains("snowline_usage_events_dropped"));
}

#[test]
fn serve_refuses_bad_flags_and_files_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let reg = dir.path().join("chains.json");
    std::fs::write(&reg, r#"{"moon": []}"#).unwrap();
    let (ok, _, err) = run(&[
        "serve",
        "--data-dir",
        d,
        "--listen",
        "127.0.0.1:0",
        "--chains",
        reg.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("moon"), "{err}");
    let (ok, _, err) = run(&[
        "serve",
        "--data-dir",
        d,
        "--listen",
        "127.0.0.1:0",
        "--token-secret",
        "abc",
    ]);
    assert!(!ok && err.contains("token-secret"), "{err}");
    let (ok, _, err) = run(&["serve", "--data-dir", d, "--rate-limit", "free=0/1"]);
    assert!(!ok && err.contains("free=0/1"), "{err}");
    for mib in ["0", "1025", "x"] {
        let (ok, _, err) = run(&["serve", "--data-dir", d, "--follow-batch-mib", mib]);
        assert!(!ok && err.contains("--follow-batch-mib"), "{mib}: {err}");
    }
}

#[test]
fn an_operator_registry_adds_chains() {
    let dir = tempfile::tempdir().unwrap();
    let reg = dir.path().join("chains.json");
    std::fs::write(
        &reg,
        r#"{"fuji": [{"chainId": "779672", "chainName": "Dispatch", "description": "an L1",
            "rpcUrl": "http://127.0.0.1:9650/ext/bc/dispatch/rpc", "isTestnet": true,
            "enabledFeatures": ["teleporter"],
            "networkToken": {"name": "Dispatch", "symbol": "DIS", "decimals": 18}}]}"#,
    )
    .unwrap();
    let api = start(dir.path(), &["--chains", reg.to_str().unwrap()]);
    assert_eq!(
        api.get("/v1/chains").json()["chains"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    let t = api.get("/v1/chains?feature=teleporter").json();
    assert_eq!(t["chains"][0]["chainId"], "779672");
    assert_eq!(
        api.get("/v1/chains/779672").json()["networkToken"]["symbol"],
        "DIS"
    );
}

/// Bad input sent from outside, each answered in the spec's error shape with its limit, and
/// counted in `/metrics`: a URI over 65,534 bytes (4,000 addresses), an address list over 64
/// that fits in a URI, a head over 256 KiB or 100 fields, bytes that are not HTTP/1.1, a query
/// that decodes to invalid UTF-8, a body over 1 MiB.
#[test]
fn bad_input_from_outside_is_answered_in_the_spec_shape_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &["--no-rate-limits"]);
    let utxos = "/v1/networks/local/blockchains/x-chain/utxos";
    let addr = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
    let list = |n: usize| vec![addr; n].join(",");
    let get = |target: &str, extra: &str| {
        common::exchange(
            &api.addr,
            format!("GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{extra}\r\n")
                .as_bytes(),
        )
    };
    let m = get(&format!("{utxos}?addresses={}", list(4_000)), "").error(414, "URI Too Long");
    assert_eq!(m, "the request URI is longer than the limit of 65534 bytes");
    let m = get(&format!("{utxos}?addresses={}", list(1_000)), "").error(400, "Bad Request");
    assert_eq!(
        m,
        "Invalid addresses: must list at most 64 addresses, got 1000"
    );
    let heads = "the request's headers are over the limit of 262144 bytes or 100 fields";
    let big = format!("x-big: {}\r\n", "b".repeat(300_000));
    let m = get("/v1/chains", &big).error(431, "Request Header Fields Too Large");
    assert_eq!(m, heads);
    let fields: String = (0..101).map(|i| format!("x-f{i}: v\r\n")).collect();
    let m = get("/v1/chains", &fields).error(431, "Request Header Fields Too Large");
    assert_eq!(m, heads);
    let r = common::exchange(
        &api.addr,
        b"GET /v1/chains/\xff HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    );
    assert!(r.error(400, "Bad Request").contains("not valid HTTP/1.1"));
    let m = get(&format!("{utxos}?addresses={addr}&pageSize=%ff"), "").error(400, "Bad Request");
    assert_eq!(
        m,
        "Query parameter \"pageSize\" does not decode to valid UTF-8"
    );
    let m = get("/v1/chains/%ff", "").error(400, "Bad Request");
    assert!(m.contains("valid UTF-8"), "{m}");
    let body = "x".repeat(1_100_000);
    let m = get(
        "/v1/chains",
        &format!("content-length: {}\r\n\r\n{body}", body.len()),
    )
    .error(413, "Payload Too Large");
    assert_eq!(m, "Request body too large: the limit is 1048576 bytes");

    let metrics = api.get("/metrics").body;
    for line in [
        r#"http_requests_total{route="unknown",method="other",status="414"} 1"#,
        r#"http_requests_total{route="unknown",method="other",status="431"} 2"#,
        r#"http_requests_total{route="unknown",method="other",status="400"} 1"#,
        r#"http_requests_total{route="/v1/networks/{network}/blockchains/{blockchainId}/utxos",method="GET",status="400"} 2"#,
        r#"http_requests_total{route="unknown",method="GET",status="400"} 1"#,
        r#"http_requests_total{route="/v1/chains",method="GET",status="413"} 1"#,
    ] {
        assert!(metrics.contains(line), "{line} not in\n{metrics}");
    }
}

/// With the connection cap (`--max-connections 4`) full of idle connections, twice over, a new
/// client is served: each connection past the cap closes the one idle the longest. The bound
/// is far below the 10 s header timeout that would otherwise free a slot.
#[test]
fn a_cap_full_of_idle_connections_still_serves_a_new_client() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &["--no-rate-limits", "--max-connections", "4"]);
    let mut idle: Vec<std::net::TcpStream> = (0..8)
        .map(|_| std::net::TcpStream::connect(&api.addr).expect("connect"))
        .collect();
    let started = std::time::Instant::now();
    let r = api.get("/v1/chains/43114");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the new client waited for the header timeout"
    );
    // The first four were closed to make room.
    let mut buf = [0u8; 16];
    for c in &mut idle[..4] {
        c.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .ok();
        assert!(matches!(c.read(&mut buf), Ok(0) | Err(_)));
    }
}

/// The server runs with glibc's malloc bounded for RocksDB: its environment, as the kernel
/// shows it, holds both settings (the binary re-executed itself with them, same pid).
#[test]
fn the_server_runs_with_glibc_malloc_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &[]);
    let environ = std::fs::read(format!("/proc/{}/environ", api.pid())).unwrap();
    let vars: Vec<&[u8]> = environ.split(|b| *b == 0).collect();
    for want in [
        &b"MALLOC_ARENA_MAX=2"[..],
        &b"MALLOC_MMAP_THRESHOLD_=131072"[..],
    ] {
        assert!(
            vars.contains(&want),
            "{} missing from the server's environment",
            String::from_utf8_lossy(want)
        );
    }
}

/// `--metrics-listen` serves the metrics service from data-api's own process and store: over
/// the devnet's P-Chain genesis, the primary network's validator count is the genesis's
/// validators (read from the devnet generator, not from the metrics code), the errors carry
/// message arrays, and the Data API's own listener does not answer the metrics routes.
#[test]
fn metrics_listen_serves_the_metrics_service_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(
        dir.path(),
        &["--genesis", "devnet", "--metrics-listen", "127.0.0.1:0"],
    );
    let line = api
        .stdout_line("metrics service listening on http://")
        .expect("the metrics listener's address");
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let devnet = snowline_devnet::Devnet::generate(snowline_devnet::DevnetConfig::small()).unwrap();
    let validators = devnet.p_genesis().validators.len();
    assert!(validators > 0);

    let r = common::request(
        &addr,
        "GET",
        "/v2/networks/local/metrics/validatorCount",
        &[],
        "",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let newest = &v["results"][0];
    assert_eq!(newest["value"], serde_json::json!(validators), "{v}");

    let r = common::request(
        &addr,
        "GET",
        "/v2/networks/local/metrics/noSuchMetric",
        &[],
        "",
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["message"].is_array(), "{}", r.body);
    let r = common::request(&addr, "GET", "/v2/health-check", &[], "");
    assert_eq!(r.status, 200, "{}", r.body);

    assert_eq!(
        api.get("/v2/networks/local/metrics/validatorCount").status,
        404
    );
}

/// avalanchego v1.14.2 `staking/local/`: its first local staker's files (copied unchanged into
/// snowline-p2p's test fixtures).
fn avalanchego_local(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/p2p/tests/fixtures/avalanchego-local")
        .join(name)
}

#[test]
fn the_staking_identity_is_generated_once_or_read_as_avalanchego_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let staking = dir.path().join("staking");
    let files = ["staker.crt", "staker.key", "signer.key"];
    let read = |d: &std::path::Path| files.map(|f| std::fs::read(d.join(f)).unwrap());
    // First start: generated in DATA_DIR/staking, as avalanchego writes them.
    let api = start(dir.path(), &[]);
    drop(api);
    let first = read(&staking);
    assert!(first[0].starts_with(b"-----BEGIN CERTIFICATE-----\n"));
    assert!(first[1].starts_with(b"-----BEGIN PRIVATE KEY-----\n"));
    assert_eq!(first[2].len(), 32);
    // Second start: read back, not replaced.
    drop(start(dir.path(), &[]));
    assert_eq!(read(&staking), first);

    // An avalanchego node's own files (an RSA key, PKCS#1 PEM) in `--staking-dir`.
    let own = dir.path().join("own");
    std::fs::create_dir(&own).unwrap();
    for (from, to) in [
        ("staker1.crt", "staker.crt"),
        ("staker1.key", "staker.key"),
        ("signer1.key", "signer.key"),
    ] {
        std::fs::copy(avalanchego_local(from), own.join(to)).unwrap();
    }
    let before = read(&own);
    let data = dir.path().join("data2");
    drop(start(&data, &["--staking-dir", own.to_str().unwrap()]));
    assert_eq!(read(&own), before);
    assert!(!data.join("staking").exists());

    // A certificate that is not the key's: refused, naming the flag.
    std::fs::copy(avalanchego_local("staker2.crt"), own.join("staker.crt")).unwrap();
    let (ok, _, err) = run(&[
        "serve",
        "--data-dir",
        data.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
        "--staking-dir",
        own.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("--staking-dir") && err.contains("does not hold the staking key"),
        "{err}"
    );
}
