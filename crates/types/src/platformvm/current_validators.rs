//! `platform.getCurrentValidators` (avalanchego `vms/platformvm/service.md`): the arguments and
//! the parts of each current validator an indexer reads: its tx, node, period and weight, and
//! the answering node's view of it, `uptime` (percent, `json.Float32`: a decimal string with
//! four decimals) and `connected`. Members this record does not name are ignored when read.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::json_uint::JsonU64;
use crate::{Id, NodeId};

/// The method's arguments: the subnet (the primary network when absent) and the node ids to
/// keep (all when empty).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetCurrentValidatorsArgs {
    /// The subnet whose validators are asked for.
    #[serde(rename = "subnetID", default, skip_serializing_if = "Option::is_none")]
    pub subnet_id: Option<Id>,
    /// Only these nodes.
    #[serde(rename = "nodeIDs", default, skip_serializing_if = "Vec::is_empty")]
    pub node_ids: Vec<NodeId>,
}

/// The method's result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GetCurrentValidatorsReply {
    /// The current validators.
    pub validators: Vec<CurrentValidator>,
}

/// One current validator as the answer carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurrentValidator {
    /// The staker tx.
    #[serde(rename = "txID")]
    pub tx_id: Id,
    /// Unix seconds.
    #[serde(rename = "startTime")]
    pub start_time: JsonU64,
    /// Unix seconds.
    #[serde(rename = "endTime")]
    pub end_time: JsonU64,
    /// The staked amount (avalanchego names it `weight`; `stakeAmount` is its deprecated twin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<JsonU64>,
    /// The node.
    #[serde(rename = "nodeID")]
    pub node_id: NodeId,
    /// The answering node's measure of the validator's uptime over its current period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uptime: Option<Uptime>,
    /// Whether the answering node is connected to it now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connected: Option<bool>,
}

/// An uptime percentage in ten-thousandths of a percent (`1_000_000` is 100 %), the precision
/// avalanchego's `json.Float32` renders (`"%.4f"`, `utils/json/float32.go`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uptime(pub u32);

impl Uptime {
    /// 100 %.
    pub const FULL: Uptime = Uptime(1_000_000);

    /// The uptime of `percent` (0 to 100), rounded to four decimals; `None` outside that range.
    pub fn from_percent(percent: f64) -> Option<Self> {
        (percent.is_finite() && (0.0..=100.0).contains(&percent))
            .then(|| Uptime((percent * 10_000.0).round() as u32))
    }

    /// The percentage.
    pub fn percent(self) -> f64 {
        f64::from(self.0) / 10_000.0
    }
}

impl fmt::Display for Uptime {
    /// As `json.Float32` renders it: four decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:04}", self.0 / 10_000, self.0 % 10_000)
    }
}

impl Serialize for Uptime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Uptime {
    /// A decimal string (what avalanchego sends) or a number, 0 to 100.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Number(f64),
        }
        let percent = match Raw::deserialize(d)? {
            Raw::Text(s) => s
                .trim()
                .parse::<f64>()
                .map_err(|_| serde::de::Error::custom(format!("uptime {s:?} is not a number")))?,
            Raw::Number(n) => n,
        };
        Uptime::from_percent(percent).ok_or_else(|| {
            serde::de::Error::custom(format!("uptime {percent} is not a percentage"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example answer of `platform.getCurrentValidators` in avalanchego
    /// `vms/platformvm/service.md` (v1.11), members this record does not read included.
    #[test]
    fn reads_avalanchegos_example_answer() {
        let raw = r#"{"validators":[{"txID":"2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm",
            "startTime":"1600368632","endTime":"1602960455","stakeAmount":"2000000000000",
            "nodeID":"NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD",
            "validationRewardOwner":{"locktime":"0","threshold":"1",
              "addresses":["P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"]},
            "potentialReward":"117431493426","delegationFee":"10.0000","uptime":"0.0000",
            "connected":false,"delegatorCount":"1","delegatorWeight":"25000000000"}]}"#;
        let r: GetCurrentValidatorsReply = serde_json::from_str(raw).unwrap();
        let v = &r.validators[0];
        assert_eq!(
            v.tx_id.to_string(),
            "2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm"
        );
        assert_eq!(
            v.node_id.to_string(),
            "NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD"
        );
        assert_eq!(
            (v.start_time.0, v.end_time.0),
            (1_600_368_632, 1_602_960_455)
        );
        assert_eq!(v.uptime, Some(Uptime(0)));
        assert_eq!(v.connected, Some(false));
        assert_eq!(v.weight, None);
    }

    /// `json.Float32` marshals with `strconv.FormatFloat(f, 'f', 4, 32)`: four decimals.
    #[test]
    fn uptime_has_four_decimals_both_ways() {
        let u: Uptime = serde_json::from_str(r#""99.8765""#).unwrap();
        assert_eq!(u, Uptime(998_765));
        assert_eq!(serde_json::to_string(&u).unwrap(), r#""99.8765""#);
        assert_eq!(Uptime::FULL.to_string(), "100.0000");
        assert_eq!(serde_json::from_str::<Uptime>("100").unwrap(), Uptime::FULL);
        assert!(serde_json::from_str::<Uptime>(r#""100.5""#).is_err());
        assert!(serde_json::from_str::<Uptime>(r#""-1""#).is_err());
        assert!(serde_json::from_str::<Uptime>(r#""up""#).is_err());
        assert!((Uptime(998_765).percent() - 99.8765).abs() < 1e-9);
    }
}
