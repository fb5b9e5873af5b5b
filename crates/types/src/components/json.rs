//! A small compact-JSON writer that reproduces Go's `encoding/json` output byte for byte, used to
//! render chain objects exactly as avalanchego's `encoding: "json"` API replies do.
//!
//! Objects are written field by field in the order avalanchego emits them (struct declaration
//! order, or sorted keys where Go marshals a map), with no intermediate `serde_json::Value`.

use crate::address::{AddressContext, AddressFormatter};
use crate::fx::{NFTFX_ID, PROPERTYFX_ID, SECP256K1FX_ID};
use crate::{Id, ShortId};

/// Why a [`JsonCtx`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonCtxError {
    /// The human-readable part is not a valid bech32 hrp.
    #[error("invalid bech32 hrp {0:?}")]
    InvalidHrp(String),
}

/// What addresses need to be rendered: the chain's primary alias (`X`, `P`) and the network's hrp,
/// held as an [`AddressFormatter`] (the one address formatter of the crate).
#[derive(Debug, Clone)]
pub struct JsonCtx {
    addresses: AddressFormatter,
}

impl JsonCtx {
    /// A context rendering addresses as `<chain_alias>-<hrp>1…` (e.g. `X-avax1…`). The hrp must
    /// suit 20-byte addresses (see [`AddressFormatter::new`]).
    pub fn new(chain_alias: &str, hrp: &str) -> Result<Self, JsonCtxError> {
        AddressFormatter::new(chain_alias, hrp)
            .map(Self::from_formatter)
            .map_err(|_| JsonCtxError::InvalidHrp(hrp.into()))
    }

    /// A context rendering addresses with `formatter`.
    pub fn from_formatter(formatter: AddressFormatter) -> Self {
        Self {
            addresses: formatter,
        }
    }

    /// The chain alias in front of addresses.
    pub fn chain_alias(&self) -> &str {
        self.addresses.chain_alias()
    }

    /// Appends `<alias>-<bech32 address>` to `out` (avalanchego `address.Format`).
    pub fn write_address(&self, out: &mut String, addr: &ShortId) {
        self.addresses.write(out, addr);
    }

    /// The formatted address as a new string.
    pub fn format_address(&self, addr: &ShortId) -> String {
        self.addresses.format(addr)
    }
}

/// A chain's address rules render its JSON: primary alias and network hrp.
impl From<&AddressContext> for JsonCtx {
    fn from(ctx: &AddressContext) -> Self {
        Self::from_formatter(ctx.formatter().clone())
    }
}

/// The cb58 of ids rendered in almost every object (each input, output and credential names its
/// fx), so they are written from constants.
fn known_id_str(id: &Id) -> Option<&'static str> {
    if *id == SECP256K1FX_ID {
        Some("spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ")
    } else if *id == NFTFX_ID {
        Some("qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT")
    } else if *id == PROPERTYFX_ID {
        Some("rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy")
    } else if *id == Id::EMPTY {
        Some("11111111111111111111111111111111LpoYY")
    } else {
        None
    }
}

/// A value that renders itself as avalanchego's JSON.
pub trait WriteJson {
    /// Appends the JSON of `self` to `w`.
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx);
}

/// Renders a value to a compact JSON string.
pub fn to_json_string<T: WriteJson + ?Sized>(value: &T, ctx: &JsonCtx) -> String {
    // A 2-input 2-output tx renders to about 2 KB: one allocation for the common case.
    let mut w = JsonWriter::with_capacity(2048);
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
        self.buf.push_str(itoa::Buffer::new().format(v));
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
        match known_id_str(id) {
            Some(s) => self.plain_string(s),
            None => {
                self.sep();
                self.buf.push('"');
                crate::cb58::encode_into(&id.0, &mut self.buf);
                self.buf.push('"');
                self.comma = true;
            }
        }
    }

    /// Bytes as `"0x…"` hex without checksum (`formatting.HexNC`).
    pub fn hex(&mut self, bytes: &[u8]) {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        const CHUNK: usize = 64;
        self.sep();
        self.buf.reserve(4 + 2 * bytes.len());
        self.buf.push_str("\"0x");
        let mut tmp = [0u8; 2 * CHUNK];
        for chunk in bytes.chunks(CHUNK) {
            for (pair, &b) in tmp.chunks_exact_mut(2).zip(chunk) {
                pair.copy_from_slice(&[DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 0xf)]]);
            }
            let text = tmp.get(..2 * chunk.len()).unwrap_or_default();
            // Always ASCII hex digits, so always valid UTF-8.
            if let Ok(text) = std::str::from_utf8(text) {
                self.buf.push_str(text);
            }
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
/// Runs of characters that need no escape are copied whole.
pub fn write_go_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut rest = s;
    while let Some((i, c)) = rest.char_indices().find(|&(_, c)| needs_escape(c)) {
        let (plain, tail) = rest.split_at(i);
        out.push_str(plain);
        push_escape(out, c);
        rest = tail.get(c.len_utf8()..).unwrap_or_default();
    }
    out.push_str(rest);
    out.push('"');
}

/// Whether Go's HTML-safe `encoding/json` escapes `c`.
#[inline]
fn needs_escape(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}' | '"' | '\\' | '<' | '>' | '&' | '\u{2028}' | '\u{2029}'
    )
}

/// Appends the escape sequence of a character [`needs_escape`] selected.
fn push_escape(out: &mut String, c: char) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c => {
            let v = u32::from(c);
            out.push_str("\\u");
            for shift in [12u32, 8, 4, 0] {
                let nibble = ((v >> shift) & 0xf) as usize;
                out.push(char::from(DIGITS.get(nibble).copied().unwrap_or(b'0')));
            }
        }
    }
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
    fn known_ids_are_their_cb58() {
        // vector: avalanchego vms/avm/service.md (fxID fields) and ids/id_test.go (empty id).
        for id in [SECP256K1FX_ID, NFTFX_ID, PROPERTYFX_ID, Id::EMPTY] {
            assert_eq!(known_id_str(&id), Some(crate::cb58::encode(&id.0).as_str()));
        }
        assert_eq!(known_id_str(&Id([7; 32])), None);
        let mut w = JsonWriter::new();
        w.begin_array();
        w.id(&SECP256K1FX_ID);
        w.id(&Id([7; 32]));
        w.end_array();
        assert_eq!(
            w.as_str(),
            format!(
                r#"["spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ","{}"]"#,
                Id([7; 32])
            )
        );
    }

    #[test]
    fn numbers_and_long_hex() {
        let mut w = JsonWriter::new();
        w.begin_array();
        w.u64(0);
        w.u64(u64::MAX);
        w.hex(&[]);
        w.hex(&[0x0f; 130]);
        w.end_array();
        let expected = format!(r#"[0,18446744073709551615,"0x","0x{}"]"#, "0f".repeat(130));
        assert_eq!(w.as_str(), expected);
    }

    /// The straightforward char-by-char escaper, as an oracle for the run-copying one.
    fn go_string_oracle(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if u32::from(c) < 0x20
                    || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') =>
                {
                    out.push_str(&format!("\\u{:04x}", u32::from(c)));
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    proptest::proptest! {
        #[test]
        fn go_string_matches_oracle(s in "(\\PC|[\\x00-\\x1f\"\\\\<>&\u{2028}\u{2029}])*") {
            let mut out = String::new();
            write_go_string(&mut out, &s);
            proptest::prop_assert_eq!(out, go_string_oracle(&s));
        }
    }

    #[test]
    fn context_from_address_rules() {
        // vector: avalanchego genesis/genesis_local.go (X-local18jma8…).
        let rules = AddressContext::primary(&crate::NetworkInfo::LOCAL, crate::Chain::X).unwrap();
        let ctx = JsonCtx::from(&rules);
        let addr =
            ShortId::from_slice(&hex::decode("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c").unwrap())
                .unwrap();
        assert_eq!(ctx.chain_alias(), "X");
        assert_eq!(ctx.format_address(&addr), rules.format(&addr));
        assert_eq!(
            ctx.format_address(&addr),
            "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
        );
    }

    #[test]
    fn bad_hrp_is_rejected() {
        assert!(JsonCtx::new("X", "").is_err());
        assert!(JsonCtx::new("X", "a b").is_err());
    }
}
