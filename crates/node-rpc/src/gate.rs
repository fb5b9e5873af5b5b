//! [`RpcGate`]: the API keys `node-rpc` accepts (the Data API's own, read from its key store)
//! and the metering of every call, on the JSON-RPC server's [`Gate`].

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use snowline_access::keys::ApiKeys;
use snowline_access::rpc::{RpcCall, RpcMeter};
use snowline_jsonrpc::hyper::StatusCode;
use snowline_jsonrpc::hyper::http::request::Parts;
use snowline_jsonrpc::{CallRecord, Gate, Verdict};
use snowline_types::access::{DATA_API_KEY_HEADER, GLACIER_API_KEY_HEADER, KeyLookup};
use snowline_types::{Chain, Id, NetworkInfo};

/// Longest path segment kept as a chain id of a chain this server does not know.
const MAX_CHAIN_SEGMENT: usize = 64;

/// Longest path and method kept of a call, in bytes: what a client sends is bounded only by
/// the URI and body limits, and the meter's queue holds up to 65,536 calls.
const MAX_FIELD: usize = 256;

/// `s` cut to at most `max` bytes, on a character boundary.
fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or_default()
}

/// Who may call and what is recorded of each call.
#[derive(Debug)]
pub struct RpcGate {
    keys: Option<Arc<ApiKeys>>,
    require_key: bool,
    meter: Option<Arc<RpcMeter>>,
    network: NetworkInfo,
}

impl RpcGate {
    /// A gate for `network`: `keys` resolves presented keys (`None`: keys are not checked and
    /// every call is anonymous), `require_key` refuses calls without a valid key, `meter`
    /// records every call (`None`: nothing recorded).
    pub fn new(
        network: NetworkInfo,
        keys: Option<Arc<ApiKeys>>,
        require_key: bool,
        meter: Option<Arc<RpcMeter>>,
    ) -> Self {
        Self {
            keys,
            require_key,
            meter,
            network,
        }
    }
}

impl Gate for RpcGate {
    fn admit(&self, parts: &Parts) -> Verdict {
        let Some(keys) = &self.keys else {
            return Verdict::Admit(None);
        };
        let presented = parts
            .headers
            .get(DATA_API_KEY_HEADER)
            .or_else(|| parts.headers.get(GLACIER_API_KEY_HEADER));
        let Some(presented) = presented else {
            if self.require_key {
                return refuse(
                    StatusCode::UNAUTHORIZED,
                    format!(
                        "an API key is required: send it in the {DATA_API_KEY_HEADER} header \
                         (or {GLACIER_API_KEY_HEADER})"
                    ),
                );
            }
            return Verdict::Admit(None);
        };
        let lookup = presented
            .to_str()
            .map_or(Ok(KeyLookup::Unknown), |p| keys.resolve(p.trim()));
        match lookup {
            Ok(KeyLookup::Active(caller)) => Verdict::Admit(Some(caller)),
            Ok(KeyLookup::Unknown) => refuse(StatusCode::UNAUTHORIZED, "Invalid API key".into()),
            Ok(KeyLookup::Disabled) => refuse(StatusCode::FORBIDDEN, "API key is disabled".into()),
            Err(_) => refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "API key lookup failed".into(),
            ),
        }
    }

    fn record(&self, call: &CallRecord<'_>) {
        let Some(meter) = &self.meter else {
            return;
        };
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let latency_us = call.latency.as_micros() as u64;
        let (primary, chain_id) = chain_of(call.path, &self.network);
        meter.record(RpcCall {
            timestamp_ms: now_ms.saturating_sub(latency_us / 1000),
            network_id: self.network.network_id,
            primary,
            chain_id,
            request_path: cut(call.path, MAX_FIELD).to_owned(),
            rpc_method: cut(call.method.unwrap_or_default(), MAX_FIELD).to_owned(),
            response_code: response_code(call),
            outcome: call.outcome,
            latency_us,
            org_id: call.caller.map(|c| c.org_id.clone()).unwrap_or_default(),
            api_key_id: call.caller.map(|c| c.key_id.clone()).unwrap_or_default(),
            user_agent: call.user_agent.to_owned(),
        });
    }
}

fn refuse(status: StatusCode, message: String) -> Verdict {
    Verdict::Refuse { status, message }
}

/// The response code metered: the HTTP status, or, for a JSON-RPC error object carried by a
/// 200 (avalanchego answers every call error so), the error's code (`-32000`, `-32700`, ...).
pub fn response_code(call: &CallRecord<'_>) -> i32 {
    match call.rpc_error {
        Some(code) if call.status == 200 => code,
        _ => i32::from(call.status),
    }
}

/// The chain a path addresses: `(true, id)` for the primary network's X, P and C (by alias or
/// id, under `/ext/bc/` or `/ext/index/`), `(false, segment)` for any other chain under
/// `/ext/bc/` (a subnet's or an L1's), `(true, "")` for the node's other APIs (`/ext/info`, an
/// unknown path).
pub fn chain_of(path: &str, network: &NetworkInfo) -> (bool, String) {
    let mut parts = path.trim_start_matches('/').split('/');
    let primary = |chain: Chain| (true, network.chain_id(chain).to_string());
    match (parts.next(), parts.next(), parts.next()) {
        (Some("ext"), Some("bc"), Some(alias)) => match alias {
            "X" | "avm" => primary(Chain::X),
            "P" | "platform" => primary(Chain::P),
            "C" | "evm" => primary(Chain::C),
            other => {
                let id = other.parse::<Id>().ok();
                match Chain::ALL
                    .into_iter()
                    .find(|c| id == Some(network.chain_id(*c)))
                {
                    Some(c) => primary(c),
                    None => (false, cut(other, MAX_CHAIN_SEGMENT).to_owned()),
                }
            }
        },
        (Some("ext"), Some("index"), Some(alias)) => match alias {
            "X" => primary(Chain::X),
            "P" => primary(Chain::P),
            "C" => primary(Chain::C),
            _ => (true, String::new()),
        },
        _ => (true, String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_their_chain() {
        let n = NetworkInfo::LOCAL;
        let x = n.chain_id(Chain::X).to_string();
        let p = n.chain_id(Chain::P).to_string();
        assert_eq!(chain_of("/ext/bc/X", &n), (true, x.clone()));
        assert_eq!(chain_of("/ext/bc/avm", &n), (true, x.clone()));
        assert_eq!(chain_of(&format!("/ext/bc/{x}"), &n), (true, x.clone()));
        assert_eq!(chain_of("/ext/index/X/tx", &n), (true, x));
        assert_eq!(chain_of("/ext/bc/P", &n), (true, p.clone()));
        assert_eq!(chain_of("/ext/index/P/block", &n), (true, p));
        let subnet = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
        assert_eq!(
            chain_of(&format!("/ext/bc/{subnet}/rpc"), &n),
            (false, subnet.to_owned())
        );
        assert_eq!(chain_of("/ext/info", &n), (true, String::new()));
        let long = "é".repeat(100);
        assert_eq!(chain_of(&format!("/ext/bc/{long}"), &n).1, "é".repeat(32));
    }

    #[test]
    fn fields_are_cut_on_character_boundaries() {
        assert_eq!(cut("abc", 2), "ab");
        assert_eq!(cut("aé", 2), "a");
        assert_eq!(cut("", 5), "");
    }
}
