//! Crash safety of the X-Chain state through the real binary: `node-rpc` is killed
//! with SIGKILL while it loads the devnet (`serve`) or imports a file (`import`), restarted to
//! completion, and must then answer exactly like a clean run in another data directory: every
//! container of `X/tx`, `X/vtx`, `X/block`, and `avm.getUTXOs` (all pages) and
//! `avm.getAllBalances` of every devnet address.
//!
//! Timing only decides *when* to kill; the tests pass wherever the kill lands (before the first
//! batch, mid-load, after the load).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use common::{NodeRpc, digest, dir_arg, run, start};
use serde_json::{Value, json};
use snowline_devnet::{Devnet, DevnetConfig, write_jsonl};
use snowline_types::NetworkInfo;
use snowline_types::address::format_address;

/// Devnet size: big enough for several write batches, small enough for a debug build to load
/// it a few times well under a minute.
const TXS: u64 = 6000;
const TXS_ARG: &str = "6000";

/// Containers per batch for the import (small, so a file holds many batches).
const IMPORT_BATCH: &str = "64";

/// Fractions of the clean load time at which `serve` is killed: three, or
/// `SNOWLINE_CRASH_KILLS` spread evenly (`cargo xtask harden` asks for 20).
fn serve_kill_fractions() -> Vec<f64> {
    match crash_kills() {
        None => vec![0.05, 0.4, 0.7],
        Some(n) => (1..=n).map(|i| i as f64 / (n + 1) as f64).collect(),
    }
}

/// `SNOWLINE_CRASH_KILLS`, when set.
fn crash_kills() -> Option<usize> {
    std::env::var("SNOWLINE_CRASH_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .filter(|n| *n > 0)
}

fn devnet() -> Devnet {
    Devnet::generate(DevnetConfig::large(TXS).with_seed(1)).expect("devnet")
}

/// Every devnet address (ewoq and the seeded keys) as `X-local1...`.
fn addresses() -> Vec<String> {
    devnet()
        .keys()
        .addrs()
        .iter()
        .map(|a| format_address("X", NetworkInfo::LOCAL.hrp, a).expect("address"))
        .collect()
}

/// Everything compared between two stores, one labelled answer per call. A failing call is
/// recorded (whole response) and ends its pagination, so errors are compared too.
fn snapshot(node: &NodeRpc, addrs: &[String]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for path in ["X/tx", "X/vtx", "X/block"] {
        let url = format!("/ext/index/{path}");
        let mut start = 0u64;
        loop {
            let params = json!({"startIndex": start, "numToFetch": 1024, "encoding": "hex"});
            let v = node.call(&url, "index.getContainerRange", params);
            let n = containers(&v);
            out.push((format!("{path} from {start}"), v));
            if n < 1024 {
                break;
            }
            start += 1024;
        }
    }
    for a in addrs {
        let mut params = json!({"addresses": [a], "limit": 1024});
        loop {
            let v = node.call("/ext/bc/X", "avm.getUTXOs", params.clone());
            let n = v["result"]["utxos"].as_array().map_or(0, Vec::len);
            let end = v["result"]["endIndex"].clone();
            out.push((format!("getUTXOs {a} {params}"), v));
            if n < 1024 {
                break;
            }
            params["startIndex"] = end;
        }
        let v = node.call("/ext/bc/X", "avm.getAllBalances", json!({"address": a}));
        out.push((format!("getAllBalances {a}"), v));
    }
    out
}

/// Serves what the killed run left in `dir` and asserts it is a prefix of the clean index (the
/// first page of each path; every batch is whole); returns how many containers it holds.
fn assert_prefix(dir: &Path, want: &[(String, Value)]) -> usize {
    let node = start(&["serve", "--source", "none", "--data-dir", dir_arg(dir)]);
    let mut held = 0;
    for path in ["X/tx", "X/vtx", "X/block"] {
        let got = node.call(
            &format!("/ext/index/{path}"),
            "index.getContainerRange",
            json!({"startIndex": 0, "numToFetch": 1024, "encoding": "hex"}),
        );
        let n = containers(&got);
        held += n;
        if n == 0 {
            continue;
        }
        let key = format!("{path} from 0");
        let (_, full) = want
            .iter()
            .find(|(k, _)| *k == key)
            .expect("reference page");
        let got_list = got["result"]
            .as_array()
            .or_else(|| got["result"]["containers"].as_array());
        let full_list = full["result"]
            .as_array()
            .or_else(|| full["result"]["containers"].as_array())
            .expect("reference containers");
        assert_eq!(
            got_list.map(|l| l.as_slice()),
            full_list.get(..n),
            "{path}: the killed run's index is not a prefix of the clean one"
        );
    }
    held
}

/// How many containers a `getContainerRange` response holds (the `spec` profile returns the
/// list itself, avalanchego's an object with `containers`).
fn containers(v: &Value) -> usize {
    let r = &v["result"];
    r.as_array()
        .or_else(|| r["containers"].as_array())
        .map_or(0, Vec::len)
}

/// Asserts two snapshots are equal, naming the first call that differs.
fn assert_same(what: &str, want: &[(String, Value)], got: &[(String, Value)]) {
    for (w, g) in want.iter().zip(got) {
        assert_eq!(w, g, "{what}: {} differs", w.0);
    }
    assert_eq!(want.len(), got.len(), "{what}: number of calls");
}

/// The reference data a snapshot must show: some UTXOs and balances, not only errors.
fn assert_meaningful(snap: &[(String, Value)]) {
    let utxos: usize = snap
        .iter()
        .filter(|(k, _)| k.starts_with("getUTXOs"))
        .map(|(_, v)| v["result"]["utxos"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(utxos > 0, "the reference holds no UTXOs");
    let containers: usize = snap
        .iter()
        .filter(|(k, _)| k.starts_with("X/"))
        .map(|(_, v)| containers(v))
        .sum();
    assert!(containers > 512, "the reference holds too few containers");
}

/// Spawns `node-rpc ARGS` with stdout piped; a thread drains it and sets the flag once the
/// "listening on" line appears.
fn spawn_watching_stdout(args: &[&str]) -> (Child, Arc<AtomicBool>, std::thread::JoinHandle<()>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn node-rpc");
    let stdout = child.stdout.take().expect("stdout");
    let listening = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&listening);
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.contains("listening on") {
                flag.store(true, Ordering::SeqCst);
            }
        }
    });
    (child, listening, reader)
}

#[test]
fn serve_killed_mid_devnet_load_resumes_to_the_clean_state() {
    let addrs = addresses();
    let clean_dir = tempfile::tempdir().unwrap();
    let began = Instant::now();
    let clean = start(&[
        "serve",
        "--data-dir",
        dir_arg(clean_dir.path()),
        "--devnet-txs",
        TXS_ARG,
    ]);
    let load_time = began.elapsed();
    eprintln!("clean devnet load and start: {load_time:?}");
    let want = snapshot(&clean, &addrs);
    drop(clean);
    assert_meaningful(&want);

    let mut mid_load = 0;
    for frac in serve_kill_fractions() {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            "serve",
            "--data-dir",
            dir_arg(dir.path()),
            "--devnet-txs",
            TXS_ARG,
            "--listen",
            "127.0.0.1:0",
        ];
        let (mut child, listening, reader) = spawn_watching_stdout(&args);
        std::thread::sleep(load_time.mul_f64(frac));
        child.kill().expect("SIGKILL");
        child.wait().expect("wait");
        reader.join().expect("stdout reader");
        // Whether the load was cut short only says how meaningful this round was; the
        // restarted store must match the clean one either way.
        let cut = !listening.load(Ordering::SeqCst);
        if cut {
            mid_load += 1;
        }
        let held = assert_prefix(dir.path(), &want);
        eprintln!(
            "serve killed at {frac} of the clean load time: before serving = {cut}, \
             {held} containers written"
        );
        let restarted = start(&args[..5]);
        let got = snapshot(&restarted, &addrs);
        assert_same(&format!("serve killed at {frac}"), &want, &got);
        drop(restarted);
        assert_eq!(
            digest(dir.path()),
            digest(clean_dir.path()),
            "serve killed at {frac}: a table differs from the clean run's"
        );
    }
    eprintln!(
        "{mid_load} of {} kills landed before serving",
        serve_kill_fractions().len()
    );
}

#[test]
fn import_killed_mid_file_resumes_to_the_clean_state() {
    let addrs = addresses();
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("devnet.jsonl");
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        write_jsonl(&mut devnet(), &mut out).expect("write the devnet file");
        std::io::Write::flush(&mut out).unwrap();
    }
    let file_arg = file.to_str().unwrap();
    let lines = std::fs::read_to_string(&file).unwrap().lines().count();
    let batches = lines.div_ceil(64);
    assert!(
        batches >= 4,
        "the file must span several batches: {lines} lines"
    );

    let clean_dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "import",
        "--batch",
        IMPORT_BATCH,
        "--data-dir",
        dir_arg(clean_dir.path()),
        file_arg,
    ]);
    assert!(
        out.contains(&format!("imported {lines} containers")),
        "{out}"
    );
    let clean = start(&[
        "serve",
        "--source",
        "none",
        "--data-dir",
        dir_arg(clean_dir.path()),
    ]);
    let want = snapshot(&clean, &addrs);
    drop(clean);
    assert_meaningful(&want);

    // Kill once the first, a middle and the last-but-one batch report has been printed: the
    // kill lands while the next batch is being staged or written (or, if the process is
    // fast, later). Progress reports go to stderr, separated by '\r'.
    let points: Vec<usize> = match crash_kills() {
        None => vec![1, batches / 2, batches - 1],
        Some(n) => (1..=n).map(|i| (i * (batches - 1) / n).max(1)).collect(),
    };
    for after in points {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_node-rpc"))
            .args(["import", "--batch", IMPORT_BATCH, "--data-dir"])
            .arg(dir.path())
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn import");
        let mut stderr = child.stderr.take().expect("stderr");
        let mut seen = String::new();
        let mut buf = [0u8; 4096];
        while seen.matches("containers imported").count() < after {
            match stderr.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            }
        }
        child.kill().expect("SIGKILL");
        let status = child.wait().expect("wait");
        // Drain what is left so the comparison of reports below sees everything printed.
        let _ = stderr.read_to_string(&mut seen);
        let held = assert_prefix(dir.path(), &want);
        eprintln!(
            "import killed after {} batch reports (exit {status:?}): {held} containers written",
            seen.matches("containers imported").count()
        );
        let again = run(&[
            "import",
            "--batch",
            IMPORT_BATCH,
            "--data-dir",
            dir_arg(dir.path()),
            file_arg,
        ]);
        assert!(again.contains("containers ("), "{again}");
        let restarted = start(&[
            "serve",
            "--source",
            "none",
            "--data-dir",
            dir_arg(dir.path()),
        ]);
        let got = snapshot(&restarted, &addrs);
        assert_same(&format!("import killed after batch {after}"), &want, &got);
        drop(restarted);
        assert_eq!(
            digest(dir.path()),
            digest(clean_dir.path()),
            "import killed after batch {after}: a table differs from the clean import's"
        );
    }
}

/// Whether `node`'s index of `path` holds at least one container.
fn has_any(node: &NodeRpc, path: &str) -> bool {
    let v = node.call(
        &format!("/ext/index/{path}"),
        "index.getLastAccepted",
        json!({"encoding": "hex"}),
    );
    v.get("error").is_none()
}

/// Waits (at most a minute) until `node` has mirrored every path of `upstream`.
fn caught_up(node: &NodeRpc, upstream: &NodeRpc) -> bool {
    let want: Vec<Value> = ["X/tx", "X/vtx", "X/block"]
        .iter()
        .map(|p| {
            upstream.result(
                &format!("/ext/index/{p}"),
                "index.getLastAccepted",
                json!({"encoding": "hex"}),
            )
        })
        .collect();
    node.wait_until(60, |n| {
        ["X/tx", "X/vtx", "X/block"]
            .iter()
            .zip(&want)
            .all(|(p, w)| {
                let got = n.call(
                    &format!("/ext/index/{p}"),
                    "index.getLastAccepted",
                    json!({"encoding": "hex"}),
                );
                got["result"] == *w
            })
    })
}

/// When to kill the follower: once this holds of it.
type KillPoint = fn(&NodeRpc) -> bool;

#[test]
fn follower_killed_mid_sync_resumes_to_the_clean_state() {
    // `follow --genesis devnet` starts from the small devnet's genesis, so the upstream serves
    // the small devnet.
    let small = Devnet::generate(DevnetConfig::small().with_seed(1)).expect("devnet");
    let addrs: Vec<String> = small
        .keys()
        .addrs()
        .iter()
        .map(|a| format_address("X", NetworkInfo::LOCAL.hrp, a).expect("address"))
        .collect();
    let up_dir = tempfile::tempdir().unwrap();
    let up = start(&["serve", "--data-dir", dir_arg(up_dir.path())]);
    let upstream = format!("http://{}", up.addr);
    // Pages of 16: most batches are then derived while the previous one is being written (the
    // follower's write-behind), and the clean run below is compared with the upstream.
    let follow = |dir: &Path| {
        start(&[
            "follow",
            "--upstream",
            &upstream,
            "--genesis",
            "devnet",
            "--follow-batch",
            "16",
            "--data-dir",
            dir_arg(dir),
        ])
    };

    let clean_dir = tempfile::tempdir().unwrap();
    let clean = follow(clean_dir.path());
    assert!(
        caught_up(&clean, &up),
        "the clean follower did not catch up"
    );
    // Once caught up (and flushed) it says so, with what each path added.
    assert!(clean.wait_until(60, |n| n.stderr_line("caught up").is_some()));
    let line = clean.stderr_line("caught up").unwrap_or_default();
    let held = |p: &str| {
        let head = up.result(
            &format!("/ext/index/{p}"),
            "index.getLastAccepted",
            json!({"encoding": "hex"}),
        );
        head["index"].as_str().unwrap().parse::<u64>().unwrap() + 1
    };
    for p in ["X/tx", "X/block", "X/vtx"] {
        assert!(line.contains(&format!("{p} +{}", held(p))), "{p}: {line}");
    }
    let want = snapshot(&clean, &addrs);
    drop(clean);
    assert_meaningful_small(&want);
    assert_same("clean follower vs upstream", &snapshot(&up, &addrs), &want);

    // Kill points: as soon as it serves, then once each path has something (the follower
    // mirrors one path after the other, one call per path for this small devnet).
    let kill_when: [(&str, KillPoint); 4] = [
        ("at start", |_| true),
        ("after the first X/tx", |n| has_any(n, "X/tx")),
        ("after the first X/block", |n| has_any(n, "X/block")),
        ("after the first X/vtx", |n| has_any(n, "X/vtx")),
    ];
    for (what, ready) in kill_when {
        let dir = tempfile::tempdir().unwrap();
        let node = follow(dir.path());
        node.wait_until(60, ready);
        // Dropping a `NodeRpc` sends SIGKILL.
        drop(node);
        let held = assert_prefix(dir.path(), &want);
        eprintln!("follower killed {what}: {held} containers written");
        let restarted = follow(dir.path());
        assert!(caught_up(&restarted, &up), "{what}: did not catch up");
        let got = snapshot(&restarted, &addrs);
        assert_same(&format!("follower killed {what}"), &want, &got);
    }
}

/// The small devnet's reference must show UTXOs and containers too.
fn assert_meaningful_small(snap: &[(String, Value)]) {
    let utxos: usize = snap
        .iter()
        .filter(|(k, _)| k.starts_with("getUTXOs"))
        .map(|(_, v)| v["result"]["utxos"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(utxos > 0, "the reference holds no UTXOs");
    let containers: usize = snap
        .iter()
        .filter(|(k, _)| k.starts_with("X/"))
        .map(|(_, v)| containers(v))
        .sum();
    assert!(containers > 100, "the reference holds too few containers");
}
