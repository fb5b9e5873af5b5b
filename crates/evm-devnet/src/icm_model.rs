//! An independent reading of ICM recordings (one per chain, as [`crate::icm::record_icm`] writes
//! them), for end-to-end tests: every Teleporter message the messenger's v1 events show, with
//! the status and fields an ICM indexer should report, derived from the recorded receipts with
//! nothing of the indexer's code. A chain's blockchain id is read from its messenger's
//! `BlockchainIDInitialized` event. It panics on a recording the recorder did not write.
//!
//! Status rule: a message received on an indexed chain whose source chain is indexed too is
//! `delivered`; one received from a chain no recording covers is `delivered_source_not_indexed`;
//! one only sent is `pending`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;

use alloy_primitives::{Address, B256, Bytes, U256};
use alloy_sol_types::SolEvent;
use serde_json::Value;

use crate::icm::{ITeleporterMessenger as T, TELEPORTER_V1, TeleporterMessage};
use crate::model::{addr, blocks, bytes, hash, q, read_lines};

/// Glacier's ICM message status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// `pending`: sent, not delivered.
    Pending,
    /// `delivered`: sent and delivered, both chains indexed.
    Delivered,
    /// `delivered_source_not_indexed`: delivered from a chain nobody indexes.
    DeliveredSourceNotIndexed,
}

impl Status {
    /// Glacier's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Delivered => "delivered",
            Status::DeliveredSourceNotIndexed => "delivered_source_not_indexed",
        }
    }
}

/// A transaction of a recording that emitted one of a message's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxAt {
    /// The EVM chain id of the recording.
    pub chain_id: u64,
    /// Block number.
    pub block: u64,
    /// Block timestamp (seconds).
    pub timestamp: u64,
    /// Transaction hash.
    pub tx_hash: B256,
    /// Its sender.
    pub from: Address,
    /// Its receipt's `gasUsed` (Glacier's `gasSpent`).
    pub gas_used: u64,
}

/// A message's `ReceiptReceived` on its source chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptSeen {
    /// Where.
    pub tx: TxAt,
    /// The relayer reward address the receipt named.
    pub relayer_reward_address: Address,
    /// The fee the relayer earned (token, amount).
    pub fee: (Address, U256),
}

/// One Teleporter message, as the recordings show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelMessage {
    /// `messageID`.
    pub message_id: B256,
    /// Its status.
    pub status: Status,
    /// The source chain's blockchain id (the sending chain's, or the receive event's topic).
    pub source_blockchain_id: B256,
    /// `destinationBlockchainID`.
    pub destination_blockchain_id: B256,
    /// The Teleporter message (from the send event, else the receive event).
    pub message: TeleporterMessage,
    /// `SendCrossChainMessage`'s fee (token, amount); `None` without a send.
    pub initial_fee: Option<(Address, U256)>,
    /// The fee after every `AddFeeAmount`.
    pub fee: Option<(Address, U256)>,
    /// How many `AddFeeAmount` events.
    pub fee_additions: usize,
    /// The send transaction.
    pub source_tx: Option<TxAt>,
    /// The receive transaction, with `deliverer` (its `from`) and the reward redeemer.
    pub destination_tx: Option<(TxAt, Address, Address)>,
    /// `Some(true)` after `MessageExecuted`, `Some(false)` after `MessageExecutionFailed` (a
    /// later successful retry makes it `true`), `None` before delivery.
    pub executed: Option<bool>,
    /// `ReceiptReceived` on the source chain.
    pub receipt: Option<ReceiptSeen>,
}

/// The messages of a set of ICM recordings.
#[derive(Debug, Clone)]
pub struct IcmModel {
    /// Each recording's chain id and the blockchain id its messenger initialized.
    pub chains: BTreeMap<u64, B256>,
    /// Every message, in the order first seen (recordings in the order given, then blocks).
    pub messages: Vec<ModelMessage>,
}

impl IcmModel {
    /// Reads the recordings at `paths` (one per chain).
    pub fn load(paths: &[&Path]) -> Self {
        let recordings: Vec<Vec<Value>> = paths.iter().map(|p| read_lines(p)).collect();
        Self::from_lines(&recordings)
    }

    /// The message of id `id`.
    pub fn message(&self, id: B256) -> Option<&ModelMessage> {
        self.messages.iter().find(|m| m.message_id == id)
    }

    /// Reads recordings already parsed into JSON lines.
    pub fn from_lines(recordings: &[Vec<Value>]) -> Self {
        let mut chains = BTreeMap::new();
        let mut order: Vec<B256> = Vec::new();
        let mut found: BTreeMap<B256, Partial> = BTreeMap::new();
        for lines in recordings {
            let chain_id =
                q(&lines.iter().find(|l| l["method"] == "eth_chainId").unwrap()["result"]);
            let mut here: Option<B256> = None;
            for block in blocks(lines) {
                let Some(receipts) = block.receipts.as_array() else {
                    continue;
                };
                let timestamp = q(&block.block["timestamp"]);
                for r in receipts {
                    let tx = TxAt {
                        chain_id,
                        block: block.number,
                        timestamp,
                        tx_hash: hash(&r["transactionHash"]),
                        from: addr(&r["from"]),
                        gas_used: q(&r["gasUsed"]),
                    };
                    for log in r["logs"].as_array().unwrap() {
                        if addr(&log["address"]) != TELEPORTER_V1 {
                            continue;
                        }
                        let topics: Vec<B256> =
                            log["topics"].as_array().unwrap().iter().map(hash).collect();
                        let data = bytes(&log["data"]);
                        match topics[0] {
                            t if t == T::BlockchainIDInitialized::SIGNATURE_HASH => {
                                let e = T::BlockchainIDInitialized::decode_raw_log(topics, &data)
                                    .unwrap();
                                here = Some(e.blockchainID);
                                chains.insert(chain_id, e.blockchainID);
                            }
                            t if t == T::SendCrossChainMessage::SIGNATURE_HASH => {
                                let e = T::SendCrossChainMessage::decode_raw_log(topics, &data)
                                    .unwrap();
                                let p = entry(&mut found, &mut order, e.messageID);
                                p.source =
                                    Some(here.expect("a send before BlockchainIDInitialized"));
                                p.destination = Some(e.destinationBlockchainID);
                                p.message = Some(e.message);
                                let fee = (e.feeInfo.feeTokenAddress, e.feeInfo.amount);
                                p.initial_fee = Some(fee);
                                p.fee = Some(fee);
                                p.source_tx = Some(tx);
                            }
                            t if t == T::AddFeeAmount::SIGNATURE_HASH => {
                                let e = T::AddFeeAmount::decode_raw_log(topics, &data).unwrap();
                                let p = entry(&mut found, &mut order, e.messageID);
                                p.fee = Some((
                                    e.updatedFeeInfo.feeTokenAddress,
                                    e.updatedFeeInfo.amount,
                                ));
                                p.fee_additions += 1;
                            }
                            t if t == T::ReceiveCrossChainMessage::SIGNATURE_HASH => {
                                let e = T::ReceiveCrossChainMessage::decode_raw_log(topics, &data)
                                    .unwrap();
                                let p = entry(&mut found, &mut order, e.messageID);
                                p.source.get_or_insert(e.sourceBlockchainID);
                                p.destination
                                    .get_or_insert(e.message.destinationBlockchainID);
                                p.message.get_or_insert(e.message);
                                p.destination_tx = Some((tx, e.deliverer, e.rewardRedeemer));
                            }
                            t if t == T::MessageExecuted::SIGNATURE_HASH => {
                                let e = T::MessageExecuted::decode_raw_log(topics, &data).unwrap();
                                entry(&mut found, &mut order, e.messageID).executed = Some(true);
                            }
                            t if t == T::MessageExecutionFailed::SIGNATURE_HASH => {
                                let e = T::MessageExecutionFailed::decode_raw_log(topics, &data)
                                    .unwrap();
                                entry(&mut found, &mut order, e.messageID).executed = Some(false);
                            }
                            t if t == T::ReceiptReceived::SIGNATURE_HASH => {
                                let e = T::ReceiptReceived::decode_raw_log(topics, &data).unwrap();
                                entry(&mut found, &mut order, e.messageID).receipt =
                                    Some(ReceiptSeen {
                                        tx,
                                        relayer_reward_address: e.relayerRewardAddress,
                                        fee: (e.feeInfo.feeTokenAddress, e.feeInfo.amount),
                                    });
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        let indexed: Vec<B256> = chains.values().copied().collect();
        let messages = order
            .into_iter()
            .map(|id| {
                let p = found.remove(&id).unwrap();
                let source = p.source.expect("a message neither sent nor received");
                let status = match (&p.source_tx, &p.destination_tx) {
                    (_, None) => Status::Pending,
                    (Some(_), Some(_)) if indexed.contains(&source) => Status::Delivered,
                    (_, Some(_)) => Status::DeliveredSourceNotIndexed,
                };
                ModelMessage {
                    message_id: id,
                    status,
                    source_blockchain_id: source,
                    destination_blockchain_id: p.destination.unwrap(),
                    message: p.message.unwrap(),
                    initial_fee: p.initial_fee,
                    fee: p.fee,
                    fee_additions: p.fee_additions,
                    source_tx: p.source_tx,
                    destination_tx: p.destination_tx,
                    executed: p.executed,
                    receipt: p.receipt,
                }
            })
            .collect();
        Self { chains, messages }
    }
}

impl ModelMessage {
    /// The receipts the message carried: (received nonce, relayer reward address).
    pub fn receipts(&self) -> Vec<(U256, Address)> {
        self.message
            .receipts
            .iter()
            .map(|r| (r.receivedMessageNonce, r.relayerRewardAddress))
            .collect()
    }

    /// The application payload.
    pub fn payload(&self) -> &Bytes {
        &self.message.message
    }
}

/// The message `id` found so far (a new one is added to `order`).
fn entry<'a>(
    found: &'a mut BTreeMap<B256, Partial>,
    order: &mut Vec<B256>,
    id: B256,
) -> &'a mut Partial {
    if !found.contains_key(&id) {
        order.push(id);
    }
    found.entry(id).or_default()
}

#[derive(Default)]
struct Partial {
    source: Option<B256>,
    destination: Option<B256>,
    message: Option<TeleporterMessage>,
    initial_fee: Option<(Address, U256)>,
    fee: Option<(Address, U256)>,
    fee_additions: usize,
    source_tx: Option<TxAt>,
    destination_tx: Option<(TxAt, Address, Address)>,
    executed: Option<bool>,
    receipt: Option<ReceiptSeen>,
}
