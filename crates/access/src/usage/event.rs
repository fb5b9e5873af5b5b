//! One metered request, and its compact stored form.

use snowline_store::DecodeError;

use crate::bytes::{Reader, put_str, put_varint};

/// One request as metered by the REST edge.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UsageEvent {
    /// When the request arrived, ms since the Unix epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation (empty for anonymous callers).
    pub org_id: String,
    /// The key id used, empty for anonymous callers.
    pub api_key_id: String,
    /// The route template (`/v1/chains/{chainId}/...`), not the concrete path.
    pub request_path: String,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The chain the request was about; may be empty.
    pub chain_id: String,
    /// `data` or `rpc`.
    pub request_type: String,
    /// Time to answer, microseconds.
    pub latency_us: u64,
    /// Credits charged.
    pub credits_used: u64,
    /// Credits charged for a request that failed because of the caller (4xx).
    pub credits_wasted: u64,
}

/// An event borrowing its strings: what the request path records (so recording copies bytes
/// into the writer's queue and allocates nothing) and what aggregation reads from stored bytes
/// (so a scan does not allocate five strings per event). Fields as in [`UsageEvent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageEventRef<'a> {
    /// When the request arrived, ms since the Unix epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation (empty for anonymous callers).
    pub org_id: &'a str,
    /// The key id used, empty for anonymous callers.
    pub api_key_id: &'a str,
    /// The route template, not the concrete path.
    pub request_path: &'a str,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The chain the request was about; may be empty.
    pub chain_id: &'a str,
    /// `data` or `rpc`.
    pub request_type: &'a str,
    /// Time to answer, microseconds.
    pub latency_us: u64,
    /// Credits charged.
    pub credits_used: u64,
    /// Credits charged for a request that failed because of the caller (4xx).
    pub credits_wasted: u64,
}

impl UsageEvent {
    /// A borrowed view of this event.
    pub fn as_ref(&self) -> UsageEventRef<'_> {
        UsageEventRef {
            timestamp_ms: self.timestamp_ms,
            org_id: &self.org_id,
            api_key_id: &self.api_key_id,
            request_path: &self.request_path,
            response_code: self.response_code,
            chain_id: &self.chain_id,
            request_type: &self.request_type,
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
        }
    }
}

impl UsageEventRef<'_> {
    /// An owned copy.
    pub fn to_owned_event(self) -> UsageEvent {
        UsageEvent {
            timestamp_ms: self.timestamp_ms,
            org_id: self.org_id.to_owned(),
            api_key_id: self.api_key_id.to_owned(),
            request_path: self.request_path.to_owned(),
            response_code: self.response_code,
            chain_id: self.chain_id.to_owned(),
            request_type: self.request_type.to_owned(),
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
        }
    }
}

/// Decodes a stored value (see [`encode`]) as an event at `timestamp_ms`.
pub(crate) fn decode_ref(
    bytes: &[u8],
    timestamp_ms: u64,
) -> Result<UsageEventRef<'_>, DecodeError> {
    let mut r = Reader::new(bytes);
    let version = r.u8()?;
    if version != VERSION {
        return Err(DecodeError::Other(format!(
            "unknown usage event version {version}"
        )));
    }
    let response_code = u16::from_be_bytes([r.u8()?, r.u8()?]);
    let latency_us = r.varint()?;
    let credits_used = r.varint()?;
    let credits_wasted = r.varint()?;
    let event = UsageEventRef {
        timestamp_ms,
        org_id: r.str()?,
        api_key_id: r.str()?,
        request_path: r.str()?,
        response_code,
        chain_id: r.str()?,
        request_type: r.str()?,
        latency_us,
        credits_used,
        credits_wasted,
    };
    r.finish()?;
    Ok(event)
}

/// Encoding version byte, first in every stored value.
const VERSION: u8 = 1;

/// Appends the stored value of `e` (everything but the timestamp, which is in the key):
/// `version ‖ response_code u16 BE ‖ latency_us, credits_used, credits_wasted (varints) ‖
/// org_id ‖ api_key_id ‖ request_path ‖ chain_id ‖ request_type (varint length + UTF-8)`;
/// a typical event is 60 to 100 bytes.
pub(crate) fn encode(e: &UsageEventRef<'_>, out: &mut Vec<u8>) {
    out.push(VERSION);
    out.extend_from_slice(&e.response_code.to_be_bytes());
    put_varint(out, e.latency_us);
    put_varint(out, e.credits_used);
    put_varint(out, e.credits_wasted);
    put_str(out, e.org_id);
    put_str(out, e.api_key_id);
    put_str(out, e.request_path);
    put_str(out, e.chain_id);
    put_str(out, e.request_type);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn encoded(e: &UsageEvent) -> Vec<u8> {
        let mut out = Vec::new();
        encode(&e.as_ref(), &mut out);
        out
    }

    proptest! {
        #[test]
        fn events_round_trip_without_their_timestamp(
            org_id in ".{0,20}", api_key_id in "[0-9a-f]{0,16}", request_path in ".{0,40}",
            response_code in any::<u16>(), chain_id in ".{0,20}", request_type in "(data|rpc)",
            latency_us in any::<u64>(), credits_used in any::<u64>(), credits_wasted in any::<u64>(),
        ) {
            let e = UsageEvent {
                timestamp_ms: 0, org_id, api_key_id, request_path, response_code, chain_id,
                request_type, latency_us, credits_used, credits_wasted,
            };
            let bytes = encoded(&e);
            prop_assert_eq!(decode_ref(&bytes, 0).unwrap().to_owned_event(), e);
            prop_assert!(decode_ref(&bytes[..bytes.len() - 1], 0).is_err());
        }
    }

    #[test]
    fn a_typical_event_is_compact() {
        let e = UsageEvent {
            timestamp_ms: 1_700_000_000_000,
            org_id: "org-1".into(),
            api_key_id: "0123456789abcdef".into(),
            request_path: "/v1/networks/{network}/blockchains/{blockchainId}/utxos".into(),
            response_code: 200,
            chain_id: "43114".into(),
            request_type: "data".into(),
            latency_us: 1_250,
            credits_used: 20,
            credits_wasted: 0,
        };
        assert!(encoded(&e).len() < 110);
    }
}
