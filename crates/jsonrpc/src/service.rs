//! Services (`avm`, `index`, ...) and their methods, grouped into an [`Endpoint`]
//! that one or more URL paths serve.

use crate::error::RpcError;
use crate::gojson::text::go_quote;
use crate::params::Params;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

/// What a handler sees of the HTTP request: headers, path, peer, and the method name.
#[derive(Debug)]
pub struct RequestContext {
    /// The HTTP request head (method, URI, headers, extensions).
    pub parts: hyper::http::request::Parts,
    /// The peer address, when known.
    pub remote_addr: Option<SocketAddr>,
    /// The JSON-RPC method as sent (e.g. `avm.getTx`).
    pub method: String,
}

/// A method result already serialized as compact JSON (serialized once, straight
/// into the response).
///
/// A reply built by [`Reply::json`] or [`Reply::write_json`] keeps room before its JSON for the
/// response's opening bytes: the response is then completed in the same buffer instead of being
/// copied into a new one (a `getContainerRange` answer is tens of MB).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// `room` placeholder bytes, then the JSON.
    pub(crate) buf: Vec<u8>,
    /// Bytes kept free before the JSON: [`RESULT_HEAD`]'s length, or 0.
    pub(crate) room: usize,
}

/// How a result response starts, before the result's JSON.
pub(crate) const RESULT_HEAD: &[u8] = b"{\"jsonrpc\":\"2.0\",\"result\":";

impl Reply {
    /// Serializes `value` with serde_json; a failure is a -32000 error.
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Self, RpcError> {
        Self::write_json(128, |out| {
            serde_json::to_writer(out, value).map_err(RpcError::server)
        })
    }

    /// A reply whose JSON `write` appends to the buffer it is given (at least `capacity` bytes
    /// long; size it to the whole answer to avoid regrowing). `write` must append exactly one
    /// valid, compact JSON value.
    pub fn write_json<E>(
        capacity: usize,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<Self, E> {
        let mut buf = Vec::with_capacity(RESULT_HEAD.len() + capacity + RESULT_TAIL_ROOM);
        buf.extend_from_slice(RESULT_HEAD);
        write(&mut buf)?;
        Ok(Self {
            buf,
            room: RESULT_HEAD.len(),
        })
    }

    /// Wraps JSON text the caller vouches for (must be one valid, compact JSON value).
    pub fn from_raw_json(json: Vec<u8>) -> Self {
        Self { buf: json, room: 0 }
    }

    /// The serialized JSON.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(self.room..).unwrap_or_default()
    }
}

/// Spare capacity for what follows the result (`,"id":` and a short id).
const RESULT_TAIL_ROOM: usize = 32;

/// A boxed future returned by async handlers.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type SyncFn = dyn Fn(&RequestContext, &Params) -> Result<Reply, RpcError> + Send + Sync;
type AsyncFn =
    dyn Fn(Arc<RequestContext>, Params) -> BoxFuture<Result<Reply, RpcError>> + Send + Sync;

/// How a method runs.
#[derive(Clone)]
pub(crate) enum Handler {
    /// Inline on the connection's task: for fast synchronous work (RocksDB point reads).
    Inline(Arc<SyncFn>),
    /// On tokio's blocking pool: for synchronous work that may take a while.
    Blocking(Arc<SyncFn>),
    /// An async handler.
    Async(Arc<AsyncFn>),
}

impl Handler {
    pub(crate) async fn call(
        &self,
        ctx: Arc<RequestContext>,
        params: Params,
    ) -> Result<Reply, RpcError> {
        match self {
            Self::Inline(f) => f(&ctx, &params),
            Self::Blocking(f) => {
                let f = Arc::clone(f);
                tokio::task::spawn_blocking(move || f(&ctx, &params))
                    .await
                    .unwrap_or_else(|e| Err(RpcError::server(format!("handler failed: {e}"))))
            }
            Self::Async(f) => f(ctx, params).await,
        }
    }
}

fn typed<A, R, F>(f: F) -> Arc<SyncFn>
where
    A: DeserializeOwned + Default,
    R: Serialize,
    F: Fn(&RequestContext, A) -> Result<R, RpcError> + Send + Sync + 'static,
{
    Arc::new(move |ctx, params| {
        let args = params.parse::<A>()?;
        Reply::json(&f(ctx, args)?)
    })
}

/// Upper-cases the first char as Go's `unicode.ToUpper` would (single-char mappings only).
pub(crate) fn upper_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => {
            let mut up = c.to_uppercase();
            let first = match (up.next(), up.next()) {
                (Some(u), None) => u,
                _ => c,
            };
            let mut s = String::with_capacity(name.len());
            s.push(first);
            s.push_str(chars.as_str());
            s
        }
        None => String::new(),
    }
}

/// A named group of methods, e.g. `avm` with `getTx`, `getHeight`, ...
///
/// Methods are registered under their wire name (`getTx`); lookup follows
/// avalanchego (the name's first letter is upper-cased before lookup).
#[derive(Clone)]
pub struct Service {
    name: String,
    methods: HashMap<String, Handler>,
}

impl Service {
    /// An empty service named `name` (the part before the dot in method names).
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            methods: HashMap::new(),
        }
    }

    /// The service name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn add(mut self, method: &str, h: Handler) -> Self {
        self.methods.insert(upper_first(method), h);
        self
    }

    /// A typed synchronous method run inline: params decode into `A` (avalanchego's
    /// rules), the result `R` is serialized once. Keep it fast (no blocking I/O
    /// beyond a few RocksDB reads), as it runs on the connection's task.
    pub fn method<A, R, F>(self, name: &str, f: F) -> Self
    where
        A: DeserializeOwned + Default,
        R: Serialize,
        F: Fn(&RequestContext, A) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        self.add(name, Handler::Inline(typed(f)))
    }

    /// Like [`Service::method`] but run on tokio's blocking pool (for slow work).
    pub fn method_blocking<A, R, F>(self, name: &str, f: F) -> Self
    where
        A: DeserializeOwned + Default,
        R: Serialize,
        F: Fn(&RequestContext, A) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        self.add(name, Handler::Blocking(typed(f)))
    }

    /// A typed async method.
    pub fn method_async<A, R, F, Fut>(self, name: &str, f: F) -> Self
    where
        A: DeserializeOwned + Default + Send + 'static,
        R: Serialize,
        F: Fn(Arc<RequestContext>, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
    {
        let f = Arc::new(f);
        let h: Arc<AsyncFn> = Arc::new(move |ctx, params| {
            let f = Arc::clone(&f);
            Box::pin(async move {
                let args = params.parse::<A>()?;
                Reply::json(&f(ctx, args).await?)
            })
        });
        self.add(name, Handler::Async(h))
    }

    /// A synchronous method working on raw params and returning a prepared [`Reply`].
    pub fn raw_method<F>(self, name: &str, f: F) -> Self
    where
        F: Fn(&RequestContext, &Params) -> Result<Reply, RpcError> + Send + Sync + 'static,
    {
        self.add(name, Handler::Inline(Arc::new(f)))
    }
}

/// Why a method name does not resolve (messages of gorilla/rpc `map.go` and
/// avalanchego `utils/json/codec.go`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// The method part starts with an upper-case letter.
    #[error("method must start with a non-uppercase letter")]
    Uppercase,
    /// Not exactly one dot (after upper-casing).
    #[error("rpc: service/method request ill-formed: {}", go_quote(.0))]
    IllFormed(String),
    /// No such service.
    #[error("rpc: can't find service {}", go_quote(.0))]
    NoService(String),
    /// No such method in the service.
    #[error("rpc: can't find method {}", go_quote(.0))]
    NoMethod(String),
}

/// The services served at one path (gorilla's `rpc.Server`). Cheap to clone.
#[derive(Clone, Default)]
pub struct Endpoint {
    services: Arc<HashMap<String, Service>>,
}

impl Endpoint {
    /// An endpoint without services.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a service.
    pub fn service(self, svc: Service) -> Self {
        let mut map = Arc::unwrap_or_clone(self.services);
        map.insert(svc.name.clone(), svc);
        Self {
            services: Arc::new(map),
        }
    }

    /// Resolves a wire method name as avalanchego + gorilla do.
    pub(crate) fn lookup(&self, method: &str) -> Result<&Handler, LookupError> {
        let name = match method.split_once('.') {
            Some((class, func)) => match func.chars().next() {
                Some(c) if c == char::REPLACEMENT_CHARACTER => method.to_owned(),
                Some(c) if c.is_uppercase() => return Err(LookupError::Uppercase),
                Some(_) => format!("{class}.{}", upper_first(func)),
                None => method.to_owned(),
            },
            None => method.to_owned(),
        };
        let mut parts = name.split('.');
        let (Some(svc), Some(m), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(LookupError::IllFormed(name));
        };
        let Some(service) = self.services.get(svc) else {
            return Err(LookupError::NoService(name));
        };
        service.methods.get(m).ok_or(LookupError::NoMethod(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep() -> Endpoint {
        Endpoint::new().service(
            Service::new("avm").method("getTx", |_: &RequestContext, _: ()| Ok::<_, RpcError>(1)),
        )
    }

    fn err(m: &str) -> String {
        match ep().lookup(m) {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    // gorilla/rpc v2/map.go serviceMap.get and avalanchego utils/json/codec.go Method().
    #[test]
    fn lookup_messages() {
        assert_eq!(err("avm.getTx"), "ok");
        assert_eq!(
            err("avm.GetTx"),
            "method must start with a non-uppercase letter"
        );
        assert_eq!(err("avm.getFoo"), "rpc: can't find method \"avm.GetFoo\"");
        assert_eq!(err("foo.bar"), "rpc: can't find service \"foo.Bar\"");
        assert_eq!(err("x"), "rpc: service/method request ill-formed: \"x\"");
        assert_eq!(err(""), "rpc: service/method request ill-formed: \"\"");
        assert_eq!(
            err("a.b.c"),
            "rpc: service/method request ill-formed: \"a.B.c\""
        );
        assert_eq!(err("avm."), "rpc: can't find method \"avm.\"");
        assert_eq!(err("avm.éx"), "rpc: can't find method \"avm.Éx\"");
    }
}
