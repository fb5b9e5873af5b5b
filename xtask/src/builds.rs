//! The cargo builds `demo` and `test` run, named once, and `cargo xtask rocksdb-builds`, which
//! counts the librocksdb-sys builds they cause. RocksDB's C++ is compiled by librocksdb-sys's
//! build script, once per distinct configuration of that script's unit: its features, its
//! profile and those of everything it depends on. A cargo command that selects fewer packages
//! (`-p snowline-store`) or no dev-dependencies resolves some features differently (bitflags,
//! syn, ...), which gives RocksDB a second configuration and a second 10-minute build. So the
//! demo builds what it runs with the same package selection and dev-dependency features as the
//! test command, and both commands build one RocksDB per profile.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

/// What `demo` builds: every binary, and the store's smoke check, with the workspace's
/// dev-dependency features (an example needs them), as `cargo test --workspace` resolves them.
pub const DEMO_BUILD: &[&str] = &["build", "--workspace", "--bins", "--example", "smoke"];

/// The lint step of `test`.
pub const TEST_CLIPPY: &[&str] = &[
    "clippy",
    "--workspace",
    "--all-targets",
    "--",
    "-D",
    "warnings",
];

/// The test step of `test`.
pub const TEST_RUN: &[&str] = &["test", "--workspace"];

/// The builds of `demo` and `test`, as `rocksdb-builds` runs them: building, not running.
fn builds() -> [(&'static str, Vec<&'static str>); 3] {
    [
        ("demo", DEMO_BUILD.to_vec()),
        ("test (clippy)", TEST_CLIPPY.to_vec()),
        ("test", [TEST_RUN, &["--no-run"]].concat()),
    ]
}

/// `args` with `extra` inserted before a `--` (whose tail goes to rustc or the test binaries).
fn with_flags<'a>(args: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    [&args[..at], extra, &args[at..]].concat()
}

/// The librocksdb-sys build directories (`<profile dir>/build/librocksdb-sys-<hash>`) named by
/// the `build-script-executed` messages of cargo's `--message-format=json` output.
pub fn rocksdb_out_dirs(json_lines: &str) -> BTreeSet<String> {
    json_lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "build-script-executed")
        .filter(|m| {
            m["package_id"]
                .as_str()
                .is_some_and(|id| id.contains("librocksdb-sys@") || id.contains("librocksdb-sys "))
        })
        .filter_map(|m| {
            let out = m["out_dir"].as_str()?;
            Some(out.strip_suffix("/out").unwrap_or(out).to_owned())
        })
        .collect()
}

/// The profile directory (`debug`, `release`) a build directory is under.
fn profile_dir(build_dir: &str) -> &str {
    let parts: Vec<&str> = build_dir.rsplitn(3, '/').collect();
    parts
        .get(2)
        .and_then(|p| p.rsplit('/').next())
        .unwrap_or("?")
}

/// Runs the builds of `demo` and `test` with cargo's JSON messages, prints each one's wall time
/// and the librocksdb-sys builds it used, and fails unless they are one per profile.
pub fn count_rocksdb_builds() -> Result<(), String> {
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (what, args) in builds() {
        let argv = with_flags(&args, &["--message-format=json-render-diagnostics"]);
        eprintln!("xtask: $ cargo {}", argv.join(" "));
        let started = Instant::now();
        let out = Command::new("cargo")
            .args(&argv)
            .stderr(Stdio::inherit())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let stdout = out.stdout.ok_or("cargo: no stdout")?;
        let mut text = String::new();
        for line in BufReader::new(stdout).lines() {
            text.push_str(&line.map_err(|e| format!("cargo output: {e}"))?);
            text.push('\n');
        }
        let dirs = rocksdb_out_dirs(&text);
        eprintln!(
            "xtask: {what}: {:.0} s; librocksdb-sys: {}",
            started.elapsed().as_secs_f64(),
            dirs.iter().cloned().collect::<Vec<_>>().join(", ")
        );
        for d in dirs {
            seen.entry(profile_dir(&d).to_owned())
                .or_default()
                .insert(d);
        }
    }
    let many: Vec<String> = seen
        .iter()
        .filter(|(_, dirs)| dirs.len() > 1)
        .map(|(profile, dirs)| format!("{profile}: {}", dirs.len()))
        .collect();
    if many.is_empty() {
        eprintln!(
            "xtask: rocksdb-builds: one librocksdb-sys build per profile ({})",
            seen.keys().cloned().collect::<Vec<_>>().join(", ")
        );
        Ok(())
    } else {
        Err(format!(
            "more than one librocksdb-sys build per profile: {}",
            many.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use std::collections::HashMap;
    use std::hash::{DefaultHasher, Hash, Hasher};

    /// cargo's unit graph of `cargo ARGS` (computed, nothing built), through the unstable
    /// `--unit-graph` that stable cargo allows under `RUSTC_BOOTSTRAP=1`.
    fn unit_graph(args: &[&str]) -> Value {
        let argv = with_flags(args, &["--unit-graph", "-Z", "unstable-options"]);
        let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(&argv)
            .env("RUSTC_BOOTSTRAP", "1")
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cargo {argv:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Each run of librocksdb-sys's build script in `graph`, identified as cargo's metadata hash
    /// does: the unit's package, target, mode, features and profile settings (not the profile's
    /// name: `test` and `dev` share dependencies), and the same of all it depends on.
    fn rocksdb_configurations(graph: &Value) -> BTreeSet<u64> {
        let units = graph["units"].as_array().unwrap();
        fn key(units: &[Value], i: usize, memo: &mut HashMap<usize, u64>) -> u64 {
            if let Some(k) = memo.get(&i) {
                return *k;
            }
            let u = &units[i];
            let mut profile = u["profile"].clone();
            profile.as_object_mut().unwrap().remove("name");
            let mut deps: Vec<u64> = u["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| key(units, d["index"].as_u64().unwrap() as usize, memo))
                .collect();
            deps.sort_unstable();
            let mut h = DefaultHasher::new();
            for part in [
                &u["pkg_id"],
                &u["target"]["kind"],
                &u["target"]["name"],
                &u["mode"],
                &u["features"],
                &u["platform"],
                &profile,
            ] {
                part.to_string().hash(&mut h);
            }
            deps.hash(&mut h);
            let k = h.finish();
            memo.insert(i, k);
            k
        }
        let mut memo = HashMap::new();
        (0..units.len())
            .filter(|&i| {
                units[i]["mode"] == "run-custom-build"
                    && units[i]["pkg_id"]
                        .as_str()
                        .is_some_and(|p| p.contains("librocksdb-sys@"))
            })
            .map(|i| key(units, i, &mut memo))
            .collect()
    }

    #[test]
    fn demo_and_test_configure_rocksdb_once() {
        let mut all = BTreeSet::new();
        for (what, args) in builds() {
            let found = rocksdb_configurations(&unit_graph(&args));
            assert_eq!(found.len(), 1, "{what}: {found:?}");
            all.extend(found);
        }
        assert_eq!(all.len(), 1, "demo and test configure RocksDB apart");
        // The demo's former step, `cargo run -p snowline-store --example smoke`, resolved the
        // store's dev-dependencies alone and configured RocksDB a second time: the check sees it.
        let alone = rocksdb_configurations(&unit_graph(&[
            "build",
            "-p",
            "snowline-store",
            "--example",
            "smoke",
        ]));
        assert_eq!(alone.len(), 1);
        assert!(alone.is_disjoint(&all), "{alone:?} {all:?}");
    }

    #[test]
    fn build_dirs_are_read_from_cargo_messages() {
        let lines = concat!(
            r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#librocksdb-sys@0.19.0+11.8.1"}"#,
            "\n",
            r#"{"reason":"build-script-executed","package_id":"registry+https://github.com/rust-lang/crates.io-index#librocksdb-sys@0.19.0+11.8.1","out_dir":"/t/debug/build/librocksdb-sys-aaa/out"}"#,
            "\n",
            r#"{"reason":"build-script-executed","package_id":"registry+https://github.com/rust-lang/crates.io-index#zstd-sys@2.1.2","out_dir":"/t/debug/build/zstd-sys-bbb/out"}"#,
            "\n",
            r#"{"reason":"build-script-executed","package_id":"registry+https://github.com/rust-lang/crates.io-index#librocksdb-sys@0.19.0+11.8.1","out_dir":"/t/release/build/librocksdb-sys-ccc/out"}"#,
            "\nnot json\n",
        );
        let dirs = rocksdb_out_dirs(lines);
        assert_eq!(
            dirs.iter().map(String::as_str).collect::<Vec<_>>(),
            [
                "/t/debug/build/librocksdb-sys-aaa",
                "/t/release/build/librocksdb-sys-ccc"
            ]
        );
        let profiles: Vec<&str> = dirs.iter().map(|d| profile_dir(d)).collect();
        assert_eq!(profiles, ["debug", "release"]);
    }

    #[test]
    fn flags_go_before_the_pass_through() {
        assert_eq!(
            with_flags(TEST_CLIPPY, &["-x"]),
            [
                "clippy",
                "--workspace",
                "--all-targets",
                "-x",
                "--",
                "-D",
                "warnings"
            ]
        );
        assert_eq!(with_flags(&["build"], &["-x"]), ["build", "-x"]);
    }
}
