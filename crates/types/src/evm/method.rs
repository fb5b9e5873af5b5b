//! Method names: the selector of a call (the first 4 bytes of its input) looked up in a bundled
//! table of common text signatures (`signatures.txt`), and the Data API's `Method` of a
//! transaction (`NATIVE_TRANSFER` without input, `CONTRACT_CREATION` without `to`, otherwise
//! `CONTRACT_CALL` with the selector as `methodHash`).

use std::collections::HashMap;
use std::sync::LazyLock;

use alloy_primitives::{Address, keccak256};

use crate::rest::evm::{Method, TransactionMethodType};

/// The bundled signatures, one a line (`#` comment lines).
pub const SIGNATURES: &str = include_str!("signatures.txt");

/// The Data API's `methodName` of a plain value transfer.
pub const NATIVE_TRANSFER_NAME: &str = "Native Transfer";
/// The Data API's `methodName` of a contract creation.
pub const CONTRACT_CREATION_NAME: &str = "Contract Created";

/// A method's selector: the first 4 bytes of `keccak256(signature)`.
pub fn selector(signature: &str) -> [u8; 4] {
    let hash = keccak256(signature.as_bytes());
    [hash[0], hash[1], hash[2], hash[3]]
}

/// The bundled signatures: each line that is not empty or a comment.
pub fn signatures() -> impl Iterator<Item = &'static str> {
    SIGNATURES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

static TABLE: LazyLock<HashMap<[u8; 4], &'static str>> = LazyLock::new(|| {
    let mut table = HashMap::new();
    for sig in signatures() {
        table.entry(selector(sig)).or_insert(sig);
    }
    table
});

/// The text signature of a selector, when the bundled table knows it.
pub fn method_name(selector: [u8; 4]) -> Option<&'static str> {
    TABLE.get(&selector).copied()
}

/// The Data API's `Method` of a transaction: its recipient (`None`: a creation) and input.
pub fn transaction_method(to: Option<Address>, input: &[u8]) -> Method {
    match (to, input) {
        (None, _) => Method {
            call_type: TransactionMethodType::ContractCreation,
            method_hash: String::new(),
            method_name: Some(CONTRACT_CREATION_NAME.into()),
        },
        (Some(_), []) => Method {
            call_type: TransactionMethodType::NativeTransfer,
            method_hash: String::new(),
            method_name: Some(NATIVE_TRANSFER_NAME.into()),
        },
        (Some(_), input) => {
            let head = &input[..input.len().min(4)];
            let name = <[u8; 4]>::try_from(head).ok().and_then(method_name);
            Method {
                call_type: TransactionMethodType::ContractCall,
                method_hash: alloy_primitives::hex::encode_prefixed(head),
                method_name: name.map(str::to_owned),
            }
        }
    }
}
