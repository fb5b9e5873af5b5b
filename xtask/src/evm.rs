//! The EVM tools, installed with npm into the project's cache (never the repo): Foundry's
//! `anvil` (the EVM devnet's node), solcjs and the OpenZeppelin 4.9.6 artifacts (which
//! `fixtures/evm/contracts/build.mjs` is checked against). Optional: without npm the rest of the
//! workspace still builds and EVM tests skip with a message, unless `SNOWLINE_REQUIRE_EVM=1`
//! (CI), which makes a failed install an error.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The npm packages, each installed into a directory of its own under [`npm_dir`] so that one
/// `npm install --no-save` never prunes another.
const PACKAGES: [(&str, &str, &str); 3] = [
    (
        "anvil-1.7.1",
        "@foundry-rs/anvil-linux-amd64@1.7.1",
        "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil",
    ),
    (
        "solc-0.8.37",
        "solc@0.8.37",
        "node_modules/solc/package.json",
    ),
    (
        "openzeppelin-4.9.6",
        "@openzeppelin/contracts@4.9.6",
        "node_modules/@openzeppelin/contracts/package.json",
    ),
];

/// Makes EVM tests and this step fail rather than skip when the tools are missing.
const REQUIRE: &str = "SNOWLINE_REQUIRE_EVM";

/// `$SNOWLINE_NPM_DIR`, else `$HOME/.cache/snowline/npm`: the same rule as
/// `snowline_evm_devnet::npm_dir`, which finds what this installs (xtask cannot depend on it).
fn npm_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SNOWLINE_NPM_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(PathBuf::from(home).join(".cache/snowline/npm"))
}

fn required() -> bool {
    std::env::var(REQUIRE).as_deref() == Ok("1")
}

/// Installs what is missing, verifies anvil by running `anvil --version`, and returns its path;
/// `None` (after saying why, and what is skipped) when the tools cannot be had, or an error
/// under `SNOWLINE_REQUIRE_EVM=1`.
pub fn ensure() -> Result<Option<PathBuf>, String> {
    match install().and_then(|()| verify()) {
        Ok(anvil) => Ok(Some(anvil)),
        Err(why) if required() => Err(format!("EVM tools: {why} ({REQUIRE}=1)")),
        Err(why) => {
            eprintln!(
                "xtask: EVM tools unavailable: {why}; EVM tests skip and the demo runs without \
                 EVM chains"
            );
            Ok(None)
        }
    }
}

/// Reports whether the EVM tools are there, installing nothing (`setup --check`); missing
/// tools are an error only under `SNOWLINE_REQUIRE_EVM=1`.
pub fn check() -> Result<(), String> {
    match verify() {
        Ok(_) => Ok(()),
        Err(why) if required() => Err(format!("EVM tools: {why}; fix: cargo xtask setup")),
        Err(why) => {
            eprintln!(
                "xtask: setup --check: EVM tools (optional) missing: {why}; fix: cargo xtask setup"
            );
            Ok(())
        }
    }
}

/// `npm install` of each package whose marker file is missing.
fn install() -> Result<(), String> {
    let dir = npm_dir().ok_or("neither SNOWLINE_NPM_DIR nor HOME is set")?;
    for (sub, spec, marker) in PACKAGES {
        let prefix = dir.join(sub);
        if prefix.join(marker).is_file() {
            continue;
        }
        // anvil named by ANVIL_BIN needs no install of its own.
        if sub.starts_with("anvil") && std::env::var_os("ANVIL_BIN").is_some_and(|b| !b.is_empty())
        {
            continue;
        }
        npm_install(&prefix, spec)?;
        if !prefix.join(marker).is_file() {
            return Err(format!("npm installed {spec} but {} is missing", marker));
        }
    }
    Ok(())
}

fn npm_install(prefix: &Path, spec: &str) -> Result<(), String> {
    std::fs::create_dir_all(prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    // A package.json of its own keeps npm from walking up to another project.
    let manifest = prefix.join("package.json");
    if !manifest.is_file() {
        std::fs::write(&manifest, "{\"private\":true}\n")
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    eprintln!(
        "xtask: installing {spec} with npm into {}",
        prefix.display()
    );
    let out = Command::new("npm")
        .args([
            "install",
            "--no-save",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            spec,
        ])
        .current_dir(prefix)
        .output()
        .map_err(|e| format!("cannot run npm ({e}); install Node.js and npm"))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        Err(format!(
            "`npm install {spec}` failed ({}): {last}",
            out.status
        ))
    }
}

/// The anvil binary when it is installed and runs, installing nothing.
#[cfg(test)]
pub fn installed() -> Option<PathBuf> {
    verify().ok()
}

/// The anvil binary (`$ANVIL_BIN`, else the cache's), proven by `anvil --version`.
fn verify() -> Result<PathBuf, String> {
    let anvil = match std::env::var_os("ANVIL_BIN").filter(|b| !b.is_empty()) {
        Some(bin) => PathBuf::from(bin),
        None => npm_dir()
            .ok_or("neither SNOWLINE_NPM_DIR nor HOME is set")?
            .join(PACKAGES[0].0)
            .join(PACKAGES[0].2),
    };
    let out = Command::new(&anvil)
        .arg("--version")
        .output()
        .map_err(|e| format!("{} does not run: {e}", anvil.display()))?;
    let version = String::from_utf8_lossy(&out.stdout);
    let first = version.lines().next().unwrap_or("").trim();
    if !out.status.success() || !first.starts_with("anvil") {
        return Err(format!("`{} --version` fails", anvil.display()));
    }
    eprintln!("xtask: {first} at {}", anvil.display());
    Ok(anvil)
}
