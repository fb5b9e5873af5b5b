//! The commands themselves: each is a sequence of cargo invocations that stops at the first failure.

use crate::shell::{cmd, status};

fn cargo(args: &[&str]) -> Result<(), String> {
    let mut argv = vec!["cargo"];
    argv.extend_from_slice(args);
    status(&mut cmd(&argv))
}

/// Every check CI runs: the crate layering, formatting, lints, then all tests of the workspace
/// (the `/docs` browser test in Chromium, installed here when it can be).
pub fn test() -> Result<(), String> {
    crate::prereq::ensure_browser()?;
    crate::layers::run(&[])?;
    cargo(&["fmt", "--all", "--check"])?;
    cargo(crate::builds::TEST_CLIPPY)?;
    cargo(crate::builds::TEST_RUN)
}

/// Runs the criterion benchmarks; extra arguments are passed to `cargo bench`.
pub fn bench(args: &[String]) -> Result<(), String> {
    let mut argv = vec!["bench", "--workspace"];
    argv.extend(args.iter().map(String::as_str));
    cargo(&argv)
}

/// Runs the interop tests (docs/interop.md): `interop [PROFILE...]` is `interop/run.sh`, node-rpc
/// driven by the real npm clients; `interop data-api [sdk|schemathesis [PROFILE...]]` drives
/// data-api with the official SDK (`interop/data-api/run.sh`) and fuzzes it against the real
/// OpenAPI (`interop/data-api/schemathesis.sh`), both when neither is named, under the data-api
/// `--compat` profiles named (default: spec and glacier); `interop metrics-api [schemathesis]`
/// fuzzes metrics-api against the real metrics OpenAPI (`interop/metrics-api/schemathesis.sh`).
pub fn interop(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("data-api") {
        let which = args.get(1).map(String::as_str);
        let scripts: &[&str] = match which {
            None => &[
                "interop/data-api/run.sh",
                "interop/data-api/schemathesis.sh",
            ],
            Some("sdk") => &["interop/data-api/run.sh"],
            Some("schemathesis") => &["interop/data-api/schemathesis.sh"],
            Some(other) => {
                return Err(format!(
                    "unknown `interop data-api` part `{other}`: sdk or schemathesis"
                ));
            }
        };
        // Further arguments (data-api --compat profiles) go to each script. Every script runs
        // even if one fails; then all that failed are reported.
        let profiles = args.iter().skip(2).map(String::as_str);
        let failed: Vec<String> = scripts
            .iter()
            .filter_map(|s| {
                let mut argv = vec!["bash", s];
                argv.extend(profiles.clone());
                status(&mut cmd(&argv)).err()
            })
            .collect();
        return if failed.is_empty() {
            Ok(())
        } else {
            Err(failed.join("; "))
        };
    }
    if args.first().map(String::as_str) == Some("metrics-api") {
        return match args.get(1).map(String::as_str) {
            None | Some("schemathesis") if args.len() <= 2 => {
                status(&mut cmd(&["bash", "interop/metrics-api/schemathesis.sh"]))
            }
            _ => Err("usage: cargo xtask interop metrics-api [schemathesis]".into()),
        };
    }
    let mut argv = vec!["bash", "interop/run.sh"];
    argv.extend(args.iter().map(String::as_str));
    status(&mut cmd(&argv))
}
