//! Stateless validity (`vms/avm/txs/executor/syntactic_verifier.go`, `avax.VerifyTx` minus the
//! fee/flow check, which needs the chain's fee config).

use super::tx::Tx;
use super::txs::{BaseTx, CreateAssetTx, Operation, OperationTx, UnsignedTx};
use crate::Id;
use crate::codec::encode_to_vec;
use crate::components::initial_state::InitialStateError;
use crate::components::transferables::verify_transferables;
use crate::components::{ComponentError, FxValue, verify_asset_id};
use crate::fx::{FX_IDS, FxError, is_sorted_unique};

/// Largest valid memo: 256 bytes (`avax.MaxMemoSize`).
pub const MAX_MEMO_SIZE: usize = 256;
/// Name length bounds.
pub const MAX_NAME_LEN: usize = 128;
/// Symbol length bound.
pub const MAX_SYMBOL_LEN: usize = 4;
/// Largest denomination.
pub const MAX_DENOMINATION: u8 = 32;

/// Why a tx is invalid; messages are avalanchego's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TxError {
    /// `ErrWrongNetworkID`.
    #[error("tx has wrong network ID")]
    WrongNetworkId,
    /// `ErrWrongChainID`.
    #[error("tx has wrong chain ID")]
    WrongChainId,
    /// `ErrMemoTooLarge`.
    #[error("memo exceeds maximum length: {0} > 256")]
    MemoTooLarge(usize),
    /// A tx output or input is invalid or out of order.
    #[error(transparent)]
    Component(#[from] ComponentError),
    /// An initial state is invalid.
    #[error(transparent)]
    InitialState(#[from] InitialStateError),
    /// An fx operation is invalid.
    #[error(transparent)]
    Fx(#[from] FxError),
    /// `errNameTooShort` / `errNameTooLong`.
    #[error("name length {0} is outside 1..=128")]
    NameLength(usize),
    /// `errSymbolTooShort` / `errSymbolTooLong`.
    #[error("symbol length {0} is outside 1..=4")]
    SymbolLength(usize),
    /// `errNoFxs`.
    #[error("assets must support at least one Fx")]
    NoFxs,
    /// `errDenominationTooLarge`.
    #[error("denomination is too large")]
    DenominationTooLarge,
    /// `errUnexpectedWhitespace`.
    #[error("unexpected whitespace provided")]
    UnexpectedWhitespace,
    /// `errIllegalNameCharacter`.
    #[error("asset's name must be made up of only letters and numbers")]
    IllegalNameCharacter,
    /// `errIllegalSymbolCharacter`.
    #[error("asset's symbol must be all upper case letters")]
    IllegalSymbolCharacter,
    /// `errInitialStatesNotSortedUnique`.
    #[error("initial states not sorted and unique")]
    InitialStatesNotSortedUnique,
    /// `errNoOperations`.
    #[error("an operationTx must have at least one operation")]
    NoOperations,
    /// `ErrNotSortedAndUniqueUTXOIDs`.
    #[error("utxo IDs not sorted and unique")]
    UtxoIdsNotSortedUnique,
    /// `errDoubleSpend`.
    #[error("inputs attempt to double spend an input")]
    DoubleSpend,
    /// `errOperationsNotSortedUnique`.
    #[error("operations not sorted and unique")]
    OperationsNotSortedUnique,
    /// `errNoImportInputs`.
    #[error("no import inputs")]
    NoImportInputs,
    /// `errNoExportOutputs`.
    #[error("no export outputs")]
    NoExportOutputs,
    /// `errWrongNumberOfCredentials`.
    #[error("wrong number of credentials: {creds} != {inputs}")]
    WrongNumberOfCredentials {
        /// Credentials present.
        creds: usize,
        /// Inputs and operations needing one.
        inputs: usize,
    },
}

impl BaseTx {
    /// `avax.BaseTx.Verify`: network, chain and memo size.
    pub fn verify(&self, network_id: u32, chain_id: &Id) -> Result<(), TxError> {
        if self.network_id != network_id {
            Err(TxError::WrongNetworkId)
        } else if self.blockchain_id != *chain_id {
            Err(TxError::WrongChainId)
        } else if self.memo.len() > MAX_MEMO_SIZE {
            Err(TxError::MemoTooLarge(self.memo.len()))
        } else {
            Ok(())
        }
    }
}

impl Operation {
    /// `Operation.Verify`: UTXO ids sorted and unique, asset non-empty, fx operation valid.
    pub fn verify(&self) -> Result<(), TxError> {
        if !is_sorted_unique(&self.utxo_ids) {
            return Err(TxError::UtxoIdsNotSortedUnique);
        }
        verify_asset_id(&self.asset_id)?;
        Ok(self.op.verify()?)
    }
}

fn verify_create_asset(t: &CreateAssetTx) -> Result<(), TxError> {
    if t.name.is_empty() || t.name.len() > MAX_NAME_LEN {
        return Err(TxError::NameLength(t.name.len()));
    }
    if t.symbol.is_empty() || t.symbol.len() > MAX_SYMBOL_LEN {
        return Err(TxError::SymbolLength(t.symbol.len()));
    }
    if t.states.is_empty() {
        return Err(TxError::NoFxs);
    }
    if t.denomination > MAX_DENOMINATION {
        return Err(TxError::DenominationTooLarge);
    }
    // Go's strings.TrimSpace also trims Unicode spaces; non-ASCII names fail below anyway.
    if t.name.trim() != t.name {
        return Err(TxError::UnexpectedWhitespace);
    }
    if !t
        .name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == ' ')
    {
        return Err(TxError::IllegalNameCharacter);
    }
    if !t.symbol.chars().all(|c| c.is_ascii_uppercase()) {
        return Err(TxError::IllegalSymbolCharacter);
    }
    Ok(())
}

fn verify_operations(t: &OperationTx) -> Result<(), TxError> {
    if t.operations.is_empty() {
        return Err(TxError::NoOperations);
    }
    let mut seen: std::collections::HashSet<Id> =
        t.base.inputs.iter().map(|i| i.utxo_id.id()).collect();
    for op in &t.operations {
        op.verify()?;
        for u in &op.utxo_ids {
            if !seen.insert(u.id()) {
                return Err(TxError::DoubleSpend);
            }
        }
    }
    let encoded: Vec<Vec<u8>> = t.operations.iter().map(encode_to_vec).collect();
    if !is_sorted_unique(&encoded) {
        return Err(TxError::OperationsNotSortedUnique);
    }
    Ok(())
}

impl UnsignedTx {
    /// Stateless checks of the unsigned part that need no chain context: variant rules, output and
    /// input validity and order, initial states, operations. No fee or balance check.
    pub fn verify_structure(&self) -> Result<(), TxError> {
        let base = self.base();
        if base.memo.len() > MAX_MEMO_SIZE {
            return Err(TxError::MemoTooLarge(base.memo.len()));
        }
        match self {
            Self::Base(b) => verify_transferables(&b.outputs, &b.inputs)?,
            Self::CreateAsset(t) => {
                verify_create_asset(t)?;
                verify_transferables(&t.base.outputs, &t.base.inputs)?;
                for s in &t.states {
                    s.verify(FX_IDS.len())?;
                }
                let idx: Vec<u32> = t.states.iter().map(|s| s.fx_index).collect();
                if !is_sorted_unique(&idx) {
                    return Err(TxError::InitialStatesNotSortedUnique);
                }
            }
            Self::Operation(t) => {
                verify_transferables(&t.base.outputs, &t.base.inputs)?;
                verify_operations(t)?;
            }
            Self::Import(t) => {
                if t.imported_inputs.is_empty() {
                    return Err(TxError::NoImportInputs);
                }
                verify_transferables(&t.base.outputs, &t.base.inputs)?;
                verify_transferables::<super::TransferableOut, _>(&[], &t.imported_inputs)?;
            }
            Self::Export(t) => {
                if t.exported_outputs.is_empty() {
                    return Err(TxError::NoExportOutputs);
                }
                verify_transferables(&t.base.outputs, &t.base.inputs)?;
                verify_transferables::<_, super::TransferableIn>(&t.exported_outputs, &[])?;
            }
        }
        Ok(())
    }
}

impl Tx {
    /// The syntactic checks avalanchego runs before execution, minus fees: the tx is for this
    /// network and chain, its structure is valid, and it has one credential per input/operation.
    pub fn verify(&self, network_id: u32, chain_id: &Id) -> Result<(), TxError> {
        self.unsigned.base().verify(network_id, chain_id)?;
        self.unsigned.verify_structure()?;
        for c in &self.credentials {
            c.verify()?;
        }
        let inputs = self.unsigned.num_credentials();
        if self.credentials.len() != inputs {
            return Err(TxError::WrongNumberOfCredentials {
                creds: self.credentials.len(),
                inputs,
            });
        }
        Ok(())
    }
}
