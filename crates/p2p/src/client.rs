//! The requesting side: [`P2pClient`] dials validators with a staking identity, checks that the
//! certificate is the expected node's, runs the handshake, and keeps one connection per node;
//! [`Peer`] sends ACP-118 signature requests and matches the answers by request id.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use snowline_types::{Id, NodeId};
use tokio::io::{AsyncRead, ReadHalf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::Instant;
use tokio_rustls::TlsConnector;

use crate::conn::{AbortOnDrop, Outbox, split};
use crate::error::{HandshakeError, P2pError};
use crate::frame::read_frame;
use crate::handshake::{HandshakeConfig, PeerInfo, complete, peer_leaf};
use crate::identity::StakingIdentity;
use crate::proto::{
    self, AppRequest, Kind, Pong, SIGNATURE_REQUEST_HANDLER_ID, SignatureRequest,
    SignatureResponse, prefix_handler,
};
use crate::tls::{client_config, peer_node_id, server_name};

/// Length of a compressed BLS signature.
pub const BLS_SIGNATURE_LEN: usize = 96;

/// Dials validators and keeps one connection per node id.
#[derive(Clone)]
pub struct P2pClient {
    inner: Arc<ClientInner>,
}

struct ClientInner {
    identity: StakingIdentity,
    handshake: HandshakeConfig,
    connect_timeout: Duration,
    tls: TlsConnector,
    pool: Mutex<HashMap<NodeId, Peer>>,
    /// One lock per node being dialled, so concurrent callers share one new connection.
    dialing: Mutex<HashMap<NodeId, Arc<tokio::sync::Mutex<()>>>>,
}

impl std::fmt::Debug for P2pClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("P2pClient")
            .field("node_id", &self.inner.identity.node_id())
            .field("network_id", &self.inner.handshake.network_id)
            .finish_non_exhaustive()
    }
}

impl P2pClient {
    /// A client on `network_id` presenting `identity`, with default timeouts.
    pub fn new(identity: StakingIdentity, network_id: u32) -> Result<Self, P2pError> {
        Self::with_config(
            identity,
            HandshakeConfig::new(network_id),
            Duration::from_secs(10),
        )
    }

    /// A client with an explicit handshake configuration and TCP connect timeout.
    pub fn with_config(
        identity: StakingIdentity,
        handshake: HandshakeConfig,
        connect_timeout: Duration,
    ) -> Result<Self, P2pError> {
        let tls = TlsConnector::from(client_config(&identity)?);
        Ok(Self {
            inner: Arc::new(ClientInner {
                identity,
                handshake,
                connect_timeout,
                tls,
                pool: Mutex::new(HashMap::new()),
                dialing: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// Our node id.
    pub fn node_id(&self) -> NodeId {
        self.inner.identity.node_id()
    }

    /// A connection to `expected` at `addr`: the pooled one if it is still open and at that
    /// address, else a new one (which replaces it in the pool). Concurrent calls for one node
    /// wait for a single dial.
    pub async fn connect(&self, addr: SocketAddr, expected: NodeId) -> Result<Peer, P2pError> {
        if let Some(peer) = self.pooled(expected, addr) {
            return Ok(peer);
        }
        let lock = {
            let mut dialing = self.inner.dialing.lock().map_err(|_| P2pError::Closed)?;
            dialing.entry(expected).or_default().clone()
        };
        let _dialing = lock.lock().await;
        if let Some(peer) = self.pooled(expected, addr) {
            return Ok(peer);
        }
        let dialled = self.dial(addr, expected).await;
        if let Ok(mut dialing) = self.inner.dialing.lock() {
            // Two holders: the map and this call; a waiter holds a third.
            if Arc::strong_count(&lock) <= 2 {
                dialing.remove(&expected);
            }
        }
        let peer = dialled?;
        if let Ok(mut pool) = self.inner.pool.lock() {
            pool.retain(|_, p| !p.is_closed());
            pool.insert(expected, peer.clone());
        }
        Ok(peer)
    }

    /// Asks `node` at `addr` to sign `message` (connecting or reusing the pooled connection);
    /// see [`Peer::request_signature`].
    pub async fn request_signature(
        &self,
        addr: SocketAddr,
        node: NodeId,
        chain_id: Id,
        message: &[u8],
        justification: &[u8],
        deadline: Instant,
    ) -> Result<Vec<u8>, P2pError> {
        let peer = tokio::time::timeout_at(deadline, self.connect(addr, node))
            .await
            .map_err(|_| P2pError::Timeout)??;
        peer.request_signature(chain_id, message, justification, deadline)
            .await
    }

    /// Number of open pooled connections.
    pub fn pooled_connections(&self) -> usize {
        self.inner
            .pool
            .lock()
            .map(|p| p.values().filter(|p| !p.is_closed()).count())
            .unwrap_or(0)
    }

    fn pooled(&self, node: NodeId, addr: SocketAddr) -> Option<Peer> {
        let pool = self.inner.pool.lock().ok()?;
        pool.get(&node)
            .filter(|p| !p.is_closed() && p.addr() == addr)
            .cloned()
    }

    async fn dial(&self, addr: SocketAddr, expected: NodeId) -> Result<Peer, P2pError> {
        let inner = &self.inner;
        let tcp = tokio::time::timeout(inner.connect_timeout, TcpStream::connect(addr))
            .await
            .map_err(|_| {
                P2pError::Connect(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "connect timed out",
                ))
            })?
            .map_err(P2pError::Connect)?;
        tcp.set_nodelay(true)?;
        let my_addr = tcp.local_addr()?;
        let hs_deadline = Instant::now() + inner.handshake.timeout;
        let mut tls =
            tokio::time::timeout_at(hs_deadline, inner.tls.connect(server_name(addr), tcp))
                .await
                .map_err(|_| HandshakeError::Timeout)?
                .map_err(|e| HandshakeError::Tls(e.to_string()))?;
        let cert = peer_leaf(tls.get_ref().1)?;
        let actual = peer_node_id(&cert);
        if actual != expected {
            return Err(P2pError::WrongNodeId { expected, actual });
        }
        let info = complete(
            &mut tls,
            &cert,
            &inner.identity,
            my_addr,
            &inner.handshake,
            hs_deadline,
        )
        .await?;
        Ok(Peer::start(tls, addr, info))
    }
}

type Pending = HashMap<u32, (Vec<u8>, oneshot::Sender<Result<Vec<u8>, P2pError>>)>;

struct Shared {
    pending: Mutex<Pending>,
    closed: AtomicBool,
}

impl Shared {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let drained: Vec<_> = match self.pending.lock() {
            Ok(mut p) => p.drain().collect(),
            Err(_) => Vec::new(),
        };
        for (_, (_, tx)) in drained {
            let _ = tx.send(Err(P2pError::Closed));
        }
    }

    fn complete(&self, chain_id: &[u8], request_id: u32, answer: Result<Vec<u8>, P2pError>) {
        let entry = match self.pending.lock() {
            Ok(mut p) => match p.get(&request_id) {
                Some((chain, _)) if chain.as_slice() == chain_id => p.remove(&request_id),
                _ => None,
            },
            Err(_) => None,
        };
        if let Some((_, tx)) = entry {
            let _ = tx.send(answer);
        }
    }
}

/// A connection to a validator that finished the handshake; clones share it.
#[derive(Clone)]
pub struct Peer {
    inner: Arc<PeerInner>,
}

struct PeerInner {
    addr: SocketAddr,
    info: PeerInfo,
    outbox: Outbox,
    shared: Arc<Shared>,
    next_request_id: AtomicU32,
    _reader: AbortOnDrop,
    _writer: AbortOnDrop,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("node_id", &self.inner.info.node_id)
            .field("addr", &self.inner.addr)
            .finish_non_exhaustive()
    }
}

impl Peer {
    fn start<S>(stream: S, addr: SocketAddr, info: PeerInfo) -> Self
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + 'static,
    {
        let (rd, outbox, writer) = split(stream);
        let shared = Arc::new(Shared {
            pending: Mutex::new(HashMap::new()),
            closed: AtomicBool::new(false),
        });
        let reader = tokio::spawn(read_loop(rd, outbox.clone(), shared.clone()));
        Self {
            inner: Arc::new(PeerInner {
                addr,
                info,
                outbox,
                shared,
                next_request_id: AtomicU32::new(1),
                _reader: AbortOnDrop(reader),
                _writer: AbortOnDrop(writer),
            }),
        }
    }

    /// The peer's node id (the hash of its certificate).
    pub fn node_id(&self) -> NodeId {
        self.inner.info.node_id
    }

    /// The address dialled.
    pub fn addr(&self) -> SocketAddr {
        self.inner.addr
    }

    /// What the peer's handshake said.
    pub fn info(&self) -> &PeerInfo {
        &self.inner.info
    }

    /// Whether the connection has closed.
    pub fn is_closed(&self) -> bool {
        self.inner.shared.closed.load(Ordering::SeqCst) || self.inner.outbox.is_closed()
    }

    /// Sends an `AppRequest` to `chain_id` and waits until `deadline` for its `AppResponse`
    /// (returned) or `AppError`.
    pub async fn app_request(
        &self,
        chain_id: Id,
        app_bytes: Vec<u8>,
        deadline: Instant,
    ) -> Result<Vec<u8>, P2pError> {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(P2pError::Timeout);
        }
        let request_id = self.inner.next_request_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let chain = chain_id.as_bytes().to_vec();
        self.inner
            .shared
            .pending
            .lock()
            .map_err(|_| P2pError::Closed)?
            .insert(request_id, (chain.clone(), tx));
        let forget = || {
            if let Ok(mut p) = self.inner.shared.pending.lock() {
                p.remove(&request_id);
            }
        };
        if self.is_closed() {
            forget();
            return Err(P2pError::Closed);
        }
        let request = AppRequest {
            chain_id: chain,
            request_id,
            deadline: u64::try_from(remaining.as_nanos()).unwrap_or(u64::MAX),
            app_bytes,
        };
        let sent =
            tokio::time::timeout_at(deadline, self.inner.outbox.send(Kind::AppRequest(request)))
                .await;
        match sent {
            Ok(Ok(())) => {}
            Ok(Err(_)) => {
                forget();
                return Err(P2pError::Closed);
            }
            Err(_) => {
                forget();
                return Err(P2pError::Timeout);
            }
        }
        match tokio::time::timeout_at(deadline, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(P2pError::Closed),
            Err(_) => {
                forget();
                Err(P2pError::Timeout)
            }
        }
    }

    /// Asks the peer to sign the unsigned Warp `message` (ACP-118, handler 2, sent to the
    /// message's source `chain_id`); returns the compressed 96-byte BLS signature, unverified.
    /// An empty signature is [`P2pError::NotSeen`].
    pub async fn request_signature(
        &self,
        chain_id: Id,
        message: &[u8],
        justification: &[u8],
        deadline: Instant,
    ) -> Result<Vec<u8>, P2pError> {
        let body = prost::Message::encode_to_vec(&SignatureRequest {
            message: message.to_vec(),
            justification: justification.to_vec(),
        });
        let app_bytes = prefix_handler(SIGNATURE_REQUEST_HANDLER_ID, &body);
        let answer = self.app_request(chain_id, app_bytes, deadline).await?;
        let response: SignatureResponse = prost::Message::decode(answer.as_slice())
            .map_err(|e| P2pError::Malformed(e.to_string()))?;
        match response.signature.len() {
            0 => Err(P2pError::NotSeen),
            BLS_SIGNATURE_LEN => Ok(response.signature),
            n => Err(P2pError::Malformed(format!("signature of {n} bytes"))),
        }
    }
}

async fn read_loop<S: AsyncRead>(mut rd: ReadHalf<S>, outbox: Outbox, shared: Arc<Shared>) {
    loop {
        let frame = match read_frame(&mut rd).await {
            Ok(f) => f,
            Err(e) => {
                tracing::debug!(error = %e, "p2p peer connection closed");
                break;
            }
        };
        let Ok(msg) = proto::decode_message(&frame) else {
            continue;
        };
        match msg.kind {
            Some(Kind::Ping(_)) if outbox.send(Kind::Pong(Pong {})).await.is_err() => break,
            Some(Kind::AppResponse(r)) => {
                shared.complete(&r.chain_id, r.request_id, Ok(r.app_bytes))
            }
            Some(Kind::AppError(e)) => shared.complete(
                &e.chain_id,
                e.request_id,
                Err(P2pError::App {
                    code: e.error_code,
                    message: e.error_message,
                }),
            ),
            _ => {}
        }
    }
    shared.close();
}
