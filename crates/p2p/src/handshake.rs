//! The P2P handshake (`network/peer/peer.go`): each side first sends a `Handshake` (network id,
//! clock, signed IP, client version, tracked subnets, known-peers filter); on a valid one the
//! receiver answers with a `PeerList`, and the first `PeerList` after a valid `Handshake`
//! finishes the handshake. Pings are answered meanwhile; other messages are dropped.

use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use snowline_types::{Id, NodeId};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;

use crate::error::{HandshakeError, P2pError};
use crate::frame::{read_frame, write_frame};
use crate::identity::StakingIdentity;
use crate::ip::{SignedIp, UnsignedIp, check_tls_signature, ip_from_slice};
use crate::proto::{self, BloomFilter, Client, Handshake, Kind, Message, PeerList, Pong};

/// Client name avalanchego sends and expects (`version.Client`).
pub const CLIENT_NAME: &str = "avalanchego";
/// The version this crate claims: avalanchego's current release line at the time of writing.
pub const CLIENT_VERSION: (u32, u32, u32) = (1, 14, 2);
/// Oldest peer version accepted (`version.PrevMinimumCompatibleVersion`).
pub const MIN_COMPATIBLE_VERSION: (u32, u32, u32) = (1, 13, 0);
/// Most tracked subnets a handshake may list (`maxNumTrackedSubnets`).
pub const MAX_TRACKED_SUBNETS: usize = 16;
/// Longest known-peers salt (`maxBloomSaltLen`).
pub const MAX_BLOOM_SALT_LEN: usize = 32;
/// avalanchego's default `network-max-clock-difference`.
pub const DEFAULT_MAX_CLOCK_DIFFERENCE: Duration = Duration::from_secs(60);

/// The empty known-peers filter (`bloom.EmptyFilter` marshalled): one zero hash seed, one
/// zero entry byte.
pub const EMPTY_BLOOM_FILTER: [u8; 10] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// What a side requires of the other's handshake.
#[derive(Debug, Clone)]
pub struct HandshakeConfig {
    /// The network both must be on.
    pub network_id: u32,
    /// Largest accepted difference between the peer's clock and ours.
    pub max_clock_difference: Duration,
    /// How long the whole handshake (TLS and messages) may take.
    pub timeout: Duration,
}

impl HandshakeConfig {
    /// Defaults for `network_id`: one minute of clock tolerance, 15 s to finish.
    pub fn new(network_id: u32) -> Self {
        Self {
            network_id,
            max_clock_difference: DEFAULT_MAX_CLOCK_DIFFERENCE,
            timeout: Duration::from_secs(15),
        }
    }
}

/// What a valid handshake told about the peer.
#[derive(Debug, Clone)]
pub struct PeerInfo {
    /// The hash of the peer's certificate.
    pub node_id: NodeId,
    /// The peer's signed IP claim.
    pub ip: SignedIp,
    /// Client name and version.
    pub client: (String, u32, u32, u32),
    /// Subnets the peer tracks besides the primary network.
    pub tracked_subnets: Vec<Id>,
}

/// Unix seconds now.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Our `Handshake`: `my_addr` is the claimed IP (a port of 0 is refused by avalanchego).
pub fn build_handshake(
    id: &StakingIdentity,
    network_id: u32,
    my_addr: SocketAddr,
    now: u64,
) -> Result<Handshake, P2pError> {
    let signed = UnsignedIp {
        ip: my_addr.ip(),
        port: my_addr.port(),
        timestamp: now,
    }
    .sign(id)?;
    // `Addr().AsSlice()`: 4 bytes for IPv4, 16 for IPv6.
    let ip_addr = match my_addr.ip() {
        std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
        std::net::IpAddr::V6(v6) => v6.octets().to_vec(),
    };
    Ok(Handshake {
        network_id,
        my_time: now,
        ip_addr,
        ip_port: u32::from(my_addr.port()),
        upgrade_time: 0,
        ip_signing_time: now,
        ip_node_id_sig: signed.tls_signature,
        tracked_subnets: Vec::new(),
        client: Some(Client {
            name: CLIENT_NAME.to_owned(),
            major: CLIENT_VERSION.0,
            minor: CLIENT_VERSION.1,
            patch: CLIENT_VERSION.2,
        }),
        supported_acps: Vec::new(),
        objected_acps: Vec::new(),
        known_peers: Some(BloomFilter {
            filter: EMPTY_BLOOM_FILTER.to_vec(),
            salt: Vec::new(),
        }),
        ip_bls_sig: signed.bls_signature.to_vec(),
        all_subnets: false,
    })
}

/// Checks a peer's `Handshake` as `peer.handleHandshake` does, at unix time `now`.
pub fn check_handshake(
    h: &Handshake,
    peer_cert: &[u8],
    cfg: &HandshakeConfig,
    now: u64,
) -> Result<PeerInfo, HandshakeError> {
    if h.network_id != cfg.network_id {
        return Err(HandshakeError::WrongNetwork {
            ours: cfg.network_id,
            theirs: h.network_id,
        });
    }
    let tolerance = cfg.max_clock_difference.as_secs();
    let skew = h.my_time.abs_diff(now);
    if skew > tolerance {
        return Err(HandshakeError::ClockSkew(skew));
    }
    let client = h.client.clone().unwrap_or_default();
    let version = (client.major, client.minor, client.patch);
    if client.major > CLIENT_VERSION.0 || version < MIN_COMPATIBLE_VERSION {
        return Err(HandshakeError::IncompatibleVersion(format!(
            "{}/{}.{}.{}",
            client.name, client.major, client.minor, client.patch
        )));
    }
    if h.tracked_subnets.len() > MAX_TRACKED_SUBNETS {
        return Err(HandshakeError::BadTrackedSubnets);
    }
    let tracked_subnets = h
        .tracked_subnets
        .iter()
        .map(|b| Id::from_slice(b).map_err(|_| HandshakeError::BadTrackedSubnets))
        .collect::<Result<Vec<_>, _>>()?;
    if h.supported_acps.iter().any(|a| h.objected_acps.contains(a)) {
        return Err(HandshakeError::AcpConflict);
    }
    if let Some(known) = &h.known_peers {
        check_bloom(&known.filter)?;
        if known.salt.len() > MAX_BLOOM_SALT_LEN {
            return Err(HandshakeError::BadKnownPeers);
        }
    }
    let ip = ip_from_slice(&h.ip_addr).ok_or(HandshakeError::BadIp)?;
    let port = u16::try_from(h.ip_port).map_err(|_| HandshakeError::BadIp)?;
    if port == 0 {
        return Err(HandshakeError::BadIp);
    }
    if h.ip_signing_time > now.saturating_add(tolerance) {
        return Err(HandshakeError::IpTimestampInFuture(h.ip_signing_time));
    }
    let unsigned = UnsignedIp {
        ip,
        port,
        timestamp: h.ip_signing_time,
    };
    check_tls_signature(peer_cert, &unsigned.bytes(), &h.ip_node_id_sig)?;
    let bls_signature: [u8; 96] = h
        .ip_bls_sig
        .as_slice()
        .try_into()
        .map_err(|_| HandshakeError::BadBlsSignature)?;
    blst::min_pk::Signature::sig_validate(&bls_signature, true)
        .map_err(|_| HandshakeError::BadBlsSignature)?;
    Ok(PeerInfo {
        node_id: NodeId::from_cert_der(peer_cert),
        ip: SignedIp {
            unsigned,
            tls_signature: h.ip_node_id_sig.clone(),
            bls_signature,
        },
        client: (client.name, client.major, client.minor, client.patch),
        tracked_subnets,
    })
}

/// A marshalled bloom filter as `bloom.Parse` accepts it: 1 to 16 hash seeds of 8 bytes, then
/// at least one entry byte.
fn check_bloom(filter: &[u8]) -> Result<(), HandshakeError> {
    let Some(&hashes) = filter.first() else {
        return Err(HandshakeError::BadKnownPeers);
    };
    if !(1..=16).contains(&hashes) || filter.len() < 1 + 8 * usize::from(hashes) + 1 {
        return Err(HandshakeError::BadKnownPeers);
    }
    Ok(())
}

/// Writes one message as a frame.
pub async fn send<W: AsyncWrite + Unpin>(w: &mut W, msg: Kind) -> Result<(), HandshakeError> {
    let bytes = proto::encode_message(&Message { kind: Some(msg) });
    write_frame(w, &bytes).await?;
    Ok(())
}

/// Runs the message part of the handshake on an established TLS stream: sends ours, checks
/// theirs, answers it with an empty `PeerList`, and returns once their `PeerList` arrives.
pub async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut S,
    ours: Handshake,
    peer_cert: &[u8],
    cfg: &HandshakeConfig,
) -> Result<PeerInfo, HandshakeError> {
    send(stream, Kind::Handshake(ours)).await?;
    let mut info: Option<PeerInfo> = None;
    loop {
        let frame = read_frame(stream).await?;
        let Ok(msg) = proto::decode_message(&frame) else {
            continue;
        };
        match msg.kind {
            Some(Kind::Handshake(h)) => {
                if info.is_some() {
                    return Err(HandshakeError::DuplicateHandshake);
                }
                info = Some(check_handshake(&h, peer_cert, cfg, unix_now())?);
                send(stream, Kind::PeerList(PeerList::default())).await?;
            }
            Some(Kind::PeerList(_)) => {
                if let Some(info) = info {
                    return Ok(info);
                }
            }
            Some(Kind::Ping(_)) => send(stream, Kind::Pong(Pong {})).await?,
            _ => {}
        }
    }
}

/// The TLS session's peer leaf certificate (DER): it names the peer's node id.
pub fn peer_leaf(session: &rustls::CommonState) -> Result<Vec<u8>, HandshakeError> {
    session
        .peer_certificates()
        .and_then(|c| c.first())
        .map(|c| c.to_vec())
        .ok_or(HandshakeError::NoCertificate)
}

/// The message part of the handshake on either side of an established TLS session, finished
/// before `deadline`: ours signs `my_addr` with `identity`, theirs is checked against
/// `peer_cert`.
pub async fn complete<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut S,
    peer_cert: &[u8],
    identity: &StakingIdentity,
    my_addr: SocketAddr,
    cfg: &HandshakeConfig,
    deadline: Instant,
) -> Result<PeerInfo, P2pError> {
    let ours = build_handshake(identity, cfg.network_id, my_addr, unix_now())?;
    let info = tokio::time::timeout_at(deadline, exchange(stream, ours, peer_cert, cfg))
        .await
        .map_err(|_| HandshakeError::Timeout)??;
    Ok(info)
}
