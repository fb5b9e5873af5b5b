//! P-Chain unsigned txs (`vms/platformvm/txs`) and the [`UnsignedTx`] interface value
//! (`u32 type id | body`), in codec type-id order.

pub mod atomic;
pub mod base;
pub mod helicon;
pub mod l1;
pub(crate) mod macros;
pub mod staking;
pub mod subnet;

pub use atomic::{ExportTx, ImportTx};
pub use base::{BaseTx, SubnetValidator, Validator};
pub use helicon::{
    AddAutoRenewedValidatorTx, RewardAutoRenewedValidatorTx, SetAutoRenewedValidatorConfigTx,
};
pub use l1::{
    ConvertSubnetToL1Tx, ConvertSubnetToL1Validator, DisableL1ValidatorTx,
    IncreaseL1ValidatorBalanceTx, RegisterL1ValidatorTx, SetL1ValidatorWeightTx,
};
pub use staking::{
    AddDelegatorTx, AddPermissionlessDelegatorTx, AddPermissionlessValidatorTx,
    AddSubnetValidatorTx, AddValidatorTx, AdvanceTimeTx, RemoveSubnetValidatorTx,
    RewardValidatorTx,
};
pub use subnet::{CreateChainTx, CreateSubnetTx, TransferSubnetOwnershipTx, TransformSubnetTx};

use super::type_id;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer, marshal};

macro_rules! unsigned_tx {
    ( $( $(#[$vm:meta])* $var:ident = $id:path, $name:literal; )+ ) => {
        /// Any P-Chain unsigned tx, tagged with its codec type id.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum UnsignedTx {
            $( $(#[$vm])* $var($var), )+
        }

        impl UnsignedTx {
            /// The codec type id.
            pub fn type_id(&self) -> u32 {
                match self { $( Self::$var(_) => $id, )+ }
            }

            /// avalanchego's Go type name (`AddValidatorTx`, …), as the Data API shows `txType`.
            pub fn type_name(&self) -> &'static str {
                match self { $( Self::$var(_) => $name, )+ }
            }

            /// The Go type name of codec type id `type_id`, if it is a P-Chain tx's.
            pub fn name_of(type_id: u32) -> Option<&'static str> {
                match type_id { $( $id => Some($name), )+ _ => None }
            }
        }

        impl Decode for UnsignedTx {
            fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
                match r.u32()? {
                    $( $id => Ok(Self::$var($var::decode(r)?)), )+
                    type_id => Err(CodecError::UnknownTypeId { type_id, context: "P-Chain unsigned tx" }),
                }
            }
        }

        impl Encode for UnsignedTx {
            fn encode(&self, w: &mut Writer) {
                w.u32(self.type_id());
                match self { $( Self::$var(v) => v.encode(w), )+ }
            }
        }
    };
}

unsigned_tx! {
    /// Apricot primary-network validator (12).
    AddValidatorTx = type_id::ADD_VALIDATOR_TX, "AddValidatorTx";
    /// Subnet validator (13).
    AddSubnetValidatorTx = type_id::ADD_SUBNET_VALIDATOR_TX, "AddSubnetValidatorTx";
    /// Apricot primary-network delegator (14).
    AddDelegatorTx = type_id::ADD_DELEGATOR_TX, "AddDelegatorTx";
    /// New chain (15).
    CreateChainTx = type_id::CREATE_CHAIN_TX, "CreateChainTx";
    /// New subnet (16).
    CreateSubnetTx = type_id::CREATE_SUBNET_TX, "CreateSubnetTx";
    /// Import from shared memory (17).
    ImportTx = type_id::IMPORT_TX, "ImportTx";
    /// Export to shared memory (18).
    ExportTx = type_id::EXPORT_TX, "ExportTx";
    /// Chain time proposal (19).
    AdvanceTimeTx = type_id::ADVANCE_TIME_TX, "AdvanceTimeTx";
    /// Staker reward proposal (20).
    RewardValidatorTx = type_id::REWARD_VALIDATOR_TX, "RewardValidatorTx";
    /// Subnet validator removal (23).
    RemoveSubnetValidatorTx = type_id::REMOVE_SUBNET_VALIDATOR_TX, "RemoveSubnetValidatorTx";
    /// Permissionless subnet (24).
    TransformSubnetTx = type_id::TRANSFORM_SUBNET_TX, "TransformSubnetTx";
    /// Permissionless validator (25).
    AddPermissionlessValidatorTx = type_id::ADD_PERMISSIONLESS_VALIDATOR_TX, "AddPermissionlessValidatorTx";
    /// Permissionless delegator (26).
    AddPermissionlessDelegatorTx = type_id::ADD_PERMISSIONLESS_DELEGATOR_TX, "AddPermissionlessDelegatorTx";
    /// Subnet owner change (33).
    TransferSubnetOwnershipTx = type_id::TRANSFER_SUBNET_OWNERSHIP_TX, "TransferSubnetOwnershipTx";
    /// Plain transfer (34).
    BaseTx = type_id::BASE_TX, "BaseTx";
    /// Subnet to L1 conversion (35).
    ConvertSubnetToL1Tx = type_id::CONVERT_SUBNET_TO_L1_TX, "ConvertSubnetToL1Tx";
    /// L1 validator registration (36).
    RegisterL1ValidatorTx = type_id::REGISTER_L1_VALIDATOR_TX, "RegisterL1ValidatorTx";
    /// L1 validator weight change (37).
    SetL1ValidatorWeightTx = type_id::SET_L1_VALIDATOR_WEIGHT_TX, "SetL1ValidatorWeightTx";
    /// L1 validator balance top-up (38).
    IncreaseL1ValidatorBalanceTx = type_id::INCREASE_L1_VALIDATOR_BALANCE_TX, "IncreaseL1ValidatorBalanceTx";
    /// L1 validator disable (39).
    DisableL1ValidatorTx = type_id::DISABLE_L1_VALIDATOR_TX, "DisableL1ValidatorTx";
    /// Auto-renewed validator (40; Helicon, unscheduled on mainnet).
    AddAutoRenewedValidatorTx = type_id::ADD_AUTO_RENEWED_VALIDATOR_TX, "AddAutoRenewedValidatorTx";
    /// Auto-renewed validator configuration (41; Helicon).
    SetAutoRenewedValidatorConfigTx = type_id::SET_AUTO_RENEWED_VALIDATOR_CONFIG_TX, "SetAutoRenewedValidatorConfigTx";
    /// Auto-renewed validator cycle settlement proposal (42; Helicon).
    RewardAutoRenewedValidatorTx = type_id::REWARD_AUTO_RENEWED_VALIDATOR_TX, "RewardAutoRenewedValidatorTx";
}

/// The Data API's `PChainTransactionType` enumeration, in its order
/// (`glacier-data-api.json` `components.schemas.PChainTransactionType`).
pub const DATA_API_TX_TYPES: [&str; 21] = [
    "AddValidatorTx",
    "AddSubnetValidatorTx",
    "AddDelegatorTx",
    "CreateChainTx",
    "CreateSubnetTx",
    "ImportTx",
    "ExportTx",
    "AdvanceTimeTx",
    "RewardValidatorTx",
    "RemoveSubnetValidatorTx",
    "TransformSubnetTx",
    "AddPermissionlessValidatorTx",
    "AddPermissionlessDelegatorTx",
    "BaseTx",
    "TransferSubnetOwnershipTx",
    "ConvertSubnetToL1Tx",
    "RegisterL1ValidatorTx",
    "SetL1ValidatorWeightTx",
    "DisableL1ValidatorTx",
    "IncreaseL1ValidatorBalanceTx",
    "UNKNOWN",
];

impl UnsignedTx {
    /// The Data API `txType` (`PChainTransactionType`): the Go type name for the 20 types the
    /// enumeration lists, `"UNKNOWN"` for the Helicon txs it does not list yet.
    pub fn data_api_type(&self) -> &'static str {
        match self {
            Self::AddAutoRenewedValidatorTx(_)
            | Self::SetAutoRenewedValidatorConfigTx(_)
            | Self::RewardAutoRenewedValidatorTx(_) => "UNKNOWN",
            other => other.type_name(),
        }
    }
}

impl UnsignedTx {
    /// [`UnsignedTx::data_api_type`] of a tx of codec type id `type_id`: its Go type name when
    /// the Data API's enumeration lists it, else `"UNKNOWN"`.
    pub fn data_api_type_of(type_id: u32) -> &'static str {
        match Self::name_of(type_id) {
            Some(name) if DATA_API_TX_TYPES.contains(&name) => name,
            _ => "UNKNOWN",
        }
    }
}

impl MinSize for UnsignedTx {
    const MIN_SIZE: usize = 4;
}

impl UnsignedTx {
    /// The signing preimage: `u16 version | u32 type id | body`.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }

    /// The common fields, for every tx but the proposal-only ones (`AdvanceTimeTx`,
    /// `RewardValidatorTx`, `RewardAutoRenewedValidatorTx`).
    pub fn base(&self) -> Option<&BaseTx> {
        Some(match self {
            Self::AddValidatorTx(t) => &t.base,
            Self::AddSubnetValidatorTx(t) => &t.base,
            Self::AddDelegatorTx(t) => &t.base,
            Self::CreateChainTx(t) => &t.base,
            Self::CreateSubnetTx(t) => &t.base,
            Self::ImportTx(t) => &t.base,
            Self::ExportTx(t) => &t.base,
            Self::AdvanceTimeTx(_)
            | Self::RewardValidatorTx(_)
            | Self::RewardAutoRenewedValidatorTx(_) => return None,
            Self::RemoveSubnetValidatorTx(t) => &t.base,
            Self::TransformSubnetTx(t) => &t.base,
            Self::AddPermissionlessValidatorTx(t) => &t.base,
            Self::AddPermissionlessDelegatorTx(t) => &t.base,
            Self::TransferSubnetOwnershipTx(t) => &t.base,
            Self::BaseTx(t) => t,
            Self::ConvertSubnetToL1Tx(t) => &t.base,
            Self::RegisterL1ValidatorTx(t) => &t.base,
            Self::SetL1ValidatorWeightTx(t) => &t.base,
            Self::IncreaseL1ValidatorBalanceTx(t) => &t.base,
            Self::DisableL1ValidatorTx(t) => &t.base,
            Self::AddAutoRenewedValidatorTx(t) => &t.base,
            Self::SetAutoRenewedValidatorConfigTx(t) => &t.base,
        })
    }

    /// The outputs this tx creates on the P-Chain, in UTXO index order: the base outputs; stake
    /// outputs are returned later by `RewardValidatorTx` and exports leave the chain, so neither
    /// is included (avalanchego `Outputs()` of each tx).
    pub fn outputs(&self) -> &[super::TransferableOutput] {
        self.base().map(|b| b.outputs.as_slice()).unwrap_or(&[])
    }

    /// The nAVAX (asset `avax`) this tx burns: what its inputs spend (imported ones included)
    /// less what it puts on the chain (outputs and stakes), exports, and deposits as L1
    /// validator balances (`ConvertSubnetToL1Tx`, `RegisterL1ValidatorTx`,
    /// `IncreaseL1ValidatorBalanceTx`), which the flow check makes its fee and anything left
    /// over (avalanchego `vms/platformvm/utxo/verifier.go` `VerifySpendUTXOs`: the inputs cover
    /// the outputs plus the burned amount). 0 for txs without inputs (`RewardValidatorTx`).
    pub fn burned(&self, avax: &crate::Id) -> u64 {
        let Some(base) = self.base() else {
            return 0;
        };
        let avax_in = |ins: &[super::TransferableInput]| -> u128 {
            ins.iter()
                .filter(|i| i.asset_id == *avax)
                .map(|i| u128::from(i.input.amount()))
                .sum()
        };
        let avax_out = |outs: &[super::TransferableOutput]| -> u128 {
            outs.iter()
                .filter(|o| o.asset_id == *avax)
                .map(|o| u128::from(o.output.amount()))
                .sum()
        };
        let mut spent = avax_in(&base.inputs);
        let mut kept = avax_out(&base.outputs) + avax_out(self.stake());
        match self {
            Self::ImportTx(t) => spent += avax_in(&t.imported_inputs),
            Self::ExportTx(t) => kept += avax_out(&t.exported_outputs),
            Self::ConvertSubnetToL1Tx(t) => {
                kept += t
                    .validators
                    .iter()
                    .map(|v| u128::from(v.balance))
                    .sum::<u128>();
            }
            Self::RegisterL1ValidatorTx(t) => kept += u128::from(t.balance),
            Self::IncreaseL1ValidatorBalanceTx(t) => kept += u128::from(t.balance),
            _ => {}
        }
        u64::try_from(spent.saturating_sub(kept)).unwrap_or(u64::MAX)
    }

    /// The staked outputs of staker txs (returned, with index after the base outputs, when the
    /// staking period ends).
    pub fn stake(&self) -> &[super::TransferableOutput] {
        match self {
            Self::AddValidatorTx(t) => &t.stake,
            Self::AddDelegatorTx(t) => &t.stake,
            Self::AddPermissionlessValidatorTx(t) => &t.stake,
            Self::AddPermissionlessDelegatorTx(t) => &t.stake,
            Self::AddAutoRenewedValidatorTx(t) => &t.stake,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod data_api_type_tests {
    use super::*;

    /// Every Data API type but `UNKNOWN` is the Go name of exactly one codec type id
    /// (avalanchego `vms/platformvm/txs/codec.go` registration order, `type_id.rs`), and the
    /// Helicon txs the enumeration does not list yet read as `UNKNOWN`.
    #[test]
    fn each_data_api_type_has_its_codec_id() {
        for name in DATA_API_TX_TYPES.iter().filter(|n| **n != "UNKNOWN") {
            let ids: Vec<u32> = (0..64)
                .filter(|id| UnsignedTx::name_of(*id) == Some(name))
                .collect();
            assert_eq!(ids.len(), 1, "{name}: {ids:?}");
            assert_eq!(UnsignedTx::data_api_type_of(ids[0]), *name);
        }
        assert_eq!(
            UnsignedTx::name_of(type_id::ADD_VALIDATOR_TX),
            Some("AddValidatorTx")
        );
        assert_eq!(UnsignedTx::name_of(type_id::BASE_TX), Some("BaseTx"));
        assert_eq!(
            UnsignedTx::data_api_type_of(type_id::ADD_AUTO_RENEWED_VALIDATOR_TX),
            "UNKNOWN"
        );
        assert_eq!(UnsignedTx::data_api_type_of(9_999), "UNKNOWN");
    }
}
