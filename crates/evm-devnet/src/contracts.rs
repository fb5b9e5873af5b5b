//! The contracts the scenario deploys: their committed creation code
//! (`fixtures/evm/contracts/*.json`, made by `build.mjs` there) and the calls it makes to them.

use alloy_primitives::{Bytes, hex};

use crate::error::DevnetError;

/// A contract of `fixtures/evm/contracts/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Contract {
    /// OpenZeppelin 4.9.6 `ERC20PresetMinterPauser(name, symbol)`.
    Erc20,
    /// OpenZeppelin 4.9.6 `ERC721PresetMinterPauserAutoId(name, symbol, baseURI)`.
    Erc721,
    /// OpenZeppelin 4.9.6 `ERC1155PresetMinterPauser(uri)`.
    Erc1155,
    /// `src/Factory.sol` `Factory`: CREATE/CREATE2 of children, value splits, reverts.
    Factory,
    /// `src/Factory.sol` `Child`, which the factory creates.
    Child,
    /// `src/Probe165.sol`: answers ERC-165, no token.
    Probe165,
    /// `src/ClaimsAll.sol`: answers true to every `supportsInterface`, so implements no ERC-165.
    ClaimsAll,
    /// `src/NoSupply.sol`: an ERC-20 `Transfer` and `decimals()`, no `totalSupply()`.
    NoSupply,
    /// `src/Icm.sol` `DevnetTeleporterMessenger`: the v1 TeleporterMessenger ABI, placed at
    /// [`crate::icm::TELEPORTER_V1`].
    Teleporter,
    /// `src/Icm.sol` `WarpStandIn`: the Warp precompile's interface, placed at
    /// [`crate::icm::WARP_PRECOMPILE`].
    WarpStandIn,
    /// `src/Icm.sol` `IcmReceiver`: accepts every Teleporter message.
    IcmReceiver,
    /// `src/Icm.sol` `IcmRevertingReceiver`: rejects every Teleporter message.
    IcmRevertingReceiver,
}

impl Contract {
    /// The fixture file's JSON text.
    fn fixture(self) -> &'static str {
        match self {
            Contract::Erc20 => {
                include_str!("../../../fixtures/evm/contracts/ERC20PresetMinterPauser.json")
            }
            Contract::Erc721 => {
                include_str!("../../../fixtures/evm/contracts/ERC721PresetMinterPauserAutoId.json")
            }
            Contract::Erc1155 => {
                include_str!("../../../fixtures/evm/contracts/ERC1155PresetMinterPauser.json")
            }
            Contract::Factory => include_str!("../../../fixtures/evm/contracts/Factory.json"),
            Contract::Child => include_str!("../../../fixtures/evm/contracts/Child.json"),
            Contract::Probe165 => include_str!("../../../fixtures/evm/contracts/Probe165.json"),
            Contract::ClaimsAll => include_str!("../../../fixtures/evm/contracts/ClaimsAll.json"),
            Contract::NoSupply => include_str!("../../../fixtures/evm/contracts/NoSupply.json"),
            Contract::Teleporter => {
                include_str!("../../../fixtures/evm/contracts/DevnetTeleporterMessenger.json")
            }
            Contract::WarpStandIn => {
                include_str!("../../../fixtures/evm/contracts/WarpStandIn.json")
            }
            Contract::IcmReceiver => {
                include_str!("../../../fixtures/evm/contracts/IcmReceiver.json")
            }
            Contract::IcmRevertingReceiver => {
                include_str!("../../../fixtures/evm/contracts/IcmRevertingReceiver.json")
            }
        }
    }

    /// The runtime code, for the contracts placed with `anvil_setCode` (`Teleporter`,
    /// `WarpStandIn`); an error for the others.
    pub fn runtime_code(self) -> Result<Bytes, DevnetError> {
        self.code("deployedBytecode")
    }

    /// The creation code (constructor arguments not included).
    pub fn creation_code(self) -> Result<Bytes, DevnetError> {
        self.code("bytecode")
    }

    fn code(self, field: &str) -> Result<Bytes, DevnetError> {
        let json: serde_json::Value = serde_json::from_str(self.fixture())
            .map_err(|e| DevnetError::Fixture(format!("{self:?}: {e}")))?;
        let text = json
            .get(field)
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| DevnetError::Fixture(format!("{self:?}: no {field}")))?;
        let code = hex::decode(text).map_err(|e| DevnetError::Fixture(format!("{self:?}: {e}")))?;
        if code.is_empty() {
            return Err(DevnetError::Fixture(format!("{self:?}: empty {field}")));
        }
        Ok(code.into())
    }
}

alloy_sol_types::sol! {
    /// The calls the scenario sends an OpenZeppelin ERC-20 preset.
    interface Erc20Preset {
        function mint(address to, uint256 amount);
        function transfer(address to, uint256 amount);
    }

    /// The calls the scenario sends an OpenZeppelin ERC-721 preset (ids from 0).
    interface Erc721Preset {
        function mint(address to);
        function transferFrom(address from, address to, uint256 tokenId);
    }

    /// The calls the scenario sends an OpenZeppelin ERC-1155 preset.
    interface Erc1155Preset {
        function mint(address to, uint256 id, uint256 amount, bytes data);
        function mintBatch(address to, uint256[] ids, uint256[] amounts, bytes data);
        function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data);
        function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data);
    }

    /// `src/Factory.sol`.
    interface FactoryCalls {
        function create();
        function create2(bytes32 salt);
        function split(address[] to);
        function callThenRevert(address child);
        function nested(address child, address next);
    }

    /// The ERC-20 approval the ICM scenario gives the messenger for its fees.
    interface Erc20Approve {
        function approve(address spender, uint256 amount);
    }

    /// The token metadata the recording asks of each token contract (ERC-20, ERC-721
    /// metadata, ERC-1155 metadata URI, ERC-165).
    interface Metadata {
        function name();
        function symbol();
        function decimals();
        function totalSupply();
        function tokenURI(uint256 tokenId);
        function uri(uint256 id);
        function supportsInterface(bytes4 interfaceId);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_sol_types::SolCall;

    #[test]
    fn every_fixture_has_creation_code() {
        for c in [
            Contract::Erc20,
            Contract::Erc721,
            Contract::Erc1155,
            Contract::Factory,
            Contract::Child,
            Contract::Probe165,
            Contract::ClaimsAll,
            Contract::NoSupply,
            Contract::Teleporter,
            Contract::WarpStandIn,
            Contract::IcmReceiver,
            Contract::IcmRevertingReceiver,
        ] {
            assert!(c.creation_code().unwrap().len() > 100, "{c:?}");
        }
        for c in [Contract::Teleporter, Contract::WarpStandIn] {
            assert!(c.runtime_code().unwrap().len() > 100, "{c:?}");
        }
        assert!(Contract::IcmReceiver.runtime_code().is_err());
    }

    /// Selectors as the ERCs define them (EIP-20, EIP-721, EIP-1155, EIP-165 texts).
    #[test]
    fn selectors_match_the_standards() {
        assert_eq!(
            Erc20Preset::transferCall::SELECTOR,
            [0xa9, 0x05, 0x9c, 0xbb]
        );
        assert_eq!(
            Erc721Preset::transferFromCall::SELECTOR,
            [0x23, 0xb8, 0x72, 0xdd]
        );
        assert_eq!(
            Erc1155Preset::safeTransferFromCall::SELECTOR,
            [0xf2, 0x42, 0x43, 0x2a]
        );
        assert_eq!(
            Erc1155Preset::safeBatchTransferFromCall::SELECTOR,
            [0x2e, 0xb2, 0xc2, 0xd6]
        );
        assert_eq!(Metadata::nameCall::SELECTOR, [0x06, 0xfd, 0xde, 0x03]);
        assert_eq!(Metadata::symbolCall::SELECTOR, [0x95, 0xd8, 0x9b, 0x41]);
        assert_eq!(Metadata::decimalsCall::SELECTOR, [0x31, 0x3c, 0xe5, 0x67]);
        assert_eq!(
            Metadata::totalSupplyCall::SELECTOR,
            [0x18, 0x16, 0x0d, 0xdd]
        );
        assert_eq!(Metadata::tokenURICall::SELECTOR, [0xc8, 0x7b, 0x56, 0xdd]);
        assert_eq!(Metadata::uriCall::SELECTOR, [0x0e, 0x89, 0x34, 0x1c]);
        assert_eq!(
            Metadata::supportsInterfaceCall::SELECTOR,
            [0x01, 0xff, 0xc9, 0xa7]
        );
    }
}
