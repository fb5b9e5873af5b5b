//! An in-process upstream node for the data-api to follow: a devnet loaded into a store the way
//! `node-rpc` loads it (container index + X-Chain state), served with `index.*` and `avm.*`,
//! and, when it serves the whole history, `platform.getCurrentValidators` with the devnet's
//! validators at its tip.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use snowline_chain_x::state::XChainState;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_jsonrpc::{Router, Server, ServerConfig};
use snowline_node_index::{BatchLimits, IndexWriter, PreparedLine, ingest_limited};
use snowline_node_rpc::Compat;
use snowline_node_rpc::avm::{AvmConfig, avm_routes};
use snowline_store::{Schema, Store};
use snowline_types::ShortId;
use snowline_types::avm::XGenesisState;
use snowline_types::container::{ContainerLine, ContainerRecord};
use snowline_types::network::NetworkInfo;

/// A running upstream; stops when dropped.
pub struct Upstream {
    pub url: String,
    /// The served store (containers can be appended while it serves).
    pub store: Arc<Store>,
    pub addrs: Vec<ShortId>,
    pub records: Vec<ContainerRecord>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    _dir: tempfile::TempDir,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The devnet of `seed` (`txs` = 0: the small preset) and its X-Chain genesis.
pub fn devnet(seed: u64, txs: u64) -> (Devnet, XGenesisState) {
    let cfg = if txs == 0 {
        DevnetConfig::small()
    } else {
        DevnetConfig::large(txs)
    };
    let devnet = Devnet::generate(cfg.with_seed(seed)).unwrap();
    let genesis = devnet.x_genesis();
    (devnet, genesis)
}

/// Loads the devnet of `seed` and serves it on 127.0.0.1:0 (as `node-rpc serve` would).
pub fn start(seed: u64, txs: u64) -> Upstream {
    start_partial(seed, txs, usize::MAX)
}

/// Appends `records` to the served index (with the X-Chain state), as a node accepting them,
/// in one write batch: a follower sees none or all of them, never a tip halfway through (a test
/// that waits for "caught up" after an append then means caught up with all of it).
pub fn append(store: &Store, records: &[ContainerRecord]) {
    let mut state = XChainState::new(NetworkInfo::LOCAL.x_chain_id, NetworkInfo::LOCAL.p_chain_id);
    let mut writer = IndexWriter::open(store).unwrap();
    let src = records.iter().map(|r| {
        Ok(PreparedLine::new(ContainerLine {
            record: r.clone(),
            index: None,
        }))
    });
    // No bound on containers or bytes: the whole append is one batch.
    let whole = BatchLimits {
        containers: usize::MAX,
        bytes: usize::MAX,
    };
    ingest_limited(store, &mut writer, src, whole, &mut state, |_| {}).unwrap();
}

/// Like [`start`], serving only the first `keep` containers; `records` holds them all.
pub fn start_partial(seed: u64, txs: u64, keep: usize) -> Upstream {
    start_at(seed, txs, keep, "127.0.0.1:0")
}

/// Like [`start_partial`], listening on `addr` (to come back where a stopped upstream was).
pub fn start_at(seed: u64, txs: u64, keep: usize, addr: &str) -> Upstream {
    let listen: std::net::SocketAddr = addr.parse().unwrap();
    let (mut devnet, genesis) = devnet(seed, txs);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    // The validators are the tip's: served only with the whole history.
    let validators = (keep >= records.len()).then(|| {
        snowline_node_rpc::platform::CurrentValidators::new(devnet.current_validators().validators)
    });
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::state::tables::tables())
        .fold(Schema::new(1), |s, t| s.with_spec(t));
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema).unwrap();
    XChainState::new(NetworkInfo::LOCAL.x_chain_id, NetworkInfo::LOCAL.p_chain_id)
        .apply_genesis(&store, &genesis)
        .unwrap();
    append(&store, &records[..keep.min(records.len())]);
    let store = Arc::new(store);
    let served = Arc::clone(&store);
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let router = snowline_node_rpc::index_routes(
                Router::new(),
                &snowline_node_index::ContainerIndex::new(Arc::clone(&store)),
                Compat::Spec,
            );
            let router = avm_routes(
                router,
                snowline_chain_x::state::XStateIndex::new(store),
                AvmConfig::new(NetworkInfo::LOCAL, Compat::Spec),
            )
            .unwrap();
            let router = match validators {
                Some(v) => {
                    snowline_node_rpc::platform::platform_routes(router, &NetworkInfo::LOCAL, v)
                }
                None => router,
            };
            let server = Server::bind(listen, router, ServerConfig::default())
                .await
                .unwrap();
            addr_tx.send(server.local_addr().unwrap()).unwrap();
            server
                .run_until(async {
                    let _ = stop_rx.await;
                })
                .await
                .unwrap();
        });
    });
    let addr = addr_rx.recv().unwrap();
    Upstream {
        url: format!("http://{addr}"),
        store: served,
        addrs: devnet.keys().addrs().to_vec(),
        records,
        stop: Some(stop_tx),
        _dir: dir,
        thread: Some(thread),
    }
}

impl Upstream {
    /// `avm.*` call on `/ext/bc/X`; returns `result`.
    pub fn avm(&self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
                .to_string();
        let addr = self.url.trim_start_matches("http://");
        let r = super::request(addr, "POST", "/ext/bc/X", &[], &body);
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert!(v.get("error").is_none(), "{method}: {v}");
        v["result"].clone()
    }

    /// `platform.*` call on `/ext/bc/P`; returns `result`.
    pub fn platform(&self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
                .to_string();
        let addr = self.url.trim_start_matches("http://");
        let r = super::request(addr, "POST", "/ext/bc/P", &[], &body);
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert!(v.get("error").is_none(), "{method}: {v}");
        v["result"].clone()
    }

    /// `platform.getCurrentValidators` of the primary network, when this upstream serves it.
    pub fn current_validators(&self) -> Option<serde_json::Value> {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 1,
            "method": "platform.getCurrentValidators", "params": {}})
        .to_string();
        let addr = self.url.trim_start_matches("http://");
        let r = super::request(addr, "POST", "/ext/bc/P", &[], &body);
        if r.status != 200 {
            return None;
        }
        let v = r.json();
        v.get("error").is_none().then(|| v["result"].clone())
    }
}
