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
    if version != VERSION && version != VERSION_1 {
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
    let mut event = UsageEventRef {
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
        ip_address: "",
        host: "",
        user_agent: "",
    };
    // Version 1 events, written before the client was recorded, have none.
    if version == VERSION {
        event.ip_address = r.str()?;
        event.host = r.str()?;
        event.user_agent = r.str()?;
    }
    r.finish()?;
    Ok(event)
}

/// Encoding version byte, first in every stored value.
const VERSION: u8 = 2;
/// The version before the client's address, host and user agent were kept (still read).
const VERSION_1: u8 = 1;

/// Appends the stored value of `e` (everything but the timestamp, which is in the key):
/// `version ‖ response_code u16 BE ‖ latency_us, credits_used, credits_wasted (varints) ‖
/// org_id ‖ api_key_id ‖ request_path ‖ chain_id ‖ request_type ‖ ip_address ‖ host ‖
/// user_agent (varint length + UTF-8)`; a typical event is 100 to 200 bytes.
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
    put_str(out, e.ip_address);
    put_str(out, e.host);
    put_str(out, e.user_agent);
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
            ip_address in "[0-9a-f:.]{0,39}", host in ".{0,20}", user_agent in ".{0,40}",
        ) {
            let e = UsageEvent {
                timestamp_ms: 0, org_id, api_key_id, request_path, response_code, chain_id,
                request_type, latency_us, credits_used, credits_wasted, ip_address, host,
                user_agent,
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
            ip_address: "203.0.113.7".into(),
            host: "data.example.com".into(),
            user_agent: "curl/8.5.0".into(),
        };
        assert!(encoded(&e).len() < 150);
    }

    #[test]
    fn version_1_events_read_with_no_client() {
        let e = UsageEvent {
            timestamp_ms: 5,
            org_id: "o".into(),
            api_key_id: "k".into(),
            request_path: "/v1/chains".into(),
            response_code: 200,
            chain_id: None,
            request_type: "data".into(),
            latency_us: 9,
            credits_used: 1,
            credits_wasted: 0,
            ip_address: "127.0.0.1".into(),
            host: "h".into(),
            user_agent: "u".into(),
        };
        // A version 1 value: the same fields up to `request_type`, nothing after.
        let mut v1 = encoded(&e);
        v1[0] = VERSION_1;
        v1.truncate(v1.len() - (1 + 9) - (1 + 1) - (1 + 1));
        let back = decode_ref(&v1, 5).unwrap().to_event();
        assert_eq!(
            back,
            UsageEvent {
                ip_address: String::new(),
                host: String::new(),
                user_agent: String::new(),
                ..e
            }
        );
    }
}
