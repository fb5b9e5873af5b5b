//! `primary_network_address_activity` webhooks: what one watches (the OpenAPI's
//! `PrimaryNetworkAddressActivityMetadata`: `keyType` `addresses`, the addresses, sub-events,
//! the `balance_threshold` filter), checked from the request and answered back.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use snowline_types::ShortId;
use snowline_types::address::{format_bech32, parse_bech32};

use crate::error::WebhookError;
use crate::metadata::{invalid, read, sub_events};

/// The event type.
pub const PRIMARY_NETWORK_ADDRESS_ACTIVITY: &str = "primary_network_address_activity";
/// `balance_change`: a tx consumed or produced a UTXO the address owns.
pub const BALANCE_CHANGE: &str = "balance_change";
/// `reward_distribution`: a staking reward UTXO was paid to the address.
pub const REWARD_DISTRIBUTION: &str = crate::validator::REWARD_DISTRIBUTION;

/// `balance_threshold`: the address's balance crossed the webhook's threshold.
pub const BALANCE_THRESHOLD: &str = "balance_threshold";
/// The one `balanceType` (of the OpenAPI's `CommonBalanceType`) a threshold watches.
pub const UNLOCKED: &str = "unlocked";

/// The sub-events this server derives.
const DERIVED: [&str; 3] = [BALANCE_CHANGE, BALANCE_THRESHOLD, REWARD_DISTRIBUTION];
/// The OpenAPI's `PrimaryNetworkAddressActivitySubEventType`.
const ENUMERATED: [&str; 3] = [BALANCE_CHANGE, BALANCE_THRESHOLD, REWARD_DISTRIBUTION];
/// The OpenAPI's `CommonBalanceType`.
const BALANCE_TYPES: [&str; 10] = [
    "unlockedUnstaked",
    "unlockedStaked",
    "lockedPlatform",
    "lockedStakeable",
    "lockedStaked",
    "pendingStaked",
    UNLOCKED,
    "locked",
    "atomicMemoryUnlocked",
    "atomicMemoryLocked",
];

/// What a `primary_network_address_activity` webhook watches, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddressWatch {
    /// The network named at creation (this server's).
    pub network: String,
    /// The chain watched (the P-Chain's id), answered as the webhook's `chainId`.
    pub chain_id: String,
    /// The network's bech32 HRP, in which addresses are answered.
    pub hrp: String,
    /// The addresses, in the order given, without duplicates.
    pub addresses: Vec<ShortId>,
    /// The sub-events delivered, in the order given, without duplicates.
    pub sub_events: Vec<String>,
    /// `balance_threshold`'s threshold, nAVAX of the `unlocked` balance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<u64>,
}

impl AddressWatch {
    /// Whether sub-event `sub_event` is delivered.
    pub fn wants(&self, sub_event: &str) -> bool {
        self.sub_events.iter().any(|s| s == sub_event)
    }

    /// `addr` in bech32 (`hrp1...`), as the Data API lists Primary Network addresses.
    pub fn text(&self, addr: &ShortId) -> String {
        format_bech32(&self.hrp, addr).unwrap_or_default()
    }

    /// The OpenAPI's `PrimaryNetworkAddressActivityMetadata` as answered.
    pub fn metadata(&self) -> Value {
        let keys: Vec<String> = self.addresses.iter().map(|a| self.text(a)).collect();
        let mut m = json!({"keyType": "addresses", "keys": keys,
               "subEvents": {"addressActivitySubEvents": self.sub_events}});
        if let Some(t) = self.threshold {
            m["balanceThresholdFilter"] =
                json!({"balanceType": UNLOCKED, "balanceThreshold": t.to_string()});
        }
        m
    }
}

/// The request's `PrimaryNetworkAddressActivityMetadata`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    event_signatures: Option<Vec<String>>,
    key_type: String,
    keys: Vec<String>,
    sub_events: SubEvents,
    balance_threshold_filter: Option<Filter>,
}

/// The request's `PrimaryNetworkBalanceThresholdFilter`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Filter {
    balance_type: String,
    balance_threshold: String,
}

/// Why a `CommonBalanceType` other than `unlocked` is refused: the threshold is kept from each
/// container's UTXO moves, and these kinds change with what those moves do not tell.
fn not_derived(balance_type: &str) -> &'static str {
    match balance_type {
        "unlockedUnstaked" | "unlockedStaked" | "lockedStaked" | "pendingStaked" => {
            "it moves with a stake's period (pending, started, returned), which the threshold, \
             kept from UTXO moves, does not follow yet"
        }
        "lockedPlatform" | "lockedStakeable" | "locked" => {
            "a locked UTXO leaves it when its lock passes, and time passing is no tx, so no \
             container marks the crossing"
        }
        _ => "the threshold does not keep atomic memory balances per address yet",
    }
}

/// The threshold of `filter`, for a chain that keeps UTXOs of its own when `thresholds`.
fn threshold(filter: Option<Filter>, thresholds: bool) -> Result<u64, WebhookError> {
    let field = "balanceThresholdFilter";
    if !thresholds {
        return Err(invalid(
            "subEvents.addressActivitySubEvents",
            "balance_threshold watches the P- and X-Chain's balances; the C-Chain keeps none",
        ));
    }
    let f = filter.ok_or_else(|| invalid(field, "required with balance_threshold"))?;
    if !BALANCE_TYPES.contains(&f.balance_type.as_str()) {
        return Err(invalid(
            "balanceThresholdFilter.balanceType",
            format!("must be among {BALANCE_TYPES:?}, got {:?}", f.balance_type),
        ));
    }
    if f.balance_type != UNLOCKED {
        return Err(invalid(
            "balanceThresholdFilter.balanceType",
            format!(
                "{:?} is not delivered by this server: {}; {UNLOCKED:?} is",
                f.balance_type,
                not_derived(&f.balance_type)
            ),
        ));
    }
    let t = &f.balance_threshold;
    t.parse::<u64>()
        .ok()
        .filter(|_| t.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            invalid(
                "balanceThresholdFilter.balanceThreshold",
                format!("must be nAVAX in decimal digits, got {t:?}"),
            )
        })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SubEvents {
    address_activity_sub_events: Vec<String>,
}

/// One address: `P-hrp1...` (or the X- or C-Chain's alias: the same key) or `hrp1...`, in
/// network `hrp`.
fn parse_key(raw: &str, hrp: &str) -> Result<ShortId, WebhookError> {
    let bech = raw.split_once('-').map_or(raw, |(_, b)| b);
    let (got, id) = parse_bech32(bech)
        .map_err(|e| invalid("keys", format!("{raw:?} is not a bech32 address: {e}")))?;
    if got != hrp {
        return Err(invalid(
            "keys",
            format!("{raw:?} is not an address of this network (hrp {hrp:?})"),
        ));
    }
    Ok(id)
}

/// Checks a `primary_network_address_activity` request's `metadata` for network `network`
/// (bech32 HRP `hrp`), chain `chain_id` (keeping UTXOs of its own, which `balance_threshold`
/// watches, when `thresholds`), at most `max` addresses.
pub fn parse_address_watch(
    metadata: Value,
    network: &str,
    (chain_id, thresholds): (&str, bool),
    hrp: &str,
    max: usize,
) -> Result<AddressWatch, WebhookError> {
    let m: Metadata = read(metadata, |m: &Metadata| m.event_signatures.as_ref())?;
    if m.key_type != "addresses" {
        return Err(invalid(
            "keyType",
            format!("must be \"addresses\", got {:?}", m.key_type),
        ));
    }
    if m.keys.is_empty() || m.keys.len() > max {
        return Err(invalid(
            "keys",
            format!("name 1 to {max} addresses, got {}", m.keys.len()),
        ));
    }
    let mut addresses = Vec::with_capacity(m.keys.len());
    for raw in &m.keys {
        let a = parse_key(raw, hrp)?;
        if !addresses.contains(&a) {
            addresses.push(a);
        }
    }
    let sub_events = sub_events(
        &m.sub_events.address_activity_sub_events,
        "subEvents.addressActivitySubEvents",
        &ENUMERATED,
        &DERIVED,
    )?;
    let threshold = if sub_events.iter().any(|s| s == BALANCE_THRESHOLD) {
        Some(threshold(m.balance_threshold_filter, thresholds)?)
    } else if m.balance_threshold_filter.is_some() {
        return Err(invalid(
            "balanceThresholdFilter",
            "is for the balance_threshold sub-event, which is not named",
        ));
    } else {
        None
    };
    Ok(AddressWatch {
        network: network.to_owned(),
        chain_id: chain_id.to_owned(),
        hrp: hrp.to_owned(),
        addresses,
        sub_events,
        threshold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(keys: &[&str], subs: &[&str]) -> Value {
        json!({"keyType": "addresses", "keys": keys,
               "subEvents": {"addressActivitySubEvents": subs}})
    }

    #[test]
    fn addresses_are_bech32_of_the_network() {
        // The encoding itself is checked against avalanchego's vectors in `snowline-types`;
        // here: either form of a key is the same address, and only this network's HRP.
        let zero = format_bech32("local", &ShortId::default()).unwrap_or_default();
        let w = parse_address_watch(
            metadata(&[&format!("P-{zero}"), &zero], &["balance_change"]),
            "local",
            ("p", true),
            "local",
            10,
        );
        let w = w.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(w.addresses, vec![ShortId::default()]);
        assert_eq!(w.metadata()["keys"], json!([zero]));
        let other = format_bech32("avax", &ShortId::default()).unwrap_or_default();
        for (bad, field) in [
            (metadata(&[&other], &["balance_change"]), "keys"),
            (metadata(&["P-nope"], &["balance_change"]), "keys"),
            (metadata(&[], &["balance_change"]), "keys"),
            (metadata(&[&zero], &["nope"]), "addressActivitySubEvents"),
            (metadata(&[&zero], &[]), "addressActivitySubEvents"),
        ] {
            let e = parse_address_watch(bad, "local", ("p", true), "local", 10)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(field), "{field}: {e}");
        }
    }

    #[test]
    fn a_threshold_is_unlocked_navax_on_a_chain_with_utxos() {
        // The shapes are the OpenAPI's `PrimaryNetworkBalanceThresholdFilter` (a
        // `CommonBalanceType` and a decimal string of nAVAX).
        let zero = format_bech32("local", &ShortId::default()).unwrap_or_default();
        let with = |filter: Value| {
            let mut m = metadata(&[&zero], &["balance_threshold"]);
            m["balanceThresholdFilter"] = filter;
            m
        };
        let ok = with(json!({"balanceType": "unlocked", "balanceThreshold": "1000"}));
        let w = parse_address_watch(ok.clone(), "local", ("x", true), "local", 10);
        let w = w.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(w.threshold, Some(1000));
        assert_eq!(
            w.metadata()["balanceThresholdFilter"],
            ok["balanceThresholdFilter"]
        );
        let filtered_change = {
            let mut m = metadata(&[&zero], &["balance_change"]);
            m["balanceThresholdFilter"] = ok["balanceThresholdFilter"].clone();
            m
        };
        for (bad, thresholds, field) in [
            (
                metadata(&[&zero], &["balance_threshold"]),
                true,
                "balanceThresholdFilter",
            ),
            (ok.clone(), false, "C-Chain"),
            (filtered_change, true, "balanceThresholdFilter"),
            (
                with(json!({"balanceType": "lockedStaked", "balanceThreshold": "1"})),
                true,
                "stake's period",
            ),
            (
                with(json!({"balanceType": "locked", "balanceThreshold": "1"})),
                true,
                "time passing is no tx",
            ),
            (
                with(json!({"balanceType": "atomicMemoryUnlocked", "balanceThreshold": "1"})),
                true,
                "atomic memory",
            ),
            (
                with(json!({"balanceType": "nope", "balanceThreshold": "1"})),
                true,
                "balanceType",
            ),
            (
                with(json!({"balanceType": "unlocked", "balanceThreshold": "-1"})),
                true,
                "balanceThreshold",
            ),
            (
                with(json!({"balanceType": "unlocked", "balanceThreshold": "1e9"})),
                true,
                "balanceThreshold",
            ),
        ] {
            let e = parse_address_watch(bad, "local", ("x", thresholds), "local", 10)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(field), "{field}: {e}");
        }
    }
}
