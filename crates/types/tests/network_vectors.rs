//! Network ids, names, HRPs, chain aliases and well-known ids, checked against avalanchego.

use snowline_types::Id;
use snowline_types::network::{
    self, Chain, FUJI_ID, LOCAL_ID, MAINNET_ID, NetworkError, NetworkInfo, TESTNET_ID,
    UNIT_TEST_ID, XChainFees,
};

#[test]
fn hrp_vectors() {
    // vector: avalanchego utils/constants/network_ids_test.go TestGetHRP
    assert_eq!(network::hrp(MAINNET_ID), "avax");
    assert_eq!(network::hrp(TESTNET_ID), "fuji");
    assert_eq!(network::hrp(FUJI_ID), "fuji");
    assert_eq!(network::hrp(LOCAL_ID), "local");
    assert_eq!(network::hrp(4294967295), "custom");
    // utils/constants/network_ids.go NetworkIDToHRP
    assert_eq!(network::hrp(2), "cascade");
    assert_eq!(network::hrp(3), "denali");
    assert_eq!(network::hrp(4), "everest");
    assert_eq!(network::hrp(UNIT_TEST_ID), "testing");
    assert_eq!(network::hrp(0), "custom");
    assert_eq!(network::hrp(1337), "custom");
}

#[test]
fn network_name_vectors() {
    // vector: avalanchego utils/constants/network_ids_test.go TestNetworkName
    assert_eq!(network::network_name(MAINNET_ID), "mainnet");
    assert_eq!(network::network_name(TESTNET_ID), "fuji");
    assert_eq!(network::network_name(LOCAL_ID), "local");
    assert_eq!(network::network_name(4294967295), "network-4294967295");
    assert_eq!(network::network_name(UNIT_TEST_ID), "testing");
}

#[test]
fn network_id_vectors() {
    // vector: avalanchego utils/constants/network_ids_test.go TestNetworkID
    assert_eq!(network::network_id("mainnet"), Ok(MAINNET_ID));
    assert_eq!(network::network_id("MaInNeT"), Ok(MAINNET_ID));
    assert_eq!(network::network_id("testnet"), Ok(TESTNET_ID));
    assert_eq!(network::network_id("fuji"), Ok(FUJI_ID));
    assert_eq!(network::network_id("local"), Ok(LOCAL_ID));
    assert_eq!(network::network_id("network-4294967295"), Ok(4294967295));
    assert_eq!(network::network_id("4294967295"), Ok(4294967295));
    for bad in [
        "networ-4294967295",
        "network-4294967295123123",
        "4294967295123123",
    ] {
        assert_eq!(
            network::network_id(bad),
            Err(NetworkError::ParseName(bad.to_owned()))
        );
    }
    assert_eq!(
        network::network_id("networ-4294967295")
            .unwrap_err()
            .to_string(),
        r#"failed to parse network name: "networ-4294967295""#
    );
}

#[test]
fn network_id_follows_go_parse_uint() {
    // utils/constants/network_ids.go uses strconv.ParseUint(s, 10, 32): no sign, no spaces,
    // no empty string, leading zeros allowed.
    assert_eq!(network::network_id("network-0012345"), Ok(LOCAL_ID));
    assert_eq!(network::network_id("Network-5"), Ok(5));
    assert_eq!(network::network_id("TESTING"), Ok(UNIT_TEST_ID));
    for bad in [
        "+5",
        "network-+5",
        " 5",
        "5 ",
        "network-",
        "",
        "-1",
        "0x10",
        "1_000",
    ] {
        assert!(network::network_id(bad).is_err(), "{bad:?} accepted");
    }
    // The error shows the name lower-cased, as avalanchego does.
    assert_eq!(
        network::network_id("Bogus"),
        Err(NetworkError::ParseName("bogus".to_owned()))
    );
}

#[test]
fn well_known_chain_and_asset_ids() {
    // vector: avalanchego genesis/genesis_test.go TestVMGenesis and TestAVAXAssetID
    let table: [(&NetworkInfo, &str, &str, &str); 3] = [
        (
            &NetworkInfo::MAINNET,
            "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
            "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
            "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
        ),
        (
            &NetworkInfo::FUJI,
            "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm",
            "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp",
            "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK",
        ),
        (
            &NetworkInfo::LOCAL,
            "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed",
            "2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC",
            "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe",
        ),
    ];
    for (info, x, c, avax) in table {
        assert_eq!(info.x_chain_id.to_string(), x, "{}", info.name);
        assert_eq!(info.c_chain_id.to_string(), c, "{}", info.name);
        assert_eq!(info.avax_asset_id.to_string(), avax, "{}", info.name);
        // utils/constants/network_ids.go: PlatformChainID = ids.Empty on every network.
        assert_eq!(
            info.p_chain_id.to_string(),
            "11111111111111111111111111111111LpoYY"
        );
        assert_eq!(info.hrp, network::hrp(info.network_id));
        assert_eq!(info.name, network::network_name(info.network_id));
        assert_eq!(NetworkInfo::lookup(info.network_id), Some(info));
    }
    assert_eq!(NetworkInfo::lookup(UNIT_TEST_ID), None);
    assert_eq!(NetworkInfo::lookup(1337), None);
    assert_eq!(
        NetworkInfo::lookup_name("testnet"),
        Ok(Some(&NetworkInfo::FUJI))
    );
    assert_eq!(NetworkInfo::lookup_name("network-1337"), Ok(None));
    assert!(NetworkInfo::lookup_name("nope").is_err());
}

#[test]
fn mainnet_avax_asset_id_bytes() {
    // vector: avalanchego vms/platformvm/txs/base_tx_test.go uses the mainnet AVAX asset id
    // 21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff.
    assert_eq!(
        NetworkInfo::MAINNET.avax_asset_id.to_hex(),
        "21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff"
    );
}

#[test]
fn x_chain_fees() {
    // vector: avalanchego genesis/genesis_mainnet.go, genesis_fuji.go (CreateAssetTxFee
    // 10*MilliAvax, TxFee MilliAvax), genesis_local.go (both MilliAvax), params.go
    // GetTxFeeConfig (other networks use the local config).
    let big = XChainFees {
        tx_fee: 1_000_000,
        create_asset_tx_fee: 10_000_000,
    };
    let small = XChainFees {
        tx_fee: 1_000_000,
        create_asset_tx_fee: 1_000_000,
    };
    assert_eq!(NetworkInfo::MAINNET.x_fees, big);
    assert_eq!(NetworkInfo::FUJI.x_fees, big);
    assert_eq!(NetworkInfo::LOCAL.x_fees, small);
    assert_eq!(XChainFees::for_network(1337), small);
    assert_eq!(XChainFees::for_network(UNIT_TEST_ID), small);
}

#[test]
fn chain_aliases() {
    // vector: avalanchego genesis/aliases.go PChainAliases / XChainAliases / CChainAliases
    assert_eq!(Chain::P.aliases(), ["P", "platform"]);
    assert_eq!(Chain::X.aliases(), ["X", "avm"]);
    assert_eq!(Chain::C.aliases(), ["C", "evm"]);
    assert_eq!(Chain::from_alias("avm"), Some(Chain::X));
    assert_eq!(Chain::from_alias("platform"), Some(Chain::P));
    assert_eq!(Chain::from_alias("evm"), Some(Chain::C));
    // ids/aliases.go Lookup is an exact map lookup: case matters.
    assert_eq!(Chain::from_alias("x"), None);
    assert_eq!(Chain::from_alias("AVM"), None);

    let local = &NetworkInfo::LOCAL;
    assert_eq!(local.resolve_alias("X"), Some(Chain::X));
    assert_eq!(
        local.resolve_alias("2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed"),
        Some(Chain::X)
    );
    assert_eq!(
        local.resolve_alias("11111111111111111111111111111111LpoYY"),
        Some(Chain::P)
    );
    // Mainnet's X-Chain id is not a chain of the local network.
    assert_eq!(
        local.resolve_alias("2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"),
        None
    );
    assert_eq!(local.chain_of(&Id::EMPTY), Some(Chain::P));
}
