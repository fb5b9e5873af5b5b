//! Serves a synthetic EVM chain (`snowline_evm_devnet::synth`) as a JSON-RPC node: every block,
//! with its txs, receipts and `callTracer` traces, generated from the seed when asked.
//!
//! `evm-synth [--listen ADDR] [--seed N] [--chain-id N] [--blocks N] [--txs-per-block N]
//! [--accounts N] [--zipf S]`; prints one JSON line: its URL, head, tx count, and the hottest
//! account, a cold one, the most used ERC-20 and a tx hash (what benchmarks ask pages of).

use std::process::ExitCode;

use snowline_evm_devnet::synth::{Standard, Synth, SynthConfig, serve_synth};

const USAGE: &str = "usage: evm-synth [--listen ADDR] [--seed N] [--chain-id N] [--blocks N] \
                     [--txs-per-block N] [--accounts N] [--zipf S]";

/// The rank of the cold account printed: a party to about one tx in 200,000.
const COLD_RANK: u64 = 10_000;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evm-synth: {e}");
            ExitCode::FAILURE
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse().map_err(|_| format!("{flag}: bad value {v:?}"))
}

async fn run() -> Result<(), String> {
    let mut config = SynthConfig::default();
    let mut listen = "127.0.0.1:0".to_string();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--listen" => listen = it.next().ok_or("--listen needs an address")?,
            "--seed" => config.seed = number(&arg, it.next())?,
            "--chain-id" => config.chain_id = number(&arg, it.next())?,
            "--blocks" => config.blocks = number(&arg, it.next())?,
            "--txs-per-block" => config.txs_per_block = number(&arg, it.next())?,
            "--accounts" => config.accounts = number(&arg, it.next())?,
            "--zipf" => config.zipf = number(&arg, it.next())?,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unexpected argument {arg:?}\n{USAGE}")),
        }
    }
    let listener = tokio::net::TcpListener::bind(&listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let synth = Synth::new(config.clone());
    let mid = (config.blocks / 2).max(1);
    let tx = if config.blocks > 0 && config.txs_per_block > 0 {
        synth.tx(mid, 0).hash.to_string()
    } else {
        String::new()
    };
    println!(
        "{}",
        serde_json::json!({
            "url": format!("http://{addr}/"),
            "head": config.blocks,
            "txs": config.total_txs(),
            "hot": synth.account(0).to_string(),
            "cold": synth.account(COLD_RANK.min(config.accounts.saturating_sub(1))).to_string(),
            "token": synth.token(Standard::Erc20, 0).to_string(),
            "tx": tx,
        })
    );
    serve_synth(listener, config)
        .await
        .map_err(|e| e.to_string())
}
