//! The X-Chain (AVM) formats: fx interface values with the X-Chain type ids, unsigned and signed
//! txs, the post-Cortina standard block, their ids, avalanchego's JSON and the stateless validity
//! rules of `vms/avm/txs/executor/syntactic_verifier.go`.

pub mod block;
pub mod fx_types;
pub mod genesis;
pub mod outputs;
pub mod tx;
pub mod txs;
pub mod verify;

pub use block::{ParsedBlock, StandardBlock, block_tx_id};
pub use fx_types::{Credential, FxOperation, Output, TransferableIn, TransferableOut, type_id};
pub use genesis::XGenesisState;
pub use tx::{ParsedTx, Tx};
pub use txs::{
    BaseTx, CreateAssetTx, ExportTx, ImportTx, InitialState, Operation, OperationTx,
    TransferableInput, TransferableOutput, UnsignedTx,
};
pub use verify::TxError;

/// An X-Chain UTXO (as served by `avm.getUTXOs`).
pub type Utxo = crate::components::Utxo<Output>;
