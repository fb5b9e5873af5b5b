//! ICM messages end to end: both recorded ICM chains (the C-Chain 43112 and the L1 99999 of
//! `evm-devnet record-icm`) served by replay servers and indexed by the real `data-api`; every
//! message, listing and filter answered over HTTP is compared with what
//! `snowline_evm_devnet::icm_model` derives from the recorded receipts with nothing of the
//! indexer's code, under the spec's paths and the legacy `/v1/teleporter/` ones.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{DataApi, start};
use serde_json::{Value, json};
use snowline_evm_devnet::icm::L1_BLOCKCHAIN_ID;
use snowline_evm_devnet::icm_model::{IcmModel, ModelMessage, Status};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID};
use snowline_types::Id;
use snowline_types::evm::{Address, B256};

fn recording(chain: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evm/icm")
        .join(format!("{chain}.jsonl"))
}

fn cb58(id: B256) -> String {
    Id(id.0).to_string()
}

fn checksum(a: &Address) -> String {
    a.to_checksum(None)
}

/// Replay servers of both ICM recordings.
fn replays() -> (tokio::runtime::Runtime, Vec<(u64, String)>) {
    common::replays(&[
        (C_CHAIN_ID, recording(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording(L1_CHAIN_ID)),
    ])
}

/// Every message of a listing.
fn all_pages(api: &DataApi, path: &str) -> Vec<Value> {
    common::all_pages(api, path, "messages")
}

fn serve(dir: &std::path::Path, urls: &[(u64, String)]) -> DataApi {
    let config = json!({"chains": [
        {"chainId": urls[0].0, "rpcUrl": urls[0].1},
        {"chainId": urls[1].0.to_string(), "rpcUrl": urls[1].1, "network": "local",
         "chainName": "Snowline L1", "blockchainId": cb58(L1_BLOCKCHAIN_ID),
         "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}},
    ]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let api = start(
        &dir.join("data"),
        &[
            "--network",
            "local",
            "--evm-config",
            path.to_str().unwrap(),
            "--no-rate-limits",
        ],
    );
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    api
}

/// The EVM chain id of a devnet blockchain id ("" for a chain no registry knows).
fn evm_chain(model: &IcmModel, id: B256) -> String {
    model
        .chains
        .iter()
        .find(|(_, b)| **b == id)
        .map(|(c, _)| c.to_string())
        .unwrap_or_default()
}

/// What the model says the answer for `m` is.
fn expected(model: &IcmModel, m: &ModelMessage) -> Value {
    let tx = |t: &snowline_evm_devnet::icm_model::TxAt| {
        json!({"txHash": t.tx_hash.to_string(), "timestamp": t.timestamp,
               "gasSpent": t.gas_used.to_string()})
    };
    let (token, value) = m
        .fee
        .or(m.receipt.map(|r| r.fee))
        .unwrap_or((Address::ZERO, Default::default()));
    let mut v = json!({
        "messageId": m.message_id.to_string(),
        "icmContractAddress": "0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf",
        "sourceBlockchainId": cb58(m.source_blockchain_id),
        "destinationBlockchainId": cb58(m.destination_blockchain_id),
        "sourceEvmChainId": evm_chain(model, m.source_blockchain_id),
        "destinationEvmChainId": evm_chain(model, m.destination_blockchain_id),
        "messageNonce": m.message.messageNonce.to_string(),
        "from": checksum(&m.message.originSenderAddress),
        "to": checksum(&m.message.destinationAddress),
        "data": format!("0x{}", hex::encode(m.payload())),
        "messageExecuted": m.executed == Some(true),
        "receipts": m.receipts().iter().map(|(n, a)| json!({
            "receivedMessageNonce": n.to_string(), "relayerRewardAddress": checksum(a)})).collect::<Vec<_>>(),
        "receiptDelivered": m.receipt.is_some(),
        "rewardDetails": {"address": checksum(&token), "ercType": "ERC-20", "value": value.to_string()},
        "status": m.status.as_str(),
    });
    if let Some(t) = &m.source_tx {
        v["sourceTransaction"] = tx(t);
    }
    if let Some((t, deliverer, redeemer)) = &m.destination_tx {
        let mut d = tx(t);
        d["rewardRedeemer"] = json!(checksum(redeemer));
        d["delivererAddress"] = json!(checksum(deliverer));
        v["destinationTransaction"] = d;
    }
    v
}

/// The answer without the fee token's probed name, symbol and decimals (not in the receipts).
fn comparable(mut v: Value) -> Value {
    if let Some(r) = v["rewardDetails"].as_object_mut() {
        for k in ["name", "symbol", "decimals"] {
            assert!(r.remove(k).is_some(), "rewardDetails.{k} missing: {r:?}");
        }
    }
    v
}

#[test]
fn icm_messages_are_served_as_the_recorded_receipts_say() {
    let model = IcmModel::load(&[&recording(C_CHAIN_ID), &recording(L1_CHAIN_ID)]);
    let statuses: BTreeSet<Status> = model.messages.iter().map(|m| m.status).collect();
    assert_eq!(statuses.len(), 3, "every status in the recordings");
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = replays();
    let api = serve(dir.path(), &urls);

    for m in &model.messages {
        let want = expected(&model, m);
        // By hex id and by cb58 id, under both names.
        for id in [m.message_id.to_string(), cb58(m.message_id)] {
            for root in ["/v1/icm", "/v1/teleporter"] {
                let r = api.get(&format!("{root}/messages/{id}"));
                assert_eq!(r.status, 200, "{id}: {}", r.body);
                assert_eq!(comparable(r.json()), want, "{root} {id}");
            }
        }
    }
    // A transaction by hash names the message it sent or delivered (`teleporterMessageInfo`):
    // each side of every message, against the sends and receives the model read.
    let mut sides: Vec<(u64, B256, &str, &ModelMessage)> = Vec::new();
    for m in &model.messages {
        if let Some(t) = &m.source_tx {
            sides.push((t.chain_id, t.tx_hash, "SOURCE_TRANSACTION", m));
        }
        if let Some((t, _, _)) = &m.destination_tx {
            sides.push((t.chain_id, t.tx_hash, "DESTINATION_TRANSACTION", m));
        }
    }
    assert!(sides.iter().any(|s| s.2 == "DESTINATION_TRANSACTION"));
    for (chain, tx, direction, m) in &sides {
        let v = api
            .get(&format!("/v1/chains/{chain}/transactions/{tx:#x}"))
            .json();
        let info = &v["teleporterMessageInfo"];
        let want = json!({
            "teleporterMessageId": m.message_id.to_string(),
            "direction": direction,
            "sourceChainId": cb58(m.source_blockchain_id),
            "destinationChainId": cb58(m.destination_blockchain_id),
        });
        // A tx of several messages names one of them.
        let shared = sides.iter().filter(|s| s.0 == *chain && s.1 == *tx).count();
        if shared == 1 {
            assert_eq!(info, &want, "{chain} {tx:#x}");
        } else {
            assert!(
                sides.iter().any(|s| s.0 == *chain
                    && s.1 == *tx
                    && info["teleporterMessageId"] == s.3.message_id.to_string()),
                "{info}"
            );
        }
    }

    // The fee tokens are named from the source chain's token probes.
    let sent = model
        .messages
        .iter()
        .find(|m| m.source_tx.is_some())
        .unwrap();
    let r = api
        .get(&format!("/v1/icm/messages/{}", sent.message_id))
        .json();
    assert!(
        !r["rewardDetails"]["symbol"].as_str().unwrap().is_empty(),
        "{r}"
    );

    // Every message once, newest first, in pages of any size.
    let everything = all_pages(&api, "/v1/icm/messages?pageSize=100");
    assert_eq!(everything.len(), model.messages.len());
    let ids: BTreeSet<String> = everything
        .iter()
        .map(|m| m["messageId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        ids,
        model
            .messages
            .iter()
            .map(|m| m.message_id.to_string())
            .collect::<BTreeSet<_>>()
    );
    let small = all_pages(&api, "/v1/icm/messages?pageSize=3");
    assert_eq!(small, everything);
    assert_eq!(
        all_pages(&api, "/v1/teleporter/messages?pageSize=2"),
        everything
    );

    // Filters, each against the model: a chain by EVM chain id and by blockchain id, addresses.
    let set = |v: Vec<Value>| -> BTreeSet<String> {
        v.iter()
            .map(|m| m["messageId"].as_str().unwrap().to_owned())
            .collect()
    };
    let want = |keep: &dyn Fn(&ModelMessage) -> bool| -> BTreeSet<String> {
        model
            .messages
            .iter()
            .filter(|m| keep(m))
            .map(|m| m.message_id.to_string())
            .collect()
    };
    for (chain, id) in &model.chains {
        let got = set(all_pages(
            &api,
            &format!("/v1/icm/messages?sourceBlockchainId={chain}"),
        ));
        assert_eq!(
            got,
            want(&|m| m.source_blockchain_id == *id),
            "source {chain}"
        );
        let got = set(all_pages(
            &api,
            &format!("/v1/icm/messages?destinationBlockchainId={}", cb58(*id)),
        ));
        assert_eq!(
            got,
            want(&|m| m.destination_blockchain_id == *id),
            "destination {chain}"
        );
        let got = set(all_pages(
            &api,
            &format!("/v1/icm/messages?blockchainId={}&network=local", cb58(*id)),
        ));
        assert_eq!(
            got,
            want(&|m| m.source_blockchain_id == *id || m.destination_blockchain_id == *id),
            "either {chain}"
        );
    }
    let recipient = model.messages[0].message.destinationAddress;
    let got = set(all_pages(
        &api,
        &format!("/v1/icm/messages?to={}", checksum(&recipient)),
    ));
    assert_eq!(got, want(&|m| m.message.destinationAddress == recipient));
    let got = set(all_pages(
        &api,
        &format!("/v1/icm/addresses/{}/messages", checksum(&recipient)),
    ));
    assert_eq!(
        got,
        want(&|m| m.message.destinationAddress == recipient
            || m.message.originSenderAddress == recipient)
    );
    // An EVM chain id no registry knows matches nothing; an unknown message is a 404.
    assert_eq!(
        api.get("/v1/icm/messages?sourceBlockchainId=777").json(),
        json!({"messages": []})
    );
    let m = api
        .get(&format!("/v1/icm/messages/{}", B256::repeat_byte(9)))
        .error(404, "Not Found");
    assert!(m.contains("not indexed"), "{m}");
    // Page tokens belong to their listing.
    common::assert_tokens_authenticated(
        &api,
        "/v1/icm/messages?pageSize=1",
        &format!(
            "/v1/icm/addresses/{}/messages?pageSize=1",
            checksum(&recipient)
        ),
    );
}
