//! Aggregation latency over real sockets: 100 devnet validators of equal weight as signer peers
//! on loopback (TLS, the handshake, ACP-118), an aggregator asking them through
//! `P2pSignatureSource`; for quorum 67% and 67% + 13% buffer, the time of a cold aggregation (a
//! new message: every share asked, verified, aggregated) and of a warm one (the same message
//! again at the same quorum: the cache answers), each over ROUNDS messages; also the first
//! aggregation, which dials and handshakes every peer. Prints medians and ranges.
//!
//!   cargo run --release -p snowline-devnet-peers --example aggregate_latency [ROUNDS=20]

use std::sync::Arc;
use std::time::{Duration, Instant};

use snowline_devnet::nodes::DevnetNode;
use snowline_devnet_peers::{SignerBehaviour, SignerPeer, devnet_identity};
use snowline_p2p::{P2pClient, P2pSignatureSource, PeerDirectory};
use snowline_types::Id;
use snowline_types::warp::UnsignedMessage;
use snowline_warp::{AggregationRequest, Aggregator, CanonicalSet, NodeValidator, PublicKey};

const NETWORK: u32 = 12_345;
const VALIDATORS: u32 = 100;

fn message(i: u32) -> UnsignedMessage {
    UnsignedMessage {
        network_id: NETWORK,
        source_chain_id: Id([7; 32]),
        payload: i.to_be_bytes().to_vec(),
    }
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let median = ms[ms.len() / 2];
    println!(
        "{name:<34} median {median:>8.2} ms  (min {:.2}, max {:.2}, n {})",
        ms[0],
        ms[ms.len() - 1],
        ms.len()
    );
}

#[tokio::main(flavor = "multi_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: u32 = std::env::args().nth(1).map_or(Ok(20), |a| a.parse())?;
    let nodes: Vec<DevnetNode> = (0..VALIDATORS)
        .map(|i| DevnetNode::new(5, i))
        .collect::<Result<_, _>>()?;
    let mut peers = Vec::new();
    let mut directory = PeerDirectory::new();
    for n in &nodes {
        let p = SignerPeer::bind_local(n, NETWORK, SignerBehaviour::Normal).await?;
        directory.insert(p.node_id(), p.addr());
        peers.push(p);
    }
    let me = devnet_identity(&DevnetNode::new(6, 0)?)?;
    let source = P2pSignatureSource::new(
        P2pClient::new(me, NETWORK)?,
        directory,
        Duration::from_secs(10),
    );
    let aggregator = Aggregator::new(source);
    let set = Arc::new(CanonicalSet::flatten(nodes.iter().map(|n| {
        NodeValidator {
            node_id: n.node_id,
            public_key: PublicKey::from_compressed(&n.bls_public_key).ok(),
            weight: 1_000,
        }
    }))?);
    let request = |m: UnsignedMessage, quorum: u64, buffer: u64| AggregationRequest {
        message: m,
        justification: Vec::new(),
        validators: Arc::clone(&set),
        quorum_percentage: quorum,
        quorum_buffer_percentage: buffer,
        timeout: Duration::from_secs(30),
        excluded: Vec::new(),
    };
    let t = Instant::now();
    aggregator
        .aggregate(request(message(u32::MAX), 67, 0))
        .await?;
    println!(
        "first aggregation (dials and handshakes {VALIDATORS} peers): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let mut n = 0;
    for (quorum, buffer) in [(67, 0), (67, 13)] {
        let (mut cold, mut warm) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            n += 1;
            let t = Instant::now();
            let a = aggregator
                .aggregate(request(message(n), quorum, buffer))
                .await?;
            cold.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(a.signed_weight * 100 >= a.stats.total_weight * quorum);
            let t = Instant::now();
            aggregator
                .aggregate(request(message(n), quorum, buffer))
                .await?;
            warm.push(t.elapsed().as_secs_f64() * 1e3);
        }
        summary(&format!("cold, {quorum}% + {buffer}%"), cold);
        summary(&format!("warm (cache), {quorum}% + {buffer}%"), warm);
    }
    drop(peers);
    Ok(())
}
