//! The `eth_call`s that describe a token contract: `name()`, `symbol()`, `decimals()`,
//! `totalSupply()`, `tokenURI(uint256)`, `uri(uint256)` and ERC-165 `supportsInterface(bytes4)`,
//! their calldata and the decoding of their answers (old tokens answer `name`/`symbol` with a
//! `bytes32`). What the answers say of the contract is `erc_detect`'s business.

use alloy_primitives::U256;
use alloy_sol_types::{SolCall, SolType, sol_data};

/// The Solidity declarations the calldata is built from.
#[allow(missing_docs)]
mod abi {
    alloy_sol_types::sol! {
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        function totalSupply() external view returns (uint256);
        function tokenURI(uint256 tokenId) external view returns (string);
        function uri(uint256 id) external view returns (string);
        function supportsInterface(bytes4 interfaceId) external view returns (bool);
    }
}

/// A read-only call on a token contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenCall {
    /// `name()`.
    Name,
    /// `symbol()`.
    Symbol,
    /// `decimals()`.
    Decimals,
    /// `totalSupply()`.
    TotalSupply,
    /// ERC-721 metadata `tokenURI(uint256)`.
    TokenUri(U256),
    /// ERC-1155 metadata `uri(uint256)`.
    Uri(U256),
    /// ERC-165 `supportsInterface(bytes4)`.
    SupportsInterface([u8; 4]),
}

impl TokenCall {
    /// The `eth_call` input.
    pub fn calldata(&self) -> Vec<u8> {
        match *self {
            Self::Name => abi::nameCall {}.abi_encode(),
            Self::Symbol => abi::symbolCall {}.abi_encode(),
            Self::Decimals => abi::decimalsCall {}.abi_encode(),
            Self::TotalSupply => abi::totalSupplyCall {}.abi_encode(),
            Self::TokenUri(token_id) => abi::tokenURICall { tokenId: token_id }.abi_encode(),
            Self::Uri(id) => abi::uriCall { id }.abi_encode(),
            Self::SupportsInterface(id) => abi::supportsInterfaceCall {
                interfaceId: id.into(),
            }
            .abi_encode(),
        }
    }
}

/// The first 32-byte word of return data.
fn first_word(ret: &[u8]) -> Option<U256> {
    ret.get(..32).map(U256::from_be_slice)
}

/// A `string` answer (`name`, `symbol`, `tokenURI`, `uri`; invalid UTF-8 replaced, trailing NUL
/// padding some tokens leave in the string dropped), or a `bytes32` one (old tokens such as MKR
/// answer `name`/`symbol` so): its bytes up to the first zero, as UTF-8.
pub fn decode_text(ret: &[u8]) -> Option<String> {
    if let Ok((mut s,)) = <(sol_data::String,)>::abi_decode_params(ret) {
        s.truncate(s.trim_end_matches('\0').len());
        return Some(s);
    }
    if ret.len() == 32 {
        let end = ret.iter().position(|b| *b == 0).unwrap_or(32);
        return std::str::from_utf8(&ret[..end]).ok().map(str::to_owned);
    }
    None
}

/// A `decimals()` answer: a word holding a value that fits `uint8`.
pub fn decode_decimals(ret: &[u8]) -> Option<u8> {
    first_word(ret).and_then(|w| u8::try_from(w).ok())
}

/// A `uint256` answer (`totalSupply()`).
pub fn decode_u256(ret: &[u8]) -> Option<U256> {
    first_word(ret)
}

/// A `bool` answer (`supportsInterface`): a word of 0 or 1; anything else is no answer.
pub fn decode_bool(ret: &[u8]) -> Option<bool> {
    match first_word(ret)? {
        w if w.is_zero() => Some(false),
        w if w == U256::from(1u8) => Some(true),
        _ => None,
    }
}
