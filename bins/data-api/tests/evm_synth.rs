//! A synthetic EVM chain (`snowline_evm_devnet::synth`) indexed end to end by the real
//! `data-api`, and what it answers compared with counts taken from the generator's own model of
//! each tx (its parties and the tokens it moved), which shares nothing with the indexer: a hot
//! and a cold account's native txs, and the transfers of the most used token of each standard.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::{all_pages, start};
use snowline_evm_devnet::synth::{Standard, Synth, SynthConfig};
use snowline_evm_devnet::{C_CHAIN_ID, spawn_synth};
use snowline_types::evm::Address;

fn config() -> SynthConfig {
    SynthConfig {
        seed: 11,
        chain_id: C_CHAIN_ID,
        blocks: 120,
        txs_per_block: 25,
        accounts: 5_000,
        erc20: 50,
        erc721: 20,
        erc1155: 10,
        ..SynthConfig::default()
    }
}

/// From the model: each account's native txs (sender, recipient or created contract), and
/// each token's transfers (one per id of an ERC-1155 batch).
fn model(synth: &Synth) -> (BTreeMap<Address, usize>, BTreeMap<Address, usize>) {
    let (mut native, mut transfers) = (BTreeMap::new(), BTreeMap::new());
    for n in 1..=synth.head() {
        for tx in synth.block(n).unwrap().txs {
            let mut parties: Vec<Address> = tx.native_parties().collect();
            parties.sort();
            parties.dedup();
            for a in parties {
                *native.entry(a).or_insert(0) += 1;
            }
            for m in &tx.moved {
                *transfers.entry(m.token).or_insert(0) += 1;
            }
        }
    }
    (native, transfers)
}

#[test]
fn synthetic_chain_indexed_as_its_model_counts() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let node = rt.block_on(spawn_synth(config())).unwrap();
    let synth = Synth::new(config());
    let (native, transfers) = model(&synth);

    let dir = tempfile::tempdir().unwrap();
    let evm = format!("{C_CHAIN_ID}={}", node.url);
    let api = start(
        &dir.path().join("data"),
        &["--evm", &evm, "--no-rate-limits"],
    );
    assert!(
        api.wait_until(120, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );

    // The hottest account, and a cold one: the first account past rank 100 in one to three txs.
    let hot = synth.account(0);
    let cold = (100..5_000)
        .map(|r| synth.account(r))
        .find(|a| matches!(native.get(a), Some(1..=3)))
        .expect("a cold account");
    assert!(native[&hot] > 100, "hot account in {} txs", native[&hot]);
    for a in [hot, cold] {
        let path =
            format!("/v1/chains/{C_CHAIN_ID}/addresses/{a}/transactions:listNative?pageSize=100");
        let txs = all_pages(&api, &path, "transactions");
        assert_eq!(txs.len(), native[&a], "native txs of {a}");
        // Newest first, each naming the account.
        let blocks: Vec<u64> = txs
            .iter()
            .map(|t| t["blockNumber"].as_str().unwrap().parse().unwrap())
            .collect();
        assert!(blocks.windows(2).all(|w| w[0] >= w[1]));
        let me = format!("{a:#x}");
        assert!(txs.iter().all(|t| {
            [&t["from"]["address"], &t["to"]["address"]]
                .iter()
                .any(|v| v.as_str().is_some_and(|s| s.eq_ignore_ascii_case(&me)))
        }));
    }

    for standard in [Standard::Erc20, Standard::Erc721, Standard::Erc1155] {
        let token = synth.token(standard, 0);
        let path = format!("/v1/chains/{C_CHAIN_ID}/tokens/{token}/transfers?pageSize=100");
        let got = all_pages(&api, &path, "transfers");
        assert!(!got.is_empty(), "{standard:?} token {token} moved");
        assert_eq!(got.len(), transfers[&token], "{standard:?} token {token}");
    }

    // A tx by hash, and the last block, as the generator made them.
    let tx = synth.tx(60, 7);
    let got = api
        .get(&format!("/v1/chains/{C_CHAIN_ID}/transactions/{}", tx.hash))
        .json();
    assert_eq!(
        got["nativeTransaction"]["txHash"].as_str().unwrap(),
        format!("{:#x}", tx.hash)
    );
    let head = api
        .get(&format!("/v1/chains/{C_CHAIN_ID}/blocks/{}", synth.head()))
        .json();
    assert_eq!(
        head["blockHash"].as_str().unwrap(),
        format!("{:#x}", synth.block_hash(synth.head()))
    );
    assert_eq!(head["txCount"], config().txs_per_block);
}
