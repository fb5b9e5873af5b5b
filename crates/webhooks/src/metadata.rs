//! The checks the Primary Network webhooks' requests share (`validator_activity`'s
//! `ValidatorActivityMetadata`, `primary_network_address_activity`'s
//! `PrimaryNetworkAddressActivityMetadata`): the body read, `eventSignatures` refused, the
//! sub-events checked against the OpenAPI's enumeration and what this server derives, and the
//! error naming the field.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::WebhookError;

/// A 400 naming `metadata.field`.
pub(crate) fn invalid(field: &str, why: impl std::fmt::Display) -> WebhookError {
    WebhookError::invalid(format!("Invalid metadata.{field}: {why}"))
}

/// The request's `metadata` read as `T`, with `eventSignatures` (which only EVM activity
/// has) refused unless absent or empty: `signatures` reads them from `T`.
pub(crate) fn read<T: DeserializeOwned>(
    metadata: Value,
    signatures: impl FnOnce(&T) -> Option<&Vec<String>>,
) -> Result<T, WebhookError> {
    let m: T = serde_json::from_value(metadata)
        .map_err(|e| WebhookError::invalid(format!("Invalid metadata: {e}")))?;
    if signatures(&m).is_some_and(|s| !s.is_empty()) {
        return Err(invalid(
            "eventSignatures",
            "Primary Network activity has no event signatures; omit it or send []",
        ));
    }
    Ok(m)
}

/// The sub-events `given` at `metadata.field`, in the order given without duplicates: each of
/// the OpenAPI's enumeration `enumerated` and derived here (`derived`), at least one.
pub(crate) fn sub_events(
    given: &[String],
    field: &str,
    enumerated: &[&str],
    derived: &[&str],
) -> Result<Vec<String>, WebhookError> {
    let mut out: Vec<String> = Vec::new();
    for s in given {
        if !enumerated.contains(&s.as_str()) {
            return Err(invalid(
                field,
                format!("must be among {enumerated:?}, got {s:?}"),
            ));
        }
        if !derived.contains(&s.as_str()) {
            return Err(invalid(
                field,
                format!("{s:?} is not delivered by this server yet; {derived:?} are"),
            ));
        }
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    if out.is_empty() {
        return Err(invalid(field, "name at least one sub-event"));
    }
    Ok(out)
}
