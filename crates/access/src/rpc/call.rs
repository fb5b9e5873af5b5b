//! One metered JSON-RPC call, and its compact stored form.

use snowline_store::DecodeError;

use crate::bytes::{Reader, put_str, put_varint};

pub use snowline_types::access::CallOutcome as Outcome;

/// The stored byte of an outcome.
const fn outcome_byte(o: Outcome) -> u8 {
    match o {
        Outcome::Success => 0,
        Outcome::Invalid => 1,
        Outcome::Failed => 2,
    }
}

/// The outcome of a stored byte.
fn outcome_from_byte(b: u8) -> Result<Outcome, DecodeError> {
    match b {
        0 => Ok(Outcome::Success),
        1 => Ok(Outcome::Invalid),
        2 => Ok(Outcome::Failed),
        _ => Err(DecodeError::Other(format!("unknown call outcome {b}"))),
    }
}

/// One JSON-RPC request as `node-rpc` answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcCall {
    /// Arrival, ms since the epoch.
    pub timestamp_ms: u64,
    /// The network the server serves (its network id).
    pub network_id: u32,
    /// Whether the chain is one of the primary network's (X, P, C); else a subnet's or an L1's.
    pub primary: bool,
    /// The chain's blockchain id (cb58), as the path names it or resolved from its alias.
    pub chain_id: String,
    /// The HTTP path (`/ext/bc/X`, `/ext/index/X/tx`, ...).
    pub request_path: String,
    /// The JSON-RPC method as sent; empty when the request was refused before it was read.
    pub rpc_method: String,
    /// The HTTP status, or, for a JSON-RPC error object carried by a 200, its error code.
    pub response_code: i32,
    /// How the call ended.
    pub outcome: Outcome,
    /// Time to answer, µs.
    pub latency_us: u64,
    /// The caller's organisation; empty for a call without a key.
    pub org_id: String,
    /// The caller's key id; empty for a call without a key.
    pub api_key_id: String,
    /// The request's `User-Agent` (empty when absent).
    pub user_agent: String,
}

/// Encoding version byte, first in every stored value.
const VERSION: u8 = 1;

/// Bit of the flags byte: the chain is a primary network chain.
const PRIMARY: u8 = 1;

impl RpcCall {
    /// The stored value (everything but the timestamp, which is in the key): `version ‖ flags ‖
    /// outcome ‖ network_id, latency_us (varints) ‖ response_code i32 BE ‖ chain_id ‖
    /// request_path ‖ rpc_method ‖ org_id ‖ api_key_id ‖ user_agent (varint length + UTF-8)`.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.user_agent.len() + self.request_path.len());
        out.push(VERSION);
        out.push(if self.primary { PRIMARY } else { 0 });
        out.push(outcome_byte(self.outcome));
        put_varint(&mut out, u64::from(self.network_id));
        put_varint(&mut out, self.latency_us);
        out.extend_from_slice(&self.response_code.to_be_bytes());
        for s in [
            &self.chain_id,
            &self.request_path,
            &self.rpc_method,
            &self.org_id,
            &self.api_key_id,
            &self.user_agent,
        ] {
            put_str(&mut out, s);
        }
        out
    }

    /// The call [`encode`](Self::encode) stored, arrived at `timestamp_ms`.
    pub(crate) fn decode(bytes: &[u8], timestamp_ms: u64) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let version = r.u8()?;
        if version != VERSION {
            return Err(DecodeError::Other(format!(
                "unknown RPC call version {version}"
            )));
        }
        let flags = r.u8()?;
        let outcome = outcome_from_byte(r.u8()?)?;
        let network_id = u32::try_from(r.varint()?)
            .map_err(|_| DecodeError::Other("network id exceeds u32".to_owned()))?;
        let latency_us = r.varint()?;
        let response_code = i32::from_be_bytes([r.u8()?, r.u8()?, r.u8()?, r.u8()?]);
        let call = RpcCall {
            timestamp_ms,
            network_id,
            primary: flags & PRIMARY != 0,
            chain_id: r.string()?,
            request_path: r.string()?,
            rpc_method: r.string()?,
            response_code,
            outcome,
            latency_us,
            org_id: r.string()?,
            api_key_id: r.string()?,
            user_agent: r.string()?,
        };
        r.finish()?;
        Ok(call)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn calls_round_trip_without_their_timestamp(
            network_id in any::<u32>(), primary in any::<bool>(), chain_id in ".{0,50}",
            request_path in ".{0,40}", rpc_method in ".{0,30}", response_code in any::<i32>(),
            outcome in 0u8..3, latency_us in any::<u64>(), org_id in ".{0,20}",
            api_key_id in "[0-9a-f]{0,16}", user_agent in ".{0,40}",
        ) {
            let call = RpcCall {
                timestamp_ms: 7, network_id, primary, chain_id, request_path, rpc_method,
                response_code, outcome: outcome_from_byte(outcome).unwrap(), latency_us, org_id,
                api_key_id, user_agent,
            };
            let bytes = call.encode();
            prop_assert_eq!(RpcCall::decode(&bytes, 7).unwrap(), call);
            prop_assert!(RpcCall::decode(&bytes[..bytes.len() - 1], 7).is_err());
        }
    }
}
