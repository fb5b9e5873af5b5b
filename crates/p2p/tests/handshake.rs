//! The handshake rules of `network/peer/peer.go` `handleHandshake`, checked on messages built by
//! this crate and then altered.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::net::SocketAddr;

use snowline_devnet::nodes::DevnetNode;
use snowline_devnet_peers::devnet_identity;
use snowline_p2p::frame::{read_frame, write_frame};
use snowline_p2p::handshake::{
    HandshakeConfig, build_handshake, check_handshake, exchange, unix_now,
};
use snowline_p2p::ip::UnsignedIp;
use snowline_p2p::proto::{
    BloomFilter, Handshake, Kind, Message, PeerList, Ping, Pong, decode_message, encode_message,
};
use snowline_p2p::{HandshakeError, StakingIdentity};

const NOW: u64 = 1_700_000_000;

fn setup() -> (DevnetNode, Handshake, HandshakeConfig) {
    let node = DevnetNode::new(1, 0).unwrap();
    let id = devnet_identity(&node).unwrap();
    let addr: SocketAddr = "127.0.0.1:9651".parse().unwrap();
    let h = build_handshake(&id, 12345, addr, NOW).unwrap();
    (node, h, HandshakeConfig::new(12345))
}

#[test]
fn a_built_handshake_passes_and_signs_the_ip() {
    let (node, h, cfg) = setup();
    let info = check_handshake(&h, &node.cert_der, &cfg, NOW + 30).unwrap();
    assert_eq!(info.node_id, node.node_id);
    assert_eq!(info.ip.unsigned.port, 9651);
    assert_eq!(h.ip_addr, [127, 0, 0, 1]);
    assert_eq!(
        info.ip.unsigned.ip,
        "127.0.0.1".parse::<std::net::IpAddr>().unwrap()
    );
    // The BLS signature is a proof of possession over the 26 IP bytes.
    let bytes = UnsignedIp {
        ip: "127.0.0.1".parse().unwrap(),
        port: 9651,
        timestamp: NOW,
    }
    .bytes();
    assert_eq!(
        &bytes[..16],
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]
    );
    let sig = blst::min_pk::Signature::from_bytes(&info.ip.bls_signature).unwrap();
    let pk = blst::min_pk::PublicKey::from_bytes(&node.bls_public_key).unwrap();
    assert_eq!(
        sig.verify(
            true,
            &bytes,
            snowline_devnet::nodes::BLS_POP_DST,
            &[],
            &pk,
            true
        ),
        blst::BLST_ERROR::BLST_SUCCESS
    );
}

#[test]
fn refusals() {
    let (node, h, cfg) = setup();
    let check = |h: &Handshake, now: u64| check_handshake(h, &node.cert_der, &cfg, now);

    assert!(matches!(
        check(&h, NOW + 61),
        Err(HandshakeError::ClockSkew(61))
    ));
    assert!(matches!(
        check(
            &Handshake {
                network_id: 1,
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::WrongNetwork { .. })
    ));
    assert!(matches!(
        check(
            &Handshake {
                ip_port: 0,
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadIp)
    ));
    assert!(matches!(
        check(
            &Handshake {
                ip_addr: vec![1, 2, 3],
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadIp)
    ));
    // Another port than the one signed.
    assert!(matches!(
        check(
            &Handshake {
                ip_port: 9652,
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadIpSignature)
    ));
    // The signature of another node's certificate.
    let other = DevnetNode::new(1, 1).unwrap();
    assert!(matches!(
        check_handshake(&h, &other.cert_der, &cfg, NOW),
        Err(HandshakeError::BadIpSignature)
    ));
    assert!(matches!(
        check(
            &Handshake {
                ip_signing_time: NOW + 61,
                my_time: NOW,
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::IpTimestampInFuture(_))
    ));
    assert!(matches!(
        check(
            &Handshake {
                ip_bls_sig: vec![0; 96],
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadBlsSignature)
    ));
    let mut old = h.clone();
    old.client.as_mut().unwrap().minor = 12;
    assert!(matches!(
        check(&old, NOW),
        Err(HandshakeError::IncompatibleVersion(_))
    ));
    assert!(matches!(
        check(
            &Handshake {
                tracked_subnets: vec![vec![0; 31]],
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadTrackedSubnets)
    ));
    assert!(matches!(
        check(
            &Handshake {
                supported_acps: vec![77],
                objected_acps: vec![77],
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::AcpConflict)
    ));
    let bad_filter = Some(BloomFilter {
        filter: vec![1, 0, 0],
        salt: vec![],
    });
    assert!(matches!(
        check(
            &Handshake {
                known_peers: bad_filter,
                ..h.clone()
            },
            NOW
        ),
        Err(HandshakeError::BadKnownPeers)
    ));
    // No filter at all is accepted, as avalanchego does.
    assert!(
        check(
            &Handshake {
                known_peers: None,
                ..h
            },
            NOW
        )
        .is_ok()
    );
}

/// The other end of an in-memory stream, scripted message by message.
struct Script {
    io: tokio::io::DuplexStream,
}

impl Script {
    async fn send(&mut self, kind: Kind) {
        let bytes = encode_message(&Message { kind: Some(kind) });
        write_frame(&mut self.io, &bytes).await.unwrap();
    }

    async fn recv(&mut self) -> Kind {
        let frame = read_frame(&mut self.io).await.unwrap();
        decode_message(&frame).unwrap().kind.unwrap()
    }
}

fn pair() -> (
    tokio::io::DuplexStream,
    Script,
    StakingIdentity,
    Handshake,
    Vec<u8>,
) {
    let (ours, theirs) = tokio::io::duplex(64 * 1024);
    let me = devnet_identity(&DevnetNode::new(2, 0).unwrap()).unwrap();
    let (node, their_handshake, _) = setup();
    let their_handshake = Handshake {
        my_time: unix_now(),
        ..their_handshake
    };
    // The signed IP's timestamp (NOW) is in the past, which is allowed.
    (
        ours,
        Script { io: theirs },
        me,
        their_handshake,
        node.cert_der,
    )
}

#[tokio::test]
async fn the_exchange_answers_pings_and_ends_on_the_peer_list_after_a_handshake() {
    let (mut ours, mut script, me, their_handshake, their_cert) = pair();
    let cfg = HandshakeConfig::new(12345);
    let my_addr: SocketAddr = "127.0.0.1:4000".parse().unwrap();
    let mine = build_handshake(&me, 12345, my_addr, unix_now()).unwrap();
    let task = tokio::spawn(async move {
        exchange(&mut ours, mine, &their_cert, &cfg)
            .await
            .map(|i| i.node_id)
    });

    assert!(matches!(script.recv().await, Kind::Handshake(h) if h.ip_port == 4000));
    script.send(Kind::Ping(Ping { uptime: 0 })).await;
    assert_eq!(script.recv().await, Kind::Pong(Pong {}));
    // A PeerList before the Handshake does not finish it; junk is skipped.
    script.send(Kind::PeerList(PeerList::default())).await;
    write_frame(&mut script.io, &[0xff, 0xff]).await.unwrap();
    script.send(Kind::Handshake(their_handshake)).await;
    assert_eq!(script.recv().await, Kind::PeerList(PeerList::default()));
    assert!(!task.is_finished());
    script.send(Kind::PeerList(PeerList::default())).await;
    assert_eq!(
        task.await.unwrap().unwrap(),
        DevnetNode::new(1, 0).unwrap().node_id
    );
}

#[tokio::test]
async fn a_second_handshake_is_refused() {
    let (mut ours, mut script, me, their_handshake, their_cert) = pair();
    let cfg = HandshakeConfig::new(12345);
    let mine = build_handshake(&me, 12345, "127.0.0.1:4000".parse().unwrap(), unix_now()).unwrap();
    let task = tokio::spawn(async move {
        exchange(&mut ours, mine, &their_cert, &cfg)
            .await
            .map(|i| i.node_id)
    });
    script.recv().await;
    script.send(Kind::Handshake(their_handshake.clone())).await;
    script.recv().await;
    script.send(Kind::Handshake(their_handshake)).await;
    assert!(matches!(
        task.await.unwrap(),
        Err(HandshakeError::DuplicateHandshake)
    ));
}
