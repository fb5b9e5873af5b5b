//! How a contract's answers tell its token standard: EIP-165's detection (the contract claims
//! `0x01ffc9a7` and denies `0xffffffff`) before any interface claim counts, and an ERC-20 by its
//! `Transfer` event with its `decimals()` and `totalSupply()` answers. Pure: the answers are
//! given, the indexer asks them.

use alloy_primitives::U256;

use crate::rest::evm::ErcType;

/// ERC-165's own interface id (`supportsInterface(bytes4)`).
pub const ERC165_INTERFACE_ID: [u8; 4] = [0x01, 0xff, 0xc9, 0xa7];
/// The id ERC-165 requires a compliant contract to deny.
pub const INVALID_INTERFACE_ID: [u8; 4] = [0xff, 0xff, 0xff, 0xff];
/// ERC-721's interface id.
pub const ERC721_INTERFACE_ID: [u8; 4] = [0x80, 0xac, 0x58, 0xcd];
/// ERC-1155's interface id.
pub const ERC1155_INTERFACE_ID: [u8; 4] = [0xd9, 0xb6, 0x7a, 0x26];
/// ERC-721's metadata extension (`name`, `symbol`, `tokenURI`).
pub const ERC721_METADATA_INTERFACE_ID: [u8; 4] = [0x5b, 0x5e, 0x13, 0x9f];
/// ERC-1155's metadata URI extension (`uri`).
pub const ERC1155_METADATA_URI_INTERFACE_ID: [u8; 4] = [0x0e, 0x89, 0x34, 0x1c];

/// The `supportsInterface` ids asked of every new contract, in the order asked: EIP-165's pair
/// (its own id, then the id it must deny), ERC-721, ERC-721 metadata, ERC-1155, ERC-1155
/// metadata URI.
pub const PROBED_INTERFACES: [[u8; 4]; 6] = [
    ERC165_INTERFACE_ID,
    INVALID_INTERFACE_ID,
    ERC721_INTERFACE_ID,
    ERC721_METADATA_INTERFACE_ID,
    ERC1155_INTERFACE_ID,
    ERC1155_METADATA_URI_INTERFACE_ID,
];

/// What a contract answered to `supportsInterface(id)` for the ids its ERC type depends on
/// (`None`: the call failed or did not answer a bool).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InterfaceClaims {
    /// `supportsInterface(0x01ffc9a7)`: ERC-165 itself.
    pub erc165: Option<bool>,
    /// `supportsInterface(0xffffffff)`, which a compliant contract denies.
    pub invalid_id: Option<bool>,
    /// `supportsInterface(0x80ac58cd)`: ERC-721.
    pub erc721: Option<bool>,
    /// `supportsInterface(0xd9b67a26)`: ERC-1155.
    pub erc1155: Option<bool>,
}

impl InterfaceClaims {
    /// Keeps the answer to `supportsInterface(id)`; an id the ERC type does not depend on (the
    /// metadata extensions) is dropped.
    pub fn set(&mut self, id: [u8; 4], answer: Option<bool>) {
        let slot = match id {
            ERC165_INTERFACE_ID => &mut self.erc165,
            INVALID_INTERFACE_ID => &mut self.invalid_id,
            ERC721_INTERFACE_ID => &mut self.erc721,
            ERC1155_INTERFACE_ID => &mut self.erc1155,
            _ => return,
        };
        *slot = answer;
    }

    /// EIP-165's "How to Detect if a Contract Implements ERC-165": the call with `0x01ffc9a7`
    /// returns true and the call with `0xffffffff` returns false; a failed call is a no.
    pub fn implements_erc165(&self) -> bool {
        self.erc165 == Some(true) && self.invalid_id == Some(false)
    }

    /// Whether the contract implements ERC-721: it implements ERC-165 and claims the id.
    pub fn erc721(&self) -> bool {
        self.implements_erc165() && self.erc721 == Some(true)
    }

    /// Whether the contract implements ERC-1155: it implements ERC-165 and claims the id.
    pub fn erc1155(&self) -> bool {
        self.implements_erc165() && self.erc1155 == Some(true)
    }
}

/// What a contract that emitted an ERC-20 `Transfer` (3 topics) answered to the ERC-20 calls
/// (`None`: the call failed or answered something undecodable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Erc20Answers {
    /// `decimals()`.
    pub decimals: Option<u8>,
    /// `totalSupply()`.
    pub total_supply: Option<U256>,
}

/// What the detection calls told of a contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContractProbes {
    /// Its `supportsInterface` answers.
    pub interfaces: InterfaceClaims,
    /// Its ERC-20 answers; `None` when it emitted no ERC-20 `Transfer` (only such emitters are
    /// asked).
    pub erc20: Option<Erc20Answers>,
}

impl ContractProbes {
    /// The contract's ERC type: ERC-721 or ERC-1155 when it implements ERC-165 (EIP-165's
    /// detection) and claims the interface; ERC-20 when it emitted an ERC-20 `Transfer` and
    /// answered both `decimals()` and `totalSupply()`; otherwise unknown.
    pub fn erc_type(&self) -> ErcType {
        if self.interfaces.erc721() {
            ErcType::Erc721
        } else if self.interfaces.erc1155() {
            ErcType::Erc1155
        } else if self
            .erc20
            .is_some_and(|e| e.decimals.is_some() && e.total_supply.is_some())
        {
            ErcType::Erc20
        } else {
            ErcType::Unknown
        }
    }

    /// The `decimals()` answer, when it was asked and answered.
    pub fn decimals(&self) -> Option<u8> {
        self.erc20.and_then(|e| e.decimals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(erc165: Option<bool>, invalid_id: Option<bool>) -> InterfaceClaims {
        InterfaceClaims {
            erc165,
            invalid_id,
            ..InterfaceClaims::default()
        }
    }

    /// EIP-165, "How to Detect if a Contract Implements ERC-165"
    /// (<https://eips.ethereum.org/EIPS/eip-165>), its steps 2, 4 and 5.
    #[test]
    fn erc165_detection_as_the_eip_words_it() {
        let (yes, no, failed) = (Some(true), Some(false), None);
        // 2. "If the call fails or return false, the destination contract does not implement
        // ERC-165" (whatever the second call says).
        for second in [yes, no, failed] {
            assert!(!claims(failed, second).implements_erc165());
            assert!(!claims(no, second).implements_erc165());
        }
        // 4. "If the second call fails or returns true, the destination contract does not
        // implement ERC-165."
        assert!(!claims(yes, failed).implements_erc165());
        assert!(!claims(yes, yes).implements_erc165());
        // 5. "Otherwise it implements ERC-165."
        assert!(claims(yes, no).implements_erc165());
    }

    /// EIP-165, "How to Detect if a Contract Implements any Given Interface": "If it implements
    /// ERC-165 then just call supportsInterface(interfaceID)"; if it does not, its claims say
    /// nothing.
    #[test]
    fn interface_claims_count_only_after_erc165() {
        let every = InterfaceClaims {
            erc165: Some(true),
            invalid_id: Some(true),
            erc721: Some(true),
            erc1155: Some(true),
        };
        // A contract answering true to every id (0xffffffff included) implements nothing.
        assert!(!every.erc721() && !every.erc1155());
        let compliant = InterfaceClaims {
            invalid_id: Some(false),
            ..every
        };
        assert!(compliant.erc721() && compliant.erc1155());
        let denies = InterfaceClaims {
            erc721: Some(false),
            erc1155: None,
            ..compliant
        };
        assert!(!denies.erc721() && !denies.erc1155());
    }

    #[test]
    fn answers_are_kept_by_interface_id() {
        let mut c = InterfaceClaims::default();
        for (id, answer) in PROBED_INTERFACES.into_iter().zip([
            Some(true),
            Some(false),
            Some(true),
            Some(true),
            None,
            Some(true),
        ]) {
            c.set(id, answer);
        }
        let want = InterfaceClaims {
            erc165: Some(true),
            invalid_id: Some(false),
            erc721: Some(true),
            erc1155: None,
        };
        assert_eq!(c, want);
    }

    #[test]
    fn erc_type_by_interfaces_then_erc20_answers() {
        let compliant = claims(Some(true), Some(false));
        let erc20 = Some(Erc20Answers {
            decimals: Some(18),
            total_supply: Some(U256::from(1_000u32)),
        });
        let t = |interfaces, erc20| ContractProbes { interfaces, erc20 }.erc_type();
        let with = |f: fn(&mut InterfaceClaims)| {
            let mut c = compliant;
            f(&mut c);
            c
        };
        assert_eq!(t(with(|c| c.erc721 = Some(true)), None), ErcType::Erc721);
        assert_eq!(t(with(|c| c.erc1155 = Some(true)), None), ErcType::Erc1155);
        // Claiming ERC-721 without denying 0xffffffff is no claim: an ERC-20 by its answers.
        let claims_all = InterfaceClaims {
            erc721: Some(true),
            invalid_id: Some(true),
            ..compliant
        };
        assert_eq!(t(claims_all, erc20), ErcType::Erc20);
        assert_eq!(t(claims_all, None), ErcType::Unknown);
        // EIP-20 requires `totalSupply()` and makes `decimals()` optional; this rule wants both.
        assert_eq!(t(InterfaceClaims::default(), erc20), ErcType::Erc20);
        let no_supply = erc20.map(|e| Erc20Answers {
            total_supply: None,
            ..e
        });
        assert_eq!(t(InterfaceClaims::default(), no_supply), ErcType::Unknown);
        let no_decimals = erc20.map(|e| Erc20Answers {
            decimals: None,
            ..e
        });
        assert_eq!(t(InterfaceClaims::default(), no_decimals), ErcType::Unknown);
        // Asked after an ERC-20 `Transfer`, but neither call answered.
        assert_eq!(
            t(InterfaceClaims::default(), Some(Erc20Answers::default())),
            ErcType::Unknown
        );
        assert_eq!(ContractProbes::default().erc_type(), ErcType::Unknown);
        assert_eq!(ContractProbes::default().decimals(), None);
        assert_eq!(
            ContractProbes {
                interfaces: compliant,
                erc20
            }
            .decimals(),
            Some(18)
        );
    }
}
