//! The `index.getContainerRange` answer as the wire has it: either shape (`{"containers":[...]}`
//! as avalanchego answers, a bare array as the spec says, or `null`), every container verified
//! (hex and its checksum, RFC 3339 timestamp, id against the bytes, indexes without a gap).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use snowline_types::Id;
use snowline_types::container::{
    ContainerError, ContainerRecord, IndexPath, parse_decimal_u64, parse_rfc3339,
};
use snowline_types::formatting::{CHECKSUM_LEN, HexError, decode_hex_plain};

use crate::error::IndexError;

/// One container as an upstream's `getContainerRange` returned it, verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteContainer {
    /// The stated index.
    pub index: u64,
    /// The record.
    pub record: ContainerRecord,
}

/// An upstream answer that is not what the index API returns.
pub(crate) fn bad(path: IndexPath, message: impl Into<String>) -> IndexError {
    IndexError::Upstream {
        path,
        message: message.into(),
    }
}

/// Parses a `getContainerRange` result in either shape (`{"containers":[...]}` as avalanchego
/// answers, a bare array as the spec says, or `null`), verifying every container: hex (and its
/// checksum), RFC 3339 timestamp, id against the bytes where the path's id rule is checkable, and
/// indexes running on from `start` without a gap.
pub fn parse_range_result(
    path: IndexPath,
    result: &Value,
    start: u64,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let items = match result {
        Value::Null => return Ok(Vec::new()),
        Value::Array(a) => a,
        Value::Object(o) => match o.get("containers") {
            Some(Value::Array(a)) => a,
            Some(Value::Null) => return Ok(Vec::new()),
            _ => return Err(bad(path, "result object has no \"containers\" array")),
        },
        _ => return Err(bad(path, "result is neither an array nor an object")),
    };
    verify_page(path, start, items, |item| parse_container(path, item))
}

/// Reads each item of a page with `read` and checks it: the hex checksum, indexes running on
/// from `start` without a gap, and each id against its bytes (checksum and id in one hashing
/// pass, [`ContainerRecord::check_sum_and_id`]).
fn verify_page<T>(
    path: IndexPath,
    start: u64,
    items: &[T],
    read: impl Fn(&T) -> Result<Unverified, IndexError>,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let expected = start.saturating_add(u64::try_from(i).unwrap_or(u64::MAX));
        let Unverified { container: c, sum } = read(item)?;
        let checked = c.record.check_sum_and_id(sum);
        if let Err(ContainerError::Hex(e)) = &checked {
            return Err(bad(path, format!("container {} bytes: {e}", c.record.id)));
        }
        if c.index != expected {
            return Err(bad(
                path,
                format!("expected container {expected}, got index {}", c.index),
            ));
        }
        checked?;
        out.push(c);
    }
    Ok(out)
}

/// A container as read from an answer, before [`verify_page`] checks it: `sum` is the API hex
/// checksum that followed its bytes (`None` for `hexnc`).
struct Unverified {
    container: RemoteContainer,
    sum: Option<[u8; CHECKSUM_LEN]>,
}

fn parse_container(path: IndexPath, v: &Value) -> Result<Unverified, IndexError> {
    let field = |name: &str| -> Result<&str, IndexError> {
        v.get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| bad(path, format!("container has no string {name:?}")))
    };
    let encoding = match v.get("encoding") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(bad(path, "container encoding is not a string")),
    };
    let index = match v.get("index") {
        Some(Value::String(s)) => parse_decimal_u64(s),
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    };
    build_container(
        path,
        field("id"),
        encoding,
        field("bytes"),
        field("timestamp"),
        index,
    )
}

/// A container from its fields, each either read or the error reading it gave; the errors are
/// reported in field order (id, encoding, bytes, timestamp, index). The hex checksum is split
/// off, not checked: [`verify_page`] checks it in the same pass as the id.
fn build_container(
    path: IndexPath,
    id: Result<&str, IndexError>,
    encoding: Result<Option<&str>, IndexError>,
    bytes: Result<&str, IndexError>,
    timestamp: Result<&str, IndexError>,
    index: Option<u64>,
) -> Result<Unverified, IndexError> {
    let id: Id = id?
        .parse()
        .map_err(|e| bad(path, format!("container id: {e}")))?;
    let encoding = encoding?.map_or_else(|| "hex".to_owned(), str::to_ascii_lowercase);
    let raw = bytes?;
    let decoded = match encoding.as_str() {
        "hex" | "hexc" => split_checksum(raw),
        "hexnc" => decode_hex_plain(raw).map(|b| (b, None)),
        other => {
            return Err(bad(
                path,
                format!("unsupported container encoding {other:?}"),
            ));
        }
    };
    let (bytes, sum) = decoded.map_err(|e| bad(path, format!("container {id} bytes: {e}")))?;
    let timestamp_ns =
        parse_rfc3339(timestamp?).map_err(|e| bad(path, format!("container {id}: {e}")))?;
    let index = index.ok_or_else(|| bad(path, format!("container {id} has no decimal index")))?;
    Ok(Unverified {
        container: RemoteContainer {
            index,
            record: ContainerRecord {
                path,
                id,
                bytes,
                timestamp_ns,
            },
        },
        sum,
    })
}

/// API `hex` (with checksum) decoded, the checksum split off unverified: the bytes, and the
/// checksum unless the string was empty (which avalanchego decodes to no bytes).
fn split_checksum(raw: &str) -> Result<(Vec<u8>, Option<[u8; CHECKSUM_LEN]>), HexError> {
    let mut bytes = decode_hex_plain(raw)?;
    if raw.is_empty() {
        return Ok((bytes, None));
    }
    let body = bytes
        .len()
        .checked_sub(CHECKSUM_LEN)
        .ok_or(HexError::MissingChecksum)?;
    let mut sum = [0; CHECKSUM_LEN];
    sum.copy_from_slice(&bytes[body..]);
    bytes.truncate(body);
    Ok((bytes, Some(sum)))
}

/// One container of an answer as the wire has it, its strings borrowed from the answer.
#[derive(Deserialize)]
struct WireContainer<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    bytes: Cow<'a, str>,
    #[serde(borrow)]
    timestamp: Cow<'a, str>,
    #[serde(default, borrow)]
    encoding: Option<Cow<'a, str>>,
    #[serde(borrow)]
    index: WireIndex<'a>,
}

/// An index as a decimal string (avalanchego) or a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum WireIndex<'a> {
    Text(#[serde(borrow)] Cow<'a, str>),
    Number(u64),
}

/// The two shapes of an answer.
#[derive(Deserialize)]
#[serde(untagged)]
enum WireRange<'a> {
    Wrapped {
        #[serde(borrow)]
        containers: Vec<WireContainer<'a>>,
    },
    Bare(#[serde(borrow)] Vec<WireContainer<'a>>),
}

/// [`parse_range_result`] of the result's JSON text. A well-formed answer is read with its
/// strings borrowed (a page of blocks is ~90 MB of hex: no `Value` tree, no string copies);
/// anything else is parsed again as a `Value`, so it fails (or passes) with exactly the same
/// outcome and message.
pub(crate) fn parse_range_text(
    path: IndexPath,
    text: &str,
    start: u64,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let fast = serde_json::from_str::<WireRange<'_>>(text)
        .ok()
        .and_then(|range| {
            let items = match range {
                WireRange::Wrapped { containers } | WireRange::Bare(containers) => containers,
            };
            verify_page(path, start, &items, |w| {
                let index = match &w.index {
                    WireIndex::Text(s) => parse_decimal_u64(s),
                    WireIndex::Number(n) => Some(*n),
                };
                build_container(
                    path,
                    Ok(&w.id),
                    Ok(w.encoding.as_deref()),
                    Ok(&w.bytes),
                    Ok(&w.timestamp),
                    index,
                )
            })
            .ok()
        });
    match fast {
        Some(containers) => Ok(containers),
        None => {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| bad(path, format!("getContainerRange result: {e}")))?;
            parse_range_result(path, &value, start)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;
    use serde_json::json;
    use snowline_types::container::format_rfc3339_nano;
    use snowline_types::formatting::encode_hex_checksum;
    use snowline_types::hashing::sha256;

    /// A container of `X/tx` as an upstream answers it, at `index`.
    fn wire(i: u64, index: u64) -> Value {
        let bytes = format!("tx {i}").into_bytes();
        json!({
            "id": Id(sha256(&bytes)).to_string(),
            "bytes": encode_hex_checksum(&bytes),
            "timestamp": format_rfc3339_nano(1_600_000_000_000_000_000 + i as i64),
            "encoding": "hex",
            "index": index.to_string(),
        })
    }

    /// One way to spoil (or keep) a container's JSON.
    fn mutate(v: &mut Value, how: u8) {
        let o = v.as_object_mut().unwrap();
        match how {
            0 => {}
            1 => drop(o.remove("encoding")),
            2 => drop(o.insert("encoding".into(), Value::Null)),
            3 => drop(o.insert("encoding".into(), json!("HEXNC"))),
            4 => drop(o.insert("encoding".into(), json!(5))),
            5 => drop(o.insert(
                "index".into(),
                json!(o["index"].as_str().unwrap().parse::<u64>().unwrap()),
            )),
            6 => drop(o.insert("index".into(), json!("-1"))),
            7 => drop(o.insert("index".into(), json!(1.5))),
            8 => drop(o.remove("timestamp")),
            9 => drop(o.insert("id".into(), json!("not an id"))),
            10 => drop(o.insert("bytes".into(), json!("0x00"))),
            11 => drop(o.insert("timestamp".into(), json!("yesterday"))),
            12 => drop(o.insert("extra".into(), json!([1, 2]))),
            _ => drop(o.insert("id".into(), Value::Null)),
        }
    }

    fn outcome(
        r: Result<Vec<RemoteContainer>, IndexError>,
    ) -> Result<Vec<RemoteContainer>, String> {
        r.map_err(|e| e.to_string())
    }

    proptest! {
        /// The borrowed-string reading of an answer gives exactly what the `Value` one gives:
        /// the same containers, or the same error.
        #[test]
        fn text_parse_equals_value_parse(
            hows in proptest::collection::vec(prop_oneof![8 => Just(0u8), 1 => 1u8..14], 0..6),
            wrapped in any::<bool>(),
            skew in 0u64..2,
        ) {
            let start = 40;
            let items: Vec<Value> = hows
                .iter()
                .enumerate()
                .map(|(i, how)| {
                    let i = i as u64;
                    let mut v = wire(i, start + i + u64::from(skew == 1 && i == 2));
                    mutate(&mut v, *how);
                    v
                })
                .collect();
            let answer = if wrapped { json!({ "containers": items }) } else { Value::Array(items) };
            let text = answer.to_string();
            let want = outcome(parse_range_result(IndexPath::XTx, &answer, start));
            let got = outcome(parse_range_text(IndexPath::XTx, &text, start));
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn text_parse_takes_null_and_empty_answers() {
        for text in ["null", "[]", "{\"containers\":null}", "{\"containers\":[]}"] {
            assert_eq!(
                outcome(parse_range_text(IndexPath::XTx, text, 0)),
                Ok(Vec::new())
            );
        }
        assert!(parse_range_text(IndexPath::XTx, "{}", 0).is_err());
        assert!(parse_range_text(IndexPath::XTx, "{\"containers\":", 0).is_err());
    }
}
