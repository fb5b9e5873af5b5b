//! `cargo xtask harden`: the hardening suite, bounded in time, loopback only. Each part runs a
//! suite of the project's own tests or tools harder than CI does and reports what it tried and
//! whether the services held; the table it prints is the one in `docs/reliability.md`.
//!
//! Parts: `crash` (SIGKILL `data-api` while it follows and `node-rpc` while it loads and
//! imports, 20 times each, restarted each time, the final index compared with a clean run's:
//! every table byte for byte for `data-api`, every answer for `node-rpc`), `refusals` (every
//! limit and malformed-input test of the three servers: the spec's error shape, counted),
//! `load` (10,000 idle and 500 slowloris connections against each server while a normal client
//! runs: its latency, no failure, bounded memory), `schema` (schemathesis and the official SDK against `data-api`, `cargo xtask interop`),
//! `faults` (`data-api` and `node-rpc` following through a fault-injecting upstream: stops,
//! restarts, slow answers, 500s, corrupt and gapped pages, rewound and foreign nodes, at
//! several points of the chain; every table compared with a clean run's).

use std::process::Command;
use std::time::Instant;

/// SIGKILLs per crash suite.
const KILLS: &str = "20";
/// The memory part's bound on data-api's peak RSS while following.
const MEMORY_LIMIT_MIB: u64 = 512;

/// Rounds of the upstream fault sequence (CI runs one).
const FAULT_ROUNDS: &str = "5";

/// One part's outcome.
struct Row {
    part: &'static str,
    tried: String,
    held: bool,
    secs: f64,
}

/// Runs `argv` with `env`, captures its output; whether it succeeded and its output.
fn run(argv: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    eprintln!("xtask: $ {}", argv.join(" "));
    let mut c = Command::new(argv[0]);
    c.args(&argv[1..]);
    for (k, v) in env {
        c.env(k, v);
    }
    match c.output() {
        Ok(o) => {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            (o.status.success(), text)
        }
        Err(e) => (false, format!("could not start: {e}")),
    }
}

fn timed(
    part: &'static str,
    tried: impl Into<String>,
    f: impl FnOnce() -> (bool, String),
) -> (Row, String) {
    let t = Instant::now();
    let (held, out) = f();
    (
        Row {
            part,
            tried: tried.into(),
            held,
            secs: t.elapsed().as_secs_f64(),
        },
        out,
    )
}

/// Runs the parts named in `args` (all when none) and prints the table; fails if any part did
/// not hold.
pub fn run_parts(args: &[String]) -> Result<(), String> {
    let all = ["crash", "refusals", "load", "schema", "faults", "memory"];
    let parts: Vec<&str> = if args.is_empty() {
        all.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    if let Some(p) = parts.iter().find(|p| !all.contains(p)) {
        return Err(format!("unknown part {p:?}; parts: {}", all.join(", ")));
    }
    let kills = [("SNOWLINE_CRASH_KILLS", KILLS)];
    let mut rows = Vec::new();
    for part in parts {
        let results = match part {
            "crash" => vec![
                timed(
                    "crash",
                    format!(
                        "data-api following a devnet, SIGKILLed {KILLS} times mid-ingest and \
                         restarted; every table (`data-api digest`, checksums verified) and \
                         every answer compared with a clean run"
                    ),
                    || {
                        run(
                            &[
                                "cargo",
                                "test",
                                "-q",
                                "-p",
                                "data-api",
                                "--test",
                                "crash",
                                "--",
                                "--nocapture",
                            ],
                            &kills,
                        )
                    },
                ),
                timed(
                    "crash",
                    format!(
                        "node-rpc SIGKILLed at {KILLS} points of a devnet load and {KILLS} \
                         points of an import, restarted; every answer compared with a clean run"
                    ),
                    || {
                        run(
                            &[
                                "cargo",
                                "test",
                                "-q",
                                "-p",
                                "node-rpc",
                                "--test",
                                "crash",
                                "--",
                                "--nocapture",
                            ],
                            &kills,
                        )
                    },
                ),
            ],
            "refusals" => vec![timed(
                "refusals",
                "oversize URIs, heads and bodies, invalid UTF-8, bad JSON and JSON-RPC, the \
                 connection cap: the spec's error shape, counted in /metrics (the servers' \
                 refusal tests)",
                || {
                    let (a, ao) = run(
                        &[
                            "cargo", "test", "-q", "-p", "node-rpc", "--test", "refusals",
                        ],
                        &[],
                    );
                    let (b, bo) = run(
                        &[
                            "cargo", "test", "-q", "-p", "data-api", "--test", "serve", "--test",
                            "planned", "--test", "secrets",
                        ],
                        &[],
                    );
                    let (c, co) = run(&["cargo", "test", "-q", "-p", "snowline-http"], &[]);
                    (a && b && c, format!("{ao}{bo}{co}"))
                },
            )],
            "load" => vec![timed(
                "load",
                "10,000 idle connections and 500 slowloris ones (a header byte a second) against \
                 data-api and node-rpc while a normal client runs 16 connections: its p99 alone \
                 and under attack, no failed request, the servers' RSS (bench/harden-load.sh)",
                || {
                    let (ok, out) = run(&["bench/harden-load.sh"], &[]);
                    let failed = out
                        .lines()
                        .any(|l| l.contains("requests in") && !l.contains(" 0 failed"));
                    println!("{out}");
                    (ok && !failed, out)
                },
            )],
            "faults" => vec![timed(
                "faults",
                format!(
                    "data-api and node-rpc following through a fault-injecting upstream, \
                     {FAULT_ROUNDS} rounds at later points of the chain: bad checksum, bad id, \
                     gap, 500s, slow answers, stop, restart as a rewound node and as another \
                     chain's; /readyz, /metrics and the log checked each time; every table \
                     compared with a clean run's (and the follower's fault tests in process)"
                ),
                || {
                    let rounds = [("SNOWLINE_FAULT_ROUNDS", FAULT_ROUNDS)];
                    let mut ok = true;
                    let mut out = String::new();
                    for (package, test) in [
                        ("data-api", "faults"),
                        ("node-rpc", "faults"),
                        ("snowline-node-rpc", "follow_faults"),
                    ] {
                        let (held, text) = run(
                            &[
                                "cargo",
                                "test",
                                "-q",
                                "-p",
                                package,
                                "--test",
                                test,
                                "--",
                                "--nocapture",
                            ],
                            &rounds,
                        );
                        ok &= held;
                        out.push_str(&text);
                    }
                    (ok, out)
                },
            )],
            "schema" => vec![
                timed(
                    "schema",
                    "schemathesis with the Glacier OpenAPI and the official SDK with strict \
                     validation against data-api (cargo xtask interop data-api)",
                    || run(&["cargo", "xtask", "interop", "data-api"], &[]),
                ),
                timed(
                    "schema",
                    "schemathesis with the metrics OpenAPI (v2 and legacy v1) against \
                     metrics-api over the devnet's index (cargo xtask interop metrics-api)",
                    || run(&["cargo", "xtask", "interop", "metrics-api"], &[]),
                ),
            ],
            "memory" => vec![timed(
                "memory",
                format!(
                    "data-api (release) following a node-rpc of the 1M-tx devnet from an empty \
                     index until /readyz is 200: peak RSS (VmHWM) under {MEMORY_LIMIT_MIB} MiB \
                     (bench/data-api.sh, STEPS=history)"
                ),
                || {
                    let (ok, out) = run(&["bench/data-api.sh"], &[("STEPS", "history")]);
                    let peak = out
                        .lines()
                        .find(|l| l.starts_with("data-api follow:"))
                        .and_then(|l| l.split("peak RSS ").nth(1))
                        .and_then(|r| r.split(' ').next())
                        .and_then(|n| n.parse::<u64>().ok());
                    println!("{out}");
                    let held = ok && peak.is_some_and(|mib| mib < MEMORY_LIMIT_MIB);
                    (held, format!("peak RSS {peak:?} MiB\n{out}"))
                },
            )],
            _ => Vec::new(),
        };
        for (row, out) in results {
            if !row.held {
                eprintln!("{out}");
            }
            for line in out
                .lines()
                .filter(|l| l.contains("kills") || l.contains("round(s) of faults"))
            {
                eprintln!("xtask: {}", line.trim());
            }
            rows.push(row);
        }
    }
    println!("| part | what it tried | held | time |");
    println!("|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {:.0} s |",
            r.part,
            r.tried,
            if r.held { "yes" } else { "NO" },
            r.secs
        );
    }
    if rows.iter().all(|r| r.held) {
        Ok(())
    } else {
        Err("a hardening part did not hold (its output is above)".into())
    }
}
