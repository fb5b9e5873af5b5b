//! The devnet's genesis is avalanchego's local genesis.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_devnet::{Devnet, DevnetConfig, XGenesis};
use snowline_types::address::format_address;
use snowline_types::avm::{Output, UnsignedTx};
use snowline_types::network::NetworkInfo;

#[test]
fn avax_asset_id_is_the_real_local_one() {
    // vector: avalanchego genesis/genesis_test.go TestAVAXAssetID (local network)
    let g = XGenesis::local().unwrap();
    assert_eq!(
        g.avax_asset_id.to_string(),
        "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
    );
    assert_eq!(g.avax_asset_id, NetworkInfo::LOCAL.avax_asset_id);
    // vector: avalanchego utils/constants + genesis (reference §5): local X-Chain id
    assert_eq!(
        g.network.x_chain_id.to_string(),
        "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"
    );
    assert_eq!(g.network.network_id, 12345);
    let UnsignedTx::CreateAsset(t) = &g.avax_tx.tx.unsigned else {
        panic!("not a CreateAssetTx")
    };
    assert_eq!(
        (t.name.as_str(), t.symbol.as_str(), t.denomination),
        ("Avalanche", "AVAX", 9)
    );
    assert!(g.avax_tx.tx.credentials.is_empty());
}

#[test]
fn genesis_utxos_are_the_local_x_allocations() {
    // vector: avalanchego genesis/genesis_local.json allocations with initialAmount > 0 and
    // genesis/genesis_local.go (ewoq = X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u)
    let g = XGenesis::local().unwrap();
    let owners: Vec<(String, u64, u32)> = g
        .utxos
        .iter()
        .map(|u| match &u.output {
            Output::Secp256k1Transfer(o) => (
                format_address("X", "local", &o.owners.addrs[0]).unwrap(),
                o.amount,
                u.utxo_id.output_index,
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        owners,
        vec![
            (
                "X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu".to_string(),
                10_000_000_000_000_000,
                0
            ),
            (
                "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u".to_string(),
                300_000_000_000_000_000,
                1
            ),
        ]
    );
    let d = Devnet::generate(DevnetConfig::small()).unwrap();
    assert_eq!(
        format_address("X", "local", &d.keys().addr(0)).unwrap(),
        "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
    );
}

#[test]
fn avm_genesis_bytes_hold_the_avax_tx() {
    // layout: avalanchego vms/avm/genesis.go Genesis{Txs []*GenesisAsset{Alias, CreateAssetTx}}
    let g = XGenesis::local().unwrap();
    let b = g.avm_genesis_bytes();
    assert_eq!(&b[..12], &[0, 0, 0, 0, 0, 1, 0, 4, b'A', b'V', b'A', b'X']);
    // The rest is the CreateAssetTx body: the signed tx minus version, type id and the empty
    // credential list.
    let signed = &g.avax_tx.bytes;
    assert_eq!(&b[12..], &signed[6..signed.len() - 4]);
}

#[test]
fn bad_configs_are_refused() {
    let bad = DevnetConfig {
        txs_per_vertex: 129,
        ..DevnetConfig::small()
    };
    assert!(Devnet::generate(bad).is_err());
    let bad = DevnetConfig {
        keys: 2,
        ..DevnetConfig::small()
    };
    assert!(Devnet::generate(bad).is_err());
}
