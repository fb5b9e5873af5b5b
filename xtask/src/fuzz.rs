//! `cargo xtask fuzz`: one cargo-fuzz target for a time, or every target to a run count followed by
//! a corpus minimisation and a table of what each run did (docs/fuzzing.md).

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::shell::{cmd, status};

const USAGE: &str = "usage: cargo xtask fuzz TARGET [SECONDS] | fuzz list \
                     | fuzz all RUNS [--sanitizer address|none] [TARGET...]";

/// Per-input timeout handed to libFuzzer: a decoder that takes longer on one input has hung.
const TIMEOUT_SECS: &str = "-timeout=10";

/// Dispatches `fuzz list`, `fuzz all RUNS ...` and `fuzz TARGET [SECONDS]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let first = args.first().ok_or(USAGE)?;
    ensure_cargo_fuzz()?;
    match first.as_str() {
        "list" => status(cmd(&["cargo", "fuzz", "list"]).current_dir("fuzz")),
        "all" => all(&args[1..]),
        target => {
            let secs = args.get(1).map_or("60", String::as_str);
            let max_time = format!("-max_total_time={secs}");
            status(
                cargo_fuzz(&["run", target, "--", &max_time, TIMEOUT_SECS])
                    .env("RUSTC_BOOTSTRAP", "1"),
            )
        }
    }
}

/// Installs cargo-fuzz when `cargo fuzz` does not run.
fn ensure_cargo_fuzz() -> Result<(), String> {
    let have = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if have {
        return Ok(());
    }
    status(&mut cmd(&["cargo", "install", "--locked", "cargo-fuzz"]))
}

/// `cargo fuzz ARGS` in `fuzz/`, on stable through `RUSTC_BOOTSTRAP=1`.
fn cargo_fuzz(args: &[&str]) -> Command {
    let mut c = cmd(&["cargo", "fuzz"]);
    c.args(args).current_dir("fuzz").env("RUSTC_BOOTSTRAP", "1");
    c
}

/// What one target's run did.
struct Outcome {
    target: String,
    execs: u64,
    secs: u64,
    files: usize,
    /// Artifacts written (crash, timeout, OOM, leak), by path.
    artifacts: Vec<String>,
}

/// Runs each target (all of them unless named) to `RUNS` executions, one after another, from and
/// into `fuzz/corpus/<target>/`, then minimises that corpus with `cargo fuzz cmin`; a crash ends
/// that target's run (its artifact is kept in `fuzz/artifacts/<target>/`) and the next one starts.
/// libFuzzer's output goes to `fuzz/artifacts/<target>.log`; a table closes the run.
fn all(args: &[String]) -> Result<(), String> {
    let runs: u64 = args.first().and_then(|r| r.parse().ok()).ok_or(USAGE)?;
    let mut sanitizer = "none".to_string();
    let mut named = Vec::new();
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        if a == "--sanitizer" {
            sanitizer = rest.next().ok_or(USAGE)?.clone();
        } else {
            named.push(a.clone());
        }
    }
    let targets = if named.is_empty() { list()? } else { named };
    let mode = if sanitizer == "none" {
        "none, debug assertions".to_string()
    } else {
        format!("{sanitizer}, debug assertions")
    };
    let mut outcomes = Vec::new();
    for target in &targets {
        let outcome = one(target, runs, &sanitizer)?;
        eprintln!(
            "xtask: {target}: {} execs in {} s, {} corpus files, {} artifacts",
            outcome.execs,
            outcome.secs,
            outcome.files,
            outcome.artifacts.len()
        );
        outcomes.push(outcome);
    }
    println!("| target | mode | executions | seconds | corpus files (after cmin) | crashes |");
    println!("|---|---|---|---|---|---|");
    for o in &outcomes {
        let crashes = if o.artifacts.is_empty() {
            "0".to_string()
        } else {
            o.artifacts.join(", ")
        };
        println!(
            "| `{}` | {mode} | {} | {} | {} | {crashes} |",
            o.target, o.execs, o.secs, o.files
        );
    }
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.artifacts.is_empty())
        .map(|o| o.target.as_str())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("artifacts found for: {}", failed.join(", ")))
    }
}

/// The target names, from `cargo fuzz list`.
fn list() -> Result<Vec<String>, String> {
    let out = cargo_fuzz(&["list"])
        .output()
        .map_err(|e| format!("could not start `cargo fuzz list`: {e}"))?;
    if !out.status.success() {
        return Err("`cargo fuzz list` failed".into());
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// One target to `runs` executions, then `cmin`; reads libFuzzer's stderr for the figures.
fn one(target: &str, runs: u64, sanitizer: &str) -> Result<Outcome, String> {
    let corpus = Path::new("fuzz/corpus").join(target);
    fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    fs::create_dir_all("fuzz/artifacts").map_err(|e| format!("fuzz/artifacts: {e}"))?;
    let log_path = format!("fuzz/artifacts/{target}.log");
    let mut log = File::create(&log_path).map_err(|e| format!("{log_path}: {e}"))?;
    let runs_arg = format!("-runs={runs}");
    let argv = [
        "run",
        "--sanitizer",
        sanitizer,
        "--debug-assertions",
        target,
        "--",
        &runs_arg,
        TIMEOUT_SECS,
        "-print_final_stats=1",
    ];
    eprintln!("xtask: $ cargo fuzz {} (log: {log_path})", argv.join(" "));
    let started = Instant::now();
    let mut child = cargo_fuzz(&argv)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start `cargo fuzz run {target}`: {e}"))?;
    let mut execs = 0;
    let mut artifacts = Vec::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            let _ = writeln!(log, "{line}");
            if let Some(n) = stat(&line, "stat::number_of_executed_units:") {
                execs = n;
            } else if let Some(path) = line.split("Test unit written to ").nth(1) {
                artifacts.push(path.trim().to_string());
            }
            if line.contains("ERROR") || line.contains("panicked") || line.contains("DONE") {
                eprintln!("{target}: {line}");
            }
        }
    }
    let _ = child.wait();
    let secs = started.elapsed().as_secs();
    // A failed minimisation leaves the corpus as the run left it; the other targets still run.
    if let Err(e) = status(&mut cargo_fuzz(&[
        "cmin",
        "--sanitizer",
        sanitizer,
        "--debug-assertions",
        target,
    ])) {
        eprintln!("xtask: {e}");
    }
    let files = fs::read_dir(&corpus).map_or(0, Iterator::count);
    Ok(Outcome {
        target: target.to_string(),
        execs,
        secs,
        files,
        artifacts,
    })
}

/// The number after `key` in one of libFuzzer's `-print_final_stats` lines.
fn stat(line: &str, key: &str) -> Option<u64> {
    line.strip_prefix(key)?.trim().parse().ok()
}
