//! Cross-chain transfers through shared memory: `ImportTx` (type 17) and `ExportTx` (type 18).

use super::base::BaseTx;
use super::macros::codec_struct;
use crate::Id;
use crate::platformvm::{TransferableInput, TransferableOutput};

codec_struct! {
    /// Imports UTXOs another chain exported to the P-Chain (`ImportTx`).
    pub struct ImportTx {
        /// Common fields.
        pub base: BaseTx,
        /// The chain the UTXOs come from (X- or C-Chain).
        pub source_chain: Id,
        /// The imported UTXOs being spent.
        pub imported_inputs: Vec<TransferableInput>,
    }
}

codec_struct! {
    /// Exports outputs to another chain's shared memory (`ExportTx`).
    pub struct ExportTx {
        /// Common fields.
        pub base: BaseTx,
        /// The destination chain (X- or C-Chain).
        pub destination_chain: Id,
        /// The exported outputs.
        pub exported_outputs: Vec<TransferableOutput>,
    }
}
