//! The HTTP side: the router of every endpoint, the server, and the example calls printed at start.

use std::net::SocketAddr;
use std::sync::Arc;

use snowline_jsonrpc::{Gate, Refusals, Router, Server, ServerConfig};
use snowline_node_index::{FollowStatus, IndexReader, follow_metrics_text};
use snowline_node_rpc::avm::{AvmConfig, avm_routes};
use snowline_node_rpc::platform::{CurrentValidators, platform_routes};
use snowline_node_rpc::{Compat, follow_routes, index_routes};
use snowline_store::Store;
use snowline_types::NetworkInfo;

use crate::cli::Listen;
use snowline_types::container::IndexPath;

/// Builds the router: `avm.*` on `/ext/bc/X`, `/ext/bc/avm` and `/ext/bc/<X-Chain id>`, `index.*`
/// on the five index paths, `platform.getCurrentValidators` on `/ext/bc/P` when `validators`
/// has a source (the devnet), and `/healthz`.
pub fn router(
    store: Arc<Store>,
    network: NetworkInfo,
    compat: Compat,
    validators: Option<Arc<CurrentValidators>>,
    gate: Arc<dyn Gate>,
) -> Result<Router, String> {
    let router = index_routes(
        Router::new(),
        &snowline_node_index::ContainerIndex::new(Arc::clone(&store)),
        compat,
    );
    let mut router = avm_routes(
        router,
        snowline_chain_x::state::XStateIndex::new(store),
        AvmConfig::new(network.clone(), compat),
    )
    .map_err(|e| format!("avm service: {}", e.message))?;
    if let Some(v) = validators {
        router = platform_routes(router, &network, v);
    }
    // The spec's profile answers bad input with JSON-RPC error objects at every layer;
    // avalanchego's writes its HTTP-level refusals as Go's plain text.
    let refusals = match compat {
        Compat::Spec => Refusals::JsonRpc,
        Compat::Avalanchego => Refusals::GoText,
    };
    Ok(router
        .refusals(refusals)
        .gate(gate)
        .http("/healthz", |_req| async {
            snowline_jsonrpc::text_response(snowline_jsonrpc::hyper::StatusCode::OK, "ok\n")
        }))
}

/// What a following server shows on `/readyz` and `/metrics`.
pub struct Following {
    /// The follower's status.
    pub status: Arc<FollowStatus>,
    /// Containers behind the upstream still counted as ready (a page).
    pub tolerance: u64,
}

/// What the devnet adds to a server: an address it funds (for the example calls), whether it
/// is live (containers per second) and its current validators.
#[derive(Default)]
pub struct DevnetServed<'a> {
    /// An address the devnet funds.
    pub example_address: Option<&'a str>,
    /// Containers per second, when live.
    pub live_rate: Option<f64>,
    /// The primary network's current validators, for `platform.getCurrentValidators`.
    pub validators: Option<Arc<CurrentValidators>>,
}

/// Binds `listen` and serves until SIGINT/SIGTERM, after printing where, whether the devnet is
/// live and a few example calls; with `following`, also `/readyz` and `/metrics`. Every call
/// passes `gate` (API keys, metering).
pub async fn serve(
    store: Arc<Store>,
    network: NetworkInfo,
    listen: Listen,
    devnet: DevnetServed<'_>,
    following: Option<Following>,
    gate: Arc<dyn Gate>,
) -> Result<(), String> {
    let DevnetServed {
        example_address,
        live_rate,
        validators,
    } = devnet;
    let Listen {
        listen,
        compat,
        head,
    } = listen;
    let mut router = router(
        Arc::clone(&store),
        network.clone(),
        compat,
        validators,
        gate,
    )?;
    if let Some(f) = following {
        let (status, store) = (Arc::clone(&f.status), Arc::clone(&store));
        router = follow_routes(router, f.status, f.tolerance, move || {
            follow_metrics_text(&status, Some(&store))
        });
    }
    let config = ServerConfig {
        max_header_bytes: head.get(),
        ..ServerConfig::default()
    };
    let server = Server::bind(listen, router, config)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = server.local_addr().map_err(|e| e.to_string())?;
    println!(
        "node-rpc: listening on http://{addr} (network {}, compat {compat})",
        network.name
    );
    if let Some(rate) = live_rate {
        println!(
            "node-rpc: live: accepting new X and P blocks after the devnet's history, {rate} \
             containers/s (watch index.getLastAccepted on /ext/index/X/block and /ext/index/P/block)"
        );
    }
    print_examples(&store, addr, example_address);
    server
        .run_until(snowline_jsonrpc::shutdown_signal())
        .await
        .map_err(|e| e.to_string())?;
    println!("node-rpc: stopped");
    Ok(())
}

/// Prints curl commands that work against what the store holds.
fn print_examples(store: &Store, addr: SocketAddr, address: Option<&str>) {
    let call = |path: &str, method: &str, params: &str| {
        println!(
            "  curl -s -X POST -H 'content-type: application/json' http://{addr}{path} \\\n    \
             -d '{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"{method}\",\"params\":{params}}}'"
        );
    };
    println!("example calls:");
    call("/ext/bc/X", "avm.getHeight", "{}");
    call(
        "/ext/bc/X",
        "avm.getAssetDescription",
        r#"{"assetID":"AVAX"}"#,
    );
    if let Some(a) = address {
        call(
            "/ext/bc/X",
            "avm.getAllBalances",
            &format!(r#"{{"address":"{a}"}}"#),
        );
        call(
            "/ext/bc/X",
            "avm.getUTXOs",
            &format!(r#"{{"addresses":["{a}"],"limit":5}}"#),
        );
    }
    for path in [IndexPath::XTx, IndexPath::XBlock, IndexPath::PBlock] {
        if let Ok(Some(last)) = IndexReader::new(store, path).last_accepted() {
            if path == IndexPath::XTx {
                call(
                    "/ext/bc/X",
                    "avm.getTx",
                    &format!(r#"{{"txID":"{}","encoding":"json"}}"#, last.id),
                );
            }
            call(
                &format!("/ext/index/{path}"),
                "index.getLastAccepted",
                r#"{"encoding":"hex"}"#,
            );
        }
    }
}
