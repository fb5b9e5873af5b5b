//! `vms/components/avax`: the pieces every UTXO-based chain (X and P) builds its txs from —
//! [`UtxoId`], [`TransferableOutput`], [`TransferableInput`], [`Utxo`], [`InitialState`] — plus
//! the JSON writer that renders them as avalanchego does.
//!
//! The output/input types are generic: each VM plugs in its own enum that writes its own type ids.

pub mod initial_state;
pub mod json;
pub mod signed;
pub mod transferables;
pub mod utxo;
pub mod utxo_id;

pub use initial_state::InitialState;
pub use json::{JsonCtx, JsonWriter, WriteJson};
pub use transferables::{TransferableInput, TransferableOutput};
pub use utxo::Utxo;
pub use utxo_id::UtxoId;

use crate::Id;
use crate::fx::FxError;

/// A VM's interface value (an output, input, operation or credential enum): the fx it belongs to
/// and its own validity rule.
pub trait FxValue {
    /// The id of the fx the concrete type comes from (the JSON `fxID`).
    fn fx_id(&self) -> Id;
    /// The fx's `Verify()`.
    fn verify(&self) -> Result<(), FxError>;
}

/// Why a component is invalid; messages are avalanchego's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComponentError {
    /// An all-zero asset id (`errEmptyAssetID`).
    #[error("empty asset ID is not valid")]
    EmptyAssetId,
    /// Outputs not sorted by asset id then bytes (`ErrOutputsNotSorted`).
    #[error("outputs not sorted")]
    OutputsNotSorted,
    /// Inputs not sorted by UTXO id or duplicated (`ErrInputsNotSortedUnique`).
    #[error("inputs not sorted and unique")]
    InputsNotSortedUnique,
    /// An fx value failed its own check.
    #[error(transparent)]
    Fx(#[from] FxError),
}

/// Checks an asset id is not empty (`avax.Asset.Verify`).
pub fn verify_asset_id(asset_id: &Id) -> Result<(), ComponentError> {
    if asset_id.is_empty() {
        Err(ComponentError::EmptyAssetId)
    } else {
        Ok(())
    }
}
