//! Runs the EVM devnet scenario on anvil.
//!
//! `evm-devnet run [OPTIONS] [--port P] [--exit-on-stdin-close]`: starts anvil (127.0.0.1:P,
//! default a free port), runs the scenario, prints the URL and serves until SIGINT or SIGTERM
//! (or, with the flag, until its stdin closes: a parent that dies takes it along), then stops
//! anvil.
//! `evm-devnet record [OPTIONS] --out FILE`: runs it on a fresh anvil and writes the recording.
//! `evm-devnet record-fixtures [--out DIR]`: the committed recording, one file per chain
//! (default `fixtures/evm/devnet`).
//! `evm-devnet record-icm [--seed S] [--out DIR]`: the ICM scenario on two fresh anvils (C-Chain
//! 43112 and L1 99999), one recording per chain (default `fixtures/evm/icm`, seed 1: the
//! committed one).
//! OPTIONS: `--chain-id N` (43112), `--seed S` (1), `--blocks B` (12), `--txs T` (16 per block).

use std::path::PathBuf;
use std::process::ExitCode;

use snowline_evm_devnet::{
    Anvil, AnvilConfig, C_CHAIN_ID, ICM_SEED, RECORDED_CHAINS, ScenarioConfig, record_scenario,
    run_scenario,
};

const USAGE: &str =
    "usage: evm-devnet run [--chain-id N] [--seed S] [--blocks B] [--txs T] [--port P]
       evm-devnet record [--chain-id N] [--seed S] [--blocks B] [--txs T] --out FILE
       evm-devnet record-fixtures [--out DIR]
       evm-devnet record-icm [--seed S] [--out DIR]";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evm-devnet: {e}");
            ExitCode::FAILURE
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse().map_err(|_| format!("bad {flag} {v:?}"))
}

async fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let command = args.next().unwrap_or_default();
    let mut config = ScenarioConfig::small(C_CHAIN_ID);
    let mut seed_given = false;
    let mut port = 0u16;
    let mut out: Option<PathBuf> = None;
    let mut stdin_bound = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--chain-id" => config.chain_id = number(&arg, args.next())?,
            "--seed" => {
                config.seed = number(&arg, args.next())?;
                seed_given = true;
            }
            "--blocks" => config.blocks = number(&arg, args.next())?,
            "--txs" => config.txs_per_block = number(&arg, args.next())?,
            "--port" => port = number(&arg, args.next())?,
            "--exit-on-stdin-close" => stdin_bound = true,
            "--out" => out = Some(args.next().ok_or("--out needs a path")?.into()),
            _ => return Err(format!("unexpected argument {arg:?}\n{USAGE}")),
        }
    }
    match command.as_str() {
        "run" => {
            let anvil = Anvil::start(&AnvilConfig {
                chain_id: config.chain_id,
                port,
            })
            .map_err(|e| e.to_string())?;
            let done = run_scenario(&anvil.url(), &config)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "evm-devnet: chain {} on {} ({} blocks, {} txs); Ctrl-C stops it",
                config.chain_id,
                anvil.url(),
                done.block_hashes.len() - 1,
                done.txs
            );
            stopped(stdin_bound).await?;
            drop(anvil);
            Ok(())
        }
        "record" => {
            let out = out.ok_or("record needs --out FILE")?;
            write(
                &out,
                &record_scenario(&config).await.map_err(|e| e.to_string())?,
            )
        }
        "record-fixtures" => {
            let dir = out.unwrap_or_else(|| "fixtures/evm/devnet".into());
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for chain_id in RECORDED_CHAINS {
                let config = ScenarioConfig::small(chain_id);
                let bytes = record_scenario(&config).await.map_err(|e| e.to_string())?;
                write(&dir.join(format!("{chain_id}.jsonl")), &bytes)?;
            }
            Ok(())
        }
        "record-icm" => {
            let dir = out.unwrap_or_else(|| "fixtures/evm/icm".into());
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let seed = if seed_given { config.seed } else { ICM_SEED };
            let recordings = snowline_evm_devnet::icm::record_icm(seed)
                .await
                .map_err(|e| e.to_string())?;
            for (chain_id, bytes) in snowline_evm_devnet::icm::ICM_CHAINS.iter().zip(recordings) {
                write(&dir.join(format!("{chain_id}.jsonl")), &bytes)?;
            }
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "evm-devnet: wrote {} ({} bytes)",
        path.display(),
        bytes.len()
    );
    Ok(())
}

/// Waits for SIGINT or SIGTERM, or for stdin to close when `stdin_bound`.
async fn stopped(stdin_bound: bool) -> Result<(), String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).map_err(|e| e.to_string())?;
    let (closed_tx, closed) = tokio::sync::oneshot::channel::<()>();
    if stdin_bound {
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            let _ = closed_tx.send(());
        });
    } else {
        // Never closes: the sender lives as long as the process.
        std::mem::forget(closed_tx);
    }
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
        _ = closed => {}
    }
    Ok(())
}
