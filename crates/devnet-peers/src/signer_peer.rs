//! A devnet validator peer: accepts P2P connections with a devnet node's staking identity, runs
//! the handshake, and answers ACP-118 signature requests by BLS-signing the unsigned Warp
//! message bytes, or misbehaving on purpose (see [`SignerBehaviour`]).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use blst::min_pk::SecretKey;
use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_types::NodeId;
use snowline_types::hashing::sha256;
use snowline_types::warp::UnsignedMessage;
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use snowline_p2p::conn::{AbortOnDrop, Outbox, split};
use snowline_p2p::frame::read_frame;
use snowline_p2p::handshake::{HandshakeConfig, complete, peer_leaf};
use snowline_p2p::proto::{
    self, AppError, AppRequest, AppResponse, Kind, Pong, SIGNATURE_REQUEST_HANDLER_ID,
    SignatureRequest, SignatureResponse, split_handler,
};
use snowline_p2p::tls::server_config;
use snowline_p2p::{HandshakeError, P2pError, StakingIdentity};

/// The p2p SDK's generic failure code (`p2p.ErrUnexpected`).
pub const ERR_UNEXPECTED: i32 = -1;
/// The p2p SDK's code for an unknown handler id (`p2p.ErrUnregisteredHandler`).
pub const ERR_UNREGISTERED_HANDLER: i32 = -2;
/// The p2p SDK's code for a peer over its rate limit (`p2p.ErrThrottled`).
pub const ERR_THROTTLED: i32 = -4;
/// Requests one connection may have in flight; past it the signer answers [`ERR_THROTTLED`].
pub const MAX_IN_FLIGHT: usize = 64;
/// The message of a [`SignerBehaviour::Refuses`] answer.
pub const REFUSAL_MESSAGE: &str = "devnet signer refuses to sign";

/// How a devnet signer peer answers signature requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignerBehaviour {
    /// Signs with its own BLS key.
    #[default]
    Normal,
    /// Signs with its own key after waiting this long.
    Slow(Duration),
    /// Signs with a BLS key that is not the node's.
    WrongSigner,
    /// Answers `AppError` [`ERR_UNEXPECTED`] with [`REFUSAL_MESSAGE`].
    Refuses,
    /// Answers an empty signature (the message was not seen).
    EmptySignature,
}

/// A running signer peer; dropping it stops accepting and closes its connections.
#[derive(Debug)]
pub struct SignerPeer {
    addr: SocketAddr,
    node_id: NodeId,
    bls_public_key: [u8; 48],
    handshakes: Arc<AtomicU64>,
    _accept: AbortOnDrop,
}

impl SignerPeer {
    /// Serves `node`'s identity on `listener` for `network_id`.
    pub fn start(
        node: &DevnetNode,
        network_id: u32,
        behaviour: SignerBehaviour,
        listener: TcpListener,
    ) -> Result<Self, P2pError> {
        let identity = crate::devnet_identity(node)?;
        let addr = listener.local_addr()?;
        let signer = Arc::new(Signer {
            own_key: bls_key(node)?,
            wrong_key: wrong_key(node)?,
            behaviour,
            network_id,
        });
        let acceptor = TlsAcceptor::from(server_config(&identity)?);
        let handshakes = Arc::new(AtomicU64::new(0));
        let ctx = Arc::new(ServeCtx {
            identity,
            handshake: HandshakeConfig::new(network_id),
            acceptor,
            addr,
            signer,
            handshakes: handshakes.clone(),
        });
        let accept = tokio::spawn(accept_loop(listener, ctx));
        Ok(Self {
            addr,
            node_id: node.node_id,
            bls_public_key: node.bls_public_key,
            handshakes,
            _accept: AbortOnDrop(accept),
        })
    }

    /// Binds `127.0.0.1:0` and serves there.
    pub async fn bind_local(
        node: &DevnetNode,
        network_id: u32,
        behaviour: SignerBehaviour,
    ) -> Result<Self, P2pError> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        Self::start(node, network_id, behaviour, listener)
    }

    /// The listening address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The node id it presents.
    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The node's compressed BLS public key (what a correct signature verifies against).
    pub fn bls_public_key(&self) -> [u8; 48] {
        self.bls_public_key
    }

    /// Connections that completed the handshake so far.
    pub fn handshakes_completed(&self) -> u64 {
        self.handshakes.load(Ordering::SeqCst)
    }
}

fn bls_key(node: &DevnetNode) -> Result<SecretKey, P2pError> {
    SecretKey::from_bytes(&node.bls_secret_bytes())
        .map_err(|_| P2pError::Identity("invalid BLS secret key"))
}

fn wrong_key(node: &DevnetNode) -> Result<SecretKey, P2pError> {
    let mut ikm = b"snowline/p2p/wrong-signer".to_vec();
    ikm.extend_from_slice(node.node_id.as_bytes());
    SecretKey::key_gen(&sha256(&ikm), &[]).map_err(|_| P2pError::Identity("BLS key_gen failed"))
}

struct ServeCtx {
    identity: StakingIdentity,
    handshake: HandshakeConfig,
    acceptor: TlsAcceptor,
    addr: SocketAddr,
    signer: Arc<Signer>,
    handshakes: Arc<AtomicU64>,
}

async fn accept_loop(listener: TcpListener, ctx: Arc<ServeCtx>) {
    let mut conns = tokio::task::JoinSet::new();
    loop {
        match listener.accept().await {
            Ok((tcp, remote)) => {
                let ctx = ctx.clone();
                conns.spawn(async move {
                    if let Err(e) = serve(tcp, ctx).await {
                        tracing::debug!(%remote, error = %e, "signer peer connection ended");
                    }
                });
            }
            Err(e) => {
                tracing::debug!(error = %e, "signer peer accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        while conns.try_join_next().is_some() {}
    }
}

async fn serve(tcp: TcpStream, ctx: Arc<ServeCtx>) -> Result<(), P2pError> {
    tcp.set_nodelay(true)?;
    let deadline = Instant::now() + ctx.handshake.timeout;
    let mut tls = tokio::time::timeout_at(deadline, ctx.acceptor.accept(tcp))
        .await
        .map_err(|_| HandshakeError::Timeout)?
        .map_err(|e| HandshakeError::Tls(e.to_string()))?;
    let cert = peer_leaf(tls.get_ref().1)?;
    complete(
        &mut tls,
        &cert,
        &ctx.identity,
        ctx.addr,
        &ctx.handshake,
        deadline,
    )
    .await?;
    ctx.handshakes.fetch_add(1, Ordering::SeqCst);
    let (mut rd, outbox, writer) = split(tls);
    let _writer = AbortOnDrop(writer);
    let mut handlers = tokio::task::JoinSet::new();
    loop {
        let frame = read_frame(&mut rd).await?;
        let Ok(msg) = proto::decode_message(&frame) else {
            continue;
        };
        match msg.kind {
            Some(Kind::Ping(_)) => {
                outbox
                    .send(Kind::Pong(Pong {}))
                    .await
                    .map_err(|_| P2pError::Closed)?;
            }
            Some(Kind::AppRequest(req)) if handlers.len() >= MAX_IN_FLIGHT => {
                let throttled = Kind::AppError(AppError {
                    chain_id: req.chain_id,
                    request_id: req.request_id,
                    error_code: ERR_THROTTLED,
                    error_message: "throttled".to_owned(),
                });
                outbox.send(throttled).await.map_err(|_| P2pError::Closed)?;
            }
            Some(Kind::AppRequest(req)) => {
                let signer = ctx.signer.clone();
                let outbox = outbox.clone();
                handlers.spawn(async move { signer.answer(req, outbox).await });
            }
            _ => {}
        }
        while handlers.try_join_next().is_some() {}
    }
}

struct Signer {
    own_key: SecretKey,
    wrong_key: SecretKey,
    behaviour: SignerBehaviour,
    network_id: u32,
}

impl Signer {
    async fn answer(&self, req: AppRequest, outbox: Outbox) {
        let reply = match self.sign(&req).await {
            Ok(app_bytes) => Kind::AppResponse(AppResponse {
                chain_id: req.chain_id,
                request_id: req.request_id,
                app_bytes,
            }),
            Err((code, message)) => Kind::AppError(AppError {
                chain_id: req.chain_id,
                request_id: req.request_id,
                error_code: code,
                error_message: message,
            }),
        };
        let _ = outbox.send(reply).await;
    }

    /// The `SignatureResponse` bytes, or an app error's code and message.
    async fn sign(&self, req: &AppRequest) -> Result<Vec<u8>, (i32, String)> {
        let (_, body) = split_handler(&req.app_bytes)
            .filter(|(id, _)| *id == SIGNATURE_REQUEST_HANDLER_ID)
            .ok_or((ERR_UNREGISTERED_HANDLER, "unregistered handler".to_owned()))?;
        let request: SignatureRequest = prost::Message::decode(body)
            .map_err(|e| (ERR_UNEXPECTED, format!("failed to unmarshal request: {e}")))?;
        let msg = UnsignedMessage::parse(&request.message).map_err(|e| {
            (
                ERR_UNEXPECTED,
                format!("failed to parse warp unsigned message: {e}"),
            )
        })?;
        if msg.network_id != self.network_id
            || msg.source_chain_id.as_bytes().as_slice() != req.chain_id
        {
            return Err((
                ERR_UNEXPECTED,
                "failed to sign message: wrong network or source chain".to_owned(),
            ));
        }
        let signature = match self.behaviour {
            SignerBehaviour::Normal => self
                .own_key
                .sign(&request.message, BLS_SIG_DST, &[])
                .compress()
                .to_vec(),
            SignerBehaviour::Slow(delay) => {
                tokio::time::sleep(delay).await;
                self.own_key
                    .sign(&request.message, BLS_SIG_DST, &[])
                    .compress()
                    .to_vec()
            }
            SignerBehaviour::WrongSigner => self
                .wrong_key
                .sign(&request.message, BLS_SIG_DST, &[])
                .compress()
                .to_vec(),
            SignerBehaviour::Refuses => return Err((ERR_UNEXPECTED, REFUSAL_MESSAGE.to_owned())),
            SignerBehaviour::EmptySignature => Vec::new(),
        };
        Ok(prost::Message::encode_to_vec(&SignatureResponse {
            signature,
        }))
    }
}
