//! [`UsageRow`]: a stored row of the usage log (one minute's events of one write batch) as a
//! value of its own, so a fleet's nodes can hand their rows to each other and every node stores
//! the same rows under the same keys (the request log's ids and page tokens name rows).

use snowline_store::DecodeError;

use super::event::{UsageEventRef, decode_ref};
use crate::bytes::{Reader, put_varint};

/// One row: its key `(minute start ms, seq)` and its block of events, as the table stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageRow {
    /// The row's minute, ms since the epoch.
    pub minute: u64,
    /// The row's sequence number (unique per writer run: a random base and a counter).
    pub seq: u64,
    /// The events, `varint ms since the minute ‖ varint length ‖ event` each.
    pub block: Vec<u8>,
}

impl UsageRow {
    /// Calls `f` on each event of the row, decoded as a borrowed view.
    pub fn for_each_event(&self, mut f: impl FnMut(UsageEventRef<'_>)) -> Result<(), DecodeError> {
        let mut r = Reader::new(&self.block);
        while !r.is_empty() {
            let offset = r.varint()?;
            let bytes = r.bytes()?;
            f(decode_ref(bytes, self.minute.saturating_add(offset))?);
        }
        Ok(())
    }
}

/// Rows in one message: `minute u64 BE ‖ seq u64 BE ‖ varint length ‖ block` each.
pub fn encode_rows(rows: &[UsageRow]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows.iter().map(|r| r.block.len() + 26).sum());
    for row in rows {
        out.extend_from_slice(&row.minute.to_be_bytes());
        out.extend_from_slice(&row.seq.to_be_bytes());
        put_varint(&mut out, row.block.len() as u64);
        out.extend_from_slice(&row.block);
    }
    out
}

/// The rows [`encode_rows`] wrote; a truncated or malformed message is an error.
pub fn decode_rows(bytes: &[u8]) -> Result<Vec<UsageRow>, DecodeError> {
    let mut r = Reader::new(bytes);
    let mut rows = Vec::new();
    while !r.is_empty() {
        let minute = u64::from_be_bytes(r.array::<8>()?);
        let seq = u64::from_be_bytes(r.array::<8>()?);
        let block = r.bytes()?.to_vec();
        let row = UsageRow { minute, seq, block };
        row.for_each_event(|_| {})?;
        rows.push(row);
    }
    Ok(rows)
}
