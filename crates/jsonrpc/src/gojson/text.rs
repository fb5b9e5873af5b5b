//! String handling with Go's `encoding/json` rules: decoding string literals
//! (invalid UTF-8 and lone surrogates become U+FFFD) and encoding with
//! `json.Encoder`'s default HTML escaping, so echoed values match byte for byte.

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Decodes one UTF-8 char at the start of `b` as Go's `utf8.DecodeRune`:
/// an invalid or truncated sequence yields U+FFFD and a width of 1.
fn decode_rune(b: &[u8]) -> (char, usize) {
    let len = match b.first() {
        None => return (char::REPLACEMENT_CHARACTER, 0),
        Some(&c) if c < 0x80 => return (char::from(c), 1),
        Some(&c) if c & 0xe0 == 0xc0 => 2,
        Some(&c) if c & 0xf0 == 0xe0 => 3,
        Some(&c) if c & 0xf8 == 0xf0 => 4,
        Some(_) => return (char::REPLACEMENT_CHARACTER, 1),
    };
    match b.get(..len).map(std::str::from_utf8) {
        Some(Ok(s)) => match s.chars().next() {
            Some(ch) => (ch, len),
            None => (char::REPLACEMENT_CHARACTER, 1),
        },
        _ => (char::REPLACEMENT_CHARACTER, 1),
    }
}

/// Replaces each byte of an invalid UTF-8 sequence by U+FFFD, as Go's decoder does
/// inside strings. Valid input is borrowed unchanged.
pub(crate) fn lossy_utf8(b: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(b) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(b.len() + 8);
    let mut i = 0;
    while let Some(rest) = b.get(i..).filter(|r| !r.is_empty()) {
        let (ch, n) = decode_rune(rest);
        out.push(ch);
        i += n.max(1);
    }
    std::borrow::Cow::Owned(out)
}

fn hex4(b: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// Decodes a JSON string literal (quotes included, already validated by the
/// scanner) with Go's `unquoteBytes` rules.
pub(crate) fn unquote(lit: &[u8]) -> String {
    let inner = lit.get(1..lit.len().saturating_sub(1)).unwrap_or_default();
    let mut out = String::with_capacity(inner.len());
    let mut i = 0;
    while let Some(rest) = inner.get(i..).filter(|r| !r.is_empty()) {
        match rest {
            [b'\\', b'u', tail @ ..] => {
                let Some(r) = hex4(tail) else { break };
                i += 6;
                if (0xd800..0xe000).contains(&r) {
                    let pair = match inner.get(i..) {
                        Some([b'\\', b'u', t2 @ ..]) => hex4(t2),
                        _ => None,
                    };
                    if let Some(r2) = pair.filter(|_| r < 0xdc00) {
                        if (0xdc00..0xe000).contains(&r2) {
                            let c = 0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00);
                            out.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                            i += 6;
                            continue;
                        }
                    }
                    out.push(char::REPLACEMENT_CHARACTER);
                } else {
                    out.push(char::from_u32(r).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
            }
            [b'\\', e, ..] => {
                out.push(match e {
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    other => char::from(*other),
                });
                i += 2;
            }
            _ => {
                let (ch, n) = decode_rune(rest);
                out.push(ch);
                i += n.max(1);
            }
        }
    }
    out
}

/// Appends `s` as a JSON string literal the way Go's `json.Encoder` writes it
/// (HTML-safe: `<`, `>`, `&`, U+2028 and U+2029 are `\u` escaped).
pub(crate) fn write_string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        let esc: Option<&[u8]> = match ch {
            '"' => Some(b"\\\""),
            '\\' => Some(b"\\\\"),
            '\u{8}' => Some(b"\\b"),
            '\u{c}' => Some(b"\\f"),
            '\n' => Some(b"\\n"),
            '\r' => Some(b"\\r"),
            '\t' => Some(b"\\t"),
            _ => None,
        };
        let code = u32::from(ch);
        if esc.is_none()
            && !(code < 0x20 || matches!(ch, '<' | '>' | '&' | '\u{2028}' | '\u{2029}'))
        {
            continue;
        }
        out.extend_from_slice(bytes.get(start..i).unwrap_or_default());
        match esc {
            Some(e) => out.extend_from_slice(e),
            None => push_u_escape(out, code),
        }
        start = i + ch.len_utf8();
    }
    out.extend_from_slice(bytes.get(start..).unwrap_or_default());
    out.push(b'"');
}

fn push_u_escape(out: &mut Vec<u8>, code: u32) {
    out.extend_from_slice(b"\\u");
    for shift in [12u32, 8, 4, 0] {
        let nib = usize::try_from((code >> shift) & 0xf).unwrap_or(0);
        out.push(HEX.get(nib).copied().unwrap_or(b'0'));
    }
}

/// Appends valid JSON `raw` the way Go re-encodes a `json.RawMessage` through
/// `json.Encoder`: insignificant whitespace removed and HTML characters escaped.
pub(crate) fn write_compact(out: &mut Vec<u8>, raw: &[u8]) {
    let mut in_str = false;
    let mut esc = false;
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        i += 1;
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
        } else if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            continue;
        } else if c == b'"' {
            in_str = true;
        }
        push_html_safe(out, raw, &mut i, c);
    }
}

/// Pushes byte `c` (already consumed; `i` points after it), escaping `<>&` and the
/// UTF-8 forms of U+2028/U+2029 as Go does.
fn push_html_safe(out: &mut Vec<u8>, raw: &[u8], i: &mut usize, c: u8) {
    match c {
        b'<' | b'>' | b'&' => push_u_escape(out, u32::from(c)),
        0xe2 => match raw.get(*i..*i + 2) {
            Some([0x80, x @ (0xa8 | 0xa9)]) => {
                push_u_escape(out, 0x2000 | u32::from(*x - 0x80));
                *i += 2;
            }
            _ => out.push(c),
        },
        _ => out.push(c),
    }
}

/// Whether [`write_html_safe`] would copy `json` unchanged: no `<`, `>`, `&`, and no 0xe2 (the
/// lead byte of U+2028 / U+2029; another character starting with it is copied as is, and only
/// costs the copy this check saves).
pub(crate) fn is_html_safe(json: &[u8]) -> bool {
    memchr::memchr3(b'<', b'>', b'&', json).is_none() && memchr::memchr(0xe2, json).is_none()
}

/// Makes compact JSON produced by serde_json HTML-safe like Go's encoder output.
/// In compact JSON these bytes can only occur inside strings, so a byte scan is exact. The
/// scan is memchr's (SIMD): a `getContainerRange` answer is megabytes of hex with nothing to
/// escape, and a byte-by-byte loop was 7% of a follow's CPU.
pub(crate) fn write_html_safe(out: &mut Vec<u8>, json: &[u8]) {
    // The next `<`, `>` or `&`, and the next 0xe2 (lead byte of U+2028 / U+2029), each kept
    // until the copy passes it, so the text is scanned once however many of them it has.
    let find_angle = |from: usize| {
        json.get(from..)
            .and_then(|rest| memchr::memchr3(b'<', b'>', b'&', rest))
            .map(|p| p + from)
    };
    let find_e2 = |from: usize| {
        json.get(from..)
            .and_then(|rest| memchr::memchr(0xe2, rest))
            .map(|p| p + from)
    };
    let (mut angle, mut e2) = (find_angle(0), find_e2(0));
    let mut start = 0;
    loop {
        let at = match (angle, e2) {
            (Some(a), Some(e)) => a.min(e),
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => break,
        };
        let Some(&c) = json.get(at) else { break };
        out.extend_from_slice(json.get(start..at).unwrap_or_default());
        let mut i = at + 1;
        push_html_safe(out, json, &mut i, c);
        start = i;
        if angle.is_some_and(|p| p < i) {
            angle = find_angle(i);
        }
        if e2.is_some_and(|p| p < i) {
            e2 = find_e2(i);
        }
    }
    out.extend_from_slice(json.get(start..).unwrap_or_default());
}

/// Quotes `s` like Go's `strconv.Quote` (used by `%q` in gorilla's messages).
pub(crate) fn go_quote(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if u32::from(c) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if c.is_control()
                || (c.is_whitespace() && c != ' ')
                || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{feff}') =>
            {
                if u32::from(c) > 0xffff {
                    let _ = write!(out, "\\U{:08x}", u32::from(c));
                } else {
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> String {
        let mut v = Vec::new();
        write_string(&mut v, s);
        String::from_utf8(v).unwrap()
    }

    // Escapes as Go's encoding/json encode.go appendString (Go >= 1.22, escapeHTML).
    #[test]
    fn go_string_encoding() {
        assert_eq!(enc("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(enc("<a&b>"), r#""\u003ca\u0026b\u003e""#);
        assert_eq!(
            enc("\u{8}\u{c}\n\r\t\u{1}\u{7f}"),
            "\"\\b\\f\\n\\r\\t\\u0001\u{7f}\""
        );
        assert_eq!(enc("\u{2028}x\u{2029}é"), "\"\\u2028x\\u2029é\"");
    }

    // Decoding as Go's encoding/json decode.go unquoteBytes.
    #[test]
    fn go_unquote() {
        assert_eq!(unquote(br#""a\u0041\n\/""#), "aA\n/");
        assert_eq!(unquote(br#""\ud83d\ude00""#), "\u{1f600}");
        assert_eq!(unquote(br#""\ud83dx""#), "\u{fffd}x");
        assert_eq!(unquote(br#""\ud83d\u0041""#), "\u{fffd}A");
        assert_eq!(unquote(b"\"a\xffb\xe2\x82\""), "a\u{fffd}b\u{fffd}\u{fffd}");
    }

    // strconv.Quote as used by gorilla's %q messages.
    #[test]
    fn go_quote_rules() {
        assert_eq!(
            go_quote("a\"b\\\n\u{1}é\u{a0}"),
            "\"a\\\"b\\\\\\n\\x01é\\u00a0\""
        );
    }

    /// The byte-by-byte scan the memchr one replaced: the oracle below.
    fn html_safe_bytewise(out: &mut Vec<u8>, json: &[u8]) {
        let mut start = 0;
        let mut i = 0;
        while let Some(&c) = json.get(i) {
            i += 1;
            if matches!(c, b'<' | b'>' | b'&' | 0xe2) {
                out.extend_from_slice(&json[start..i - 1]);
                push_html_safe(out, json, &mut i, c);
                start = i;
            }
        }
        out.extend_from_slice(&json[start..]);
    }

    proptest::proptest! {
        /// Any bytes (dense in the special ones and in U+2028/U+2029's encodings) come out as
        /// the byte-by-byte scan makes them.
        #[test]
        fn html_safe_equals_the_bytewise_scan(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::strategy::Just(b"<".to_vec()),
                proptest::strategy::Just(b">".to_vec()),
                proptest::strategy::Just(b"&".to_vec()),
                proptest::strategy::Just("\u{2028}".as_bytes().to_vec()),
                proptest::strategy::Just("\u{2029}".as_bytes().to_vec()),
                proptest::strategy::Just(vec![0xe2]),
                proptest::strategy::Just(vec![0xe2, 0x80]),
                proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            ], 0..30),
        ) {
            let json: Vec<u8> = parts.concat();
            let (mut got, mut want) = (Vec::new(), Vec::new());
            write_html_safe(&mut got, &json);
            html_safe_bytewise(&mut want, &json);
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn compact_and_html() {
        let mut v = Vec::new();
        write_compact(&mut v, b" { \"a\" : [1, \"x <y>\" ] } ");
        assert_eq!(v, br#"{"a":[1,"x \u003cy\u003e"]}"#);
        let mut w = Vec::new();
        write_html_safe(&mut w, "{\"a\":\"&\u{2028}\"}".as_bytes());
        assert_eq!(w, br#"{"a":"\u0026\u2028"}"#);
    }
}
