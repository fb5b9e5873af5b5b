//! The webhook record as stored, the requests that create and change one (the OpenAPI's
//! `EVMAddressActivityRequest`, `ValidatorActivityRequest`, `UpdateWebhookRequest`,
//! `AddressesChangeRequest`) and the answer the operations render
//! (`EVMAddressActivityResponse`, `ValidatorActivityResponse`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use snowline_types::evm::{Address, B256};

use crate::error::WebhookError;
use crate::pnaddress::{AddressWatch, PRIMARY_NETWORK_ADDRESS_ACTIVITY};
use crate::validator::{VALIDATOR_ACTIVITY, ValidatorWatch};

/// The EVM event type.
pub const ADDRESS_ACTIVITY: &str = "address_activity";

/// The OpenAPI's `WebhookStatusType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Events are queued and delivered.
    Active,
    /// Nothing is queued or delivered.
    Inactive,
}

impl Status {
    /// Parses `active` or `inactive`.
    pub fn parse(raw: &str) -> Option<Status> {
        match raw {
            "active" => Some(Status::Active),
            "inactive" => Some(Status::Inactive),
            _ => None,
        }
    }
}

/// A webhook as the store keeps it (JSON in `wh_webhooks`); its addresses are rows of their own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    /// Time-ordered UUID.
    pub id: String,
    /// The organisation of the API key that created it.
    pub org_id: String,
    /// Where events are POSTed.
    pub url: String,
    /// The EVM chain watched.
    pub chain_id: u64,
    /// Free text.
    pub name: String,
    /// Free text.
    pub description: String,
    /// Whether events are queued and delivered.
    pub status: Status,
    /// Creation time, Unix seconds.
    pub created_at: u64,
    /// Whether a delivery lists the tx's internal transactions.
    pub include_internal_txs: bool,
    /// Whether a delivery lists the tx's logs.
    pub include_logs: bool,
    /// `metadata.eventSignatures`: when not empty, only a tx with a log whose first topic is
    /// one of these is delivered (a record written before the field existed has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub event_signatures: Vec<B256>,
    /// What a `validator_activity` webhook watches (`None`: an `address_activity` one, of the
    /// EVM chain `chain_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator: Option<ValidatorWatch>,
    /// What a `primary_network_address_activity` webhook watches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary: Option<AddressWatch>,
    /// The key its address rows are stored under (`wh_addresses`), shared with every webhook
    /// watching the same addresses: the set's [`crate::AddressSet::key`]. Absent for a webhook
    /// without addresses, and for one written before sets were shared, whose rows are under its
    /// id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_set: Option<String>,
}

impl Webhook {
    /// The key of its rows in `wh_addresses`.
    pub fn rows_key(&self) -> &str {
        self.address_set.as_deref().unwrap_or(&self.id)
    }

    /// Whether its deliveries need every log of the txs they describe.
    pub fn needs_logs(&self) -> bool {
        self.is_evm() && (self.include_logs || !self.event_signatures.is_empty())
    }

    /// Whether it is an `address_activity` webhook of an EVM chain.
    pub fn is_evm(&self) -> bool {
        self.validator.is_none() && self.primary.is_none()
    }
}

/// `POST /v1/webhooks`'s body (every event type's fields; which are required depends on it).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateRequest {
    /// `address_activity` or `validator_activity`.
    pub event_type: String,
    /// Where to deliver.
    pub url: String,
    /// `address_activity`: the EVM chain id, as a decimal string.
    pub chain_id: Option<String>,
    /// `validator_activity`: the network (this server's).
    pub network: Option<String>,
    /// Free text.
    pub name: Option<String>,
    /// Free text.
    pub description: Option<String>,
    /// What to watch: [`Metadata`] for `address_activity`, `ValidatorActivityMetadata` for
    /// `validator_activity`.
    pub metadata: Option<Value>,
    /// List internal transactions in deliveries.
    pub include_internal_txs: Option<bool>,
    /// List logs in deliveries.
    pub include_logs: Option<bool>,
}

/// The OpenAPI's `AddressActivityMetadata`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// The addresses watched.
    pub addresses: Option<Vec<String>>,
    /// Topic-0 filter: only txs with a log whose first topic is one of these.
    pub event_signatures: Option<Vec<String>>,
}

/// `PATCH /v1/webhooks/{id}`'s body: each present field replaces the stored one.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateRequest {
    /// New name.
    pub name: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// New URL (checked as at creation).
    pub url: Option<String>,
    /// `active` or `inactive`.
    pub status: Option<String>,
    /// New flag.
    pub include_internal_txs: Option<bool>,
    /// New flag.
    pub include_logs: Option<bool>,
}

/// `AddressesChangeRequest`.
#[derive(Debug, Deserialize)]
pub struct AddressesChange {
    /// Addresses to add or remove.
    pub addresses: Vec<String>,
}

/// The OpenAPI's `EVMAddressActivityResponse` or `ValidatorActivityResponse`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookResponse {
    /// Id.
    pub id: String,
    /// Delivery URL.
    pub url: String,
    /// EVM chain id, decimal; the P-Chain's id for `validator_activity`.
    pub chain_id: String,
    /// `active` or `inactive`.
    pub status: Status,
    /// Unix seconds.
    pub created_at: u64,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// `address_activity` or `validator_activity`.
    pub event_type: &'static str,
    /// What is watched: `AddressActivityMetadata` or `ValidatorActivityMetadata`.
    pub metadata: Value,
    /// Flag (`address_activity` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_internal_txs: Option<bool>,
    /// Flag (`address_activity` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_logs: Option<bool>,
}

/// `AddressActivityMetadata` as answered.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponseMetadata {
    /// EIP-55 checksummed, in address order.
    pub addresses: Vec<String>,
    /// The topic-0 filter, lowercase hex, as given (omitted when there is none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub event_signatures: Vec<String>,
}

impl Webhook {
    /// The answer for this webhook watching `addresses`.
    pub fn response(&self, addresses: &[Address]) -> WebhookResponse {
        let mut r = WebhookResponse {
            id: self.id.clone(),
            url: self.url.clone(),
            chain_id: self.chain_id.to_string(),
            status: self.status,
            created_at: self.created_at,
            name: self.name.clone(),
            description: self.description.clone(),
            event_type: ADDRESS_ACTIVITY,
            metadata: Value::Null,
            include_internal_txs: Some(self.include_internal_txs),
            include_logs: Some(self.include_logs),
        };
        match (&self.validator, &self.primary) {
            (Some(v), _) => {
                r.chain_id = v.chain_id.clone();
                r.event_type = VALIDATOR_ACTIVITY;
                r.metadata = v.metadata();
                r.include_internal_txs = None;
                r.include_logs = None;
            }
            (None, Some(p)) => {
                r.chain_id = p.chain_id.clone();
                r.event_type = PRIMARY_NETWORK_ADDRESS_ACTIVITY;
                r.metadata = p.metadata();
                r.include_internal_txs = None;
                r.include_logs = None;
            }
            (None, None) => {
                let m = ResponseMetadata {
                    addresses: addresses.iter().map(|a| a.to_checksum(None)).collect(),
                    event_signatures: self
                        .event_signatures
                        .iter()
                        .map(|s| format!("{s:#x}"))
                        .collect(),
                };
                r.metadata = serde_json::to_value(m).unwrap_or(Value::Null);
            }
        }
        r
    }
}

/// Checks `eventType`: each of the OpenAPI's three.
pub fn check_event_type(raw: &str) -> Result<(), WebhookError> {
    if [
        ADDRESS_ACTIVITY,
        VALIDATOR_ACTIVITY,
        PRIMARY_NETWORK_ADDRESS_ACTIVITY,
    ]
    .contains(&raw)
    {
        Ok(())
    } else {
        Err(WebhookError::invalid(format!(
            "Invalid eventType: must be one of \"address_activity\", \
             \"primary_network_address_activity\", \"validator_activity\", got {raw:?}"
        )))
    }
}

/// An EVM address: `0x` and 40 hex digits (any case; a mixed-case one is not checked as EIP-55).
pub fn parse_address(raw: &str) -> Result<Address, WebhookError> {
    let bad = || {
        WebhookError::invalid(format!(
            "Invalid address: must be 0x followed by 40 hex digits, got {raw:?}"
        ))
    };
    let digits = raw.strip_prefix("0x").ok_or_else(bad)?;
    if digits.len() != 40 {
        return Err(bad());
    }
    let mut bytes = [0u8; 20];
    hex::decode_to_slice(digits, &mut bytes).map_err(|_| bad())?;
    Ok(Address::from(bytes))
}

/// Most event signatures a webhook may filter on.
pub const MAX_EVENT_SIGNATURES: usize = 100;

/// `metadata.eventSignatures`: each `0x` and 64 hex digits (a log's first topic, the keccak-256
/// of the event's signature, as the Solidity ABI specification defines it), duplicates dropped,
/// order kept.
pub fn parse_event_signatures(raw: &[String]) -> Result<Vec<B256>, WebhookError> {
    if raw.len() > MAX_EVENT_SIGNATURES {
        return Err(WebhookError::invalid(format!(
            "Invalid metadata.eventSignatures: at most {MAX_EVENT_SIGNATURES}"
        )));
    }
    let mut out: Vec<B256> = Vec::with_capacity(raw.len());
    for one in raw {
        let bad = || {
            WebhookError::invalid(format!(
                "Invalid metadata.eventSignatures: each must be 0x followed by 64 hex digits \
                 (a log's first topic), got {one:?}"
            ))
        };
        let digits = one.strip_prefix("0x").ok_or_else(bad)?;
        if digits.len() != 64 {
            return Err(bad());
        }
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(digits, &mut bytes).map_err(|_| bad())?;
        let sig = B256::from(bytes);
        if !out.contains(&sig) {
            out.push(sig);
        }
    }
    Ok(out)
}

/// A checked free-text field: at most `max` characters.
pub fn text(field: &str, value: Option<String>, max: usize) -> Result<String, WebhookError> {
    let value = value.unwrap_or_default();
    if value.chars().count() > max {
        return Err(WebhookError::invalid(format!(
            "Invalid {field}: at most {max} characters"
        )));
    }
    Ok(value)
}

/// 16 bytes as a UUID's text.
pub fn uuid_text(b: &[u8; 16]) -> String {
    let h = hex::encode(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_strictly() {
        let a = parse_address("0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E").ok();
        // The OpenAPI's example address, EIP-55 checksummed as given.
        assert_eq!(
            a.map(|a| a.to_checksum(None)).as_deref(),
            Some("0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E")
        );
        for raw in [
            "",
            "0x",
            "B97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
            "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6",
            "0xZ97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
        ] {
            assert!(parse_address(raw).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn event_signatures_are_log_topics() {
        // keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event's topic 0
        // (EIP-20; also the OpenAPI's `Log.topic0` example is a topic of this shape).
        let transfer = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
        assert_eq!(
            snowline_types::evm::keccak256(b"Transfer(address,address,uint256)"),
            parse_event_signatures(&[transfer.to_owned()]).unwrap()[0]
        );
        let upper = transfer.to_uppercase().replacen("0X", "0x", 1);
        let twice = parse_event_signatures(&[transfer.to_owned(), upper]).unwrap();
        assert_eq!(twice.len(), 1);
        for raw in [
            "",
            "0x",
            &transfer[2..],
            &transfer[..65],
            &format!("{transfer}00"),
        ] {
            assert!(
                parse_event_signatures(&[raw.to_owned()]).is_err(),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn event_types_are_the_openapis() {
        assert!(check_event_type("address_activity").is_ok());
        assert!(check_event_type("validator_activity").is_ok());
        assert!(check_event_type("primary_network_address_activity").is_ok());
        let e = check_event_type("x").err().map(|e| e.to_string());
        assert!(e.is_some_and(|m| m.contains("must be one of")));
    }
}
