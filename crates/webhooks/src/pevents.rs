//! The events a Primary Network container gives, in its order: a P-Chain block's staking txs,
//! and what the derivers' journals (the P-Chain's [`Journal`](snowline_chain_p::Journal), the
//! X-Chain history's [`XJournal`](snowline_chain_x::history::XJournal)) say it did
//! ([`items`]); and their bodies:
//! `validator_activity`'s `reward_distribution` and L1 validator sub-events
//! ([`ValidatorItem`]), `primary_network_address_activity`'s `balance_change` and
//! `reward_distribution` ([`AddressItem`]).

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};
use snowline_chain_p::{L1Change, L1Note, Note, PNote, Payout, RewardNote, UtxoNote};
use snowline_types::address::format_bech32;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::platformvm::UnsignedTx;
use snowline_types::{Id, NodeId, ShortId};

use crate::outbox::message_id;
use crate::pnaddress::{BALANCE_CHANGE, PRIMARY_NETWORK_ADDRESS_ACTIVITY};
use crate::registry::Sub;
use crate::validator::{
    Key, L1_BALANCE_INCREASED, L1_DISABLED, L1_REMOVED, REWARD_DISTRIBUTION, Stake,
    VALIDATOR_ACTIVITY, stake,
};

/// The block (or vertex, or tx container) the events come from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockAt<'a> {
    /// Its id.
    pub id: Id,
    /// Its height (none for an `X/tx` container, which is no block).
    pub height: Option<u64>,
    /// Its time, Unix seconds.
    pub timestamp: u64,
    /// A C-Chain block's EVM hash (keccak-256 of its header), its `blockHash` as Glacier gives
    /// a C-Chain atomic tx's (`0x` and hex), rather than the container's id.
    pub evm_hash: Option<[u8; 32]>,
    /// The network's bech32 HRP.
    pub hrp: &'a str,
}

impl BlockAt<'_> {
    fn address(&self, a: &ShortId) -> String {
        format_bech32(self.hrp, a).unwrap_or_default()
    }

    /// The fields every event of the block has (no block's hash and number for a tx that
    /// has no block yet).
    pub(crate) fn fields(&self, e: &mut Map<String, Value>) {
        if let Some(height) = self.height {
            let hash = match &self.evm_hash {
                Some(h) => encode_hex_plain(h),
                None => self.id.to_string(),
            };
            e.insert("blockHash".into(), json!(hash));
            e.insert("blockNumber".into(), json!(height.to_string()));
        }
        e.insert("blockTimestamp".into(), json!(self.timestamp));
    }
}

/// One event source of a block, in block order.
#[derive(Debug)]
pub(crate) enum Item<'a> {
    /// A staking tx (`validator_stake`, `delegator_stake`).
    Stake(Id, Stake),
    /// A reward or an L1 validator change, for `validator_activity`.
    Validator(ValidatorItem<'a>),
    /// A tx's UTXOs or a reward's payouts, for `primary_network_address_activity`.
    Address(AddressItem<'a>),
}

/// A `validator_activity` source.
#[derive(Debug)]
pub(crate) enum ValidatorItem<'a> {
    /// A staker settled.
    Reward(&'a RewardNote),
    /// An L1 validator changed.
    L1(&'a L1Note),
}

/// A `primary_network_address_activity` source.
#[derive(Debug)]
pub(crate) enum AddressItem<'a> {
    /// The UTXOs one tx consumed and produced.
    Balance {
        /// The tx's chain.
        chain: Id,
        /// The tx.
        tx: Id,
        /// For an import's consumptions learnt after its block: that block's height (when it
        /// had one) and time.
        late: Option<(Option<u64>, u64)>,
        /// Its Go type name, when the block says.
        tx_type: Option<&'static str>,
        /// Its UTXOs.
        utxos: Vec<&'a UtxoNote>,
    },
    /// The reward UTXOs a settled staker paid.
    Reward(&'a RewardNote),
}

impl Item<'_> {
    fn tx(&self) -> Option<Id> {
        match self {
            Item::Stake(tx, _) => Some(*tx),
            Item::Validator(ValidatorItem::Reward(r)) | Item::Address(AddressItem::Reward(r)) => {
                Some(r.tx)
            }
            Item::Validator(ValidatorItem::L1(l)) => l.tx,
            Item::Address(AddressItem::Balance { tx, .. }) => Some(*tx),
        }
    }
}

/// The container's event sources in order: the journals' notes as derived (a tx's UTXOs as one
/// source, where its first appears), each staking tx of `decided` just before the first
/// source of the same tx (or last, when none has it). `typed` names the other chains' txs.
pub(crate) fn items<'a>(
    decided: &[(Id, &UnsignedTx)],
    typed: &HashMap<Id, &'static str>,
    notes: &'a [Note],
) -> Vec<Item<'a>> {
    let mut types: HashMap<Id, &'static str> =
        decided.iter().map(|(id, t)| (*id, t.type_name())).collect();
    types.extend(typed);
    let mut out: Vec<Item<'a>> = Vec::new();
    let mut balance: HashMap<Id, usize> = HashMap::new();
    let mut late: HashMap<Id, usize> = HashMap::new();
    for note in notes {
        match note {
            Note::Utxo(u) => {
                if let Some(Item::Address(AddressItem::Balance { utxos, .. })) =
                    balance.get(&u.tx).and_then(|i| out.get_mut(*i))
                {
                    utxos.push(u);
                    continue;
                }
                let rewarded = notes
                    .iter()
                    .any(|n| matches!(n, Note::Room(PNote::Reward(r)) if r.tx == u.tx));
                let tx_type = types
                    .get(&u.tx)
                    .copied()
                    .or(rewarded.then_some("RewardValidatorTx"));
                balance.insert(u.tx, out.len());
                out.push(Item::Address(AddressItem::Balance {
                    chain: u.chain,
                    tx: u.tx,
                    late: None,
                    tx_type,
                    utxos: vec![u],
                }));
            }
            Note::Room(PNote::Reward(r)) => {
                out.push(Item::Validator(ValidatorItem::Reward(r)));
                out.push(Item::Address(AddressItem::Reward(r)));
            }
            Note::Room(PNote::L1(l)) => out.push(Item::Validator(ValidatorItem::L1(l))),
            Note::LateImport {
                utxo,
                height,
                timestamp,
            } => {
                if let Some(Item::Address(AddressItem::Balance { utxos, .. })) =
                    late.get(&utxo.tx).and_then(|i| out.get_mut(*i))
                {
                    utxos.push(utxo);
                    continue;
                }
                late.insert(utxo.tx, out.len());
                out.push(Item::Address(AddressItem::Balance {
                    chain: utxo.chain,
                    tx: utxo.tx,
                    late: Some((*height, *timestamp)),
                    tx_type: Some("ImportTx"),
                    utxos: vec![utxo],
                }));
            }
        }
    }
    for (tx, unsigned) in decided {
        let Some(s) = stake(unsigned) else {
            continue;
        };
        let at = out
            .iter()
            .position(|i| i.tx() == Some(*tx))
            .unwrap_or(out.len());
        out.insert(at, Item::Stake(*tx, s));
    }
    out
}

/// A node id's bytes as the Data API writes it: `NodeID-…` when it is one of 20 bytes.
fn node_of(bytes: &[u8]) -> Option<NodeId> {
    <[u8; 20]>::try_from(bytes).ok().map(NodeId::from)
}

fn l1_sub_event(change: L1Change) -> (&'static str, &'static str) {
    match change {
        L1Change::BalanceIncreased { .. } => (L1_BALANCE_INCREASED, "IncreaseL1ValidatorBalanceTx"),
        L1Change::Disabled | L1Change::Exhausted => (L1_DISABLED, "DisableL1ValidatorTx"),
        L1Change::Removed => (L1_REMOVED, "SetL1ValidatorWeightTx"),
    }
}

fn payout(p: &Payout, at: &BlockAt<'_>) -> Value {
    let addresses: Vec<String> = p.owners.iter().map(|a| at.address(a)).collect();
    json!({"utxoId": p.utxo.to_string(), "rewardType": p.kind,
           "amount": p.amount.to_string(), "addresses": addresses})
}

/// A reward's `event`, listing the payouts `keep` keeps.
fn reward_event(
    r: &RewardNote,
    at: &BlockAt<'_>,
    chain_id: Option<&str>,
    keep: impl Fn(&Payout) -> bool,
) -> Option<Value> {
    let rewards: Vec<Value> = r
        .payouts
        .iter()
        .filter(|p| keep(p))
        .map(|p| payout(p, at))
        .collect();
    if chain_id.is_some() && rewards.is_empty() {
        return None;
    }
    let mut e = Map::new();
    e.insert("subEventType".into(), json!(REWARD_DISTRIBUTION));
    if let Some(c) = chain_id {
        e.insert("chainId".into(), json!(c));
    }
    e.insert("txHash".into(), json!(r.tx.to_string()));
    e.insert("txType".into(), json!("RewardValidatorTx"));
    at.fields(&mut e);
    e.insert("stakingTxHash".into(), json!(r.staker_tx.to_string()));
    let staker = if r.kind.validates() {
        "validator"
    } else {
        "delegator"
    };
    e.insert("stakerType".into(), json!(staker));
    e.insert("nodeId".into(), json!(r.node.to_string()));
    e.insert("subnetId".into(), json!(r.subnet.to_string()));
    e.insert("startTimestamp".into(), json!(r.start));
    e.insert("endTimestamp".into(), json!(r.end));
    e.insert("amountStaked".into(), json!(r.weight.to_string()));
    e.insert("rewarded".into(), json!(r.rewarded));
    e.insert("rewards".into(), Value::Array(rewards));
    Some(Value::Object(e))
}

fn delivery(sub: &Sub, event_type: &str, message: String, event: Value) -> Value {
    json!({"webhookId": sub.webhook.id, "eventType": event_type, "messageId": message,
           "event": event})
}

impl ValidatorItem<'_> {
    /// What a `validator_activity` webhook is looked up by.
    pub(crate) fn keys(&self) -> Vec<Key> {
        match self {
            ValidatorItem::Reward(r) => vec![Key::Node(r.node), Key::Subnet(r.subnet)],
            ValidatorItem::L1(l) => {
                let mut keys = vec![Key::Subnet(l.subnet)];
                keys.extend(node_of(&l.node).map(Key::Node));
                keys
            }
        }
    }

    /// The delivery for `sub`, if it wants this.
    pub(crate) fn body(&self, sub: &Sub, at: &BlockAt<'_>) -> Option<Value> {
        let watch = sub.webhook.validator.as_ref()?;
        let id = &sub.webhook.id;
        match self {
            ValidatorItem::Reward(r) => {
                if !watch.wants(REWARD_DISTRIBUTION, Some(r.node), r.subnet) {
                    return None;
                }
                let event = reward_event(r, at, None, |_| true)?;
                let message = message_id(id, &r.tx, REWARD_DISTRIBUTION);
                Some(delivery(sub, VALIDATOR_ACTIVITY, message, event))
            }
            ValidatorItem::L1(l) => {
                let (sub_event, tx_type) = l1_sub_event(l.change);
                let node = node_of(&l.node);
                if !watch.wants(sub_event, node, l.subnet) {
                    return None;
                }
                let mut e = Map::new();
                e.insert("subEventType".into(), json!(sub_event));
                let message = match l.tx {
                    Some(tx) => {
                        e.insert("txHash".into(), json!(tx.to_string()));
                        e.insert("txType".into(), json!(tx_type));
                        message_id(id, &tx, sub_event)
                    }
                    None => {
                        let height = at.height.unwrap_or_default();
                        message_id(id, &l.validation_id, &format!("{sub_event}@{height}"))
                    }
                };
                at.fields(&mut e);
                e.insert("validationId".into(), json!(l.validation_id.to_string()));
                let node_text =
                    node.map_or_else(|| format!("0x{}", hex::encode(&l.node)), |n| n.to_string());
                e.insert("nodeId".into(), json!(node_text));
                e.insert("subnetId".into(), json!(l.subnet.to_string()));
                if let L1Change::BalanceIncreased { amount } = l.change {
                    e.insert("amountAdded".into(), json!(amount.to_string()));
                }
                if l.change == L1Change::Exhausted {
                    e.insert("reason".into(), json!("balance_exhausted"));
                }
                e.insert("remainingBalance".into(), json!(l.balance.to_string()));
                if l.refunded > 0 {
                    e.insert("refunded".into(), json!(l.refunded.to_string()));
                }
                Some(delivery(sub, VALIDATOR_ACTIVITY, message, Value::Object(e)))
            }
        }
    }
}

/// One address's movement of one asset in a tx.
#[derive(Debug, Default, Clone, Copy)]
struct Moved {
    consumed: u128,
    produced: u128,
    staked: u128,
    exported: u128,
}

impl AddressItem<'_> {
    /// The addresses a webhook is looked up by.
    pub(crate) fn owners(&self) -> Vec<&ShortId> {
        match self {
            AddressItem::Balance { utxos, .. } => {
                utxos.iter().flat_map(|u| u.owners.iter()).collect()
            }
            AddressItem::Reward(r) => r.payouts.iter().flat_map(|p| p.owners.iter()).collect(),
        }
    }

    /// The delivery for `sub`, if it wants this: a webhook watches one chain's txs (the
    /// P-Chain's `p_chain` alone pays rewards).
    pub(crate) fn body(&self, sub: &Sub, at: &BlockAt<'_>, p_chain: &Id) -> Option<Value> {
        let watch = sub.webhook.primary.as_ref()?;
        let id = &sub.webhook.id;
        let watched = |owners: &[ShortId]| owners.iter().any(|o| watch.addresses.contains(o));
        let chain = match self {
            AddressItem::Reward(_) => p_chain,
            AddressItem::Balance { chain, .. } => chain,
        };
        if watch.chain_id != chain.to_string() {
            return None;
        }
        match self {
            AddressItem::Reward(r) => {
                if !watch.wants(REWARD_DISTRIBUTION) {
                    return None;
                }
                let event = reward_event(r, at, Some(&watch.chain_id), |p| watched(&p.owners))?;
                let message = message_id(id, &r.tx, REWARD_DISTRIBUTION);
                Some(delivery(
                    sub,
                    PRIMARY_NETWORK_ADDRESS_ACTIVITY,
                    message,
                    event,
                ))
            }
            AddressItem::Balance {
                tx,
                late,
                tx_type,
                utxos,
                ..
            } => {
                if !watch.wants(BALANCE_CHANGE) {
                    return None;
                }
                let mut changes = Vec::new();
                for a in &watch.addresses {
                    let mut by_asset: BTreeMap<String, Moved> = BTreeMap::new();
                    for u in utxos.iter().filter(|u| u.owners.contains(a)) {
                        let m = by_asset.entry(u.asset.to_string()).or_default();
                        let amount = u128::from(u.amount);
                        match (u.created, u.staked, u.shared) {
                            (false, _, _) => m.consumed += amount,
                            (true, true, _) => m.staked += amount,
                            (true, false, true) => m.exported += amount,
                            (true, false, false) => m.produced += amount,
                        }
                    }
                    for (asset, m) in by_asset {
                        changes.push(json!({
                            "address": at.address(a), "assetId": asset,
                            "consumed": m.consumed.to_string(), "produced": m.produced.to_string(),
                            "staked": m.staked.to_string(), "exported": m.exported.to_string()}));
                    }
                }
                if changes.is_empty() {
                    return None;
                }
                let mut e = Map::new();
                e.insert("subEventType".into(), json!(BALANCE_CHANGE));
                e.insert("chainId".into(), json!(watch.chain_id));
                e.insert("txHash".into(), json!(tx.to_string()));
                if let Some(t) = tx_type {
                    e.insert("txType".into(), json!(t));
                }
                let message = match late {
                    None => {
                        at.fields(&mut e);
                        message_id(id, tx, BALANCE_CHANGE)
                    }
                    Some((height, timestamp)) => {
                        if let Some(height) = height {
                            e.insert("blockNumber".into(), json!(height.to_string()));
                        }
                        e.insert("blockTimestamp".into(), json!(timestamp));
                        e.insert("late".into(), json!(true));
                        let first = utxos.first().map(|u| u.utxo.to_string());
                        let part = format!("{BALANCE_CHANGE}/late/{}", first.unwrap_or_default());
                        message_id(id, tx, &part)
                    }
                };
                e.insert("balanceChanges".into(), Value::Array(changes));
                Some(delivery(
                    sub,
                    PRIMARY_NETWORK_ADDRESS_ACTIVITY,
                    message,
                    Value::Object(e),
                ))
            }
        }
    }
}
