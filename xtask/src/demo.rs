//! `cargo xtask demo`: the main job on the bundled devnet. Builds everything, checks the store
//! end to end, then starts `node-rpc` on the devnet (127.0.0.1:9650), live: after the bundled
//! history it accepts new X and P blocks at [`LIVE_RATE`], and `data-api` following it
//! (127.0.0.1:8080); both print where they listen and example calls. Ctrl-C stops both.

use std::path::PathBuf;
use std::process::{Child, Command};

use crate::run::status;

/// Containers per second the demo's devnet accepts after its history: a moving chain that is
/// easy to watch (about one X and one P block a second).
const LIVE_RATE: &str = "2";

/// Kills the child when dropped (the demo's `node-rpc`, once `data-api` has stopped).
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// Runs the demo until Ctrl-C.
pub fn run() -> Result<(), String> {
    status(Command::new("cargo").args(["build", "--workspace"]))?;
    status(Command::new("cargo").args([
        "run",
        "--quiet",
        "-p",
        "snowline-store",
        "--example",
        "smoke",
    ]))?;
    let bin = target_dir().join("debug");
    eprintln!(
        "xtask: starting node-rpc on the devnet, live at {LIVE_RATE} new containers/s, and data-api \
         following it (data in snowline-data/); Ctrl-C stops both"
    );
    let node = Command::new(bin.join("node-rpc"))
        .args([
            "serve",
            "--source",
            "devnet",
            "--live-rate",
            LIVE_RATE,
            "--data-dir",
            "snowline-data/node-rpc",
        ])
        .spawn()
        .map_err(|e| format!("cannot start node-rpc: {e}"))?;
    let _node = Reaped(node);
    status(Command::new(bin.join("data-api")).args([
        "serve",
        "--data-dir",
        "snowline-data/data-api",
        "--upstream",
        "http://127.0.0.1:9650",
        "--genesis",
        "devnet",
    ]))
}
