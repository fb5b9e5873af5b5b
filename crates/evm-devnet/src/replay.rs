//! A recording read back: the answer to each recorded `(method, params)`, found again whatever
//! the case of hex strings, with block tags (`latest`, `safe`, `finalized`, `pending`,
//! `earliest`) read as the recorded head or genesis. `eth_getBlockByNumber(n, false)` and
//! `eth_getBlockByHash` are derived from the recorded full blocks.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::error::DevnetError;

/// One line of a recording; the result stays the recorded text.
#[derive(Deserialize)]
struct Line<'a> {
    method: String,
    #[serde(default)]
    params: Value,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct BlockHash {
    hash: String,
}

/// A JSON-RPC error answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// The error code.
    pub code: i64,
    /// The message.
    pub message: String,
    /// `data` as JSON text, when there was one.
    pub data: Option<String>,
}

impl RpcError {
    fn not_recorded(method: &str, params: &Value) -> Self {
        Self {
            code: -32000,
            message: format!("not recorded: {method} {params}"),
            data: None,
        }
    }

    /// The error object's JSON text.
    pub fn to_json(&self) -> String {
        let mut out = format!(
            "{{\"code\":{},\"message\":{}",
            self.code,
            Value::from(self.message.as_str())
        );
        if let Some(data) = &self.data {
            out.push_str(",\"data\":");
            out.push_str(data);
        }
        out.push('}');
        out
    }
}

/// The recorded answers of one chain.
#[derive(Debug, Default)]
pub struct Recording {
    /// Method → canonical params → answer (result JSON text, or the error).
    answers: HashMap<String, HashMap<String, Result<String, RpcError>>>,
    /// The recorded `eth_blockNumber`.
    head: Option<u64>,
    /// Block hash (lowercase) → number, from the recorded full blocks.
    by_hash: HashMap<String, u64>,
}

impl Recording {
    /// Reads a recording file.
    pub fn load(path: &Path) -> Result<Self, DevnetError> {
        let text = std::fs::read_to_string(path).map_err(|source| DevnetError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text)
    }

    /// Parses recording lines (see [`crate::record`]).
    pub fn parse(text: &str) -> Result<Self, DevnetError> {
        let mut rec = Recording::default();
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let bad = |why: &str| DevnetError::Fixture(format!("line {}: {why}", i + 1));
            let v: Line<'_> = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
            let method = v.method.as_str();
            let params = match v.params {
                Value::Null => Value::Array(Vec::new()),
                p => p,
            };
            // A `null` result reads as absent: recorded as the text `null`.
            let answer = match (v.result, &v.error) {
                (result, None) => Ok(result.map_or("null", RawValue::get).to_owned()),
                (None, Some(err)) => Err(RpcError {
                    code: err.get("code").and_then(Value::as_i64).unwrap_or(-32000),
                    message: err
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    data: err.get("data").map(Value::to_string),
                }),
                (Some(_), Some(_)) => return Err(bad("has both result and error")),
            };
            if method == "eth_blockNumber" {
                rec.head = v
                    .result
                    .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
                    .and_then(|h| parse_quantity(&h));
            }
            if method == "eth_getBlockByNumber" {
                let number = params
                    .get(0)
                    .and_then(Value::as_str)
                    .and_then(parse_quantity);
                let hash = v
                    .result
                    .and_then(|r| serde_json::from_str::<BlockHash>(r.get()).ok());
                if let (Some(n), Some(h)) = (number, hash) {
                    rec.by_hash.insert(h.hash.to_ascii_lowercase(), n);
                }
            }
            rec.answers
                .entry(method.to_owned())
                .or_default()
                .insert(canonical(&params, None), answer);
        }
        Ok(rec)
    }

    /// The recorded head block.
    pub fn head(&self) -> Option<u64> {
        self.head
    }

    /// The answer to `method` with `params` (`Null` means none): the recorded result's JSON
    /// text, or the JSON-RPC error to send.
    pub fn answer(&self, method: &str, params: &Value) -> Result<String, RpcError> {
        let empty = Value::Array(Vec::new());
        let params = if params.is_null() { &empty } else { params };
        let Some(by_params) = self.answers.get(method) else {
            return match method {
                "eth_getBlockByHash" => self.block_by_hash(params),
                _ => Err(RpcError {
                    code: -32601,
                    message: format!("method not found (not recorded): {method}"),
                    data: None,
                }),
            };
        };
        if let Some(found) = by_params.get(&canonical(params, self.head)) {
            return found.clone();
        }
        if method == "eth_getBlockByNumber" && params.get(1) == Some(&Value::Bool(false)) {
            let mut full = params.clone();
            full[1] = Value::Bool(true);
            return self.answer(method, &full).map(|block| hashes_only(&block));
        }
        Err(RpcError::not_recorded(method, params))
    }

    fn block_by_hash(&self, params: &Value) -> Result<String, RpcError> {
        let hash = params
            .get(0)
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase);
        let Some(n) = hash.and_then(|h| self.by_hash.get(&h).copied()) else {
            // An unknown hash is no block, as a node says it.
            return Ok("null".into());
        };
        let full = params.get(1).cloned().unwrap_or(Value::Bool(false));
        self.answer(
            "eth_getBlockByNumber",
            &Value::Array(vec![Value::from(format!("{n:#x}")), full]),
        )
    }
}

/// The block with its `transactions` replaced by their hashes (`eth_getBlockByNumber(n, false)`).
fn hashes_only(block: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<Value>(block) else {
        return block.to_owned();
    };
    if let Some(txs) = v.get_mut("transactions").and_then(Value::as_array_mut) {
        for tx in txs.iter_mut() {
            if let Some(hash) = tx.get("hash").cloned() {
                *tx = hash;
            }
        }
    }
    v.to_string()
}

fn parse_quantity(s: &str) -> Option<u64> {
    u64::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

/// The lookup key of `params`: hex strings lowercased, quantities without leading zeros, block
/// tags resolved (`head` given: at lookup).
fn canonical(params: &Value, head: Option<u64>) -> String {
    fn walk(v: &Value, head: Option<u64>) -> Value {
        match v {
            Value::String(s) => {
                let tag = match (s.as_str(), head) {
                    ("latest" | "safe" | "finalized" | "pending", Some(h)) => Some(h),
                    ("earliest", _) => Some(0),
                    _ => None,
                };
                if let Some(n) = tag {
                    return Value::from(format!("{n:#x}"));
                }
                let lower = s.to_ascii_lowercase();
                // A quantity (not data): up to 16 hex digits, leading zeros dropped.
                match lower.strip_prefix("0x") {
                    Some(digits) if (2..=16).contains(&digits.len()) => {
                        match u64::from_str_radix(digits, 16) {
                            Ok(n) if digits.starts_with('0') => Value::from(format!("{n:#x}")),
                            _ => Value::from(lower),
                        }
                    }
                    _ => Value::from(lower),
                }
            }
            Value::Array(items) => Value::Array(items.iter().map(|i| walk(i, head)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), walk(v, head)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    walk(params, head).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LINES: &str = r#"{"method":"eth_chainId","params":[],"result":"0xa868"}
{"method":"eth_blockNumber","params":[],"result":"0x1"}
{"method":"eth_getBlockByNumber","params":["0x1",true],"result":{"hash":"0xAB","number":"0x1","transactions":[{"hash":"0x01","nonce":"0x0"}]}}
{"method":"eth_getBalance","params":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8","0x1"],"result":"0x10"}
{"method":"eth_call","params":[{"data":"0x01ffc9a7","to":"0x00000000000000000000000000000000000000aa"},"0x1"],"error":{"code":3,"message":"execution reverted","data":"0x"}}
"#;

    #[test]
    fn answers_what_was_recorded() {
        let r = Recording::parse(LINES).unwrap();
        assert_eq!(r.head(), Some(1));
        assert_eq!(r.answer("eth_chainId", &Value::Null).unwrap(), "\"0xa868\"");
        // Checksummed address and the `latest` tag find the lowercase, numbered entry.
        let p = json!(["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "latest"]);
        assert_eq!(r.answer("eth_getBalance", &p).unwrap(), "\"0x10\"");
        let err = r
            .answer(
                "eth_call",
                &json!([{"to": "0x00000000000000000000000000000000000000AA", "data": "0x01ffc9a7"}, "0x01"]),
            )
            .unwrap_err();
        assert_eq!((err.code, err.data.as_deref()), (3, Some("\"0x\"")));
        assert_eq!(
            err.to_json(),
            r#"{"code":3,"message":"execution reverted","data":"0x"}"#
        );
    }

    #[test]
    fn derives_hash_only_blocks_and_lookup_by_hash() {
        let r = Recording::parse(LINES).unwrap();
        let lean: Value = serde_json::from_str(
            &r.answer("eth_getBlockByNumber", &json!(["0x1", false]))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(lean["transactions"], json!(["0x01"]));
        let by_hash = r
            .answer("eth_getBlockByHash", &json!(["0xab", true]))
            .unwrap();
        assert_eq!(
            by_hash,
            r.answer("eth_getBlockByNumber", &json!(["0x1", true]))
                .unwrap()
        );
        assert_eq!(
            r.answer("eth_getBlockByHash", &json!(["0xcd", true]))
                .unwrap(),
            "null"
        );
    }

    #[test]
    fn unknown_calls_are_errors() {
        let r = Recording::parse(LINES).unwrap();
        assert_eq!(r.answer("eth_foo", &json!([])).unwrap_err().code, -32601);
        assert_eq!(
            r.answer("eth_getBalance", &json!(["0x01", "0x5"]))
                .unwrap_err()
                .code,
            -32000
        );
    }

    #[test]
    fn malformed_lines_are_refused() {
        assert!(Recording::parse("{\"params\":[]}").is_err());
        assert!(Recording::parse("{\"method\":\"x\",\"result\":1,\"error\":{}}").is_err());
        // The recorded text is served as it was, not re-serialized.
        let r = Recording::parse("{\"method\":\"m\",\"result\":{\"b\":1, \"a\":2}}").unwrap();
        assert_eq!(r.answer("m", &Value::Null).unwrap(), "{\"b\":1, \"a\":2}");
        assert!(Recording::parse("not json").is_err());
    }

    proptest::proptest! {
        /// Any text either parses or is refused; what parses answers any call without panicking.
        #[test]
        fn parse_and_answer_never_panic(text in "\\PC{0,200}", method in "[a-z_]{0,12}") {
            if let Ok(r) = Recording::parse(&text) {
                let _ = r.answer(&method, &json!(["latest", true]));
                let _ = r.answer("eth_getBlockByHash", &json!([text, false]));
            }
        }

        #[test]
        fn lines_with_any_params_answer_themselves(p in proptest::collection::vec("[0-9a-fA-Fx]{0,20}", 0..4)) {
            let line = json!({"method": "m", "params": p, "result": 1}).to_string();
            let r = Recording::parse(&line).unwrap();
            proptest::prop_assert_eq!(r.answer("m", &json!(p)).unwrap(), "1");
        }
    }
}
