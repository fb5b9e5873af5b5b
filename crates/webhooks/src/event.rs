//! An `address_activity` event: which txs of a block touch a set of addresses ([`touched`]) and
//! the delivery body of one (the OpenAPI's `WebhookAddressActivityResponse` with its
//! `TransactionEvent` and, when asked, its `logs`), rendered once when the block is indexed and
//! kept in the outbox.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use snowline_chain_evm::parse::{Block, Tx};
use snowline_types::evm::{Address, B256, TokenTransferKind};

use crate::model::ADDRESS_ACTIVITY;
use crate::model::uuid_text;

/// Every address a tx touches: its sender, recipient and created contract, both ends of its
/// token transfers, both ends of its listed internal transactions, the emitters of its logs.
pub fn touched(tx: &Tx) -> BTreeSet<Address> {
    let mut all = BTreeSet::new();
    all.insert(tx.from);
    all.extend(tx.to);
    all.extend(tx.contract_address);
    for (_, _, t) in &tx.transfers {
        for one in t.transfers(Address::ZERO, 0) {
            all.insert(one.from);
            all.insert(one.to);
        }
    }
    for call in tx.internals.iter().flatten() {
        all.insert(call.from);
        all.extend(call.to);
    }
    all.extend(tx.emitters.iter().copied());
    all
}

/// The stable `messageId` of the event of tx `tx` for webhook `webhook`: a UUID-shaped digest,
/// the same on every delivery attempt and every replay.
pub fn message_id(webhook: &str, chain: u64, tx: &Tx) -> String {
    let mut h = Sha256::new();
    h.update(b"snowline-webhooks/message-id/v1");
    h.update(webhook.as_bytes());
    h.update(chain.to_be_bytes());
    h.update(tx.hash.as_slice());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    uuid_text(&b)
}

fn s(v: impl ToString) -> Value {
    Value::String(v.to_string())
}

fn addr(a: &Address) -> Value {
    Value::String(a.to_checksum(None))
}

/// The OpenAPI's `Transaction` of `tx`, the `index`th of `block` on chain `chain`, with
/// `cumulative` gas used by the block up to and including it.
pub fn transaction(
    chain: u64,
    block: &Block,
    index: usize,
    tx: &Tx,
    cumulative: u64,
    internals: bool,
) -> Value {
    let price = tx.gas_price.unwrap_or(tx.effective_gas_price);
    let mut t = Map::new();
    t.insert("blockHash".into(), s(format!("{:#x}", block.hash)));
    t.insert("blockNumber".into(), s(block.number));
    t.insert("from".into(), addr(&tx.from));
    t.insert("gas".into(), s(tx.gas));
    t.insert("gasPrice".into(), s(price));
    t.insert("maxFeePerGas".into(), s(tx.max_fee.unwrap_or(price)));
    t.insert(
        "maxPriorityFeePerGas".into(),
        s(tx.max_priority_fee.unwrap_or(price)),
    );
    t.insert("txHash".into(), s(format!("{:#x}", tx.hash)));
    if let Some(ok) = tx.status {
        t.insert("txStatus".into(), s(u8::from(ok)));
    }
    t.insert("input".into(), s(format!("0x{}", hex::encode(&tx.input))));
    t.insert("nonce".into(), s(tx.nonce));
    if let Some(to) = &tx.to {
        t.insert("to".into(), addr(to));
    }
    t.insert("transactionIndex".into(), json!(index));
    t.insert("value".into(), s(tx.value));
    t.insert("type".into(), json!(tx.tx_type));
    t.insert("chainId".into(), s(chain));
    t.insert("receiptCumulativeGasUsed".into(), s(cumulative));
    t.insert("receiptGasUsed".into(), s(tx.gas_used));
    t.insert("receiptEffectiveGasPrice".into(), s(tx.effective_gas_price));
    t.insert("blockTimestamp".into(), json!(block.timestamp));
    if let Some(c) = &tx.contract_address {
        t.insert("contractAddress".into(), addr(c));
    }
    let (mut erc20, mut erc721, mut erc1155) = (Vec::new(), Vec::new(), Vec::new());
    for (contract, log_index, log) in &tx.transfers {
        for one in log.transfers(*contract, *log_index) {
            let mut x = Map::new();
            x.insert("transactionHash".into(), s(format!("{:#x}", tx.hash)));
            x.insert("from".into(), addr(&one.from));
            x.insert("to".into(), addr(&one.to));
            x.insert("blockTimestamp".into(), json!(block.timestamp));
            x.insert("logIndex".into(), json!(one.log_index));
            let token = json!({"address": contract.to_checksum(None)});
            match one.kind {
                TokenTransferKind::Erc20 { value } => {
                    x.insert("type".into(), s("ERC20"));
                    x.insert("value".into(), s(value));
                    x.insert("erc20Token".into(), token);
                    erc20.push(Value::Object(x));
                }
                TokenTransferKind::Erc721 { token_id } => {
                    x.insert("type".into(), s("ERC721"));
                    x.insert("value".into(), s(1));
                    x.insert("tokenId".into(), s(token_id));
                    x.insert("erc721Token".into(), token);
                    erc721.push(Value::Object(x));
                }
                TokenTransferKind::Erc1155 { token_id, value } => {
                    x.insert("type".into(), s("ERC1155"));
                    x.insert("value".into(), s(value));
                    x.insert("tokenId".into(), s(token_id));
                    x.insert("erc1155Token".into(), token);
                    erc1155.push(Value::Object(x));
                }
            }
        }
    }
    t.insert("erc20Transfers".into(), Value::Array(erc20));
    t.insert("erc721Transfers".into(), Value::Array(erc721));
    t.insert("erc1155Transfers".into(), Value::Array(erc1155));
    if internals {
        let list = tx
            .internals
            .iter()
            .flatten()
            .map(|c| {
                let mut x = Map::new();
                x.insert("from".into(), addr(&c.from));
                if let Some(to) = &c.to {
                    x.insert("to".into(), addr(to));
                }
                x.insert(
                    "internalTxType".into(),
                    serde_json::to_value(c.internal_tx_type()).unwrap_or(Value::Null),
                );
                x.insert("value".into(), s(c.value));
                x.insert("gasUsed".into(), s(c.gas_used));
                x.insert("gasLimit".into(), s(c.gas_limit));
                x.insert("transactionHash".into(), s(format!("{:#x}", tx.hash)));
                Value::Object(x)
            })
            .collect();
        t.insert("internalTransactions".into(), Value::Array(list));
    }
    Value::Object(t)
}

/// Whether `tx` has a log whose first topic is one of `signatures` (every tx does when there
/// are none). `None` when the tx was read without its logs.
pub fn signed_with(tx: &Tx, signatures: &[B256]) -> Option<bool> {
    if signatures.is_empty() {
        return Some(true);
    }
    let logs = tx.logs.as_ref()?;
    Some(
        logs.iter()
            .any(|l| l.topics.first().is_some_and(|t| signatures.contains(t))),
    )
}

/// The OpenAPI's `Log` list of `tx`, the `index`th of its block: every log in log order, but a
/// log without topics (`LOG0`), which has no `topic0` to give. `None` when the tx was read
/// without its logs.
pub fn logs(index: usize, tx: &Tx) -> Option<Value> {
    let list = tx
        .logs
        .as_ref()?
        .iter()
        .filter(|l| !l.topics.is_empty())
        .map(|l| {
            let mut x = Map::new();
            x.insert("address".into(), addr(&l.address));
            for (i, topic) in l.topics.iter().enumerate() {
                x.insert(format!("topic{i}"), s(format!("{topic:#x}")));
            }
            x.insert("data".into(), s(format!("0x{}", hex::encode(&l.data))));
            x.insert("transactionIndex".into(), json!(index));
            x.insert("logIndex".into(), json!(l.log_index));
            // Avalanche has no reorgs: a log of an accepted block is never removed.
            x.insert("removed".into(), Value::Bool(false));
            Value::Object(x)
        })
        .collect();
    Some(Value::Array(list))
}

/// The delivery body of one event: its transaction and, if given, its logs.
pub fn body(webhook: &str, message_id: &str, transaction: &Value, logs: Option<&Value>) -> Vec<u8> {
    let mut event = Map::new();
    event.insert("transaction".into(), transaction.clone());
    if let Some(logs) = logs {
        event.insert("logs".into(), logs.clone());
    }
    let v = json!({
        "webhookId": webhook,
        "eventType": ADDRESS_ACTIVITY,
        "messageId": message_id,
        "event": event,
    });
    serde_json::to_vec(&v).unwrap_or_default()
}
