//! Benchmark hook: serves a trivial JSON-RPC method and, for comparison, a plain
//! hyper handler returning the same bytes.
//!
//! `cargo run --release -p snowline-jsonrpc --example hello -- 127.0.0.1:9650`
//! then POST `{"jsonrpc":"2.0","id":1,"method":"hello.world"}` to `/ext/bc/X`,
//! or anything to `/raw`. Stops on Ctrl-C / SIGTERM.

use snowline_jsonrpc::hyper::StatusCode;
use snowline_jsonrpc::{
    Endpoint, JSON_CONTENT_TYPE, RequestContext, Router, RpcError, Server, ServerConfig, Service,
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9650".to_owned());
    let hello = Service::new("hello").method("world", |_: &RequestContext, _: ()| {
        Ok::<_, RpcError>("hello")
    });
    let router = Router::new()
        .rpc("/ext/bc/X", Endpoint::new().service(hello))
        .http("/raw", |_req| async {
            let mut r = snowline_jsonrpc::text_response(StatusCode::OK, "");
            *r.body_mut() = "{\"jsonrpc\":\"2.0\",\"result\":\"hello\",\"id\":1}\n".into();
            r.headers_mut().insert(
                snowline_jsonrpc::hyper::header::CONTENT_TYPE,
                snowline_jsonrpc::hyper::header::HeaderValue::from_static(JSON_CONTENT_TYPE),
            );
            r
        });
    let server = Server::bind(addr.parse()?, router, ServerConfig::default()).await?;
    eprintln!("listening on {}", server.local_addr()?);
    server
        .run_until(snowline_jsonrpc::shutdown_signal())
        .await?;
    Ok(())
}
