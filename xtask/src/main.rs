//! Project automation, run as `cargo xtask <command>`.
//!
//! Its only dependency is serde_json, so that it builds in seconds on a fresh machine, before
//! anything else: it checks and installs what the workspace needs (a C/C++ compiler, libclang for
//! RocksDB's bindgen, rustfmt and clippy), checks the crate layering, then runs the demo, the
//! tests, the fuzzers or the benchmarks.

mod demo;
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

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  setup            install what a fresh machine lacks (a C++ compiler, libclang, rustfmt, clippy),
                   then verify as --check does; prints one line of what it found and installed;
                   then the EVM tools with npm into $HOME/.cache/snowline/npm (anvil 1.7.1,
                   solc 0.8.37, @openzeppelin/contracts 4.9.6), anvil verified by --version;
                   without npm it says so, and EVM tests skip (fail if SNOWLINE_REQUIRE_EVM=1)
  setup --check    verify without installing: c++ compiles, libclang is where bindgen's clang-sys
                   looks and is an ELF shared object, rustfmt and clippy run; on a miss, one line
                   each with the command that fixes it, and a non-zero exit; reports anvil
                   (optional unless SNOWLINE_REQUIRE_EVM=1)
  check-layers [--rules FILE]
                   check every workspace crate's normal and build dependencies against the
                   ```layers block of docs/architecture.md (or FILE)
  demo             set up, build everything, serve node-rpc on the bundled devnet, live (new
                   blocks every second), and data-api following it; beside them the EVM devnet's
                   C-Chain (43112) and L1 (99999) on anvil, when anvil is installed
  test             set up (EVM tools included), then check-layers, cargo fmt --check, clippy
                   -D warnings, and every test of the workspace
  fuzz TARGET [S]  run one cargo-fuzz target for S seconds (default 60); `fuzz list` lists them
  fuzz all RUNS [--sanitizer address|none] [TARGET...]
                   run every target (or those named) to RUNS executions one after another from
                   fuzz/corpus/<target>, minimise each corpus (cmin), print a table (target, mode,
                   executions, corpus files, crashes); sanitizer none by default, debug assertions
                   and overflow checks always on
  bench            run the criterion benchmarks (release build; slow the first time)
  freshness [--chain x|p|evm] [--rate R] [--samples N] [--poll-ms MS] [--release]
                   start node-rpc live (R containers/s, default 10) and data-api following it on
                   free ports; time N new X blocks (default 300) from acceptance to visibility in
                   data-api's /utxos; print p50/p99/max (docs/benchmarks.md, Freshness)
  harden [PART...] the hardening suite (crash: 20 SIGKILLs per service, every table compared;
                   refusals; load: 10,000 idle and 500 slowloris connections; schema: data-api
                   and metrics-api; faults: upstream faults in 5 rounds; memory: data-api's peak
                   RSS following the 1M-tx devnet): prints the table of docs/reliability.md
  interop          drive node-rpc with the real npm clients (avalanche 3, avalanchejs 5; needs npm)
  interop data-api [sdk|schemathesis [PROFILE...]]
                   drive data-api with the official SDK (@avalanche-sdk/chainkit; needs npm) and
                   fuzz it against the real OpenAPI with schemathesis (needs python3); both by
                   default, under the --compat profiles spec and glacier unless named
  interop metrics-api [schemathesis]
                   fuzz metrics-api over data-api's index against the real metrics OpenAPI
                   (v2 and the legacy avg_tps) with schemathesis (needs python3, node)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => match args.get(1).map(String::as_str) {
            None => prereq::ensure_all()
                .and_then(|()| evm::ensure().map(drop))
                .and_then(|()| prereq::ensure_browser()),
            Some("--check") if args.len() == 2 => prereq::check().and_then(|()| evm::check()),
            Some(_) => Err("usage: cargo xtask setup [--check]".into()),
        },
        Some("check-layers") => layers::run(&args[1..]),
        Some("demo") => prereq::ensure_all().and_then(|()| demo::run()),
        Some("test") => prereq::ensure_all()
            .and_then(|()| evm::ensure())
            .and_then(|_| run::test()),
        Some("fuzz") => prereq::ensure_all().and_then(|()| fuzz::run(&args[1..])),
        Some("bench") => prereq::ensure_all().and_then(|()| run::bench(&args[1..])),
        Some("freshness") => prereq::ensure_all().and_then(|()| freshness::run(&args[1..])),
        Some("interop") => prereq::ensure_all().and_then(|()| run::interop(&args[1..])),
        Some("harden") => prereq::ensure_all().and_then(|()| harden::run_parts(&args[1..])),
        Some("-h" | "--help" | "help") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask: {msg}");
            ExitCode::FAILURE
        }
    }
}
