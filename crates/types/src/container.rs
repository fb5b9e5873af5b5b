//! Accepted containers as a node's index holds them (`indexer/index.go`), and the JSON-lines file
//! format `node-rpc import FILE` reads and the devnet generator writes.
//!
//! One JSON object per line, keys in this order:
//! `{"path":"X/tx","id":"<cb58>","bytes":"0x<hex+checksum>","timestamp":"<RFC3339Nano>","index":"N"}`.
//! `index` is optional (a decimal string as the index API renders it) and, when present, must be
//! the container's position in its path; `encoding` may be present and must then be `"hex"`;
//! other keys are rejected so typos do not pass silently.
//!
//! Timestamps are written exactly as Go's `time.Time.Format(time.RFC3339Nano)` in UTC (trailing
//! fractional zeros dropped, no fraction at all when zero, `Z`) and read as RFC 3339 with any
//! offset and 1–9 fractional digits.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use crate::formatting::{CHECKSUM_LEN, HexError, decode_hex_checksum, encode_hex_checksum};
use crate::hashing::{checksum_of, sha256, sha256_and_prefix};
use crate::{Id, IdError, proposervm};

/// One of the five indexes a node serves under `/ext/index/…`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexPath {
    /// `X/tx`: X-Chain txs of the DAG era.
    XTx,
    /// `X/block`: X-Chain proposervm blocks (post-Cortina).
    XBlock,
    /// `X/vtx`: X-Chain DAG vertices (pre-Cortina).
    XVtx,
    /// `P/block`: P-Chain blocks.
    PBlock,
    /// `C/block`: C-Chain blocks.
    CBlock,
}

impl IndexPath {
    /// Every index path.
    pub const ALL: [IndexPath; 5] = [
        IndexPath::XTx,
        IndexPath::XBlock,
        IndexPath::XVtx,
        IndexPath::PBlock,
        IndexPath::CBlock,
    ];

    /// The path as the URL suffix `/ext/index/<path>` writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            IndexPath::XTx => "X/tx",
            IndexPath::XBlock => "X/block",
            IndexPath::XVtx => "X/vtx",
            IndexPath::PBlock => "P/block",
            IndexPath::CBlock => "C/block",
        }
    }
}

impl fmt::Display for IndexPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for IndexPath {
    type Err = ContainerError;
    /// Parses `X/tx`, `X/block`, `X/vtx`, `P/block` or `C/block` (exact, case-sensitive).
    fn from_str(s: &str) -> Result<Self, ContainerError> {
        IndexPath::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ContainerError::UnknownPath(s.to_owned()))
    }
}

/// Why a timestamp string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimestampError {
    /// Not of the form `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`.
    #[error("timestamp {0:?} is not RFC 3339 (YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM))")]
    Syntax(String),
    /// A field out of its range (month 13, day 31 of April, hour 24, …).
    #[error("timestamp {0:?} has a field out of range")]
    OutOfRange(String),
    /// Outside what an `i64` of nanoseconds since 1970 holds (years 1677–2262).
    #[error("timestamp {0:?} does not fit in i64 nanoseconds since the Unix epoch")]
    Overflow(String),
}

/// Why a container line or record was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContainerError {
    /// The line is not a JSON object of the expected shape.
    #[error("invalid container JSON: {0}")]
    Json(String),
    /// An unknown index path.
    #[error("unknown index path {0:?} (expected X/tx, X/block, X/vtx, P/block or C/block)")]
    UnknownPath(String),
    /// The `id` is not a cb58 id.
    #[error("invalid container id: {0}")]
    Id(#[from] IdError),
    /// The `bytes` are not API hex with a checksum.
    #[error("invalid container bytes: {0}")]
    Hex(#[from] HexError),
    /// The `timestamp` is not RFC 3339.
    #[error("invalid container timestamp: {0}")]
    Timestamp(#[from] TimestampError),
    /// The `index` is not a decimal `u64` string.
    #[error("invalid container index {0:?}: expected a decimal string")]
    Index(String),
    /// An `encoding` other than `hex`.
    #[error("unsupported container encoding {0:?}: only \"hex\" is accepted")]
    Encoding(String),
    /// The `index` is not the container's position in its path.
    #[error("container {id} in {path} has index {given} but is number {expected} in that index")]
    IndexMismatch {
        /// The index path.
        path: IndexPath,
        /// The container id.
        id: Id,
        /// The index the line gave.
        given: u64,
        /// The position it actually has.
        expected: u64,
    },
    /// The `id` is not the id of the `bytes`.
    #[error("container id {id} in {path} is not the id of its bytes")]
    IdMismatch {
        /// The index path.
        path: IndexPath,
        /// The id the line gave.
        id: Id,
    },
}

/// One accepted container: where it is indexed, its id, its bytes and the acceptance time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContainerRecord {
    /// The index it belongs to.
    pub path: IndexPath,
    /// The container id (tx id, vertex id or proposervm block id).
    pub id: Id,
    /// The container bytes as the index serves them.
    pub bytes: Vec<u8>,
    /// Acceptance time, nanoseconds since the Unix epoch (avalanchego `time.Unix(0, ts)`).
    pub timestamp_ns: i64,
}

/// Where a tx's bytes lie in the container that holds it, as an index stores them (without a
/// codec version: what a VM's `SignedTx::parse_nested` reads), so the tx is read without its
/// block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TxPlace {
    /// The first byte.
    pub offset: u32,
    /// How many bytes.
    pub len: u32,
}

impl TxPlace {
    /// The place of `range`; `None` past 4 GiB (a container is at most a few MiB).
    pub fn of(range: std::ops::Range<usize>) -> Option<Self> {
        Some(Self {
            offset: u32::try_from(range.start).ok()?,
            len: u32::try_from(range.len()).ok()?,
        })
    }

    /// The tx's bytes within `container`, if it is long enough.
    pub fn slice<'a>(&self, container: &'a [u8]) -> Option<&'a [u8]> {
        let start = self.offset as usize;
        container.get(start..start.checked_add(self.len as usize)?)
    }
}

impl crate::codec::Encode for TxPlace {
    fn encode(&self, w: &mut crate::codec::Writer) {
        w.u32(self.offset);
        w.u32(self.len);
    }
}

impl crate::codec::Decode for TxPlace {
    fn decode(r: &mut crate::codec::Reader<'_>) -> Result<Self, crate::codec::CodecError> {
        Ok(Self {
            offset: r.u32()?,
            len: r.u32()?,
        })
    }
}

/// A parsed JSON line: the record and the `index` it stated, if any.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContainerLine {
    /// The record.
    pub record: ContainerRecord,
    /// The stated position in its index.
    pub index: Option<u64>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLine<'a> {
    #[serde(borrow)]
    path: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    bytes: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    timestamp: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    index: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    encoding: Option<std::borrow::Cow<'a, str>>,
}

impl ContainerRecord {
    /// The JSON line of this record (no trailing newline), with `index` when given.
    pub fn to_json_line(&self, index: Option<u64>) -> String {
        let hex = encode_hex_checksum(&self.bytes);
        let mut out = String::with_capacity(hex.len() + 160);
        out.push_str("{\"path\":\"");
        out.push_str(self.path.as_str());
        out.push_str("\",\"id\":\"");
        out.push_str(&self.id.to_string());
        out.push_str("\",\"bytes\":\"");
        out.push_str(&hex);
        out.push_str("\",\"timestamp\":\"");
        out.push_str(&format_rfc3339_nano(self.timestamp_ns));
        out.push('"');
        if let Some(i) = index {
            out.push_str(",\"index\":\"");
            out.push_str(&i.to_string());
            out.push('"');
        }
        out.push('}');
        out
    }

    /// Parses one JSON line (surrounding whitespace allowed).
    pub fn parse_json_line(line: &str) -> Result<ContainerLine, ContainerError> {
        let raw: RawLine<'_> =
            serde_json::from_str(line).map_err(|e| ContainerError::Json(e.to_string()))?;
        if let Some(enc) = raw.encoding.as_deref() {
            if enc != "hex" {
                return Err(ContainerError::Encoding(enc.to_owned()));
            }
        }
        let index = match raw.index.as_deref() {
            None => None,
            Some(s) => Some(parse_decimal_u64(s).ok_or_else(|| ContainerError::Index(s.into()))?),
        };
        let record = ContainerRecord {
            path: raw.path.parse()?,
            id: raw.id.parse()?,
            bytes: decode_hex_checksum(&raw.bytes)?,
            timestamp_ns: parse_rfc3339(&raw.timestamp)?,
        };
        Ok(ContainerLine { record, index })
    }

    /// The ids these bytes may have in this index: `sha256(bytes)` for txs and vertices; for
    /// blocks the proposervm id when the bytes parse as a proposervm block, and `sha256(bytes)`
    /// (a pre-fork X- or P-Chain block). Empty for a C-Chain block that is not proposervm-wrapped
    /// (its id is a keccak hash of the header, which this crate does not compute).
    pub fn candidate_ids(&self) -> Vec<Id> {
        let plain = Id(sha256(&self.bytes));
        match self.path {
            IndexPath::XTx | IndexPath::XVtx => vec![plain],
            IndexPath::XBlock | IndexPath::PBlock | IndexPath::CBlock => {
                let mut out = Vec::with_capacity(2);
                if let Ok(p) = proposervm::Block::parse(&self.bytes) {
                    out.push(p.id);
                }
                if self.path != IndexPath::CBlock {
                    out.push(plain);
                }
                out
            }
        }
    }

    /// Checks, in one SHA-256 pass over the bytes, the API hex checksum `sum` that followed
    /// them (when given) and then the id as [`ContainerRecord::check_id`] does. The checksum is
    /// the tail of `sha256(bytes)`, which is also the id of a tx, a vertex or a pre-fork block,
    /// and a proposervm block's id hashes a prefix of the same bytes: so a page of containers
    /// is hashed once instead of twice. A bad checksum is reported first, as decoding the hex
    /// would have.
    pub fn check_sum_and_id(&self, sum: Option<[u8; CHECKSUM_LEN]>) -> Result<(), ContainerError> {
        let block = match self.path {
            IndexPath::XTx | IndexPath::XVtx => None,
            IndexPath::XBlock | IndexPath::PBlock | IndexPath::CBlock => {
                Some(proposervm::Block::decode(&self.bytes))
            }
        };
        let id_len = match &block {
            Some(Ok(b)) => b.id_len(self.bytes.len()),
            _ => self.bytes.len(),
        };
        let (plain, prefix) = sha256_and_prefix(&self.bytes, id_len);
        if let Some(sum) = sum {
            if checksum_of(&plain) != sum {
                return Err(ContainerError::Hex(HexError::BadChecksum));
            }
        }
        let ok = match block {
            None => Id(plain) == self.id,
            Some(Ok(_)) if Id(prefix.unwrap_or(plain)) == self.id => true,
            Some(Ok(_)) if self.path == IndexPath::CBlock => false,
            Some(Err(_)) if self.path == IndexPath::CBlock => true,
            Some(_) => Id(plain) == self.id,
        };
        if ok {
            Ok(())
        } else {
            Err(ContainerError::IdMismatch {
                path: self.path,
                id: self.id,
            })
        }
    }

    /// Checks the id against the bytes (see [`ContainerRecord::candidate_ids`]); a non-wrapped
    /// C-Chain block cannot be checked and passes. One SHA-256 pass over the bytes
    /// ([`ContainerRecord::check_sum_and_id`] without a checksum).
    pub fn check_id(&self) -> Result<(), ContainerError> {
        self.check_sum_and_id(None)
    }
}

/// Numbers the containers of an import file per index path and checks stated `index` values.
#[derive(Debug, Clone, Default)]
pub struct IndexCounter {
    next: HashMap<IndexPath, u64>,
}

impl IndexCounter {
    /// A counter with every index empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// Assigns the next position of the line's path; fails if the line stated another.
    pub fn assign(&mut self, line: &ContainerLine) -> Result<u64, ContainerError> {
        let slot = self.next.entry(line.record.path).or_insert(0);
        let expected = *slot;
        if let Some(given) = line.index {
            if given != expected {
                return Err(ContainerError::IndexMismatch {
                    path: line.record.path,
                    id: line.record.id,
                    given,
                    expected,
                });
            }
        }
        *slot = expected.saturating_add(1);
        Ok(expected)
    }

    /// How many containers `path` has been given so far.
    pub fn len(&self, path: IndexPath) -> u64 {
        self.next.get(&path).copied().unwrap_or(0)
    }

    /// Whether no container was assigned at all.
    pub fn is_empty(&self) -> bool {
        self.next.values().all(|n| *n == 0)
    }
}

/// A decimal `u64` with digits only (no sign, no spaces), as avalanchego's `json.Uint64` emits.
pub fn parse_decimal_u64(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const NANOS_PER_SEC: i64 = 1_000_000_000;
const SECS_PER_DAY: i64 = 86_400;

/// Formats nanoseconds since the Unix epoch as Go's `Format(time.RFC3339Nano)` does in UTC:
/// `2021-11-04T00:42:55.01643414Z` (fraction without trailing zeros, omitted when zero).
pub fn format_rfc3339_nano(timestamp_ns: i64) -> String {
    let secs = timestamp_ns.div_euclid(NANOS_PER_SEC);
    let nanos = timestamp_ns.rem_euclid(NANOS_PER_SEC);
    let days = secs.div_euclid(SECS_PER_DAY);
    let sod = secs.rem_euclid(SECS_PER_DAY);
    let (y, m, d) = crate::time::civil_from_days(days);
    let mut out = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    );
    if nanos != 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

/// Parses an RFC 3339 timestamp (`T` separator, 1–9 fractional digits, `Z` or `±HH:MM`) into
/// nanoseconds since the Unix epoch, as Go's `time.Parse(time.RFC3339Nano, s)` accepts it.
pub fn parse_rfc3339(s: &str) -> Result<i64, TimestampError> {
    let syntax = || TimestampError::Syntax(s.to_owned());
    let range = || TimestampError::OutOfRange(s.to_owned());
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Result<i64, TimestampError> {
        let digits = b.get(from..from + len).ok_or_else(syntax)?;
        digits.iter().try_fold(0i64, |acc, c| {
            if c.is_ascii_digit() {
                Ok(acc * 10 + i64::from(c - b'0'))
            } else {
                Err(syntax())
            }
        })
    };
    let expect = |at: usize, c: u8| -> Result<(), TimestampError> {
        if b.get(at) == Some(&c) {
            Ok(())
        } else {
            Err(syntax())
        }
    };
    let year = num(0, 4)?;
    expect(4, b'-')?;
    let month = num(5, 2)?;
    expect(7, b'-')?;
    let day = num(8, 2)?;
    expect(10, b'T')?;
    let hour = num(11, 2)?;
    expect(13, b':')?;
    let minute = num(14, 2)?;
    expect(16, b':')?;
    let second = num(17, 2)?;
    let mut pos = 19;
    let mut nanos = 0i64;
    if b.get(pos) == Some(&b'.') {
        pos += 1;
        let start = pos;
        while b.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        let n = pos - start;
        if n == 0 || n > 9 {
            return Err(syntax());
        }
        nanos = num(start, n)? * 10i64.pow(9 - n as u32);
    }
    let offset_secs = match b.get(pos) {
        Some(b'Z') if b.len() == pos + 1 => 0,
        Some(sign @ (b'+' | b'-')) if b.len() == pos + 6 => {
            let oh = num(pos + 1, 2)?;
            expect(pos + 3, b':')?;
            let om = num(pos + 4, 2)?;
            if oh >= 24 || om >= 60 {
                return Err(range());
            }
            let off = oh * 3600 + om * 60;
            if *sign == b'-' { -off } else { off }
        }
        _ => return Err(syntax()),
    };
    if !(1..=12).contains(&month)
        || day < 1
        || day > crate::time::days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return Err(range());
    }
    let days = crate::time::days_from_civil(
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    );
    let secs = i128::from(days) * i128::from(SECS_PER_DAY)
        + i128::from(hour * 3600 + minute * 60 + second)
        - i128::from(offset_secs);
    let total = secs * i128::from(NANOS_PER_SEC) + i128::from(nanos);
    i64::try_from(total).map_err(|_| TimestampError::Overflow(s.to_owned()))
}
