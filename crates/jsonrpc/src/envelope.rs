//! Decoding the request envelope exactly as gorilla/rpc v2 `json2` does with Go's
//! `json.Decoder`: first value only, case-insensitive member names, last duplicate
//! wins, `null` members left unset, type errors reported but decoding continued.

use crate::gojson::{scanner, text};
use std::ops::Range;

/// The decoded `serverRequest` of gorilla's json2 codec.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Envelope {
    /// `jsonrpc` member ("" when absent or null).
    pub version: String,
    /// `method` member ("" when absent or null).
    pub method: String,
    /// Raw bytes range of `params` in the body, `None` when absent or null.
    pub params: Option<Range<usize>>,
    /// Raw bytes range of `id` in the body, `None` when absent or null.
    pub id: Option<Range<usize>>,
}

/// A body that gorilla rejects with -32700; `envelope` holds what was decoded
/// (gorilla echoes it as `data` and uses its id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// Go's error message.
    pub message: String,
    /// The partially decoded request.
    pub envelope: Envelope,
}

#[derive(Clone, Copy)]
enum Field {
    Version,
    Method,
    Params,
    Id,
}

const FIELDS: [(&str, Field); 4] = [
    ("jsonrpc", Field::Version),
    ("method", Field::Method),
    ("params", Field::Params),
    ("id", Field::Id),
];

/// Go's `foldName` (`unicode.ToUpper(unicode.ToLower(r))` per rune) restricted to
/// what can fold onto our ASCII field names.
fn fold_char(c: char) -> char {
    match c {
        'a'..='z' => c.to_ascii_uppercase(),
        '\u{17f}' => 'S',             // LATIN SMALL LETTER LONG S
        '\u{131}' | '\u{130}' => 'I', // dotless i, I with dot above
        '\u{212a}' => 'K',            // KELVIN SIGN
        _ => c,
    }
}

fn fold_eq(a: &str, b: &str) -> bool {
    a.chars().map(fold_char).eq(b.chars().map(fold_char))
}

fn field_for(key: &str) -> Option<Field> {
    FIELDS
        .iter()
        .find(|(n, _)| *n == key)
        .or_else(|| FIELDS.iter().find(|(n, _)| fold_eq(n, key)))
        .map(|(_, f)| *f)
}

/// Go's name for the JSON kind starting with byte `c`, as in `UnmarshalTypeError`.
fn kind_name(c: u8) -> &'static str {
    match c {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        _ => "number",
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// A cursor over JSON already validated by the scanner.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.b.get(self.i).is_some_and(|&c| is_space(c)) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Skips one value (after whitespace) and returns its range.
    fn value(&mut self) -> Range<usize> {
        self.skip_ws();
        let start = self.i;
        let mut depth = 0usize;
        let mut in_str = false;
        let mut esc = false;
        while let Some(c) = self.peek() {
            self.i += 1;
            if in_str {
                if esc {
                    esc = false;
                } else if c == b'\\' {
                    esc = true;
                } else if c == b'"' {
                    in_str = false;
                    if depth == 0 {
                        break;
                    }
                }
                continue;
            }
            match c {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                // A literal at depth 0 ends before the next delimiter.
                _ if depth == 0
                    && self
                        .peek()
                        .is_none_or(|n| is_space(n) || matches!(n, b',' | b'}' | b']')) =>
                {
                    break;
                }
                _ => {}
            }
        }
        start..self.i
    }
}

/// Decodes the first JSON value of `body` into an [`Envelope`].
pub(crate) fn decode(body: &[u8]) -> Result<Envelope, ParseError> {
    let end = scanner::read_value(body).map_err(|e| ParseError {
        message: e.message().to_owned(),
        envelope: Envelope::default(),
    })?;
    let data = body.get(..end).unwrap_or_default();
    let mut cur = Cursor { b: data, i: 0 };
    cur.skip_ws();
    let mut env = Envelope::default();
    match cur.peek() {
        Some(b'{') => {}
        Some(b'n') => return Ok(env),
        Some(c) => {
            return Err(ParseError {
                message: format!(
                    "json: cannot unmarshal {} into Go value of type json2.serverRequest",
                    kind_name(c)
                ),
                envelope: env,
            });
        }
        None => return Ok(env),
    }
    cur.i += 1;
    let mut first_err: Option<String> = None;
    loop {
        cur.skip_ws();
        match cur.peek() {
            Some(b'"') => {}
            _ => break, // '}' (validated JSON)
        }
        let key_range = cur.value();
        let key = text::unquote(data.get(key_range).unwrap_or_default());
        cur.skip_ws();
        cur.i += 1; // ':'
        let vr = cur.value();
        let raw = data.get(vr.clone()).unwrap_or_default();
        let first = raw.first().copied().unwrap_or(b'n');
        match field_for(&key) {
            Some(f @ (Field::Version | Field::Method)) => {
                let (slot, name) = match f {
                    Field::Version => (&mut env.version, "jsonrpc"),
                    _ => (&mut env.method, "method"),
                };
                match first {
                    b'"' => *slot = text::unquote(raw),
                    b'n' => {}
                    c => {
                        first_err.get_or_insert_with(|| {
                            format!(
                                "json: cannot unmarshal {} into Go struct field serverRequest.{name} of type string",
                                kind_name(c)
                            )
                        });
                    }
                }
            }
            Some(f @ (Field::Params | Field::Id)) => {
                let slot = match f {
                    Field::Params => &mut env.params,
                    _ => &mut env.id,
                };
                *slot = if first == b'n' { None } else { Some(vr) };
            }
            None => {}
        }
        cur.skip_ws();
        if cur.peek() == Some(b',') {
            cur.i += 1;
        } else {
            break;
        }
    }
    match first_err {
        Some(message) => Err(ParseError {
            message,
            envelope: env,
        }),
        None => Ok(env),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw<'a>(b: &'a [u8], r: &Option<Range<usize>>) -> Option<&'a [u8]> {
        r.clone().and_then(|r| b.get(r))
    }

    #[test]
    fn decodes_members() {
        let b = br#" {"jsonrpc":"2.0", "ID" : 7 ,"Method":"avm.getTx","params":[{"a":1}],"x":{}} trailing"#;
        let e = decode(b).unwrap();
        assert_eq!(e.version, "2.0");
        assert_eq!(e.method, "avm.getTx");
        assert_eq!(raw(b, &e.id), Some(&b"7"[..]));
        assert_eq!(raw(b, &e.params), Some(&br#"[{"a":1}]"#[..]));
    }

    #[test]
    fn null_and_duplicates() {
        let b = br#"{"id":1,"id":null,"params":{},"params":null,"jsonrpc":"2.0","jsonrpc":null}"#;
        let e = decode(b).unwrap();
        assert_eq!((e.id, e.params, e.version.as_str()), (None, None, "2.0"));
        let e = decode(br#"{"id":"a","iD":"b"}"#).unwrap();
        assert_eq!(e.id, Some(15..18));
        assert_eq!(decode(b"null").unwrap(), Envelope::default());
    }

    // Messages of Go's encoding/json decode.go UnmarshalTypeError.
    #[test]
    fn type_errors() {
        let e = decode(b"[1]").unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal array into Go value of type json2.serverRequest"
        );
        let e = decode(br#"{"jsonrpc":"2.0","method":5,"id":3}"#).unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal number into Go struct field serverRequest.method of type string"
        );
        assert_eq!(e.envelope.version, "2.0");
        assert!(e.envelope.id.is_some());
    }

    #[test]
    fn literal_values_end_correctly() {
        let b = br#"{"id":12,"params":true,"jsonrpc":"2.0"}"#;
        let e = decode(b).unwrap();
        assert_eq!(raw(b, &e.id), Some(&b"12"[..]));
        assert_eq!(raw(b, &e.params), Some(&b"true"[..]));
    }
}
