//! The `index` service (avalanchego `indexer/service.go`): six read-only methods over one path
//! of the container index, with avalanchego's result JSON (key order `id, bytes, timestamp,
//! encoding, index`), error messages and parameter rules.

use serde::{Deserialize, Deserializer, Serialize};
use snowline_jsonrpc::{JsonU64, Reply, RequestContext, RpcError, Service};
use snowline_node_index::{ContainerIndex, IndexError, IndexedContainer, MAX_FETCHED_BY_RANGE};
use snowline_types::Id;
use snowline_types::container::{IndexPath, format_rfc3339_nano};
use snowline_types::formatting::{push_hex_checksum, push_hex_plain};

use crate::Compat;

/// avalanchego `formatting.errUnsupportedEncodingInMethod`.
pub const UNSUPPORTED_ENCODING: &str = "unsupported encoding in method";
/// avalanchego `database.ErrNotFound`.
pub const NOT_FOUND: &str = "not found";
/// avalanchego `indexer.errNoneAccepted`.
pub const NONE_ACCEPTED: &str = "no containers have been accepted";

/// The `encoding` parameter as avalanchego's `formatting.Encoding` reads it: `null` or absent is
/// `hex`; `hex`, `hexc`, `hexnc`, `json` in any case; anything else fails to decode (the
/// "couldn't unmarshal an argument" error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Hex with a 4-byte checksum (the default).
    #[default]
    Hex,
    /// Hex with a checksum, named `hexc`.
    HexC,
    /// Hex without checksum.
    HexNc,
    /// JSON: valid as a parameter, unsupported by every index method.
    Json,
}

impl<'de> Deserialize<'de> for Encoding {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s: Option<String> = Option::deserialize(d)?;
        match s.map(|s| s.to_ascii_lowercase()).as_deref() {
            None | Some("hex") => Ok(Encoding::Hex),
            Some("hexc") => Ok(Encoding::HexC),
            Some("hexnc") => Ok(Encoding::HexNc),
            Some("json") => Ok(Encoding::Json),
            Some(_) => Err(serde::de::Error::custom("invalid encoding")),
        }
    }
}

/// Appends container bytes in one of the hex encodings.
type PushHex = fn(&mut Vec<u8>, &[u8]);

impl Encoding {
    /// The encoding's name and writer, or avalanchego's error for encodings the profile does
    /// not serve (`json` always; `hexc`/`hexnc` under [`Compat::Spec`], which allows `hex` only).
    fn writer(self, compat: Compat) -> Result<(&'static str, PushHex), RpcError> {
        match (self, compat) {
            (Encoding::Hex, _) => Ok(("hex", push_hex_checksum)),
            (Encoding::HexC, Compat::Avalanchego) => Ok(("hexc", push_hex_checksum)),
            (Encoding::HexNc, Compat::Avalanchego) => Ok(("hexnc", push_hex_plain)),
            _ => Err(RpcError::server(UNSUPPORTED_ENCODING)),
        }
    }
}

/// The answer of the methods that return one container (`getLastAccepted`,
/// `getContainerByIndex`, `getContainerByID`): avalanchego's `FormattedContainer`, written as
/// range answers write each of theirs.
fn reply_one(c: &IndexedContainer, enc: Encoding, compat: Compat) -> Result<Reply, RpcError> {
    let (encoding, push) = enc.writer(compat)?;
    Reply::write_json(2 * c.bytes.len() + CONTAINER_JSON_ROOM, |out| {
        write_container(out, c, encoding, push);
        Ok(())
    })
}

#[derive(Debug, Default, Deserialize)]
struct EncodingArgs {
    #[serde(default)]
    encoding: Encoding,
}

#[derive(Debug, Default, Deserialize)]
struct ByIndexArgs {
    #[serde(default)]
    index: JsonU64,
    #[serde(default)]
    encoding: Encoding,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RangeArgs {
    #[serde(default)]
    start_index: JsonU64,
    #[serde(default)]
    num_to_fetch: JsonU64,
    #[serde(default)]
    encoding: Encoding,
}

#[derive(Debug, Default, Deserialize)]
struct ByIdArgs {
    #[serde(default)]
    id: Option<Id>,
    #[serde(default)]
    encoding: Encoding,
}

/// `getIndex` and `isAccepted` take no `encoding` in avalanchego; one sent is ignored.
#[derive(Debug, Default, Deserialize)]
struct IdArgs {
    #[serde(default)]
    id: Option<Id>,
}

#[derive(Debug, Serialize)]
struct IndexReply {
    index: JsonU64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct IsAcceptedReply {
    is_accepted: bool,
}

fn internal(e: IndexError) -> RpcError {
    RpcError::server(e)
}

/// The `index` service for `path` of `index`, under `compat`.
pub fn service(index: &ContainerIndex, path: IndexPath, compat: Compat) -> Service {
    let (s1, s2, s3) = (index.clone(), index.clone(), index.clone());
    let (s4, s5, s6) = (index.clone(), index.clone(), index.clone());
    Service::new("index")
        .raw_method("getLastAccepted", move |_: &RequestContext, params| {
            let a = params.parse::<EncodingArgs>()?;
            let reader = s1.path(path);
            let c = reader
                .last_accepted()
                .map_err(internal)?
                .ok_or_else(|| RpcError::server(NONE_ACCEPTED))?;
            reply_one(&c, a.encoding, compat)
        })
        .raw_method("getContainerByIndex", move |_: &RequestContext, params| {
            let a = params.parse::<ByIndexArgs>()?;
            let reader = s2.path(path);
            let c = reader
                .by_index(a.index.0)
                .map_err(internal)?
                .ok_or_else(|| RpcError::server(format!("no container at index {}", a.index.0)))?;
            reply_one(&c, a.encoding, compat)
        })
        .raw_method("getContainerRange", move |_: &RequestContext, params| {
            get_range(&s3, path, compat, &params.parse::<RangeArgs>()?)
        })
        .method("getIndex", move |_: &RequestContext, a: IdArgs| {
            let reader = s4.path(path);
            let id = a.id.unwrap_or(Id::EMPTY);
            let index = reader
                .index_of(&id)
                .map_err(internal)?
                .ok_or_else(|| RpcError::server(NOT_FOUND))?;
            Ok(IndexReply {
                index: JsonU64(index),
            })
        })
        .method("isAccepted", move |_: &RequestContext, a: IdArgs| {
            let reader = s5.path(path);
            let id = a.id.unwrap_or(Id::EMPTY);
            let found = reader.index_of(&id).map_err(internal)?;
            Ok(IsAcceptedReply {
                is_accepted: found.is_some(),
            })
        })
        .raw_method("getContainerByID", move |_: &RequestContext, params| {
            let a = params.parse::<ByIdArgs>()?;
            let reader = s6.path(path);
            let id = a.id.unwrap_or(Id::EMPTY);
            let c = reader
                .by_id(&id)
                .map_err(internal)?
                .ok_or_else(|| RpcError::server(NOT_FOUND))?;
            reply_one(&c, a.encoding, compat)
        })
}

/// avalanchego `index.GetContainerRange` then the service's formatting loop; under
/// [`Compat::Spec`] `numToFetch` 0 answers `null` before any other check. The result is an
/// array (spec) or avalanchego's `{"containers":[...]}`.
fn get_range(
    index: &ContainerIndex,
    path: IndexPath,
    compat: Compat,
    a: &RangeArgs,
) -> Result<Reply, RpcError> {
    let (start, n) = (a.start_index.0, a.num_to_fetch.0);
    if n == 0 && compat == Compat::Spec {
        return Ok(Reply::from_raw_json(b"null".to_vec()));
    }
    if n == 0 || n > MAX_FETCHED_BY_RANGE {
        return Err(RpcError::server(format!(
            "numToFetch must be in [1,{MAX_FETCHED_BY_RANGE}] but is {n}"
        )));
    }
    let reader = index.path(path);
    let last = reader
        .last_accepted()
        .map_err(internal)?
        .ok_or_else(|| RpcError::server(NONE_ACCEPTED))?
        .index;
    if start > last {
        return Err(RpcError::server(format!(
            "start index ({start}) > last accepted index ({last})"
        )));
    }
    let n = n.min(last - start + 1);
    let containers = reader.range(start, n).map_err(internal)?;
    if u64::try_from(containers.len()).ok() != Some(n) {
        return Err(internal(IndexError::Corrupt(format!(
            "{path} has a gap between {start} and {last}"
        ))));
    }
    let (encoding, push) = a.encoding.writer(compat)?;
    let size = containers
        .iter()
        .map(|c| 2 * c.bytes.len() + CONTAINER_JSON_ROOM)
        .sum::<usize>();
    Reply::write_json(size + 16, |out| {
        let (open, close): (&[u8], &[u8]) = match compat {
            Compat::Spec => (b"[", b"]"),
            Compat::Avalanchego => (b"{\"containers\":[", b"]}"),
        };
        out.extend_from_slice(open);
        for (i, c) in containers.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_container(out, c, encoding, push);
        }
        out.extend_from_slice(close);
        Ok(())
    })
}

/// Room for a container's JSON beyond its hex digits: `0x`, the hex checksum, its id, the
/// member names, its timestamp and index.
const CONTAINER_JSON_ROOM: usize = 160;

/// avalanchego's `FormattedContainer` (members `id, bytes, timestamp, encoding, index`, in
/// its order) straight into `out`: every member is
/// ASCII with nothing to escape (cb58, hex, RFC 3339, an encoding name, decimal digits), so a
/// range answer needs no string per container and no escaping pass over megabytes of hex.
fn write_container(out: &mut Vec<u8>, c: &IndexedContainer, encoding: &str, push: PushHex) {
    out.extend_from_slice(b"{\"id\":\"");
    out.extend_from_slice(c.id.to_string().as_bytes());
    out.extend_from_slice(b"\",\"bytes\":\"");
    push(out, &c.bytes);
    out.extend_from_slice(b"\",\"timestamp\":\"");
    out.extend_from_slice(format_rfc3339_nano(c.timestamp_ns).as_bytes());
    out.extend_from_slice(b"\",\"encoding\":\"");
    out.extend_from_slice(encoding.as_bytes());
    out.extend_from_slice(b"\",\"index\":\"");
    out.extend_from_slice(c.index.to_string().as_bytes());
    out.extend_from_slice(b"\"}");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;
    use snowline_types::formatting::{encode_hex_checksum, encode_hex_plain};

    /// avalanchego's `FormattedContainer` through serde: the reference the hand-written JSON is
    /// held to.
    #[derive(Serialize)]
    struct FormattedContainer {
        id: Id,
        bytes: String,
        timestamp: String,
        encoding: &'static str,
        index: JsonU64,
    }

    /// What avalanchego answers for `enc` under `compat`: the container, or the encoding error.
    fn formatted(
        c: &IndexedContainer,
        enc: Encoding,
        compat: Compat,
    ) -> Option<FormattedContainer> {
        let (bytes, encoding) = match (enc, compat) {
            (Encoding::Hex, _) => (encode_hex_checksum(&c.bytes), "hex"),
            (Encoding::HexC, Compat::Avalanchego) => (encode_hex_checksum(&c.bytes), "hexc"),
            (Encoding::HexNc, Compat::Avalanchego) => (encode_hex_plain(&c.bytes), "hexnc"),
            _ => return None,
        };
        Some(FormattedContainer {
            id: c.id,
            bytes,
            timestamp: format_rfc3339_nano(c.timestamp_ns),
            encoding,
            index: JsonU64(c.index),
        })
    }

    proptest! {
        /// The hand-written container JSON of every index answer is byte for byte what serde
        /// writes for avalanchego's `FormattedContainer`, and the encodings a profile does not
        /// serve are refused with avalanchego's error.
        #[test]
        fn written_containers_equal_serde(
            id in any::<[u8; 32]>(),
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
            timestamp_ns in any::<i64>(),
            index in any::<u64>(),
            enc in 0usize..4,
            avalanchego in any::<bool>(),
        ) {
            let compat = if avalanchego { Compat::Avalanchego } else { Compat::Spec };
            let enc = [Encoding::Hex, Encoding::HexC, Encoding::HexNc, Encoding::Json][enc];
            let c = IndexedContainer { index, id: Id(id), timestamp_ns, bytes };
            match (formatted(&c, enc, compat), reply_one(&c, enc, compat)) {
                (Some(f), Ok(reply)) => prop_assert_eq!(
                    std::str::from_utf8(reply.as_bytes()).unwrap(),
                    serde_json::to_string(&f).unwrap()
                ),
                (None, Err(e)) => prop_assert_eq!(e.message, UNSUPPORTED_ENCODING),
                (want, got) => prop_assert!(false, "{:?} vs {:?}", want.is_some(), got.is_ok()),
            }
        }
    }
}
