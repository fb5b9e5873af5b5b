//! Starts devnet validator peers that answer ACP-118 Warp signature requests: nodes
//! `first..first+count` of the devnet with `--seed`, each on `127.0.0.1` with an OS-chosen port.
//! Prints one JSON line per peer (`nodeId`, `addr`, `blsPublicKey`), then serves until killed.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use snowline_devnet::nodes::DevnetNode;
use snowline_devnet_peers::{SignerBehaviour, SignerPeer};

#[derive(Parser, Debug)]
#[command(about = "Devnet validator peers answering ACP-118 Warp signature requests")]
struct Args {
    /// Devnet seed (the P-Chain devnet's genesis validators are nodes 0-4 of this seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of peers.
    #[arg(long, default_value_t = 5)]
    count: u32,
    /// Index of the first devnet node.
    #[arg(long, default_value_t = 0)]
    first: u32,
    /// Network id of the handshake and of the messages signed (12345 = local).
    #[arg(long, default_value_t = 12345)]
    network_id: u32,
    /// How every peer answers.
    #[arg(long, value_enum, default_value_t = Behaviour::Normal)]
    behaviour: Behaviour,
    /// Delay of `--behaviour slow`, milliseconds.
    #[arg(long, default_value_t = 2000)]
    slow_ms: u64,
}

/// One printed peer, in this key order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct PeerLine {
    node_id: String,
    addr: String,
    bls_public_key: String,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Behaviour {
    Normal,
    Slow,
    WrongSigner,
    Refuses,
    EmptySignature,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("warp-peers: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let behaviour = match args.behaviour {
        Behaviour::Normal => SignerBehaviour::Normal,
        Behaviour::Slow => SignerBehaviour::Slow(Duration::from_millis(args.slow_ms)),
        Behaviour::WrongSigner => SignerBehaviour::WrongSigner,
        Behaviour::Refuses => SignerBehaviour::Refuses,
        Behaviour::EmptySignature => SignerBehaviour::EmptySignature,
    };
    let mut peers = Vec::new();
    let mut out = std::io::stdout().lock();
    for index in args.first..args.first.saturating_add(args.count) {
        let node = DevnetNode::new(args.seed, index)?;
        let peer = SignerPeer::bind_local(&node, args.network_id, behaviour).await?;
        let line = PeerLine {
            node_id: peer.node_id().to_string(),
            addr: peer.addr().to_string(),
            bls_public_key: format!("0x{}", hex::encode(peer.bls_public_key())),
        };
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
        peers.push(peer);
    }
    out.flush()?;
    drop(out);
    tokio::signal::ctrl_c().await?;
    drop(peers);
    Ok(())
}
