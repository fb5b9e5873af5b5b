//! The `warp-peers` binary: its JSON lines name peers that answer signature requests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey, Signature};
use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_devnet_peers::devnet_identity;
use snowline_p2p::P2pClient;
use snowline_types::warp::UnsignedMessage;
use snowline_types::{Id, NodeId};

/// Kills the child when the test ends, passing or not.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn printed_peers_sign_with_the_printed_keys() {
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_warp-peers"))
            .args(["--seed", "3", "--count", "2", "--first", "1"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.0.stdout.take().unwrap()).lines();
    let mut peers = Vec::new();
    for _ in 0..2 {
        let line = lines.next().unwrap().unwrap();
        assert!(line.starts_with("{\"nodeId\":\"NodeID-"), "{line}");
        peers.push(serde_json::from_str::<serde_json::Value>(&line).unwrap());
    }
    let me = DevnetNode::new(99, 1).unwrap();
    let client = P2pClient::new(devnet_identity(&me).unwrap(), 12345).unwrap();
    let chain = Id([5; 32]);
    let msg = UnsignedMessage {
        network_id: 12345,
        source_chain_id: chain,
        payload: vec![1, 2, 3],
    }
    .bytes();
    for (i, p) in peers.iter().enumerate() {
        let node = DevnetNode::new(3, 1 + i as u32).unwrap();
        assert_eq!(
            p["blsPublicKey"],
            format!("0x{}", hex::encode(node.bls_public_key))
        );
        let node_id: NodeId = p["nodeId"].as_str().unwrap().parse().unwrap();
        assert_eq!(node_id, node.node_id);
        let addr = p["addr"].as_str().unwrap().parse().unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let sig = client
            .request_signature(addr, node_id, chain, &msg, &[], deadline)
            .await
            .unwrap();
        let sig = Signature::from_bytes(&sig).unwrap();
        let pk = PublicKey::from_bytes(&node.bls_public_key).unwrap();
        assert_eq!(
            sig.verify(true, &msg, BLS_SIG_DST, &[], &pk, true),
            BLST_ERROR::BLST_SUCCESS
        );
    }
}
