//! One metered request, and its compact stored form.

use snowline_store::DecodeError;

use crate::bytes::{Reader, put_str, put_varint};

pub use snowline_types::access::{UsageEvent, UsageEventRef};

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
    let credits = |n: u64| {
        u32::try_from(n).map_err(|_| DecodeError::Other(format!("credits {n} exceed u32")))
    };
    let credits_used = credits(r.varint()?)?;
    let credits_wasted = credits(r.varint()?)?;
    let event = UsageEventRef {
        timestamp_ms,
        org_id: r.str()?,
        api_key_id: r.str()?,
        request_path: r.str()?,
        response_code,
        // Stored empty when the route has no chain parameter.
        chain_id: Some(r.str()?).filter(|c| !c.is_empty()),
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
    put_varint(out, u64::from(e.credits_used));
    put_varint(out, u64::from(e.credits_wasted));
    put_str(out, e.org_id);
    put_str(out, e.api_key_id);
    put_str(out, e.request_path);
    put_str(out, e.chain_id.unwrap_or_default());
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
            response_code in any::<u16>(), chain_id in proptest::option::of(".{1,20}"), request_type in "(data|rpc)",
            latency_us in any::<u64>(), credits_used in any::<u32>(), credits_wasted in any::<u32>(),
        ) {
            let e = UsageEvent {
                timestamp_ms: 0, org_id, api_key_id, request_path, response_code, chain_id,
                request_type, latency_us, credits_used, credits_wasted,
            };
            let bytes = encoded(&e);
            prop_assert_eq!(decode_ref(&bytes, 0).unwrap().to_event(), e);
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
            chain_id: Some("43114".into()),
            request_type: "data".into(),
            latency_us: 1_250,
            credits_used: 20,
            credits_wasted: 0,
        };
        assert!(encoded(&e).len() < 110);
    }
}
