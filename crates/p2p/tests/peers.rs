//! A client and devnet signer peers over real TLS sockets on 127.0.0.1.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::time::Duration;

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey, Signature};
use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_devnet_peers::signer_peer::{
    ERR_UNEXPECTED, ERR_UNREGISTERED_HANDLER, REFUSAL_MESSAGE,
};
use snowline_devnet_peers::{SignerBehaviour, SignerPeer, devnet_identity};
use snowline_p2p::{HandshakeError, P2pClient, P2pError};
use snowline_types::warp::UnsignedMessage;
use snowline_types::{Id, NodeId};
use tokio::time::Instant;

const NETWORK: u32 = 12345;
const CHAIN: Id = Id([7; 32]);

fn client() -> P2pClient {
    let me = DevnetNode::new(99, 0).unwrap();
    P2pClient::new(devnet_identity(&me).unwrap(), NETWORK).unwrap()
}

fn message() -> Vec<u8> {
    UnsignedMessage {
        network_id: NETWORK,
        source_chain_id: CHAIN,
        payload: b"hello warp".to_vec(),
    }
    .bytes()
}

fn verifies(sig: &[u8], public_key: &[u8; 48], msg: &[u8]) -> bool {
    let sig = Signature::from_bytes(sig).unwrap();
    let pk = PublicKey::from_bytes(public_key).unwrap();
    sig.verify(true, msg, BLS_SIG_DST, &[], &pk, true) == BLST_ERROR::BLST_SUCCESS
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(10)
}

async fn signer(index: u32, behaviour: SignerBehaviour) -> (DevnetNode, SignerPeer) {
    let node = DevnetNode::new(1, index).unwrap();
    let peer = SignerPeer::bind_local(&node, NETWORK, behaviour)
        .await
        .unwrap();
    (node, peer)
}

/// A client presenting avalanchego's local staker 1 (a v1 certificate with an RSA key, from
/// avalanchego v1.14.2 `staking/local/`, copied into `tests/fixtures/avalanchego-local/`)
/// completes TLS and the handshake and gets a signature.
#[tokio::test]
async fn an_rsa_staking_identity_with_a_v1_certificate_connects() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/avalanchego-local");
    let staker1 = snowline_p2p::StakingFiles {
        cert: dir.join("staker1.crt"),
        key: dir.join("staker1.key"),
        signer_key: dir.join("signer1.key"),
    }
    .load()
    .unwrap();
    let (node, server) = signer(0, SignerBehaviour::Normal).await;
    let client = P2pClient::new(staker1, NETWORK).unwrap();
    let msg = message();
    let sig = client
        .request_signature(server.addr(), node.node_id, CHAIN, &msg, &[], soon())
        .await
        .unwrap();
    assert!(verifies(&sig, &node.bls_public_key, &msg));
    assert_eq!(server.handshakes_completed(), 1);
}

#[tokio::test]
async fn handshake_and_signature_that_verifies() {
    let (node, server) = signer(0, SignerBehaviour::Normal).await;
    assert_eq!(server.node_id(), NodeId::from_cert_der(&node.cert_der));
    let client = client();
    let peer = client.connect(server.addr(), node.node_id).await.unwrap();
    assert_eq!(peer.node_id(), node.node_id);
    assert_eq!(peer.info().ip.unsigned.port, server.addr().port());
    let msg = message();
    let sig = peer
        .request_signature(CHAIN, &msg, &[], soon())
        .await
        .unwrap();
    assert_eq!(sig, node.bls_sign(&msg).compress().to_vec());
    assert!(verifies(&sig, &node.bls_public_key, &msg));
    assert!(!verifies(&sig, &node.bls_public_key, b"another message"));
    assert!(verify_warp_signature(&node.bls_public_key, &msg, &sig));
    assert!(!verify_warp_signature(
        &node.bls_public_key,
        b"another message",
        &sig
    ));
    assert!(!verify_warp_signature(
        &node.bls_public_key,
        &msg,
        &sig[1..]
    ));
    // The server finished its side of the handshake (it answered), so it checked our
    // handshake's signed IP too.
    assert_eq!(server.handshakes_completed(), 1);
}

#[tokio::test]
async fn connections_are_pooled_per_node() {
    let (node, server) = signer(1, SignerBehaviour::Normal).await;
    let client = client();
    let msg = message();
    for _ in 0..3 {
        let sig = client
            .request_signature(server.addr(), node.node_id, CHAIN, &msg, &[], soon())
            .await
            .unwrap();
        assert!(verifies(&sig, &node.bls_public_key, &msg));
    }
    assert_eq!(client.pooled_connections(), 1);
    assert_eq!(server.handshakes_completed(), 1);
}

#[tokio::test]
async fn a_wrong_expected_node_id_is_refused() {
    let (_, server) = signer(0, SignerBehaviour::Normal).await;
    let other = DevnetNode::new(1, 1).unwrap().node_id;
    let err = client().connect(server.addr(), other).await.unwrap_err();
    match err {
        P2pError::WrongNodeId { expected, actual } => {
            assert_eq!(expected, other);
            assert_eq!(actual, server.node_id());
        }
        e => panic!("expected WrongNodeId, got {e:?}"),
    }
}

#[tokio::test]
async fn a_slow_peer_hits_the_deadline() {
    let (node, server) = signer(2, SignerBehaviour::Slow(Duration::from_secs(60))).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    let deadline = Instant::now() + Duration::from_millis(200);
    let err = peer
        .request_signature(CHAIN, &message(), &[], deadline)
        .await
        .unwrap_err();
    assert!(matches!(err, P2pError::Timeout), "{err:?}");
    assert!(!peer.is_closed());
}

#[tokio::test]
async fn a_refusing_peer_gives_the_app_error() {
    let (node, server) = signer(3, SignerBehaviour::Refuses).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    let err = peer
        .request_signature(CHAIN, &message(), &[], soon())
        .await
        .unwrap_err();
    match err {
        P2pError::App { code, message } => {
            assert_eq!(code, ERR_UNEXPECTED);
            assert_eq!(message, REFUSAL_MESSAGE);
        }
        e => panic!("expected an app error, got {e:?}"),
    }
}

#[tokio::test]
async fn a_wrong_signer_signature_does_not_verify() {
    let (node, server) = signer(4, SignerBehaviour::WrongSigner).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    let msg = message();
    let sig = peer
        .request_signature(CHAIN, &msg, &[], soon())
        .await
        .unwrap();
    assert_eq!(sig.len(), 96);
    assert!(!verifies(&sig, &node.bls_public_key, &msg));
    assert!(!verify_warp_signature(&node.bls_public_key, &msg, &sig));
}

#[tokio::test]
async fn an_empty_signature_means_not_seen() {
    let (node, server) = signer(0, SignerBehaviour::EmptySignature).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    let err = peer
        .request_signature(CHAIN, &message(), &[], soon())
        .await
        .unwrap_err();
    assert!(matches!(err, P2pError::NotSeen), "{err:?}");
}

#[tokio::test]
async fn requests_the_signer_cannot_serve_get_sdk_errors() {
    let (node, server) = signer(0, SignerBehaviour::Normal).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    // Sent to a chain that is not the message's source chain.
    let err = peer
        .request_signature(Id([8; 32]), &message(), &[], soon())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            P2pError::App {
                code: ERR_UNEXPECTED,
                ..
            }
        ),
        "{err:?}"
    );
    // Not a Warp message.
    let err = peer
        .request_signature(CHAIN, b"junk", &[], soon())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            P2pError::App {
                code: ERR_UNEXPECTED,
                ..
            }
        ),
        "{err:?}"
    );
    // Handler 3 is not registered.
    let err = peer.app_request(CHAIN, vec![3], soon()).await.unwrap_err();
    assert!(
        matches!(
            err,
            P2pError::App {
                code: ERR_UNREGISTERED_HANDLER,
                ..
            }
        ),
        "{err:?}"
    );
    // The connection still serves.
    let msg = message();
    let sig = peer
        .request_signature(CHAIN, &msg, &[], soon())
        .await
        .unwrap();
    assert!(verifies(&sig, &node.bls_public_key, &msg));
}

#[tokio::test]
async fn another_network_fails_the_handshake() {
    let node = DevnetNode::new(1, 0).unwrap();
    let server = SignerPeer::bind_local(&node, 1, SignerBehaviour::Normal)
        .await
        .unwrap();
    let err = client()
        .connect(server.addr(), node.node_id)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            P2pError::Handshake(HandshakeError::WrongNetwork {
                ours: NETWORK,
                theirs: 1
            })
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn nobody_listening_is_a_connect_failure() {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let err = client().connect(addr, NodeId::EMPTY).await.unwrap_err();
    assert!(matches!(err, P2pError::Connect(_)), "{err:?}");
}

#[tokio::test]
async fn a_closing_peer_fails_the_pending_request() {
    let (node, server) = signer(1, SignerBehaviour::Slow(Duration::from_secs(60))).await;
    let peer = client().connect(server.addr(), node.node_id).await.unwrap();
    let pending = tokio::spawn({
        let peer = peer.clone();
        async move { peer.request_signature(CHAIN, &message(), &[], soon()).await }
    });
    drop(server);
    let err = pending.await.unwrap().unwrap_err();
    assert!(matches!(err, P2pError::Closed), "{err:?}");
    assert!(peer.is_closed());
    let err = peer
        .request_signature(CHAIN, &message(), &[], soon())
        .await
        .unwrap_err();
    assert!(matches!(err, P2pError::Closed), "{err:?}");
}

#[tokio::test]
async fn junk_and_oversized_frames_close_only_their_connection() {
    use snowline_p2p::frame::{read_frame, write_frame};
    use snowline_p2p::handshake::{HandshakeConfig, build_handshake, exchange, unix_now};
    use snowline_p2p::proto::{Kind, Message, Ping, Pong, decode_message, encode_message};
    use snowline_p2p::tls::{client_config, server_name};
    use tokio::io::AsyncWriteExt;

    let (node, server) = signer(2, SignerBehaviour::Normal).await;
    let me = devnet_identity(&DevnetNode::new(99, 2).unwrap()).unwrap();
    let tcp = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let local = tcp.local_addr().unwrap();
    let connector = tokio_rustls::TlsConnector::from(client_config(&me).unwrap());
    let mut tls = connector
        .connect(server_name(server.addr()), tcp)
        .await
        .unwrap();
    let ours = build_handshake(&me, NETWORK, local, unix_now()).unwrap();
    exchange(
        &mut tls,
        ours,
        &node.cert_der,
        &HandshakeConfig::new(NETWORK),
    )
    .await
    .unwrap();
    // Undecodable messages are skipped, the connection stays.
    write_frame(&mut tls, &[0xff; 7]).await.unwrap();
    write_frame(&mut tls, &[]).await.unwrap();
    let ping = encode_message(&Message {
        kind: Some(Kind::Ping(Ping { uptime: 50 })),
    });
    write_frame(&mut tls, &ping).await.unwrap();
    let pong = decode_message(&read_frame(&mut tls).await.unwrap()).unwrap();
    assert_eq!(pong.kind, Some(Kind::Pong(Pong {})));
    // A length over the maximum closes it.
    tls.write_all(&[0xff, 0xff, 0xff, 0xff]).await.unwrap();
    tls.flush().await.unwrap();
    assert!(read_frame(&mut tls).await.is_err());

    let msg = message();
    let sig = client()
        .request_signature(server.addr(), node.node_id, CHAIN, &msg, &[], soon())
        .await
        .unwrap();
    assert!(verifies(&sig, &node.bls_public_key, &msg));
}

#[tokio::test]
async fn concurrent_requests_share_one_dial() {
    let (node, server) = signer(3, SignerBehaviour::Normal).await;
    let client = client();
    let msg = message();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..4 {
        let (client, msg, addr, id) = (client.clone(), msg.clone(), server.addr(), node.node_id);
        tasks.spawn(async move {
            client
                .request_signature(addr, id, CHAIN, &msg, &[], soon())
                .await
        });
    }
    while let Some(sig) = tasks.join_next().await {
        assert!(verifies(&sig.unwrap().unwrap(), &node.bls_public_key, &msg));
    }
    assert_eq!(server.handshakes_completed(), 1);
    assert_eq!(client.pooled_connections(), 1);
}

/// Whether `sig` is `pk`'s BLS signature of `msg` (avalanchego's scheme, `snowline-warp`).
fn verify_warp_signature(pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
    match (
        snowline_warp::PublicKey::from_compressed(pk),
        snowline_warp::Signature::from_bytes(sig),
    ) {
        (Ok(k), Ok(s)) => s.verify(&k, msg),
        _ => false,
    }
}
