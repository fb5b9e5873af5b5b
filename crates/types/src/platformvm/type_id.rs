//! P-Chain codec type ids, in registration order (`txs/codec.go`, `block/codec.go`).

/// `block.ApricotProposalBlock`.
pub const APRICOT_PROPOSAL_BLOCK: u32 = 0;
/// `block.ApricotAbortBlock`.
pub const APRICOT_ABORT_BLOCK: u32 = 1;
/// `block.ApricotCommitBlock`.
pub const APRICOT_COMMIT_BLOCK: u32 = 2;
/// `block.ApricotStandardBlock`.
pub const APRICOT_STANDARD_BLOCK: u32 = 3;
/// `block.ApricotAtomicBlock`.
pub const APRICOT_ATOMIC_BLOCK: u32 = 4;
/// `secp256k1fx.TransferInput`.
pub const SECP256K1_TRANSFER_INPUT: u32 = 5;
/// `secp256k1fx.TransferOutput` (6, `MintOutput`, is skipped).
pub const SECP256K1_TRANSFER_OUTPUT: u32 = 7;
/// `secp256k1fx.Credential` (8, `MintOperation`, is skipped).
pub const SECP256K1_CREDENTIAL: u32 = 9;
/// `secp256k1fx.Input` (subnet and disable authorizations).
pub const SECP256K1_INPUT: u32 = 10;
/// `secp256k1fx.OutputOwners` (reward, subnet and change owners).
pub const SECP256K1_OUTPUT_OWNERS: u32 = 11;
/// `txs.AddValidatorTx`.
pub const ADD_VALIDATOR_TX: u32 = 12;
/// `txs.AddSubnetValidatorTx`.
pub const ADD_SUBNET_VALIDATOR_TX: u32 = 13;
/// `txs.AddDelegatorTx`.
pub const ADD_DELEGATOR_TX: u32 = 14;
/// `txs.CreateChainTx`.
pub const CREATE_CHAIN_TX: u32 = 15;
/// `txs.CreateSubnetTx`.
pub const CREATE_SUBNET_TX: u32 = 16;
/// `txs.ImportTx`.
pub const IMPORT_TX: u32 = 17;
/// `txs.ExportTx`.
pub const EXPORT_TX: u32 = 18;
/// `txs.AdvanceTimeTx`.
pub const ADVANCE_TIME_TX: u32 = 19;
/// `txs.RewardValidatorTx`.
pub const REWARD_VALIDATOR_TX: u32 = 20;
/// `stakeable.LockIn`.
pub const STAKEABLE_LOCK_IN: u32 = 21;
/// `stakeable.LockOut`.
pub const STAKEABLE_LOCK_OUT: u32 = 22;
/// `txs.RemoveSubnetValidatorTx`.
pub const REMOVE_SUBNET_VALIDATOR_TX: u32 = 23;
/// `txs.TransformSubnetTx`.
pub const TRANSFORM_SUBNET_TX: u32 = 24;
/// `txs.AddPermissionlessValidatorTx`.
pub const ADD_PERMISSIONLESS_VALIDATOR_TX: u32 = 25;
/// `txs.AddPermissionlessDelegatorTx`.
pub const ADD_PERMISSIONLESS_DELEGATOR_TX: u32 = 26;
/// `signer.Empty`.
pub const SIGNER_EMPTY: u32 = 27;
/// `signer.ProofOfPossession`.
pub const SIGNER_PROOF_OF_POSSESSION: u32 = 28;
/// `block.BanffProposalBlock`.
pub const BANFF_PROPOSAL_BLOCK: u32 = 29;
/// `block.BanffAbortBlock`.
pub const BANFF_ABORT_BLOCK: u32 = 30;
/// `block.BanffCommitBlock`.
pub const BANFF_COMMIT_BLOCK: u32 = 31;
/// `block.BanffStandardBlock`.
pub const BANFF_STANDARD_BLOCK: u32 = 32;
/// `txs.TransferSubnetOwnershipTx` (Durango).
pub const TRANSFER_SUBNET_OWNERSHIP_TX: u32 = 33;
/// `txs.BaseTx` (Durango).
pub const BASE_TX: u32 = 34;
/// `txs.ConvertSubnetToL1Tx` (Etna).
pub const CONVERT_SUBNET_TO_L1_TX: u32 = 35;
/// `txs.RegisterL1ValidatorTx` (Etna).
pub const REGISTER_L1_VALIDATOR_TX: u32 = 36;
/// `txs.SetL1ValidatorWeightTx` (Etna).
pub const SET_L1_VALIDATOR_WEIGHT_TX: u32 = 37;
/// `txs.IncreaseL1ValidatorBalanceTx` (Etna).
pub const INCREASE_L1_VALIDATOR_BALANCE_TX: u32 = 38;
/// `txs.DisableL1ValidatorTx` (Etna).
pub const DISABLE_L1_VALIDATOR_TX: u32 = 39;
/// `txs.AddAutoRenewedValidatorTx` (Helicon).
pub const ADD_AUTO_RENEWED_VALIDATOR_TX: u32 = 40;
/// `txs.SetAutoRenewedValidatorConfigTx` (Helicon).
pub const SET_AUTO_RENEWED_VALIDATOR_CONFIG_TX: u32 = 41;
/// `txs.RewardAutoRenewedValidatorTx` (Helicon).
pub const REWARD_AUTO_RENEWED_VALIDATOR_TX: u32 = 42;
