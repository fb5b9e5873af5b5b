//! The `index` service (avalanchego `indexer/service.go`): six read-only methods over one path
//! of the container index, with avalanchego's result JSON (key order `id, bytes, timestamp,
//! encoding, index`), error messages and parameter rules.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize};
use snowline_jsonrpc::{JsonU64, RequestContext, RpcError, Service};
use snowline_node_index::{IndexError, IndexReader, IndexedContainer, MAX_FETCHED_BY_RANGE};
use snowline_store::Store;
use snowline_types::Id;
use snowline_types::container::{IndexPath, format_rfc3339_nano};
use snowline_types::formatting::{encode_hex_checksum, encode_hex_plain};

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

impl Encoding {
    /// Renders container bytes, or avalanchego's error for encodings the profile does not serve
    /// (`json` always; `hexc`/`hexnc` under [`Compat::Spec`], which allows `hex` only).
    fn encode(self, bytes: &[u8], compat: Compat) -> Result<(String, &'static str), RpcError> {
        match (self, compat) {
            (Encoding::Hex, _) => Ok((encode_hex_checksum(bytes), "hex")),
            (Encoding::HexC, Compat::Avalanchego) => Ok((encode_hex_checksum(bytes), "hexc")),
            (Encoding::HexNc, Compat::Avalanchego) => Ok((encode_hex_plain(bytes), "hexnc")),
            _ => Err(RpcError::server(UNSUPPORTED_ENCODING)),
        }
    }
}

/// avalanchego's `FormattedContainer`, members in its order.
#[derive(Debug, Clone, Serialize)]
pub struct FormattedContainer {
    /// cb58 id.
    pub id: Id,
    /// The bytes in the requested encoding.
    pub bytes: String,
    /// Acceptance time, RFC 3339 with nanoseconds (UTC).
    pub timestamp: String,
    /// The encoding name.
    pub encoding: &'static str,
    /// The index, as a decimal string.
    pub index: JsonU64,
}

fn format(
    c: &IndexedContainer,
    enc: Encoding,
    compat: Compat,
) -> Result<FormattedContainer, RpcError> {
    let (bytes, encoding) = enc.encode(&c.bytes, compat)?;
    Ok(FormattedContainer {
        id: c.id,
        bytes,
        timestamp: format_rfc3339_nano(c.timestamp_ns),
        encoding,
        index: JsonU64(c.index),
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

/// `getContainerRange`'s result: an array (spec, `null` for `numToFetch` 0) or avalanchego's
/// object.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum RangeReply {
    Array(Option<Vec<FormattedContainer>>),
    Object { containers: Vec<FormattedContainer> },
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

/// The `index` service for `path` over `store`, under `compat`.
pub fn service(store: Arc<Store>, path: IndexPath, compat: Compat) -> Service {
    let s1 = Arc::clone(&store);
    let s2 = Arc::clone(&store);
    let s3 = Arc::clone(&store);
    let s4 = Arc::clone(&store);
    let s5 = Arc::clone(&store);
    let s6 = store;
    Service::new("index")
        .method(
            "getLastAccepted",
            move |_: &RequestContext, a: EncodingArgs| {
                let reader = IndexReader::new(&*s1, path);
                let c = reader
                    .last_accepted()
                    .map_err(internal)?
                    .ok_or_else(|| RpcError::server(NONE_ACCEPTED))?;
                format(&c, a.encoding, compat)
            },
        )
        .method(
            "getContainerByIndex",
            move |_: &RequestContext, a: ByIndexArgs| {
                let reader = IndexReader::new(&*s2, path);
                let c = reader
                    .by_index(a.index.0)
                    .map_err(internal)?
                    .ok_or_else(|| {
                        RpcError::server(format!("no container at index {}", a.index.0))
                    })?;
                format(&c, a.encoding, compat)
            },
        )
        .method(
            "getContainerRange",
            move |_: &RequestContext, a: RangeArgs| get_range(&s3, path, compat, &a),
        )
        .method("getIndex", move |_: &RequestContext, a: IdArgs| {
            let reader = IndexReader::new(&*s4, path);
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
            let reader = IndexReader::new(&*s5, path);
            let id = a.id.unwrap_or(Id::EMPTY);
            let found = reader.index_of(&id).map_err(internal)?;
            Ok(IsAcceptedReply {
                is_accepted: found.is_some(),
            })
        })
        .method(
            "getContainerByID",
            move |_: &RequestContext, a: ByIdArgs| {
                let reader = IndexReader::new(&*s6, path);
                let id = a.id.unwrap_or(Id::EMPTY);
                let c = reader
                    .by_id(&id)
                    .map_err(internal)?
                    .ok_or_else(|| RpcError::server(NOT_FOUND))?;
                format(&c, a.encoding, compat)
            },
        )
}

/// avalanchego `index.GetContainerRange` then the service's formatting loop; under
/// [`Compat::Spec`] `numToFetch` 0 answers `null` before any other check.
fn get_range(
    store: &Store,
    path: IndexPath,
    compat: Compat,
    a: &RangeArgs,
) -> Result<RangeReply, RpcError> {
    let (start, n) = (a.start_index.0, a.num_to_fetch.0);
    if n == 0 && compat == Compat::Spec {
        return Ok(RangeReply::Array(None));
    }
    if n == 0 || n > MAX_FETCHED_BY_RANGE {
        return Err(RpcError::server(format!(
            "numToFetch must be in [1,{MAX_FETCHED_BY_RANGE}] but is {n}"
        )));
    }
    let reader = IndexReader::new(store, path);
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
    let formatted = containers
        .iter()
        .map(|c| format(c, a.encoding, compat))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match compat {
        Compat::Spec => RangeReply::Array(Some(formatted)),
        Compat::Avalanchego => RangeReply::Object {
            containers: formatted,
        },
    })
}
