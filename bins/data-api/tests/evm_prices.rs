//! Prices on the EVM endpoints under both `--compat` profiles, with a price source embedded (the
//! binary has none, so this builds the server in-process): the spec's `Price.value` is a decimal
//! string, the Glacier OpenAPI schema `Money`'s (which the official SDK enforces) a JSON number
//! (`shared/reference/spec-vs-real-services.md`). Regression: every price was a number, whatever
//! the profile.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use snowline_chain_evm::metadata::MetadataQueue;
use snowline_chain_evm::pages::EvmPages;
use snowline_chain_evm::{EvmSourceConfig, SyncStatus};
use snowline_chain_registry::ChainRegistry;
use snowline_data_api::evm::PriceSource;
use snowline_evm_devnet::{C_CHAIN_ID, Recording, recording_path};
use snowline_query::TokenSecret;
use snowline_query::params::Currency;
use snowline_rest_api::{App, Profile, RateLimits, Router, Server, ServerConfig};
use snowline_store::{Schema, Store};
use snowline_types::evm::Address;

/// 12.5 a native token, 0.25 an ERC-20 token, in any currency, at any time.
struct Fixed;

impl PriceSource for Fixed {
    fn price(&self, _: u64, token: Option<Address>, _: Currency, _: Option<u64>) -> Option<f64> {
        Some(if token.is_none() { 12.5 } else { 0.25 })
    }
}

/// The C-Chain recording indexed into a store of its own.
async fn indexed(dir: &std::path::Path) -> Arc<Store> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let recording = Arc::new(Recording::load(&recording_path(C_CHAIN_ID)).unwrap());
    tokio::spawn(snowline_evm_devnet::serve(listener, recording));
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .fold(Schema::new(1), Schema::with_spec);
    let store = Arc::new(Store::open(dir, &schema).unwrap());
    let source = EvmSourceConfig::parse_flag(&format!("{C_CHAIN_ID}={url}")).unwrap();
    let status = Arc::new(SyncStatus::default());
    let (s, st) = (Arc::clone(&store), Arc::clone(&status));
    tokio::spawn(async move {
        snowline_chain_evm::follow(s, &source, Duration::from_millis(10), st).await
    });
    let end = Instant::now() + Duration::from_secs(60);
    while status.snapshot().caught_up_at.is_none() {
        assert!(Instant::now() < end, "never caught up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    store
}

/// The EVM endpoints over `store` with [`Fixed`] prices, under `profile`; their address.
async fn serve(store: &Arc<Store>, profile: Profile) -> String {
    let router = snowline_data_api::evm::routes(
        Router::new(),
        Arc::new(EvmPages::new(Arc::clone(store))),
        ChainRegistry::builtin().unwrap(),
        Arc::new(Fixed),
        TokenSecret::generate().unwrap(),
        None,
        Default::default(),
        Arc::new(MetadataQueue::new(
            Arc::clone(store),
            Duration::from_secs(3600),
        )),
    );
    let app = App::new(router)
        .profile(profile)
        .rate_limits(RateLimits::disabled());
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), app, ServerConfig::default())
        .await
        .unwrap();
    let addr = server.local_addr().unwrap().to_string();
    tokio::spawn(server.run_until(std::future::pending()));
    addr
}

async fn get(addr: &str, path: &str) -> Value {
    let (a, p) = (addr.to_owned(), path.to_owned());
    let r = tokio::task::spawn_blocking(move || common::request(&a, "GET", &p, &[], ""))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_are_decimal_strings_under_spec_and_numbers_under_glacier() {
    let dir = tempfile::tempdir().unwrap();
    let store = indexed(dir.path()).await;
    let c = format!("/v1/chains/{C_CHAIN_ID}");
    let holder = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    // `NoSupply` emits an ERC-20 `Transfer` from its constructor: its deployment holds one.
    let no_supply = "0x0165878A594ca255338adfa4d48449f69242Eb8F";
    for (profile, price, token_price) in [
        (Profile::Spec, json!("12.5"), json!("0.25")),
        (Profile::Glacier, json!(12.5), json!(0.25)),
    ] {
        let addr = serve(&store, profile).await;
        let native = get(
            &addr,
            &format!("{c}/addresses/{holder}/balances:getNative?currency=eur"),
        )
        .await;
        let b = &native["nativeTokenBalance"];
        assert_eq!(b["price"], json!({"currencyCode": "eur", "value": price}));
        // The balance's worth: wei / 10^18 × 12.5, in the price's shape.
        let wei: f64 = b["balance"].as_str().unwrap().parse().unwrap();
        let worth = &b["balanceValue"]["value"];
        let worth = worth
            .as_f64()
            .or_else(|| worth.as_str().and_then(|s| s.parse().ok()))
            .unwrap();
        assert!((worth - wei / 1e18 * 12.5).abs() < 1e-6 * worth, "{b}");
        assert_eq!(
            b["balanceValue"]["value"].is_string(),
            profile == Profile::Spec
        );
        let listed = get(
            &addr,
            &format!("{c}/addresses/{holder}/balances:listErc721"),
        )
        .await;
        assert_eq!(
            listed["nativeTokenBalance"]["price"],
            json!({"currencyCode": "usd", "value": price})
        );
        // ERC-20 balances: each token priced, its balance's worth in the price's shape, the
        // native balance priced in the same currency.
        let erc20 = get(
            &addr,
            &format!("{c}/addresses/{holder}/balances:listErc20?currency=eur"),
        )
        .await;
        assert_eq!(erc20["nativeTokenBalance"]["price"]["currencyCode"], "eur");
        let tokens = erc20["erc20TokenBalances"].as_array().unwrap();
        assert!(!tokens.is_empty(), "{erc20}");
        for t in tokens {
            assert_eq!(
                t["price"],
                json!({"currencyCode": "eur", "value": token_price})
            );
            let units: f64 = t["balance"].as_str().unwrap().parse().unwrap();
            let decimals = i32::try_from(t["decimals"].as_i64().unwrap()).unwrap();
            let worth = &t["balanceValue"]["value"];
            assert_eq!(worth.is_string(), profile == Profile::Spec, "{t}");
            let worth = worth
                .as_f64()
                .or_else(|| worth.as_str().and_then(|s| s.parse().ok()))
                .unwrap();
            let want = units / 10f64.powi(decimals) * 0.25;
            assert!((worth - want).abs() <= 1e-9 * want.abs(), "{t}");
        }
        let d = get(
            &addr,
            &format!("{c}/contracts/{no_supply}/transactions:getDeployment"),
        )
        .await;
        let details = &d["networkTokenDetails"];
        assert_eq!(details["currentPrice"]["value"], price);
        assert_eq!(details["historicalPrice"]["value"], price);
        assert_eq!(
            d["erc20Transfers"][0]["erc20Token"]["price"],
            json!({"currencyCode": "usd", "value": token_price}),
            "{d}"
        );
    }
}
