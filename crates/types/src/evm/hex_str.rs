//! `HexStr`: a `0x`-prefixed hex string kept as the node sent it (borrowed from the response when
//! possible) and decoded only when needed, so parsing a block does not decode every calldata.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Hex data (`DATA` in the JSON-RPC spec) as received: `"0x"`, `"0xa9059cbb..."`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HexStr<'a>(#[serde(borrow)] pub Cow<'a, str>);

impl<'a> HexStr<'a> {
    /// Wraps a string (tests, conversions).
    pub fn new(s: impl Into<Cow<'a, str>>) -> Self {
        Self(s.into())
    }

    /// The text, as received.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The hex digits without the `0x` prefix (the whole text when it has none).
    pub fn digits(&self) -> &str {
        let s = self.0.as_ref();
        s.strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s)
    }

    /// Whether it holds no bytes (`"0x"` or `""`).
    pub fn is_empty(&self) -> bool {
        self.digits().is_empty()
    }

    /// How many bytes the digits encode (an odd digit count rounds down).
    pub fn byte_len(&self) -> usize {
        self.digits().len() / 2
    }

    /// The bytes; `None` for non-hex text or an odd digit count.
    pub fn decode(&self) -> Option<Vec<u8>> {
        alloy_primitives::hex::decode(self.digits()).ok()
    }

    /// The first four bytes (a call's selector), when there are at least four valid ones.
    pub fn selector(&self) -> Option<[u8; 4]> {
        let head = self.digits().get(..8)?;
        let mut out = [0u8; 4];
        alloy_primitives::hex::decode_to_slice(head, &mut out).ok()?;
        Some(out)
    }

    /// An owned copy, detached from the response buffer.
    pub fn into_owned(self) -> HexStr<'static> {
        HexStr(Cow::Owned(self.0.into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::HexStr;

    #[test]
    fn decodes_lazily_and_rejects_bad_hex() {
        let h = HexStr::new("0xa9059cbb00");
        assert_eq!(h.selector(), Some([0xa9, 0x05, 0x9c, 0xbb]));
        assert_eq!(h.byte_len(), 5);
        assert_eq!(h.decode(), Some(vec![0xa9, 0x05, 0x9c, 0xbb, 0]));
        assert!(HexStr::new("0x").is_empty());
        assert_eq!(HexStr::new("0x").selector(), None);
        assert_eq!(HexStr::new("0xa9059c").selector(), None);
        assert_eq!(HexStr::new("0xzz").decode(), None);
        assert_eq!(HexStr::new("0xabc").decode(), None);
        // Multi-byte text must not panic on a char boundary.
        assert_eq!(HexStr::new("0xé1234567").selector(), None);
    }
}
