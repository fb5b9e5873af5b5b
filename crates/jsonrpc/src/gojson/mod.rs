//! Go `encoding/json` compatibility: the scanner, string decoding and encoding
//! rules that gorilla/rpc's JSON codec inherits, reimplemented so our answers are
//! byte-identical to avalanchego's.

pub(crate) mod scanner;
pub(crate) mod text;
