//! A byte-at-a-time JSON scanner that accepts exactly what Go's `encoding/json`
//! scanner accepts and fails with the same messages, so parse errors read like
//! avalanchego's (`invalid character 'x' looking for beginning of value`, ...).
//!
//! Only [`read_value`] is public to the crate: it mirrors `json.Decoder.readValue`
//! (gorilla/rpc v1.2.0 decodes requests with `json.NewDecoder(r.Body).Decode`), so
//! bytes after a complete top-level object or array are never looked at.

/// Go's `maxNestingDepth` (`encoding/json/scanner.go`).
const MAX_NESTING_DEPTH: usize = 10_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    BeginValue,
    BeginValueOrEmpty,
    BeginStringOrEmpty,
    BeginString,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    Zero,
    One,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Lit(&'static [u8], u8, &'static str),
    EndValue,
    EndTop,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Continue,
    SkipSpace,
    EndObjectOrArray,
    End,
    Error,
}

struct Scanner {
    state: State,
    stack: Vec<Parse>,
    err: Option<String>,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Renders a byte as Go's `quoteChar` does: `string(c)` turns the byte into the
/// rune of the same value, which `strconv.Quote` then escapes if not printable.
pub(crate) fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        0x07 => "'\\a'".to_owned(),
        0x08 => "'\\b'".to_owned(),
        0x0c => "'\\f'".to_owned(),
        b'\n' => "'\\n'".to_owned(),
        b'\r' => "'\\r'".to_owned(),
        b'\t' => "'\\t'".to_owned(),
        0x0b => "'\\v'".to_owned(),
        b'\\' => "'\\\\'".to_owned(),
        0x00..=0x1f | 0x7f => format!("'\\x{c:02x}'"),
        // C1 controls, NO-BREAK SPACE and SOFT HYPHEN are not printable in Go.
        0x80..=0xa0 | 0xad => format!("'\\u{c:04x}'"),
        _ => format!("'{}'", char::from(c)),
    }
}

impl Scanner {
    fn new() -> Self {
        Self {
            state: State::BeginValue,
            stack: Vec::new(),
            err: None,
        }
    }

    fn error(&mut self, c: u8, context: &str) -> Op {
        self.state = State::EndTop;
        if self.err.is_none() {
            self.err = Some(format!("invalid character {} {context}", quote_char(c)));
        }
        Op::Error
    }

    fn push(&mut self, c: u8, p: Parse) -> Op {
        self.stack.push(p);
        if self.stack.len() <= MAX_NESTING_DEPTH {
            Op::Continue
        } else {
            self.error(c, "exceeded max depth")
        }
    }

    fn pop(&mut self) {
        self.stack.pop();
        self.state = if self.stack.is_empty() {
            State::EndTop
        } else {
            State::EndValue
        };
    }

    fn begin_value(&mut self, c: u8) -> Op {
        if is_space(c) {
            return Op::SkipSpace;
        }
        match c {
            b'{' => {
                self.state = State::BeginStringOrEmpty;
                self.push(c, Parse::ObjectKey)
            }
            b'[' => {
                self.state = State::BeginValueOrEmpty;
                self.push(c, Parse::ArrayValue)
            }
            b'"' => self.go(State::InString),
            b'-' => self.go(State::Neg),
            b'0' => self.go(State::Zero),
            b'1'..=b'9' => self.go(State::One),
            b't' => self.go(State::Lit(b"rue", 0, "true")),
            b'f' => self.go(State::Lit(b"alse", 0, "false")),
            b'n' => self.go(State::Lit(b"ull", 0, "null")),
            _ => self.error(c, "looking for beginning of value"),
        }
    }

    fn go(&mut self, s: State) -> Op {
        self.state = s;
        Op::Continue
    }

    fn end_value(&mut self, c: u8) -> Op {
        let Some(&top) = self.stack.last() else {
            self.state = State::EndTop;
            return self.end_top(c);
        };
        if is_space(c) {
            self.state = State::EndValue;
            return Op::SkipSpace;
        }
        match top {
            Parse::ObjectKey => {
                if c == b':' {
                    self.set_top(Parse::ObjectValue);
                    return self.go(State::BeginValue);
                }
                self.error(c, "after object key")
            }
            Parse::ObjectValue => match c {
                b',' => {
                    self.set_top(Parse::ObjectKey);
                    self.go(State::BeginString)
                }
                b'}' => {
                    self.pop();
                    Op::EndObjectOrArray
                }
                _ => self.error(c, "after object key:value pair"),
            },
            Parse::ArrayValue => match c {
                b',' => self.go(State::BeginValue),
                b']' => {
                    self.pop();
                    Op::EndObjectOrArray
                }
                _ => self.error(c, "after array element"),
            },
        }
    }

    fn set_top(&mut self, p: Parse) {
        if let Some(top) = self.stack.last_mut() {
            *top = p;
        }
    }

    fn end_top(&mut self, c: u8) -> Op {
        if self.err.is_some() {
            return Op::Error;
        }
        if !is_space(c) {
            // Go records the complaint for a later call and still reports the end.
            self.error(c, "after top-level value");
        }
        Op::End
    }

    fn step(&mut self, c: u8) -> Op {
        match self.state {
            State::BeginValue => self.begin_value(c),
            State::BeginValueOrEmpty => {
                if is_space(c) {
                    Op::SkipSpace
                } else if c == b']' {
                    self.end_value(c)
                } else {
                    self.begin_value(c)
                }
            }
            State::BeginStringOrEmpty => {
                if is_space(c) {
                    Op::SkipSpace
                } else if c == b'}' {
                    self.set_top(Parse::ObjectValue);
                    self.end_value(c)
                } else {
                    self.begin_string(c)
                }
            }
            State::BeginString => self.begin_string(c),
            State::InString => match c {
                b'"' => self.go(State::EndValue),
                b'\\' => self.go(State::InStringEsc),
                0x00..=0x1f => self.error(c, "in string literal"),
                _ => Op::Continue,
            },
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.go(State::InString),
                b'u' => self.go(State::InStringEscU(0)),
                _ => self.error(c, "in string escape code"),
            },
            State::InStringEscU(n) => {
                if c.is_ascii_hexdigit() {
                    self.go(if n >= 3 {
                        State::InString
                    } else {
                        State::InStringEscU(n + 1)
                    })
                } else {
                    self.error(c, "in \\u hexadecimal character escape")
                }
            }
            State::Neg => match c {
                b'0' => self.go(State::Zero),
                b'1'..=b'9' => self.go(State::One),
                _ => self.error(c, "in numeric literal"),
            },
            State::One if c.is_ascii_digit() => Op::Continue,
            State::One | State::Zero => match c {
                b'.' => self.go(State::Dot),
                b'e' | b'E' => self.go(State::E),
                _ => self.end_value(c),
            },
            State::Dot => {
                if c.is_ascii_digit() {
                    self.go(State::Dot0)
                } else {
                    self.error(c, "after decimal point in numeric literal")
                }
            }
            State::Dot0 => match c {
                b'0'..=b'9' => Op::Continue,
                b'e' | b'E' => self.go(State::E),
                _ => self.end_value(c),
            },
            State::E if c == b'+' || c == b'-' => self.go(State::ESign),
            State::E | State::ESign => {
                if c.is_ascii_digit() {
                    self.go(State::E0)
                } else {
                    self.error(c, "in exponent of numeric literal")
                }
            }
            State::E0 => {
                if c.is_ascii_digit() {
                    Op::Continue
                } else {
                    self.end_value(c)
                }
            }
            State::Lit(rest, i, name) => {
                let want = rest.get(usize::from(i)).copied().unwrap_or(b' ');
                if c != want {
                    let ctx = format!("in literal {name} (expecting {})", quote_char(want));
                    return self.error(c, &ctx);
                }
                if usize::from(i) + 1 >= rest.len() {
                    self.go(State::EndValue)
                } else {
                    self.go(State::Lit(rest, i + 1, name))
                }
            }
            State::EndValue => self.end_value(c),
            State::EndTop => self.end_top(c),
        }
    }

    fn begin_string(&mut self, c: u8) -> Op {
        if is_space(c) {
            Op::SkipSpace
        } else if c == b'"' {
            self.go(State::InString)
        } else {
            self.error(c, "looking for beginning of object key string")
        }
    }
}

/// Why the first JSON value of a body could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// Only whitespace (Go's `io.EOF`, message `EOF`).
    Eof,
    /// The value was cut short (Go's `io.ErrUnexpectedEOF`).
    UnexpectedEof,
    /// A syntax error with Go's message.
    Syntax(String),
}

impl ReadError {
    /// The message Go's `err.Error()` gives.
    pub(crate) fn message(&self) -> &str {
        match self {
            Self::Eof => "EOF",
            Self::UnexpectedEof => "unexpected EOF",
            Self::Syntax(m) => m,
        }
    }
}

/// Finds the first complete JSON value in `buf` as `json.Decoder.readValue` does and
/// returns the range it occupies (leading whitespace included, as Go's decoder
/// skips it afterwards).
pub(crate) fn read_value(buf: &[u8]) -> Result<usize, ReadError> {
    let mut s = Scanner::new();
    for (i, &c) in buf.iter().enumerate() {
        match s.step(c) {
            Op::End => return Ok(i),
            Op::EndObjectOrArray => {
                if s.stack.is_empty() {
                    return Ok(i + 1);
                }
            }
            Op::Error => {
                return Err(ReadError::Syntax(s.err.unwrap_or_default()));
            }
            Op::Continue | Op::SkipSpace => {}
        }
    }
    if s.step(b' ') == Op::End {
        return Ok(buf.len());
    }
    if buf.iter().any(|&c| !is_space(c)) {
        Err(ReadError::UnexpectedEof)
    } else {
        Err(ReadError::Eof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(b: &[u8]) -> String {
        match read_value(b) {
            Ok(n) => format!("ok {n}"),
            Err(e) => e.message().to_owned(),
        }
    }

    // Messages as produced by Go's encoding/json/scanner.go (stateBeginValue,
    // stateEndValue, stateInString..., quoteChar) and decoder stream.go (readValue).
    #[test]
    fn go_messages() {
        assert_eq!(msg(b""), "EOF");
        assert_eq!(msg(b"  \n"), "EOF");
        assert_eq!(msg(b"{"), "unexpected EOF");
        assert_eq!(msg(b"{\"a\":"), "unexpected EOF");
        assert_eq!(msg(b"-"), "unexpected EOF");
        assert_eq!(
            msg(b"x"),
            "invalid character 'x' looking for beginning of value"
        );
        assert_eq!(msg(b"{\"a\" 1}"), "invalid character '1' after object key");
        assert_eq!(
            msg(b"{\"a\":1,}"),
            "invalid character '}' looking for beginning of object key string"
        );
        assert_eq!(
            msg(b"{\"a\":1 \"b\"}"),
            "invalid character '\"' after object key:value pair"
        );
        assert_eq!(msg(b"[1 2]"), "invalid character '2' after array element");
        assert_eq!(
            msg(b"[tru]"),
            "invalid character ']' in literal true (expecting 'e')"
        );
        assert_eq!(msg(b"nul"), "unexpected EOF");
        assert_eq!(
            msg(b"[nulx]"),
            "invalid character 'x' in literal null (expecting 'l')"
        );
        assert_eq!(
            msg(b"\"a\nb\""),
            "invalid character '\\n' in string literal"
        );
        assert_eq!(
            msg(b"\"\\x\""),
            "invalid character 'x' in string escape code"
        );
        assert_eq!(
            msg(b"\"\\u12z4\""),
            "invalid character 'z' in \\u hexadecimal character escape"
        );
        assert_eq!(msg(b"[-x]"), "invalid character 'x' in numeric literal");
        assert_eq!(
            msg(b"[1.x]"),
            "invalid character 'x' after decimal point in numeric literal"
        );
        assert_eq!(
            msg(b"[1ex]"),
            "invalid character 'x' in exponent of numeric literal"
        );
        assert_eq!(
            msg(b"{'a':1}"),
            "invalid character '\\'' looking for beginning of object key string"
        );
        assert_eq!(
            msg(&[0xff]),
            "invalid character 'ÿ' looking for beginning of value"
        );
        assert_eq!(
            msg(&[0x01]),
            "invalid character '\\x01' looking for beginning of value"
        );
    }

    #[test]
    fn stops_after_first_value() {
        assert_eq!(read_value(b"{}garbage"), Ok(2));
        assert_eq!(read_value(b" [1,2] x"), Ok(6));
        // A literal needs one more byte to end; a non-space byte still ends it (the
        // complaint is deferred to a next Decode that never comes).
        assert_eq!(read_value(b"123x"), Ok(3));
        assert_eq!(read_value(b"123"), Ok(3));
        assert_eq!(read_value(b"\"s\""), Ok(3));
        assert!(read_value(b"01").is_ok());
    }

    #[test]
    fn max_depth() {
        let deep = vec![b'['; MAX_NESTING_DEPTH + 1];
        assert_eq!(msg(&deep), "invalid character '[' exceeded max depth");
        let ok = vec![b'['; MAX_NESTING_DEPTH];
        assert_eq!(msg(&ok), "unexpected EOF");
    }
}
