//! The subset of avalanchego's `proto/p2p/p2p.proto` and `proto/sdk/sdk.proto` this crate speaks,
//! as prost structs with the same field numbers, plus the handler-id prefix of app messages.
//!
//! Variants of `Message` not listed here (consensus, state sync, Simplex) decode as unknown
//! fields, so such a message parses with `kind: None` and is ignored.

use crate::frame::MAX_MESSAGE_SIZE;

/// One P2P message: exactly one variant of the `message` oneof.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Message {
    /// The variant; `None` for a variant this crate does not know.
    #[prost(oneof = "Kind", tags = "2, 11, 12, 13, 35, 14, 30, 31, 32, 34")]
    pub kind: Option<Kind>,
}

/// The variants of `Message.message` this crate knows.
// A `Handshake` is built once per connection: its size in the enum costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Kind {
    /// A zstd-compressed encoding of another `Message`.
    #[prost(bytes, tag = "2")]
    CompressedZstd(Vec<u8>),
    /// Keep-alive carrying the sender's view of our uptime.
    #[prost(message, tag = "11")]
    Ping(Ping),
    /// Answer to a ping.
    #[prost(message, tag = "12")]
    Pong(Pong),
    /// The first message each side sends.
    #[prost(message, tag = "13")]
    Handshake(Handshake),
    /// Asks for peers not in the known-peers filter.
    #[prost(message, tag = "35")]
    GetPeerList(GetPeerList),
    /// Known peers; the first one received completes the handshake.
    #[prost(message, tag = "14")]
    PeerList(PeerList),
    /// A request to a chain's VM.
    #[prost(message, tag = "30")]
    AppRequest(AppRequest),
    /// The successful answer to an `AppRequest`.
    #[prost(message, tag = "31")]
    AppResponse(AppResponse),
    /// A one-way VM message.
    #[prost(message, tag = "32")]
    AppGossip(AppGossip),
    /// The failed answer to an `AppRequest`.
    #[prost(message, tag = "34")]
    AppError(AppError),
}

/// `p2p.Ping`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Ping {
    /// The sender's view of the receiver's primary-network uptime, percent (0-100).
    #[prost(uint32, tag = "1")]
    pub uptime: u32,
}

/// `p2p.Pong` (all its fields are reserved now).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Pong {}

/// `p2p.Handshake`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Handshake {
    /// Network id (1 mainnet, 5 fuji, 12345 local).
    #[prost(uint32, tag = "1")]
    pub network_id: u32,
    /// The sender's clock, unix seconds.
    #[prost(uint64, tag = "2")]
    pub my_time: u64,
    /// The claimed IP, 4 or 16 bytes.
    #[prost(bytes = "vec", tag = "3")]
    pub ip_addr: Vec<u8>,
    /// The claimed port.
    #[prost(uint32, tag = "4")]
    pub ip_port: u32,
    /// Unix seconds of the sender's next scheduled network upgrade.
    #[prost(uint64, tag = "5")]
    pub upgrade_time: u64,
    /// Unix seconds the IP was signed at.
    #[prost(uint64, tag = "6")]
    pub ip_signing_time: u64,
    /// Signature of the IP bytes with the TLS (staking) key.
    #[prost(bytes = "vec", tag = "7")]
    pub ip_node_id_sig: Vec<u8>,
    /// Subnets the sender tracks besides the primary network.
    #[prost(bytes = "vec", repeated, tag = "8")]
    pub tracked_subnets: Vec<Vec<u8>>,
    /// The sender's client name and version.
    #[prost(message, optional, tag = "9")]
    pub client: Option<Client>,
    /// ACPs the sender supports.
    #[prost(uint32, repeated, tag = "10")]
    pub supported_acps: Vec<u32>,
    /// ACPs the sender objects to.
    #[prost(uint32, repeated, tag = "11")]
    pub objected_acps: Vec<u32>,
    /// Peers the sender already knows, so the answering `PeerList` leaves them out.
    #[prost(message, optional, tag = "12")]
    pub known_peers: Option<BloomFilter>,
    /// Signature of the IP bytes with the BLS key (proof-of-possession DST).
    #[prost(bytes = "vec", tag = "13")]
    pub ip_bls_sig: Vec<u8>,
    /// Whether the sender wants the IPs of all subnets' validators.
    #[prost(bool, tag = "14")]
    pub all_subnets: bool,
}

/// `p2p.Client`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Client {
    /// Client name (`avalanchego`).
    #[prost(string, tag = "1")]
    pub name: String,
    /// Major version.
    #[prost(uint32, tag = "2")]
    pub major: u32,
    /// Minor version.
    #[prost(uint32, tag = "3")]
    pub minor: u32,
    /// Patch version.
    #[prost(uint32, tag = "4")]
    pub patch: u32,
}

/// `p2p.BloomFilter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BloomFilter {
    /// Marshalled filter: hash count, 8-byte seeds, entries.
    #[prost(bytes = "vec", tag = "1")]
    pub filter: Vec<u8>,
    /// Salt mixed into the hashed node ids.
    #[prost(bytes = "vec", tag = "2")]
    pub salt: Vec<u8>,
}

/// `p2p.ClaimedIpPort`: a peer's signed IP as relayed in a `PeerList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ClaimedIpPort {
    /// The peer's staking certificate (DER).
    #[prost(bytes = "vec", tag = "1")]
    pub x509_certificate: Vec<u8>,
    /// IP, 4 or 16 bytes.
    #[prost(bytes = "vec", tag = "2")]
    pub ip_addr: Vec<u8>,
    /// Port.
    #[prost(uint32, tag = "3")]
    pub ip_port: u32,
    /// Signing time, unix seconds.
    #[prost(uint64, tag = "4")]
    pub timestamp: u64,
    /// TLS-key signature of the IP bytes.
    #[prost(bytes = "vec", tag = "5")]
    pub signature: Vec<u8>,
    /// The tx that added the peer as a validator.
    #[prost(bytes = "vec", tag = "6")]
    pub tx_id: Vec<u8>,
}

/// `p2p.GetPeerList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetPeerList {
    /// Peers the sender already knows.
    #[prost(message, optional, tag = "1")]
    pub known_peers: Option<BloomFilter>,
    /// Whether the sender wants the IPs of all subnets' validators.
    #[prost(bool, tag = "2")]
    pub all_subnets: bool,
}

/// `p2p.PeerList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PeerList {
    /// The peers.
    #[prost(message, repeated, tag = "1")]
    pub claimed_ip_ports: Vec<ClaimedIpPort>,
}

/// `p2p.AppRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AppRequest {
    /// The chain whose VM handles it (32 bytes).
    #[prost(bytes = "vec", tag = "1")]
    pub chain_id: Vec<u8>,
    /// Matches the answer to the request.
    #[prost(uint32, tag = "2")]
    pub request_id: u32,
    /// Time the sender waits, nanoseconds from receipt.
    #[prost(uint64, tag = "3")]
    pub deadline: u64,
    /// Handler-id prefix then the handler's request.
    #[prost(bytes = "vec", tag = "4")]
    pub app_bytes: Vec<u8>,
}

/// `p2p.AppResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AppResponse {
    /// The request's chain.
    #[prost(bytes = "vec", tag = "1")]
    pub chain_id: Vec<u8>,
    /// The request's id.
    #[prost(uint32, tag = "2")]
    pub request_id: u32,
    /// The handler's response (no prefix).
    #[prost(bytes = "vec", tag = "3")]
    pub app_bytes: Vec<u8>,
}

/// `p2p.AppError`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AppError {
    /// The request's chain.
    #[prost(bytes = "vec", tag = "1")]
    pub chain_id: Vec<u8>,
    /// The request's id.
    #[prost(uint32, tag = "2")]
    pub request_id: u32,
    /// Application-defined code (zigzag `sint32`).
    #[prost(sint32, tag = "3")]
    pub error_code: i32,
    /// Human-readable reason.
    #[prost(string, tag = "4")]
    pub error_message: String,
}

/// `p2p.AppGossip`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AppGossip {
    /// The chain whose VM handles it.
    #[prost(bytes = "vec", tag = "1")]
    pub chain_id: Vec<u8>,
    /// Handler-id prefix then the gossip.
    #[prost(bytes = "vec", tag = "2")]
    pub app_bytes: Vec<u8>,
}

/// ACP-118 `sdk.SignatureRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SignatureRequest {
    /// The unsigned Warp message bytes.
    #[prost(bytes = "vec", tag = "1")]
    pub message: Vec<u8>,
    /// Whatever the signer needs to agree to sign (chain-specific).
    #[prost(bytes = "vec", tag = "2")]
    pub justification: Vec<u8>,
}

/// ACP-118 `sdk.SignatureResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SignatureResponse {
    /// Compressed 96-byte BLS signature; empty when the signer has not seen the message.
    #[prost(bytes = "vec", tag = "1")]
    pub signature: Vec<u8>,
}

/// Handler id of ACP-118 signature requests (`p2p.SignatureRequestHandlerID`).
pub const SIGNATURE_REQUEST_HANDLER_ID: u64 = 2;

/// App bytes for handler `id`: `uvarint(id)` then `body` (`p2p.PrefixMessage`).
pub fn prefix_handler(id: u64, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 10);
    let mut v = id;
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out.extend_from_slice(body);
    out
}

/// Splits app bytes into the handler id and the body (`p2p.ParseMessage`); `None` for a
/// truncated or overlong uvarint.
pub fn split_handler(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut id = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        let low = u64::from(b & 0x7f);
        if i == 9 && b > 1 {
            return None;
        }
        id |= low << (7 * i);
        if b < 0x80 {
            return Some((id, &bytes[i + 1..]));
        }
    }
    None
}

/// Why bytes are not a message.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Not protobuf of `p2p.Message`.
    #[error("malformed message: {0}")]
    Protobuf(#[from] prost::DecodeError),
    /// The zstd payload is corrupt.
    #[error("malformed zstd payload: {0}")]
    Zstd(String),
    /// The decompressed message is over the maximum size.
    #[error("decompressed message over {MAX_MESSAGE_SIZE} bytes")]
    TooLarge,
    /// A compressed message holding another compressed message.
    #[error("nested compressed message")]
    NestedCompression,
}

/// The protobuf bytes of `msg` (sent uncompressed: avalanchego accepts both).
pub fn encode_message(msg: &Message) -> Vec<u8> {
    prost::Message::encode_to_vec(msg)
}

/// Decodes a message, undoing one level of zstd compression within [`MAX_MESSAGE_SIZE`].
pub fn decode_message(bytes: &[u8]) -> Result<Message, DecodeError> {
    let msg: Message = prost::Message::decode(bytes)?;
    let Some(Kind::CompressedZstd(compressed)) = &msg.kind else {
        return Ok(msg);
    };
    let inner_bytes = decompress(compressed)?;
    let inner: Message = prost::Message::decode(inner_bytes.as_slice())?;
    if matches!(inner.kind, Some(Kind::CompressedZstd(_))) {
        return Err(DecodeError::NestedCompression);
    }
    Ok(inner)
}

fn decompress(compressed: &[u8]) -> Result<Vec<u8>, DecodeError> {
    use std::io::Read;
    let decoder = ruzstd::decoding::StreamingDecoder::new(compressed)
        .map_err(|e| DecodeError::Zstd(e.to_string()))?;
    let mut out = Vec::new();
    decoder
        .take(MAX_MESSAGE_SIZE as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| DecodeError::Zstd(e.to_string()))?;
    if out.len() > MAX_MESSAGE_SIZE {
        return Err(DecodeError::TooLarge);
    }
    Ok(out)
}
