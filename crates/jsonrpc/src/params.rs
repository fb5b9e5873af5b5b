//! Method parameters decoded the way gorilla/rpc + Go's `encoding/json` do:
//! an object, or an array whose first element is the object (`[ {...} ]`, extra
//! elements ignored, `[]`/`[null]` = defaults), or no `params` at all (defaults);
//! unknown members ignored; member names matched case-insensitively when no exact
//! match exists (top-level struct fields only); the last duplicate wins.

use crate::error::RpcError;
use crate::gojson::text;
use bytes::Bytes;
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// The raw `params` member of one request (cheap to clone: it shares the body).
#[derive(Debug, Clone, Default)]
pub struct Params {
    body: Bytes,
    range: Option<Range<usize>>,
}

impl Params {
    pub(crate) fn new(body: Bytes, range: Option<Range<usize>>) -> Self {
        Self { body, range }
    }

    /// Params from a JSON text, for tests and in-process calls (`None` = absent).
    pub fn from_json(json: Option<&str>) -> Self {
        match json {
            Some(s) => Self {
                range: Some(0..s.len()),
                body: Bytes::copy_from_slice(s.as_bytes()),
            },
            None => Self::default(),
        }
    }

    /// The raw JSON of `params` as sent, or `None` when absent or `null`.
    pub fn raw(&self) -> Option<&[u8]> {
        self.range.clone().and_then(|r| self.body.get(r))
    }

    /// Decodes params into `T` as avalanchego does; any failure is avalanchego's
    /// `couldn't unmarshal an argument...` error (code -32000).
    pub fn parse<T: DeserializeOwned + Default>(&self) -> Result<T, RpcError> {
        let Some(raw) = self.raw() else {
            return Ok(T::default());
        };
        let text = text::lossy_utf8(raw);
        decode_go(&text).map_err(|_| RpcError::invalid_args())
    }
}

/// Go's two attempts: the value itself, then the value as `[1]interface{}{args}`.
fn decode_go<T: DeserializeOwned + Default>(text: &str) -> Result<T, serde_json::Error> {
    match decode_folded::<T>(text) {
        Ok(v) => Ok(v),
        Err(e) => {
            let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
            if !trimmed.starts_with('[') {
                return Err(e);
            }
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            match items.first() {
                None => Ok(T::default()),
                Some(first) if first.get() == "null" => Ok(T::default()),
                Some(first) => decode_folded::<T>(first.get()),
            }
        }
    }
}

/// Captures the field list serde derives for a struct, without decoding anything.
#[derive(Debug)]
struct Probe(Option<&'static [&'static str]>);

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field probe")
    }
}

impl std::error::Error for Probe {}

impl de::Error for Probe {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Probe(None)
    }
}

struct FieldProbe;

impl<'de> Deserializer<'de> for FieldProbe {
    type Error = Probe;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Probe> {
        Err(Probe(None))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Probe> {
        Err(Probe(Some(fields)))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        enum identifier ignored_any
    }
}

fn struct_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    match T::deserialize(FieldProbe) {
        Err(Probe(f)) => f,
        Ok(_) => None,
    }
}

/// An object's members in document order.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Members<'de>, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = m.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    v.push((k, val));
                }
                Ok(Members(v))
            }
        }
        d.deserialize_map(V)
    }
}

fn fold_eq(a: &str, b: &str) -> bool {
    // Go's foldName: ASCII case folding plus the few runes that fold onto ASCII letters.
    fn fold(c: char) -> char {
        match c {
            '\u{17f}' => 'S',
            '\u{131}' | '\u{130}' => 'I',
            '\u{212a}' => 'K',
            c => c.to_ascii_uppercase(),
        }
    }
    a.chars().map(fold).eq(b.chars().map(fold))
}

/// Decodes `text` into `T`, first renaming object members that match a struct field
/// only case-insensitively and dropping earlier duplicates (Go semantics).
fn decode_folded<T: DeserializeOwned + Default>(text: &str) -> Result<T, serde_json::Error> {
    let Some(fields) = struct_fields::<T>() else {
        return serde_json::from_str(text);
    };
    // Go decodes only objects into structs (serde would also take arrays) and
    // leaves a struct untouched on `null`.
    match text.trim_matches([' ', '\t', '\r', '\n']) {
        "null" => return Ok(T::default()),
        t if !t.starts_with('{') => {
            return Err(<serde_json::Error as de::Error>::custom(
                "expected an object",
            ));
        }
        _ => {}
    }
    let members: Members<'_> = serde_json::from_str(text)?;
    let mut out: Vec<(Cow<'_, str>, &RawValue)> = Vec::with_capacity(members.0.len());
    let mut changed = false;
    for (key, val) in members.0 {
        let name: Cow<'_, str> = if fields.contains(&key.as_ref()) {
            key
        } else if let Some(f) = fields.iter().find(|f| fold_eq(f, &key)) {
            changed = true;
            Cow::Borrowed(*f)
        } else {
            key
        };
        if let Some(pos) = out.iter().position(|(k, _)| *k == name) {
            out.remove(pos);
            changed = true;
        }
        out.push((name, val));
    }
    if !changed {
        return serde_json::from_str(text);
    }
    let mut buf = String::with_capacity(text.len());
    buf.push('{');
    for (i, (k, v)) in out.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str(&serde_json::to_string(k.as_ref())?);
        buf.push(':');
        buf.push_str(v.get());
    }
    buf.push('}');
    serde_json::from_str(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::JsonU64;
    use serde::Deserialize;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default)]
    struct Args {
        #[serde(rename = "txID")]
        tx_id: String,
        encoding: String,
        height: JsonU64,
    }

    fn p(s: Option<&str>) -> Result<Args, RpcError> {
        Params::from_json(s).parse::<Args>()
    }

    // Shapes gorilla/rpc v2 json2/server.go ReadRequest accepts (object, then
    // `[1]interface{}{args}`), with Go encoding/json field matching.
    #[test]
    fn shapes() {
        let want = Args {
            tx_id: "a".into(),
            encoding: "hex".into(),
            height: JsonU64(5),
        };
        assert_eq!(
            p(Some(r#"{"txID":"a","encoding":"hex","height":5,"x":1}"#)).unwrap(),
            want
        );
        assert_eq!(
            p(Some(r#"[{"txID":"a","encoding":"hex","height":"5"}, 3]"#)).unwrap(),
            want
        );
        assert_eq!(
            p(Some(r#"{"TXID":"a","Encoding":"hex","height":"5"}"#)).unwrap(),
            want
        );
        assert_eq!(
            p(Some(
                r#"{"txid":"b","txID":"a","encoding":"hex","height":5}"#
            ))
            .unwrap(),
            want
        );
        assert_eq!(p(None).unwrap(), Args::default());
        assert_eq!(p(Some("[]")).unwrap(), Args::default());
        assert_eq!(p(Some("[null]")).unwrap(), Args::default());
        assert_eq!(p(Some("{}")).unwrap(), Args::default());
    }

    #[test]
    fn failures_are_invalid_args() {
        for bad in [
            "5",
            "\"x\"",
            "[5]",
            r#"[["a","hex",5]]"#,
            r#"["a","hex",5]"#,
            r#"{"height":"x"}"#,
            r#"{"txID":1}"#,
            "true",
        ] {
            let e = p(Some(bad)).unwrap_err();
            assert_eq!(e.code, -32000);
            assert_eq!(e.message, crate::error::INVALID_ARG_MESSAGE);
        }
    }
}
