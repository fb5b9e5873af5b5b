//! A small compact-JSON writer that reproduces Go's `encoding/json` output byte for byte, used to
//! render chain objects exactly as avalanchego's `encoding: "json"` API replies do.
//!
//! Objects are written field by field in the order avalanchego emits them (struct declaration
//! order, or sorted keys where Go marshals a map), with no intermediate `serde_json::Value`.

use std::fmt::Write as _;

use crate::{Id, ShortId};

/// Why a [`JsonCtx`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonCtxError {
    /// The human-readable part is not a valid bech32 hrp.
    #[error("invalid bech32 hrp {0:?}")]
    InvalidHrp(String),
}

/// What addresses need to be rendered: the chain's primary alias (`X`, `P`) and the network's hrp.
#[derive(Debug, Clone)]
pub struct JsonCtx {
    chain_alias: String,
    hrp: bech32::Hrp,
}

impl JsonCtx {
    /// A context rendering addresses as `<chain_alias>-<hrp>1…` (e.g. `X-avax1…`).
    pub fn new(chain_alias: &str, hrp: &str) -> Result<Self, JsonCtxError> {
        let parsed = bech32::Hrp::parse(hrp).map_err(|_| JsonCtxError::InvalidHrp(hrp.into()))?;
        // Encoding a 20-byte payload must then succeed.
        bech32::encode_lower::<bech32::Bech32>(parsed, &[0u8; 20])
            .map_err(|_| JsonCtxError::InvalidHrp(hrp.into()))?;
        Ok(Self {
            chain_alias: chain_alias.to_owned(),
            hrp: parsed,
        })
    }

    /// The chain alias in front of addresses.
    pub fn chain_alias(&self) -> &str {
        &self.chain_alias
    }

    /// Appends `<alias>-<bech32 address>` to `out` (avalanchego `address.Format`).
    pub fn write_address(&self, out: &mut String, addr: &ShortId) {
        out.push_str(&self.chain_alias);
        out.push('-');
        // Cannot fail: the hrp was checked in `new` with a payload of the same length.
        let _ = bech32::encode_lower_to_fmt::<bech32::Bech32, _>(out, self.hrp, &addr.0);
    }

    /// The formatted address as a new string.
    pub fn format_address(&self, addr: &ShortId) -> String {
        let mut s = String::with_capacity(64);
        self.write_address(&mut s, addr);
        s
    }
}

/// A value that renders itself as avalanchego's JSON.
pub trait WriteJson {
    /// Appends the JSON of `self` to `w`.
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx);
}

/// Renders a value to a compact JSON string.
pub fn to_json_string<T: WriteJson + ?Sized>(value: &T, ctx: &JsonCtx) -> String {
    let mut w = JsonWriter::with_capacity(1024);
    value.write_json(&mut w, ctx);
    w.into_string()
}

/// An append-only compact JSON writer. Commas are inserted automatically: after any value, the next
/// key or array element is preceded by one.
#[derive(Debug, Default, Clone)]
pub struct JsonWriter {
    buf: String,
    comma: bool,
}

impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            buf: String::with_capacity(n),
            comma: false,
        }
    }

    /// The JSON written so far.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    /// Takes the JSON text.
    pub fn into_string(self) -> String {
        self.buf
    }

    #[inline]
    fn sep(&mut self) {
        if self.comma {
            self.buf.push(',');
        }
    }

    /// `{`
    pub fn begin_object(&mut self) {
        self.sep();
        self.buf.push('{');
        self.comma = false;
    }

    /// `}`
    pub fn end_object(&mut self) {
        self.buf.push('}');
        self.comma = true;
    }

    /// `[`
    pub fn begin_array(&mut self) {
        self.sep();
        self.buf.push('[');
        self.comma = false;
    }

    /// `]`
    pub fn end_array(&mut self) {
        self.buf.push(']');
        self.comma = true;
    }

    /// An object key (a plain ASCII identifier) and its colon.
    pub fn key(&mut self, k: &str) {
        self.sep();
        self.buf.push('"');
        self.buf.push_str(k);
        self.buf.push_str("\":");
        self.comma = false;
    }

    /// An unsigned number.
    pub fn u64(&mut self, v: u64) {
        self.sep();
        let _ = write!(self.buf, "{v}");
        self.comma = true;
    }

    /// `null`.
    pub fn null(&mut self) {
        self.sep();
        self.buf.push_str("null");
        self.comma = true;
    }

    /// A string, escaped as Go's `encoding/json` does (HTML-safe, invalid UTF-8 impossible here).
    pub fn string(&mut self, s: &str) {
        self.sep();
        write_go_string(&mut self.buf, s);
        self.comma = true;
    }

    /// A string known to need no escaping (ids, hex, addresses).
    pub fn plain_string(&mut self, s: &str) {
        self.sep();
        self.buf.push('"');
        self.buf.push_str(s);
        self.buf.push('"');
        self.comma = true;
    }

    /// An id as its cb58 string.
    pub fn id(&mut self, id: &Id) {
        self.plain_string(&crate::cb58::encode(&id.0));
    }

    /// Bytes as `"0x…"` hex without checksum (`formatting.HexNC`).
    pub fn hex(&mut self, bytes: &[u8]) {
        self.sep();
        self.buf.reserve(4 + 2 * bytes.len());
        self.buf.push_str("\"0x");
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        for &b in bytes {
            self.buf.push(char::from(DIGITS[usize::from(b >> 4)]));
            self.buf.push(char::from(DIGITS[usize::from(b & 0xf)]));
        }
        self.buf.push('"');
        self.comma = true;
    }

    /// An address as `"<alias>-<bech32>"`.
    pub fn address(&mut self, ctx: &JsonCtx, addr: &ShortId) {
        self.sep();
        self.buf.push('"');
        ctx.write_address(&mut self.buf, addr);
        self.buf.push('"');
        self.comma = true;
    }

    /// A value implementing [`WriteJson`].
    pub fn value<T: WriteJson + ?Sized>(&mut self, ctx: &JsonCtx, v: &T) {
        v.write_json(self, ctx);
    }

    /// An array of values implementing [`WriteJson`].
    pub fn array<T: WriteJson>(&mut self, ctx: &JsonCtx, items: &[T]) {
        self.begin_array();
        for item in items {
            item.write_json(self, ctx);
        }
        self.end_array();
    }

    /// An array of numbers.
    pub fn u32_array(&mut self, items: &[u32]) {
        self.begin_array();
        for &v in items {
            self.u64(u64::from(v));
        }
        self.end_array();
    }
}

/// Appends `s` as a JSON string literal with Go's escaping: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`,
/// `\f`, other control characters as `\u00XX`, and `<`, `>`, `&`, U+2028, U+2029 as `\uXXXX`.
pub fn write_go_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_and_nesting() {
        let mut w = JsonWriter::new();
        w.begin_object();
        w.key("a");
        w.u64(1);
        w.key("b");
        w.begin_array();
        w.u64(2);
        w.null();
        w.begin_object();
        w.end_object();
        w.end_array();
        w.key("c");
        w.hex(&[0xab, 0x01]);
        w.end_object();
        assert_eq!(w.as_str(), r#"{"a":1,"b":[2,null,{}],"c":"0xab01"}"#);
    }

    #[test]
    fn addresses_are_alias_dash_bech32() {
        // vector: avalanchego vms/avm/service.md (getUTXOs: the P-Chain UTXO owned by 3cb7d384…
        // is listed for X-avax18jma8…) and genesis/genesis_local.go (X-local18jma8…).
        let addr =
            ShortId::from_slice(&hex::decode("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c").unwrap())
                .unwrap();
        let avax = JsonCtx::new("X", "avax").unwrap();
        assert_eq!(
            avax.format_address(&addr),
            "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"
        );
        let local = JsonCtx::new("X", "local").unwrap();
        assert_eq!(
            local.format_address(&addr),
            "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
        );
        let mut w = JsonWriter::new();
        w.address(&local, &addr);
        assert_eq!(
            w.as_str(),
            "\"X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u\""
        );
    }

    #[test]
    fn go_string_escaping() {
        // Go encoding/json (encode.go appendString): HTML-safe escapes and \b, \f since Go 1.22.
        let mut s = String::new();
        write_go_string(&mut s, "a\"b\\c\n<&>\u{1}\u{8}é\u{2028}");
        assert_eq!(s, r#""a\"b\\c\n\u003c\u0026\u003e\u0001\bé\u2028""#);
    }

    #[test]
    fn bad_hrp_is_rejected() {
        assert!(JsonCtx::new("X", "").is_err());
        assert!(JsonCtx::new("X", "a b").is_err());
    }
}
