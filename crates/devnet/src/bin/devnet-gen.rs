//! Writes a devnet as `containers.jsonl` (the `node-rpc import` format) and `genesis.json`.
//!
//! `devnet-gen [--seed N] [--preset small|large:N_TXS] [--out DIR]` (defaults: seed 1, small,
//! `fixtures/devnet`). Prints counts and the generation rate to stderr.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use snowline_devnet::{Devnet, DevnetConfig, genesis_json, write_jsonl};

struct Args {
    seed: u64,
    config: DevnetConfig,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut seed = 1u64;
    let mut config = DevnetConfig::small();
    let mut out = PathBuf::from("fixtures/devnet");
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--seed" => {
                let v = value()?;
                seed = v.parse().map_err(|_| format!("bad seed {v:?}"))?;
            }
            "--preset" => {
                let v = value()?;
                config = match v.split_once(':') {
                    None if v == "small" => DevnetConfig::small(),
                    Some(("large", n)) => DevnetConfig::large(
                        n.parse().map_err(|_| format!("bad tx count in {v:?}"))?,
                    ),
                    _ => return Err(format!("unknown preset {v:?} (small or large:N)")),
                };
            }
            "--out" => out = PathBuf::from(value()?),
            "-h" | "--help" => {
                return Err(
                    "usage: devnet-gen [--seed N] [--preset small|large:N_TXS] [--out DIR]".into(),
                );
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Args { seed, config, out })
}

fn run(args: Args) -> Result<(), String> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut devnet =
        Devnet::generate(args.config.with_seed(args.seed)).map_err(|e| e.to_string())?;
    let path = args.out.join("containers.jsonl");
    let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut w = BufWriter::new(file);
    let start = Instant::now();
    let stats = write_jsonl(&mut devnet, &mut w).map_err(|e| e.to_string())?;
    std::io::Write::flush(&mut w).map_err(|e| e.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    let gpath = args.out.join("genesis.json");
    std::fs::write(&gpath, genesis_json(&devnet))
        .map_err(|e| format!("{}: {e}", gpath.display()))?;
    eprintln!(
        "wrote {} X txs, {} vertices, {} X blocks, {} P txs, {} P blocks, {} C atomic txs, {} C blocks to {} in {secs:.2}s ({:.0} txs/s)",
        stats.txs,
        stats.vertices,
        stats.blocks,
        stats.p_txs,
        stats.p_blocks,
        stats.c_txs,
        stats.c_blocks,
        args.out.display(),
        (stats.txs + stats.p_txs) as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("devnet-gen: {e}");
            ExitCode::FAILURE
        }
    }
}
