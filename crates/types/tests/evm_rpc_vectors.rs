//! The JSON-RPC records of `snowline_types::evm::rpc` read from coreth's golden answers
//! (`fixtures/evm/README.md` names each file's upstream path). Expected values are read off the
//! fixture text by hand.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_types::evm::{Address, B256, RpcBlock, RpcReceipt, RpcTransaction, U256};

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

fn hash(s: &str) -> B256 {
    s.parse().unwrap()
}

#[test]
fn coreth_block_with_full_transactions() {
    // graft/coreth/internal/ethapi/testdata/eth_getBlockByHash-hash-latest-1-fullTx.json
    let raw = include_str!("fixtures/evm/coreth-eth_getBlockByHash-hash-latest-1-fullTx.json");
    let b: RpcBlock<'_> = serde_json::from_str(raw).unwrap();
    assert_eq!(b.number, 9);
    assert_eq!(
        b.hash,
        hash("0xcff199da2c1c619b9caf41ccae69db6ea642f6bb358e031a4aaf9aa9bf2c5b4e")
    );
    assert_eq!(
        b.parent_hash,
        hash("0xf02eac9a15b7f85237acdda86edbf9b05782a71524ecc96d92d5eed37408e4f1")
    );
    assert_eq!(b.timestamp, 0x5a);
    assert_eq!(b.timestamp_milliseconds, Some(0x15f90));
    assert_eq!(b.min_delay_excess, Some(0x799d4c));
    assert_eq!(b.gas_limit, 0x989680);
    assert_eq!(b.gas_used, 0x5208);
    assert_eq!(b.base_fee_per_gas, Some(U256::from(1)));
    assert_eq!(b.block_gas_cost, Some(U256::ZERO));
    assert_eq!(b.ext_data_gas_used, Some(U256::ZERO));
    assert!(b.block_extra_data.as_ref().unwrap().is_empty());
    assert_eq!(b.miner, Address::ZERO);
    assert_eq!(b.transactions.len(), 1);
    let tx = &b.transactions[0];
    assert_eq!(
        tx.hash,
        hash("0x788f1d9b6ab5314ca3157e4e514b602d3d9cf98773402749cd0ea73d4f373330")
    );
    assert_eq!(tx.from, addr("0x703c4b2bd70c169f5717101caee543299fc946c7"));
    assert_eq!(
        tx.to,
        Some(addr("0x0d3ab14bbad3d99f4203bd7a11acb94882050e7e"))
    );
    assert_eq!(tx.value, U256::from(1000));
    assert_eq!((tx.gas, tx.nonce, tx.tx_type), (21000, 8, 0));
    assert_eq!(tx.gas_price, Some(U256::from(1)));
    assert_eq!((tx.block_number, tx.transaction_index), (Some(9), Some(0)));
    assert_eq!(tx.block_hash, Some(b.hash));
    assert!(tx.input.is_empty());
}

#[test]
fn coreth_genesis_block_without_transactions() {
    // graft/coreth/internal/ethapi/testdata/eth_getBlockByNumber-number-0.json: the genesis
    // header (no base fee member renders as absent, extra members ignored).
    let raw = include_str!("fixtures/evm/coreth-eth_getBlockByNumber-number-0.json");
    let b: RpcBlock<'_> = serde_json::from_str(raw).unwrap();
    assert_eq!(b.number, 0);
    assert!(b.transactions.is_empty());
}

#[test]
fn anvil_and_geth_members_are_ignored() {
    // anvil (evm-devnet.md §1.3) adds `blockTimestamp`, `withdrawals`, `withdrawalsRoot` and
    // `totalDifficulty: "0x0"`; geth drops `blockExtraData` and the Avalanche header members.
    // The coreth block with those changes reads the same, and `totalDifficulty` in any form
    // (hex, number, null) is not read.
    let raw = include_str!("fixtures/evm/coreth-eth_getBlockByHash-hash-latest-1-fullTx.json");
    let coreth: RpcBlock<'_> = serde_json::from_str(raw).unwrap();
    for difficulty in [
        serde_json::json!("0x0"),
        serde_json::json!(12),
        serde_json::Value::Null,
    ] {
        let mut v: serde_json::Value = serde_json::from_str(raw).unwrap();
        let o = v.as_object_mut().unwrap();
        for k in [
            "blockExtraData",
            "blockGasCost",
            "extDataGasUsed",
            "extDataHash",
            "timestampMilliseconds",
            "minDelayExcess",
        ] {
            o.remove(k);
        }
        o.insert("totalDifficulty".into(), difficulty);
        o.insert("withdrawals".into(), serde_json::json!([]));
        o.insert(
            "withdrawalsRoot".into(),
            serde_json::json!(format!("0x{}", "56".repeat(32))),
        );
        o["transactions"][0]
            .as_object_mut()
            .unwrap()
            .insert("blockTimestamp".into(), serde_json::json!("0x5a"));
        let text = v.to_string();
        let geth: RpcBlock<'_> = serde_json::from_str(&text).unwrap();
        assert_eq!(geth.hash, coreth.hash);
        assert_eq!(geth.transactions, coreth.transactions);
        assert_eq!(geth.block_extra_data, None);
        assert_eq!(geth.block_gas_cost, None);
        assert_eq!(geth.timestamp_milliseconds, None);
    }
}

#[test]
fn every_transaction_type_and_creations() {
    // graft/coreth/internal/ethapi/api_test.go, allTransactionTypes + allBlobTxs `Want`s:
    // legacy, legacy creation, 2930, 2930 creation, 1559, 1559 creation, 4844; all pending.
    let raw = include_str!("fixtures/evm/coreth-transactions-all-types.json");
    let txs: Vec<RpcTransaction<'_>> = serde_json::from_str(raw).unwrap();
    let types: Vec<u64> = txs.iter().map(|t| t.tx_type).collect();
    assert_eq!(types, [0, 0, 1, 1, 2, 2, 3]);
    let dead = addr("0xdead000000000000000000000000000000000000");
    let tos: Vec<_> = txs.iter().map(|t| t.to).collect();
    assert_eq!(
        tos,
        [
            Some(dead),
            None,
            Some(dead),
            None,
            Some(dead),
            None,
            Some(dead)
        ]
    );
    for t in &txs {
        assert_eq!(t.block_hash, None);
        assert_eq!(t.block_number, None);
        assert_eq!(t.transaction_index, None);
        assert_eq!(t.from, addr("0x71562b71999873db5b286df957af199ec94617f7"));
    }
    // 1559: gasPrice, fee cap and tip cap.
    assert_eq!(txs[4].gas_price, Some(U256::from(9)));
    assert_eq!(txs[4].max_fee_per_gas, Some(U256::from(9)));
    assert_eq!(txs[4].max_priority_fee_per_gas, Some(U256::from(6)));
    assert_eq!(txs[4].input.decode(), Some(vec![0, 1, 2, 3, 4]));
    assert_eq!(txs[0].max_fee_per_gas, None);
    // 4844.
    assert_eq!(txs[6].max_priority_fee_per_gas, Some(U256::from(1)));
    assert_eq!(txs[6].value, U256::ZERO);
}

#[test]
fn receipts_of_each_kind() {
    // eth_getBlockReceipts-block-with-contract-create-tx.json: `to` null, contractAddress set.
    let r: Vec<RpcReceipt<'_>> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getBlockReceipts-block-with-contract-create-tx.json"
    ))
    .unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].to, None);
    assert_eq!(
        r[0].contract_address,
        Some(addr("0xae9bea628c4ce503dcfd7e305cab4e29e7476592"))
    );
    assert_eq!((r[0].gas_used, r[0].cumulative_gas_used), (0xcf50, 0xcf50));
    assert_eq!(r[0].succeeded(), Some(true));
    assert_eq!(r[0].effective_gas_price, Some(U256::from(1)));

    // eth_getBlockReceipts-block-with-blob-tx.json: type 3, blob members ignored.
    let r: Vec<RpcReceipt<'_>> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getBlockReceipts-block-with-blob-tx.json"
    ))
    .unwrap();
    assert_eq!((r[0].tx_type, r[0].block_number), (3, 6));
    assert_eq!(r[0].effective_gas_price, Some(U256::from(2)));

    // eth_getBlockReceipts-block-with-dynamic-fee-tx.json
    let r: Vec<RpcReceipt<'_>> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getBlockReceipts-block-with-dynamic-fee-tx.json"
    ))
    .unwrap();
    assert_eq!(r[0].tx_type, 2);

    // eth_getTransactionReceipt-dynamic-tx-with-logs.json: a failed 1559 tx (status 0x0).
    let r: RpcReceipt<'_> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getTransactionReceipt-dynamic-tx-with-logs.json"
    ))
    .unwrap();
    assert_eq!(r.succeeded(), Some(false));
    assert!(r.logs.is_empty());

    // eth_getTransactionReceipt-create-contract-with-access-list.json: a 2930 creation.
    let r: RpcReceipt<'_> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getTransactionReceipt-create-contract-with-access-list.json"
    ))
    .unwrap();
    assert_eq!(r.tx_type, 1);
    assert_eq!(r.to, None);
    assert!(r.contract_address.is_some());
}

#[test]
fn receipt_logs() {
    // eth_getTransactionReceipt-with-logs.json: one ERC-20 Transfer log.
    let r: RpcReceipt<'_> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getTransactionReceipt-with-logs.json"
    ))
    .unwrap();
    assert_eq!(r.logs.len(), 1);
    let log = &r.logs[0];
    assert_eq!(
        log.address,
        addr("0x0000000000000000000000000000000000031ec7")
    );
    assert_eq!(log.log_index, 0);
    assert_eq!(log.topics.len(), 3);
    assert_eq!(
        log.topics[0],
        hash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
    );
    let mut data = [0u8; 32];
    data[31] = 0x0d;
    assert_eq!(log.data.decode(), Some(data.to_vec()));
    assert_eq!(r.status, Some(1));
    assert_eq!(r.root, None);
}

#[test]
fn pre_byzantium_receipt_has_root_not_status() {
    // A pre-Byzantium receipt carries `root` instead of `status` (go-ethereum
    // internal/ethapi marshalReceipt: `if len(receipt.PostState) > 0 { fields["root"] = ... }
    // else { fields["status"] = ... }`); built from the coreth create-contract receipt.
    let raw =
        include_str!("fixtures/evm/coreth-eth_getBlockReceipts-block-with-contract-create-tx.json");
    let mut v: serde_json::Value = serde_json::from_str(raw).unwrap();
    let o = v[0].as_object_mut().unwrap();
    o.remove("status");
    o.insert(
        "root".into(),
        serde_json::json!(format!("0x{}", "ab".repeat(32))),
    );
    let text = v.to_string();
    let r: Vec<RpcReceipt<'_>> = serde_json::from_str(&text).unwrap();
    assert_eq!(r[0].succeeded(), None);
    assert_eq!(r[0].root, Some(B256::repeat_byte(0xab)));
}

#[test]
fn calldata_stays_borrowed() {
    // The hex of `input` and log `data` borrows from the response text (no escapes in hex).
    let raw = include_str!("fixtures/evm/coreth-transactions-all-types.json");
    let txs: Vec<RpcTransaction<'_>> = serde_json::from_str(raw).unwrap();
    assert!(matches!(txs[0].input.0, std::borrow::Cow::Borrowed(_)));
}
