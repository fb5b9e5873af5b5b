//! Serves a recording (`fixtures/evm/devnet/<chain id>.jsonl`) as a JSON-RPC node.
//!
//! `evm-replay FILE [--listen ADDR]` (default 127.0.0.1:0); prints the URL it listens on.

use std::process::ExitCode;
use std::sync::Arc;

use snowline_evm_devnet::{Recording, serve};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evm-replay: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    let mut file = None;
    let mut listen = "127.0.0.1:0".to_string();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--listen" => listen = it.next().ok_or("--listen needs an address")?,
            "-h" | "--help" => {
                println!("usage: evm-replay FILE [--listen ADDR]");
                return Ok(());
            }
            _ if file.is_none() => file = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    let file = file.ok_or("usage: evm-replay FILE [--listen ADDR]")?;
    let recording = Recording::load(file.as_ref()).map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(&listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let head = recording
        .head()
        .map_or_else(|| "no eth_blockNumber".to_string(), |h| format!("head {h}"));
    println!("evm-replay: {file} ({head}) on http://{addr}");
    serve(listener, Arc::new(recording))
        .await
        .map_err(|e| e.to_string())
}
