//! What a fleet's nodes share beside the index, with the real binaries on a three-node NATS
//! cluster: a primary following the devnet and two replicas, none given a token secret. A key
//! made with `keys --fleet` works on every node and a disabled one stops on
//! every node; the usage every node recorded is answered the same by each; a client moving to
//! another node on each page walks a listing (the request log's and an X-Chain one) with every
//! item once; and a key's rate limit holds across the nodes: once a node has the others'
//! usage, it refuses the spent key, and the fleet admits no more than the documented bound.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use common::{DataApi, start, upstream};
use serde_json::Value;
use snowline_test_support::nats::NatsCluster;

/// The test key's tier: 60 units a minute and a day (a `/v1/chains` request costs 1), so the
/// budget does not come back while the test runs.
const LIMITED: &str = "pro=60/60";
const LIMIT: usize = 60;

fn node(dir: &Path, role: &[&str]) -> DataApi {
    let mut args = role.to_vec();
    args.extend_from_slice(&["--stream-replicas", "3", "--rate-limit", LIMITED]);
    start(dir, &args)
}

/// `data-api keys --fleet URLS ARGS`: its standard output.
fn fleet_keys(urls: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![
        "keys",
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--fleet",
        urls,
        "--stream-replicas",
        "3",
    ];
    all.extend_from_slice(args);
    let (ok, out, err) = common::run(&all);
    assert!(ok, "keys {args:?}: {err}");
    out
}

/// A new fleet key of `tier`: (key id, secret).
fn fleet_key(urls: &str, name: &str, tier: &str) -> (String, String) {
    let out = fleet_keys(
        urls,
        &["create", "--name", name, "--org", "acme", "--tier", tier],
    );
    let secret = out
        .split_whitespace()
        .find(|w| w.starts_with("snl_"))
        .expect("secret printed")
        .to_owned();
    let id = out
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    (id.to_owned(), secret)
}

fn with_key(api: &DataApi, path: &str, secret: &str) -> common::Response {
    api.get_with(path, &[("x-data-api-key", secret)])
}

/// Polls every node, fast, until each answers `status` to `path` with `secret`: whether all did
/// within `within`.
fn everywhere_within(
    nodes: &[&DataApi],
    path: &str,
    secret: &str,
    status: u16,
    within: Duration,
) -> bool {
    let end = Instant::now() + within;
    let mut pending: Vec<&DataApi> = nodes.to_vec();
    while Instant::now() < end {
        pending.retain(|n| with_key(n, path, secret).status != status);
        if pending.is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// The value of an unlabelled metric on `/metrics`.
fn metric(api: &DataApi, name: &str) -> Option<f64> {
    let body = api.get("/metrics").body;
    body.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let (n, v) = l.split_once(' ')?;
        (n == name).then(|| v.trim().parse().ok())?
    })
}

/// The items of every page of `path`, asking the next node of `nodes` for each page.
fn walk_alternating(nodes: &[&DataApi], path: &str, key: &str, secret: Option<&str>) -> Vec<Value> {
    let mut items = Vec::new();
    let mut token: Option<String> = None;
    for page in 0.. {
        let api = nodes[page % nodes.len()];
        let p = match &token {
            Some(t) => format!("{path}&pageToken={t}"),
            None => path.to_owned(),
        };
        let r = match secret {
            Some(s) => with_key(api, &p, s),
            None => api.get(&p),
        };
        assert_eq!(
            r.status,
            200,
            "{p} on node {}: {}",
            page % nodes.len(),
            r.body
        );
        let v = r.json();
        items.extend(
            v[key]
                .as_array()
                .unwrap_or_else(|| panic!("{p}: {v}"))
                .iter()
                .cloned(),
        );
        token = v
            .get("nextPageToken")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if token.is_none() {
            break;
        }
        assert!(page < 10_000, "{path}: paging does not end");
    }
    items
}

#[test]
fn keys_usage_limits_and_page_tokens_are_the_fleets() {
    let cluster = NatsCluster::start();
    let urls = cluster.urls();
    let up = upstream::start(13, 600);
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let p = node(
        dirs[0].path(),
        &[
            "--upstream",
            &up.url,
            "--genesis",
            "devnet",
            "--devnet-seed",
            "13",
            "--uptime-poll-s",
            "0",
            "--publish",
            &urls,
        ],
    );
    let r1 = node(dirs[1].path(), &["--replica-of", &urls]);
    let r2 = node(dirs[2].path(), &["--replica-of", &urls]);
    let nodes = [&p, &r1, &r2];
    assert!(
        p.wait_until(300, |p| p.get("/readyz").status == 200),
        "{}",
        p.get("/readyz").body
    );
    let head = metric(&p, "snowline_fleet_position").unwrap();
    for r in [&r1, &r2] {
        assert!(
            r.wait_until(120, |r| metric(r, "snowline_fleet_position")
                .is_some_and(|at| at >= head)),
            "{}",
            r.get("/readyz").body
        );
    }

    // A key made for the fleet works on every node; disabled, it stops on every node; enabled
    // again, it works again. The bucket's watch delivers a change within milliseconds, well
    // inside the second `docs/fleet.md` states; the deadline here only bounds the wait on a
    // loaded machine and times nothing.
    let (admin_id, admin) = fleet_key(&urls, "reader", "admin");
    let (key_id, key) = fleet_key(&urls, "client", "free");
    let bound = Duration::from_secs(15);
    assert!(
        everywhere_within(&nodes, "/v1/chains", &key, 200, bound),
        "the new key is refused somewhere"
    );
    assert!(everywhere_within(&nodes, "/v1/chains", &admin, 200, bound));
    let listed = fleet_keys(&urls, &["list"]);
    assert!(
        listed.contains(&key_id) && listed.contains(&admin_id),
        "{listed}"
    );
    assert!(!listed.contains(&key), "a secret in the listing");
    fleet_keys(&urls, &["disable", &key_id]);
    assert!(
        everywhere_within(&nodes, "/v1/chains", &key, 403, bound),
        "the disabled key works somewhere"
    );
    fleet_keys(&urls, &["enable", &key_id]);
    assert!(everywhere_within(&nodes, "/v1/chains", &key, 200, bound));
    // A key of one node's own keys store is that node's alone.
    let (_, local) = common::create_key(dirs[1].path(), "local", "acme", "free");
    assert!(r1.wait_until(10, |r| with_key(r, "/v1/chains", &local).status == 200));
    assert_eq!(with_key(&r2, "/v1/chains", &local).status, 401);

    // Usage: a different number of requests on each node; every node then answers the same
    // totals (by response code; the key's earlier requests included) and the same request log.
    let sent = [5usize, 7, 9];
    for (n, count) in nodes.iter().zip(sent) {
        for _ in 0..count {
            assert_eq!(with_key(n, "/v1/chains", &key).status, 200);
        }
    }
    let usage = format!(
        "/v1/apiUsageMetrics?apiKeyId={key_id}&requestPath=/v1/chains&groupBy=responseCode"
    );
    let totals = |api: &DataApi| usage_by_group(api, &usage, &admin);
    // And the one 200 per node of each wait above (new, enabled again).
    let answered = sent.iter().sum::<usize>() as u64 + 6;
    assert!(
        p.wait_until(30, |_| {
            let t: Vec<_> = nodes.iter().map(|n| totals(n)).collect();
            t[0] == t[1] && t[1] == t[2] && t[0].get("200") == Some(&answered)
        }),
        "the nodes' usage differs: {:?}",
        nodes.iter().map(|n| totals(n)).collect::<Vec<_>>()
    );
    let agreed = totals(&p);
    let logs = format!("/v1/apiLogs?apiKeyId={key_id}&requestPath=/v1/chains&pageSize=4");
    let first = with_key(&p, &logs, &admin);
    assert_eq!(first.status, 200, "{}", first.body);
    for r in [&r1, &r2] {
        assert_eq!(with_key(r, &logs, &admin).body, first.body);
    }
    // A client on another node for each page sees every logged request once.
    let entries = walk_alternating(&nodes, &logs, "logs", Some(&admin));
    assert_eq!(entries.len() as u64, agreed.values().sum::<u64>());
    let ids: BTreeSet<&str> = entries
        .iter()
        .map(|e| e["logId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), entries.len(), "a log entry twice");
    // So does an X-Chain listing: the page tokens are sealed with the fleet's one secret.
    let blocks = "/v1/networks/local/blockchains/x-chain/blocks?pageSize=2";
    let alone = common::all_pages(&p, blocks, "blocks");
    assert!(alone.len() > 4, "{} blocks", alone.len());
    assert_eq!(walk_alternating(&nodes, blocks, "blocks", None), alone);

    // Rate limits: a key of the limited tier, spent by a client moving from node to node, one
    // request at a time, until every node has refused it.
    let (limited_id, limited) = fleet_key(&urls, "limited", "pro");
    assert!(everywhere_within(
        &nodes,
        "/v1/chains",
        &limited,
        200,
        bound
    ));
    let mut admitted = 3;
    let mut refused = [false; 3];
    for i in 0..LIMIT * 4 {
        match with_key(nodes[i % 3], "/v1/chains", &limited).status {
            200 => admitted += 1,
            429 => refused[i % 3] = true,
            s => panic!("status {s}"),
        }
        if refused == [true; 3] {
            break;
        }
    }
    assert_eq!(refused, [true; 3], "{admitted} admitted");
    // The bound (docs/fleet.md): at least the limit, at most what every node admits before
    // the others' usage reaches it, never more than the limit on each node.
    assert!(
        (LIMIT..=3 * LIMIT).contains(&admitted),
        "{admitted} admitted of {LIMIT}"
    );
    println!("the fleet admitted {admitted} requests of a limit of {LIMIT}");
    // Once a node has every node's usage of the key, it refuses the key.
    let spent = format!(
        "/v1/apiUsageMetrics?apiKeyId={limited_id}&requestPath=/v1/chains&groupBy=responseCode"
    );
    for n in nodes {
        assert!(
            n.wait_until(30, |n| usage_by_group(n, &spent, &admin).get("200")
                == Some(&(admitted as u64))),
            "usage never arrived: {:?}",
            usage_by_group(n, &spent, &admin)
        );
        assert_eq!(with_key(n, "/v1/chains", &limited).status, 429);
    }
}

/// `totalRequests` of an `apiUsageMetrics` answer, summed per group value over its buckets.
fn usage_by_group(api: &DataApi, path: &str, secret: &str) -> BTreeMap<String, u64> {
    let r = with_key(api, path, secret);
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    let v = r.json();
    let mut totals = BTreeMap::new();
    for m in v["metrics"].as_array().unwrap_or_else(|| panic!("{v}")) {
        for g in m["values"].as_array().into_iter().flatten() {
            let group = g["groupValue"].as_str().unwrap_or_default().to_owned();
            *totals.entry(group).or_default() += g["totalRequests"].as_u64().unwrap();
        }
    }
    totals
}
