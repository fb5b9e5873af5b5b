//! The few RLP framing steps the coreth block needs beyond `alloy_rlp`'s field codecs: a list's
//! payload, one raw item, a list around a payload.

use alloy_rlp::Header as RlpHeader;

use super::CorethError;

/// Reads a list header from the front of `buf` and returns its payload, advancing `buf` past it.
pub(super) fn list_payload<'a>(buf: &mut &'a [u8]) -> Result<&'a [u8], CorethError> {
    let h = RlpHeader::decode(buf)?;
    if !h.list {
        return Err(CorethError::Malformed("expected an RLP list"));
    }
    take(buf, h.payload_length)
}

/// Splits one whole RLP item (header and payload, string or list) off the front of `buf`.
pub(super) fn raw_item<'a>(buf: &mut &'a [u8]) -> Result<&'a [u8], CorethError> {
    let start: &'a [u8] = buf;
    let h = RlpHeader::decode(buf)?;
    take(buf, h.payload_length)?;
    let used = start.len().saturating_sub(buf.len());
    start
        .get(..used)
        .ok_or(CorethError::Malformed("RLP item length"))
}

/// The items of a list payload, each as its raw bytes.
pub(super) fn raw_items(mut payload: &[u8]) -> Result<Vec<&[u8]>, CorethError> {
    let mut out = Vec::new();
    while !payload.is_empty() {
        out.push(raw_item(&mut payload)?);
    }
    Ok(out)
}

/// Appends a list header for `payload`, then the payload.
pub(super) fn put_list(out: &mut Vec<u8>, payload: &[u8]) {
    RlpHeader {
        list: true,
        payload_length: payload.len(),
    }
    .encode(out);
    out.extend_from_slice(payload);
}

fn take<'a>(buf: &mut &'a [u8], n: usize) -> Result<&'a [u8], CorethError> {
    if buf.len() < n {
        return Err(CorethError::Rlp(alloy_rlp::Error::InputTooShort));
    }
    let (head, tail) = buf.split_at(n);
    *buf = tail;
    Ok(head)
}
