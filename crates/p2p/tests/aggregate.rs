//! Warp aggregation over real sockets: `snowline-warp`'s aggregator asking devnet signer peers
//! through [`P2pSignatureSource`] (TLS, the handshake, ACP-118 app requests). Some peers are
//! slow, one is down, one signs with a wrong key, one refuses, one has not seen the message;
//! the signed message verifies against the aggregate key of the signers, computed here with
//! blst from the devnet keys, and the quorum and cache rules hold.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use blst::BLST_ERROR;
use blst::min_pk::{AggregatePublicKey, PublicKey, Signature};
use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_devnet_peers::{SignerBehaviour, SignerPeer, devnet_identity};
use snowline_p2p::{P2pClient, P2pSignatureSource, PeerDirectory};
use snowline_types::Id;
use snowline_types::warp::{Message, UnsignedMessage};
use snowline_warp::{
    AggregateError, AggregationRequest, Aggregator, CanonicalSet, NodeValidator,
    PublicKey as WarpKey,
};

const NETWORK: u32 = 12_345;

struct World {
    _peers: Vec<SignerPeer>,
    nodes: Vec<DevnetNode>,
    aggregator: Aggregator<P2pSignatureSource>,
    set: Arc<CanonicalSet>,
}

/// Ten validators of equal weight: 0-4 normal, 5 slow, 6 wrong signer, 7 refuses, 8 has not
/// seen the message, 9 down (listed, nothing listens).
async fn world() -> World {
    let nodes: Vec<DevnetNode> = (0..10).map(|i| DevnetNode::new(77, i).unwrap()).collect();
    let mut peers = Vec::new();
    let mut directory = PeerDirectory::new();
    for (i, node) in nodes.iter().enumerate() {
        let behaviour = match i {
            5 => SignerBehaviour::Slow(Duration::from_millis(300)),
            6 => SignerBehaviour::WrongSigner,
            7 => SignerBehaviour::Refuses,
            8 => SignerBehaviour::EmptySignature,
            _ => SignerBehaviour::Normal,
        };
        if i == 9 {
            // A port that was just free: nothing listens there.
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            directory.insert(node.node_id, l.local_addr().unwrap());
            continue;
        }
        let peer = SignerPeer::bind_local(node, NETWORK, behaviour)
            .await
            .unwrap();
        directory.insert(peer.node_id(), peer.addr());
        peers.push(peer);
    }
    let me = DevnetNode::new(78, 0).unwrap();
    let client = P2pClient::new(devnet_identity(&me).unwrap(), NETWORK).unwrap();
    let source = P2pSignatureSource::new(client, directory, Duration::from_secs(5));
    let set = CanonicalSet::flatten(nodes.iter().map(|n| NodeValidator {
        node_id: n.node_id,
        public_key: Some(WarpKey::from_compressed(&n.bls_public_key).unwrap()),
        weight: 100,
    }))
    .unwrap();
    World {
        _peers: peers,
        nodes,
        aggregator: Aggregator::new(source),
        set: Arc::new(set),
    }
}

fn message(tag: u8) -> UnsignedMessage {
    UnsignedMessage {
        network_id: NETWORK,
        source_chain_id: Id([tag; 32]),
        payload: vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 2, tag],
    }
}

fn request(w: &World, m: &UnsignedMessage, quorum: u64, buffer: u64) -> AggregationRequest {
    AggregationRequest {
        message: m.clone(),
        justification: Vec::new(),
        validators: Arc::clone(&w.set),
        quorum_percentage: quorum,
        quorum_buffer_percentage: buffer,
        timeout: Duration::from_secs(3),
        excluded: Vec::new(),
    }
}

/// Checks `signed` with blst alone: the bitset's validators (canonical order: uncompressed
/// keys ascending, avalanchego `snow/validators/warp.go`) aggregated, the signature verified.
fn verify(w: &World, m: &UnsignedMessage, signed: &[u8]) -> Vec<usize> {
    let parsed = Message::parse(signed).unwrap();
    assert_eq!(parsed.unsigned, *m);
    let mut keys: Vec<([u8; 96], PublicKey)> = w
        .nodes
        .iter()
        .map(|n| {
            let k = PublicKey::key_validate(&n.bls_public_key).unwrap();
            (k.serialize(), k)
        })
        .collect();
    keys.sort_by_key(|k| k.0);
    let signers = parsed.signature.signer_indices().unwrap();
    let chosen: Vec<&PublicKey> = signers.iter().map(|i| &keys[*i].1).collect();
    let agg = AggregatePublicKey::aggregate(&chosen, false)
        .unwrap()
        .to_public_key();
    let sig = Signature::sig_validate(&parsed.signature.signature, true).unwrap();
    assert_eq!(
        sig.verify(false, &m.bytes(), BLS_SIG_DST, &[], &agg, false),
        BLST_ERROR::BLST_SUCCESS
    );
    signers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signatures_from_real_peers_aggregate_and_verify() {
    let w = world().await;
    let m = message(1);
    let a = w
        .aggregator
        .aggregate(request(&w, &m, 50, 0))
        .await
        .unwrap();
    let signers = verify(&w, &m, &a.bytes);
    // 50% of 1,000 is 500: five signers, pruned to exactly the quorum.
    assert_eq!(signers.len(), 5);
    assert_eq!(a.signed_weight, 500);
    assert_eq!(a.stats.total_weight, 1000);

    // The honest peers (0-5, the slow one included) are 60%: a 60% quorum is met, the wrong
    // signer is rejected, the refusal, the unseen message and the dead peer count as failed.
    let m = message(2);
    let a = w
        .aggregator
        .aggregate(request(&w, &m, 60, 0))
        .await
        .unwrap();
    assert_eq!(verify(&w, &m, &a.bytes).len(), 6);

    // 70% is out of reach: the error says how far it got.
    let m = message(3);
    let e = w
        .aggregator
        .aggregate(request(&w, &m, 70, 0))
        .await
        .unwrap_err();
    match &e {
        AggregateError::NotEnoughSignatures(s) => {
            assert_eq!(s.reached_weight, 600);
            assert_eq!(s.required_weight, 700);
            assert!(s.invalid >= 1, "{s:?}");
        }
        other => panic!("{other:?}"),
    }
    // The same message at 60% now comes from the cache: no more requests than validators left.
    let a = w
        .aggregator
        .aggregate(request(&w, &m, 60, 0))
        .await
        .unwrap();
    assert_eq!(a.stats.cached, 6, "{:?}", a.stats);
    assert_eq!(verify(&w, &m, &a.bytes).len(), 6);
}
