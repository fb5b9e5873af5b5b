//! `validator_activity` webhooks: what one watches (the OpenAPI's `ValidatorActivityMetadata`:
//! a node or a subnet, sub-events, optional node and subnet filters), checked from the request
//! and answered back.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use snowline_types::platformvm::UnsignedTx;
use snowline_types::{Id, NodeId};

use crate::error::WebhookError;
use crate::metadata::{invalid, read, sub_events};

/// The event type.
pub const VALIDATOR_ACTIVITY: &str = "validator_activity";

/// `validator_stake`: a validator's staking tx (primary network or subnet) was accepted.
pub const VALIDATOR_STAKE: &str = "validator_stake";
/// `delegator_stake`: a delegator's staking tx was accepted.
pub const DELEGATOR_STAKE: &str = "delegator_stake";

/// `reward_distribution`: a staker's period ended and its `RewardValidatorTx` was decided.
pub const REWARD_DISTRIBUTION: &str = "reward_distribution";
/// `l1_validator_balance_increased`: an `IncreaseL1ValidatorBalanceTx` was accepted.
pub const L1_BALANCE_INCREASED: &str = "l1_validator_balance_increased";
/// `l1_validator_disabled`: a `DisableL1ValidatorTx` was accepted, or the balance ran out.
pub const L1_DISABLED: &str = "l1_validator_disabled";
/// `l1_validator_removed`: a `SetL1ValidatorWeightTx` set the weight to 0.
pub const L1_REMOVED: &str = "l1_validator_removed";

/// The sub-events this server derives.
const DERIVED: [&str; 6] = [
    VALIDATOR_STAKE,
    DELEGATOR_STAKE,
    REWARD_DISTRIBUTION,
    L1_BALANCE_INCREASED,
    L1_DISABLED,
    L1_REMOVED,
];

/// The OpenAPI's `ValidatorActivitySubEvents` enumeration.
const ENUMERATED: [&str; 7] = [
    VALIDATOR_STAKE,
    DELEGATOR_STAKE,
    "reward_distribution",
    "l1_validator_balance_increased",
    "l1_validator_disabled",
    "l1_validator_removed",
    "l1_validator_balance_threshold",
];

/// The OpenAPI's `ValidatorActivityKeyType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyType {
    /// Watches one node.
    #[serde(rename = "nodeId")]
    NodeId,
    /// Watches one subnet.
    #[serde(rename = "subnetId")]
    SubnetId,
}

/// What a staking tx is watched by: its node or its subnet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// A node.
    Node(NodeId),
    /// A subnet (the primary network's id is all zeros).
    Subnet(Id),
}

/// What a `validator_activity` webhook watches, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorWatch {
    /// The network named at creation (this server's).
    pub network: String,
    /// The P-Chain's id, answered as the webhook's `chainId`.
    pub chain_id: String,
    /// Node or subnet.
    pub key_type: KeyType,
    /// The one node or subnet watched.
    pub key: Key,
    /// The sub-events delivered, in the order given, without duplicates.
    pub sub_events: Vec<String>,
    /// When not empty, only stakes of these nodes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub node_ids: Vec<NodeId>,
    /// When not empty, only stakes on these subnets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subnet_ids: Vec<Id>,
}

impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Key::Node(n) => n.serialize(s),
            Key::Subnet(id) => id.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        parse_key(&raw).map_err(serde::de::Error::custom)
    }
}

/// A node id (`NodeID-` and CB58) or a subnet id (CB58).
fn parse_key(raw: &str) -> Result<Key, String> {
    if raw.starts_with("NodeID-") {
        raw.parse::<NodeId>()
            .map(Key::Node)
            .map_err(|e| e.to_string())
    } else {
        raw.parse::<Id>()
            .map(Key::Subnet)
            .map_err(|e| e.to_string())
    }
}

impl ValidatorWatch {
    /// Whether sub-event `sub_event` of `node` (an L1 validator's node id may not be one of
    /// 20 bytes: `None`) on `subnet` is delivered.
    pub fn wants(&self, sub_event: &str, node: Option<NodeId>, subnet: Id) -> bool {
        let keyed = match self.key {
            Key::Node(n) => node == Some(n),
            Key::Subnet(s) => s == subnet,
        };
        keyed
            && self.sub_events.iter().any(|s| s == sub_event)
            && (self.node_ids.is_empty() || node.is_some_and(|n| self.node_ids.contains(&n)))
            && (self.subnet_ids.is_empty() || self.subnet_ids.contains(&subnet))
    }

    /// The OpenAPI's `ValidatorActivityMetadata` as answered.
    pub fn metadata(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("keyType".into(), serde_json::json!(self.key_type));
        m.insert("keys".into(), serde_json::json!([self.key]));
        m.insert(
            "subEvents".into(),
            serde_json::json!({"validatorActivitySubEvents": self.sub_events}),
        );
        if !self.node_ids.is_empty() {
            m.insert("nodeIds".into(), serde_json::json!(self.node_ids));
        }
        if !self.subnet_ids.is_empty() {
            m.insert("subnetIds".into(), serde_json::json!(self.subnet_ids));
        }
        Value::Object(m)
    }
}

/// The request's `ValidatorActivityMetadata`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    event_signatures: Option<Vec<String>>,
    key_type: String,
    keys: Vec<String>,
    sub_events: SubEvents,
    node_ids: Option<Vec<String>>,
    subnet_ids: Option<Vec<String>>,
    l1_validator_fee_balance_threshold: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SubEvents {
    validator_activity_sub_events: Vec<String>,
}

/// Checks a `validator_activity` request's `metadata` for network `network` (whose P-Chain is
/// `chain_id`).
pub fn parse_watch(
    metadata: Value,
    network: &str,
    chain_id: &str,
) -> Result<ValidatorWatch, WebhookError> {
    let m: Metadata = read(metadata, |m: &Metadata| m.event_signatures.as_ref())?;
    if m.l1_validator_fee_balance_threshold.is_some() {
        return Err(invalid(
            "l1ValidatorFeeBalanceThreshold",
            "the l1_validator_balance_threshold sub-event is not delivered by this server yet",
        ));
    }
    let key_type = match m.key_type.as_str() {
        "nodeId" => KeyType::NodeId,
        "subnetId" => KeyType::SubnetId,
        other => {
            return Err(invalid(
                "keyType",
                format!("must be \"nodeId\" or \"subnetId\", got {other:?}"),
            ));
        }
    };
    let [raw] = m.keys.as_slice() else {
        return Err(invalid(
            "keys",
            format!(
                "a validator_activity webhook watches exactly one key, got {}",
                m.keys.len()
            ),
        ));
    };
    let key = match key_type {
        KeyType::NodeId => raw.parse::<NodeId>().map(Key::Node).map_err(|e| {
            invalid(
                "keys",
                format!("{raw:?} is not a node id (NodeID-...): {e}"),
            )
        })?,
        KeyType::SubnetId => raw
            .parse::<Id>()
            .map(Key::Subnet)
            .map_err(|e| invalid("keys", format!("{raw:?} is not a subnet id: {e}")))?,
    };
    let sub_events = sub_events(
        &m.sub_events.validator_activity_sub_events,
        "subEvents.validatorActivitySubEvents",
        &ENUMERATED,
        &DERIVED,
    )?;
    let node_ids = m
        .node_ids
        .unwrap_or_default()
        .iter()
        .map(|n| {
            n.parse::<NodeId>()
                .map_err(|e| invalid("nodeIds", format!("{n:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let subnet_ids = m
        .subnet_ids
        .unwrap_or_default()
        .iter()
        .map(|n| {
            n.parse::<Id>()
                .map_err(|e| invalid("subnetIds", format!("{n:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ValidatorWatch {
        network: network.to_owned(),
        chain_id: chain_id.to_owned(),
        key_type,
        key,
        sub_events,
        node_ids,
        subnet_ids,
    })
}

/// One staking tx as a webhook sees it.
#[derive(Debug, Clone, Copy)]
pub struct Stake {
    /// `validator_stake` or `delegator_stake`.
    pub sub_event: &'static str,
    /// The tx's Go type name.
    pub tx_type: &'static str,
    /// The node validated or delegated to.
    pub node: NodeId,
    /// The subnet (the primary network's is all zeros).
    pub subnet: Id,
    /// Start, Unix seconds (as the tx states it; a Durango tx starts at acceptance).
    pub start: u64,
    /// End, Unix seconds.
    pub end: u64,
    /// Weight: nAVAX staked on the primary network, the weight on a subnet.
    pub weight: u64,
    /// Validators of the primary network: the delegation fee, millionths.
    pub shares: Option<u32>,
}

/// The stake `tx` adds, if it is a staking tx.
pub fn stake(tx: &UnsignedTx) -> Option<Stake> {
    let primary = Id::EMPTY;
    let (sub_event, v, subnet, shares) = match tx {
        UnsignedTx::AddValidatorTx(t) => (
            VALIDATOR_STAKE,
            &t.validator,
            primary,
            Some(t.delegation_shares),
        ),
        UnsignedTx::AddPermissionlessValidatorTx(t) => (
            VALIDATOR_STAKE,
            &t.validator,
            t.subnet_id,
            Some(t.delegation_shares),
        ),
        UnsignedTx::AddSubnetValidatorTx(t) => (
            VALIDATOR_STAKE,
            &t.validator.validator,
            t.validator.subnet_id,
            None,
        ),
        UnsignedTx::AddDelegatorTx(t) => (DELEGATOR_STAKE, &t.validator, primary, None),
        UnsignedTx::AddPermissionlessDelegatorTx(t) => {
            (DELEGATOR_STAKE, &t.validator, t.subnet_id, None)
        }
        _ => return None,
    };
    Some(Stake {
        sub_event,
        tx_type: tx.type_name(),
        node: v.node_id,
        subnet,
        start: v.start,
        end: v.end,
        weight: v.weight,
        shares,
    })
}
