//! Feature extensions ("fxs"): the output, input, operation and credential structs that the X- and
//! P-Chain share (`vms/secp256k1fx`, `vms/nftfx`, `vms/propertyfx`).
//!
//! Each struct encodes and decodes its **body only**: the `u32` type id in front of it belongs to
//! the VM that registers it (the X-Chain and the P-Chain use different ids), so the VM enums in
//! [`crate::avm`] (and later the P-Chain) add it.

pub mod nftfx;
pub mod propertyfx;
pub mod secp256k1fx;

use crate::Id;

/// An fx id is its ASCII name, zero padded to 32 bytes (`ids.ID{'s','e','c','p',…}`).
const fn name_id(name: &[u8]) -> Id {
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < name.len() && i < 32 {
        out[i] = name[i];
        i += 1;
    }
    Id(out)
}

/// `secp256k1fx` id, `spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ` (`vms/secp256k1fx/factory.go`).
pub const SECP256K1FX_ID: Id = name_id(b"secp256k1fx");
/// `nftfx` id, `qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT` (`vms/nftfx/factory.go`).
pub const NFTFX_ID: Id = name_id(b"nftfx");
/// `propertyfx` id, `rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy` (`vms/propertyfx/factory.go`).
pub const PROPERTYFX_ID: Id = name_id(b"propertyfx");

/// The fx ids in the X-Chain's fx index order (`genesis.go` `FxIDs`): secp256k1fx, nftfx, propertyfx.
pub const FX_IDS: [Id; 3] = [SECP256K1FX_ID, NFTFX_ID, PROPERTYFX_ID];

/// Why an fx value is invalid; messages are avalanchego's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FxError {
    /// `threshold > len(addrs)` (`ErrOutputUnspendable`).
    #[error("output is unspendable")]
    OutputUnspendable,
    /// `threshold == 0` with addresses (`ErrOutputUnoptimized`).
    #[error("output representation should be optimized")]
    OutputUnoptimized,
    /// Owner addresses not strictly ascending (`ErrAddrsNotSortedUnique`).
    #[error("addresses not sorted and unique")]
    AddrsNotSortedUnique,
    /// A transfer output of amount 0 (`ErrNoValueOutput`).
    #[error("output has no value")]
    NoValueOutput,
    /// A transfer input of amount 0 (`ErrNoValueInput`).
    #[error("input has no value")]
    NoValueInput,
    /// Signature indices not strictly ascending (`ErrInputIndicesNotSortedUnique`).
    #[error("address indices not sorted and unique")]
    InputIndicesNotSortedUnique,
    /// An nft payload over 1 KiB (`errPayloadTooLarge`).
    #[error("payload too large")]
    PayloadTooLarge,
}

/// Whether `items` is strictly ascending (sorted with no duplicates), as `utils.IsSortedAndUnique`.
pub fn is_sorted_unique<T: Ord>(items: &[T]) -> bool {
    items.windows(2).all(|w| matches!(w, [a, b] if a < b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fx_ids_match_their_cb58_strings() {
        // vector: avalanchego vms/avm/service.md (fxID fields) and the reference §1.2.
        assert_eq!(
            SECP256K1FX_ID.to_string(),
            "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ"
        );
        assert_eq!(
            NFTFX_ID.to_string(),
            "qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT"
        );
        assert_eq!(
            PROPERTYFX_ID.to_string(),
            "rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy"
        );
    }

    #[test]
    fn sorted_unique() {
        assert!(is_sorted_unique::<u32>(&[]));
        assert!(is_sorted_unique(&[1, 2, 5]));
        assert!(!is_sorted_unique(&[1, 1]));
        assert!(!is_sorted_unique(&[2, 1]));
    }
}
