//! Foundry's `anvil`, the project's EVM node for tests and the demo: where its binary is, and a
//! running instance on a port of its own that is killed when dropped.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::error::DevnetError;

/// The anvil release `cargo xtask setup` installs (npm `@foundry-rs/anvil-linux-amd64`).
pub const ANVIL_VERSION: &str = "1.7.1";

/// The dev accounts' mnemonic (anvil's own default, given explicitly so a change of default
/// cannot change the chain).
pub const MNEMONIC: &str = "test test test test test test test test test test test junk";

/// Genesis timestamp of every devnet chain (2023-11-14T22:13:20Z).
pub const GENESIS_TIMESTAMP: u64 = 1_700_000_000;

/// Where `cargo xtask setup` puts its npm packages: `$SNOWLINE_NPM_DIR`, else
/// `$HOME/.cache/snowline/npm` (xtask's `anvil.rs` installs into the same place).
pub fn npm_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SNOWLINE_NPM_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(PathBuf::from(home).join(".cache/snowline/npm"))
}

/// The anvil binary: `$ANVIL_BIN` if set, else the one `cargo xtask setup` installed in
/// [`npm_dir`]. `Err` says where it looked.
pub fn anvil_bin() -> Result<PathBuf, String> {
    if let Some(bin) = std::env::var_os("ANVIL_BIN").filter(|b| !b.is_empty()) {
        let bin = PathBuf::from(bin);
        return if bin.is_file() {
            Ok(bin)
        } else {
            Err(format!("ANVIL_BIN={} is not a file", bin.display()))
        };
    }
    let dir = npm_dir().ok_or("neither ANVIL_BIN nor HOME is set")?;
    let bin = dir
        .join(format!("anvil-{ANVIL_VERSION}"))
        .join("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "no anvil at {} (ANVIL_BIN unset); `cargo xtask setup` installs it with npm",
            bin.display()
        ))
    }
}

/// Set to `1` (CI does, in `.ci/run`) to make EVM tests fail instead of skipping when anvil or
/// the solc package is missing.
pub const REQUIRE_EVM_ENV: &str = "SNOWLINE_REQUIRE_EVM";

/// For tests about EVM nodes: whether anvil is there. When it is not, says why the test skips
/// (`test` names it) and returns `false`, or panics if [`REQUIRE_EVM_ENV`] is `1`.
#[allow(clippy::panic)]
pub fn anvil_or_skip(test: &str) -> bool {
    match anvil_bin() {
        Ok(_) => true,
        Err(why) => {
            if std::env::var(REQUIRE_EVM_ENV).as_deref() == Ok("1") {
                panic!("{test}: {why} ({REQUIRE_EVM_ENV}=1)");
            }
            eprintln!("{test}: skipped, {why}");
            false
        }
    }
}

/// How one anvil chain is started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnvilConfig {
    /// The EVM chain id (`--chain-id`).
    pub chain_id: u64,
    /// The port on 127.0.0.1; 0 lets the system pick one, read back from anvil's output.
    pub port: u16,
}

/// A running anvil, killed when dropped.
#[derive(Debug)]
pub struct Anvil {
    child: Child,
    port: u16,
    chain_id: u64,
}

impl Anvil {
    /// Starts anvil from [`anvil_bin`] with the devnet's fixed settings (Cancun, fixed genesis
    /// timestamp and mnemonic, no automatic mining) and waits until it listens.
    pub fn start(config: &AnvilConfig) -> Result<Self, DevnetError> {
        let bin = anvil_bin().map_err(DevnetError::NoAnvil)?;
        let mut child = Command::new(&bin)
            .args(["--host", "127.0.0.1", "--port"])
            .arg(config.port.to_string())
            .arg("--chain-id")
            .arg(config.chain_id.to_string())
            .args(["--hardfork", "cancun", "--timestamp"])
            .arg(GENESIS_TIMESTAMP.to_string())
            .args(["--mnemonic", MNEMONIC, "--no-mining", "--order", "fifo"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| DevnetError::Anvil(format!("cannot start {}: {e}", bin.display())))?;
        // anvil has no way to report a system-picked port but its banner, and `--silent` drops
        // the banner: read it up to "Listening on", then drain the rest so anvil never blocks.
        let port = match child.stdout.take() {
            Some(out) => listening_port(out),
            None => None,
        };
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(DevnetError::Anvil(format!(
                "{} exited before saying where it listens",
                bin.display()
            )));
        };
        Ok(Self {
            child,
            port,
            chain_id: config.chain_id,
        })
    }

    /// The port anvil listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The chain id it was started with.
    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    /// Its JSON-RPC URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Waits until anvil exits (it runs until killed).
    pub fn wait(mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.wait()
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads anvil's banner up to its `Listening on 127.0.0.1:PORT` line and returns the port; the
/// rest of the output is drained by a thread of its own.
fn listening_port(out: impl Read + Send + 'static) -> Option<u16> {
    let mut reader = BufReader::new(out);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        if let Some(addr) = line.trim().strip_prefix("Listening on ") {
            let port = addr.rsplit(':').next()?.parse().ok()?;
            std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
            return Some(port);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_is_read_from_the_banner() {
        let banner = "\n    _   _\n\nAvailable Accounts\n==================\n(0) 0xf39f... \
                      (10000.000000000000000000 ETH)\n\nListening on 127.0.0.1:34425\n\
                      eth_blockNumber\n";
        assert_eq!(listening_port(std::io::Cursor::new(banner)), Some(34425));
        assert_eq!(listening_port(std::io::Cursor::new("no banner\n")), None);
    }
}
