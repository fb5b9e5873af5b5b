//! The faults and what each does to an answer of the index API.

use std::time::Duration;

use serde_json::Value;

/// What the proxy does to the requests it receives while the fault is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fault {
    /// Forward requests and answers unchanged.
    #[default]
    None,
    /// Hold each request this long before forwarding it (beyond a client's timeout, the
    /// client gives up first).
    Slow(Duration),
    /// Answer every request `500 Internal Server Error`.
    Status500,
    /// In a `getContainerRange` answer, change one hex digit of the first container's bytes
    /// (not of the checksum): the checksum no longer matches.
    BadChecksum,
    /// In a `getContainerRange` answer, give the first container another container's id: the
    /// bytes no longer hash to it.
    BadId,
    /// In a `getContainerRange` answer, leave out the second container (with one container,
    /// state the next index): a gap in the indexes.
    Gap,
}

impl Fault {
    /// Whether the fault rewrites answers of `index.getContainerRange`.
    pub(crate) fn rewrites_pages(self) -> bool {
        matches!(self, Fault::BadChecksum | Fault::BadId | Fault::Gap)
    }

    /// Applies the fault to the JSON-RPC answer `body` of a `getContainerRange` call; `None`
    /// when the answer holds no container (nothing to corrupt: forwarded as it is).
    pub(crate) fn rewrite_page(self, body: &[u8]) -> Option<Vec<u8>> {
        let mut v: Value = serde_json::from_slice(body).ok()?;
        let result = v.get_mut("result")?;
        // The spec's profile answers a bare array, avalanchego's `{"containers": [...]}`.
        let list = if result.is_array() {
            result.as_array_mut()?
        } else {
            result.get_mut("containers")?.as_array_mut()?
        };
        if list.is_empty() {
            return None;
        }
        match self {
            Fault::BadChecksum => {
                let bytes = list[0].get_mut("bytes")?;
                *bytes = Value::String(flip_hex_digit(bytes.as_str()?)?);
            }
            Fault::BadId => {
                const EMPTY_ID: &str = "11111111111111111111111111111111LpoYY";
                let other = list
                    .get(1)
                    .and_then(|c| c.get("id"))
                    .and_then(Value::as_str)
                    .unwrap_or(EMPTY_ID)
                    .to_owned();
                list[0]["id"] = Value::String(other);
            }
            Fault::Gap if list.len() >= 2 => {
                list.remove(1);
            }
            Fault::Gap => {
                let index = list[0].get("index")?.as_str()?.parse::<u64>().ok()?;
                list[0]["index"] = Value::String((index + 1).to_string());
            }
            Fault::None | Fault::Slow(_) | Fault::Status500 => return None,
        }
        serde_json::to_vec(&v).ok()
    }
}

/// `0x` hex with a 4-byte checksum tail, one digit of the payload changed.
fn flip_hex_digit(hex: &str) -> Option<String> {
    let digits = hex.strip_prefix("0x")?;
    // The payload is all but the last 8 digits (the checksum); change one in its middle.
    let payload = digits.len().checked_sub(8).filter(|n| *n > 0)?;
    let at = 2 + payload / 2;
    let mut out = hex.as_bytes().to_vec();
    out[at] = if out[at] == b'0' { b'1' } else { b'0' };
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(containers: &[(&str, &str, u64)]) -> Vec<u8> {
        let list: Vec<Value> = containers
            .iter()
            .map(|(id, bytes, i)| {
                serde_json::json!({"id": id, "bytes": bytes, "index": i.to_string()})
            })
            .collect();
        serde_json::to_vec(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": list}))
            .unwrap_or_default()
    }

    fn list(body: &[u8]) -> Vec<Value> {
        let v: Value = serde_json::from_slice(body).unwrap_or_default();
        v["result"].as_array().cloned().unwrap_or_default()
    }

    #[test]
    fn each_page_fault_changes_what_it_says() {
        let body = page(&[("a", "0x00112233aabbccdd", 5), ("b", "0x44aabbccdd", 6)]);
        let bad = Fault::BadChecksum.rewrite_page(&body).unwrap_or_default();
        assert_eq!(list(&bad)[0]["bytes"], "0x00110233aabbccdd");
        assert_eq!(list(&bad)[1], list(&body)[1]);
        let bad = Fault::BadId.rewrite_page(&body).unwrap_or_default();
        assert_eq!(list(&bad)[0]["id"], "b");
        let gap = Fault::Gap.rewrite_page(&body).unwrap_or_default();
        assert_eq!(list(&gap).len(), 1);
        assert_eq!(list(&gap)[0]["index"], "5");
        let one = page(&[("a", "0x00112233aabbccdd", 5)]);
        let gap = Fault::Gap.rewrite_page(&one).unwrap_or_default();
        assert_eq!(list(&gap)[0]["index"], "6");
        assert_eq!(Fault::Gap.rewrite_page(&page(&[])), None);
    }
}
