//! Project automation, run as `cargo xtask <command>`.
//!
//! Its only dependency is serde_json, so that it builds in seconds on a fresh machine, before
//! anything else: it checks and installs what the workspace needs (a C/C++ compiler, libclang for
//! RocksDB's bindgen, rustfmt and clippy), checks the crate layering, then runs the demo, the
//! tests, the fuzzers or the benchmarks.

mod builds;
mod demo;
mod demo_fleet;
mod evm;
mod freshness;
mod freshness_evm;
mod fuzz;
mod harden;
mod http;
mod layers;
mod libclang;
mod prereq;
mod run;
mod service;
mod shell;
mod stats;

use std::process::ExitCode;

/// One command: its name and its usage, the lines `cargo xtask --help` shows for it and
/// `cargo xtask <command> --help` prints.
struct Usage {
    name: &'static str,
    text: &'static str,
}

/// Every command, in the order the top-level help lists them.
const COMMANDS: &[Usage] = &[
    Usage {
        name: "setup",
        text: "  setup            install what a fresh machine lacks (a C++ compiler, libclang, rustfmt, clippy),
                   then verify as --check does; prints one line of what it found and installed;
                   then the EVM tools with npm into $HOME/.cache/snowline/npm (anvil 1.7.1,
                   solc 0.8.37, @openzeppelin/contracts 4.9.6), anvil verified by --version;
                   without npm it says so, and EVM tests skip (fail if SNOWLINE_REQUIRE_EVM=1)
  setup --check    verify without installing: c++ compiles, libclang is where bindgen's clang-sys
                   looks and is an ELF shared object, rustfmt and clippy run; on a miss, one line
                   each with the command that fixes it, and a non-zero exit; reports anvil
                   (optional unless SNOWLINE_REQUIRE_EVM=1)
",
    },
    Usage {
        name: "check-layers",
        text: "  check-layers [--rules FILE]
                   check every workspace crate's normal and build dependencies against the
                   ```layers block of docs/architecture.md (or FILE)
",
    },
    Usage {
        name: "demo",
        text: "  demo             set up, build everything (one feature set, shared with `test`), run the
                   store's smoke check, then start node-rpc on the bundled devnet, live (new
                   blocks every second), data-api following it, metrics-api over data-api's
                   index, and, when anvil is installed, the EVM devnet's C-Chain (43112) and L1
                   (99999); each service's URL is printed once it answers over HTTP
  demo --fleet     the same build, then a fleet on one machine (docs/fleet.md): a 3-node
                   nats-server cluster (clients on 4221-4223), node-rpc on the devnet, a primary
                   data-api publishing to it (8080), two replicas (8081, 8082) and metrics-api
                   (8083); each address is printed once it answers over HTTP; Ctrl-C stops all
",
    },
    Usage {
        name: "test",
        text: "  test             set up (EVM tools included), then check-layers, cargo fmt --check, clippy
                   -D warnings, and every test of the workspace
",
    },
    Usage {
        name: "rocksdb-builds",
        text: "  rocksdb-builds   run the cargo builds of `demo` and `test` (in $CARGO_TARGET_DIR, cold or
                   warm) and count the librocksdb-sys builds their output names: one per profile
                   passes; prints each command's wall time
",
    },
    Usage {
        name: "fuzz",
        text: "  fuzz TARGET [S]  run one cargo-fuzz target for S seconds (default 60); `fuzz list` lists them
  fuzz all RUNS [--sanitizer address|none] [TARGET...]
                   run every target (or those named) to RUNS executions one after another from
                   fuzz/corpus/<target>, minimise each corpus (cmin), print a table (target, mode,
                   executions, corpus files, crashes); sanitizer none by default, debug assertions
                   and overflow checks always on
",
    },
    Usage {
        name: "bench",
        text: "  bench [ARGS...]  run the criterion benchmarks (release build; slow the first time); ARGS go to
                   cargo bench
",
    },
    Usage {
        name: "freshness",
        text: "  freshness [--chain x|p|evm] [--rate R] [--samples N] [--poll-ms MS] [--release]
                   start node-rpc live (R containers/s, default 10) and data-api following it on
                   free ports; time N new X blocks (default 300) from acceptance to visibility in
                   data-api's /utxos; print p50/p99/max (docs/benchmarks.md, Freshness)
",
    },
    Usage {
        name: "harden",
        text: "  harden [PART...] the hardening suite (crash: 20 SIGKILLs per service, every table compared;
                   refusals; load: 10,000 idle and 500 slowloris connections; schema: data-api
                   and metrics-api; faults: upstream faults in 5 rounds; memory: data-api's peak
                   RSS following the 1M-tx devnet): prints the table of docs/reliability.md
",
    },
    Usage {
        name: "interop",
        text: "  interop          drive node-rpc with the real npm clients (avalanche 3, avalanchejs 5; needs npm)
  interop data-api [sdk|schemathesis [PROFILE...]]
                   drive data-api with the official SDK (@avalanche-sdk/chainkit; needs npm) and
                   fuzz it against the real OpenAPI with schemathesis (needs python3); both by
                   default, under the --compat profiles spec and glacier unless named
  interop metrics-api [schemathesis]
                   fuzz metrics-api over data-api's index against the real metrics OpenAPI
                   (v2 and the legacy avg_tps) with schemathesis (needs python3, node)
",
    },
];

/// The top-level help: every command's usage.
fn usage() -> String {
    let mut text = String::from(
        "usage: cargo xtask <command> [ARGS...]\n       cargo xtask <command> --help\n\ncommands:\n",
    );
    for c in COMMANDS {
        text.push_str(c.text);
    }
    text
}

/// `cargo xtask <command> --help` (or `-h`, anywhere before a `--`): that command's usage.
fn command_help(args: &[String]) -> Option<Result<String, String>> {
    let name = args.first()?;
    let rest = args[1..].iter().take_while(|a| *a != "--");
    let asked = matches!(name.as_str(), "help") || rest.clone().any(|a| a == "--help" || a == "-h");
    if !asked {
        return None;
    }
    let name = if name == "help" {
        match args.get(1) {
            Some(n) => n,
            None => return Some(Ok(usage())),
        }
    } else {
        name
    };
    Some(match COMMANDS.iter().find(|c| c.name == name) {
        Some(c) => Ok(format!("usage: cargo xtask {}\n{}", c.name, c.text)),
        None => Err(format!("unknown command `{name}`\n\n{}", usage())),
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Help first, before anything is installed, built or started.
    if let Some(help) = command_help(&args) {
        return match help {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("xtask: {msg}");
                ExitCode::FAILURE
            }
        };
    }
    let result = match args.first().map(String::as_str) {
        Some("setup") => match args.get(1).map(String::as_str) {
            None => prereq::ensure_all()
                .and_then(|()| evm::ensure().map(drop))
                .and_then(|()| prereq::ensure_browser()),
            Some("--check") if args.len() == 2 => prereq::check().and_then(|()| evm::check()),
            Some(_) => Err("usage: cargo xtask setup [--check]".into()),
        },
        Some("check-layers") => layers::run(&args[1..]),
        Some("demo") => match args.get(1).map(String::as_str) {
            None => prereq::ensure_all().and_then(|()| demo::run()),
            Some("--fleet") if args.len() == 2 => {
                prereq::ensure_all().and_then(|()| demo_fleet::run())
            }
            Some(_) => Err("usage: cargo xtask demo [--fleet]".into()),
        },
        Some("test") => prereq::ensure_all()
            .and_then(|()| evm::ensure())
            .and_then(|_| run::test()),
        Some("fuzz") => prereq::ensure_all().and_then(|()| fuzz::run(&args[1..])),
        Some("bench") => prereq::ensure_all().and_then(|()| run::bench(&args[1..])),
        Some("freshness") => prereq::ensure_all().and_then(|()| freshness::run(&args[1..])),
        Some("interop") => prereq::ensure_all().and_then(|()| run::interop(&args[1..])),
        Some("harden") => prereq::ensure_all().and_then(|()| harden::run_parts(&args[1..])),
        Some("rocksdb-builds") if args.len() == 1 => {
            prereq::ensure_all().and_then(|()| builds::count_rocksdb_builds())
        }
        Some("rocksdb-builds") => Err("usage: cargo xtask rocksdb-builds".into()),
        Some("-h" | "--help") | None => {
            print!("{}", usage());
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{}", usage())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask: {msg}");
            ExitCode::FAILURE
        }
    }
}
