//! The C-Chain's atomic txs (`graft/coreth/plugin/evm/atomic/`): `UnsignedImportTx` and
//! `UnsignedExportTx` in their own linear codec (`codec.go`: import 0, export 1, then
//! secp256k1fx's transfer input 5, transfer output 7, credential 9), signed like the X- and
//! P-Chain's txs, the id being `sha256` of the signed bytes.

use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer, typed_enum};
use crate::components::{
    self,
    signed::{ParsedSigned, SignedTx},
};
use crate::fx::secp256k1fx;
use crate::{Id, ShortId};

/// The atomic codec's type ids (`graft/coreth/plugin/evm/atomic/codec.go`).
pub mod type_id {
    /// `UnsignedImportTx`.
    pub const IMPORT_TX: u32 = 0;
    /// `UnsignedExportTx`.
    pub const EXPORT_TX: u32 = 1;
    /// `secp256k1fx.TransferInput`.
    pub const SECP256K1_TRANSFER_INPUT: u32 = 5;
    /// `secp256k1fx.TransferOutput`.
    pub const SECP256K1_TRANSFER_OUTPUT: u32 = 7;
    /// `secp256k1fx.Credential`.
    pub const SECP256K1_CREDENTIAL: u32 = 9;
}

typed_enum!(
    /// An imported input (`avax.TransferableIn`): only secp256k1fx spends are registered.
    TransferableIn, "C-Chain atomic input", {
        /// secp256k1fx spend (5).
        Secp256k1(secp256k1fx::TransferInput) = type_id::SECP256K1_TRANSFER_INPUT;
    }
);

typed_enum!(
    /// An exported output (`avax.TransferableOut`): only secp256k1fx transfers are registered.
    TransferableOut, "C-Chain atomic output", {
        /// secp256k1fx amount (7).
        Secp256k1(secp256k1fx::TransferOutput) = type_id::SECP256K1_TRANSFER_OUTPUT;
    }
);

typed_enum!(
    /// A credential (`verify.Verifiable` in `Tx.Creds`): secp256k1fx signatures.
    Credential, "C-Chain atomic credential", {
        /// secp256k1fx signatures (9).
        Secp256k1(secp256k1fx::Credential) = type_id::SECP256K1_CREDENTIAL;
    }
);

/// An imported input with its UTXO and asset.
pub type TransferableInput = components::TransferableInput<TransferableIn>;
/// An exported output with its asset.
pub type TransferableOutput = components::TransferableOutput<TransferableOut>;

/// An amount credited to an EVM address by an import (`EVMOutput`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EvmOutput {
    /// The receiving EVM address.
    pub address: [u8; 20],
    /// Amount in the asset's C-Chain denomination (nAVAX for AVAX).
    pub amount: u64,
    /// The asset.
    pub asset_id: Id,
}

/// An amount debited from an EVM address by an export (`EVMInput`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EvmInput {
    /// The paying EVM address.
    pub address: [u8; 20],
    /// Amount.
    pub amount: u64,
    /// The asset.
    pub asset_id: Id,
    /// The address's EVM nonce.
    pub nonce: u64,
}

impl Decode for EvmOutput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            address: r.array()?,
            amount: r.u64()?,
            asset_id: Id::decode(r)?,
        })
    }
}
impl Encode for EvmOutput {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.address);
        w.u64(self.amount);
        self.asset_id.encode(w);
    }
}
impl MinSize for EvmOutput {
    const MIN_SIZE: usize = 20 + 8 + 32;
}

impl Decode for EvmInput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            address: r.array()?,
            amount: r.u64()?,
            asset_id: Id::decode(r)?,
            nonce: r.u64()?,
        })
    }
}
impl Encode for EvmInput {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.address);
        w.u64(self.amount);
        self.asset_id.encode(w);
        w.u64(self.nonce);
    }
}
impl MinSize for EvmInput {
    const MIN_SIZE: usize = 20 + 8 + 32 + 8;
}

/// `UnsignedImportTx`: UTXOs from another chain's shared memory credited to EVM addresses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImportTx {
    /// Network id.
    pub network_id: u32,
    /// The C-Chain's id.
    pub blockchain_id: Id,
    /// The chain that exported the UTXOs (X or P).
    pub source_chain: Id,
    /// The imported UTXOs being spent.
    pub imported_inputs: Vec<TransferableInput>,
    /// The EVM credits.
    pub outs: Vec<EvmOutput>,
}

/// `UnsignedExportTx`: EVM balances debited and put in another chain's shared memory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExportTx {
    /// Network id.
    pub network_id: u32,
    /// The C-Chain's id.
    pub blockchain_id: Id,
    /// The chain receiving the outputs (X or P).
    pub destination_chain: Id,
    /// The EVM debits.
    pub ins: Vec<EvmInput>,
    /// The exported outputs.
    pub exported_outputs: Vec<TransferableOutput>,
}

impl Decode for ImportTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            network_id: r.u32()?,
            blockchain_id: Id::decode(r)?,
            source_chain: Id::decode(r)?,
            imported_inputs: Vec::decode(r)?,
            outs: Vec::decode(r)?,
        })
    }
}
impl Encode for ImportTx {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.network_id);
        self.blockchain_id.encode(w);
        self.source_chain.encode(w);
        self.imported_inputs.encode(w);
        self.outs.encode(w);
    }
}

impl Decode for ExportTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            network_id: r.u32()?,
            blockchain_id: Id::decode(r)?,
            destination_chain: Id::decode(r)?,
            ins: Vec::decode(r)?,
            exported_outputs: Vec::decode(r)?,
        })
    }
}
impl Encode for ExportTx {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.network_id);
        self.blockchain_id.encode(w);
        self.destination_chain.encode(w);
        self.ins.encode(w);
        self.exported_outputs.encode(w);
    }
}

typed_enum!(
    /// An unsigned atomic tx (`UnsignedAtomicTx`).
    UnsignedTx, "C-Chain atomic tx", {
        /// `UnsignedImportTx` (0).
        Import(ImportTx) = type_id::IMPORT_TX;
        /// `UnsignedExportTx` (1).
        Export(ExportTx) = type_id::EXPORT_TX;
    }
);

/// A signed atomic tx (`atomic.Tx`).
pub type Tx = SignedTx<UnsignedTx, Credential>;
/// A signed atomic tx with its bytes and id.
pub type ParsedTx = ParsedSigned<UnsignedTx, Credential>;

impl UnsignedTx {
    /// The nAVAX (asset `avax`) this atomic tx burns: an import's imported inputs less its EVM
    /// credits, an export's EVM debits less its exported outputs (coreth
    /// `plugin/evm/atomic/import_tx.go` and `export_tx.go` `SemanticVerify`: the flow check makes
    /// the difference the fee); 0 if it were to spend less.
    pub fn burned(&self, avax: &Id) -> u64 {
        let (spent, kept): (u128, u128) = match self {
            Self::Import(t) => (
                t.imported_inputs
                    .iter()
                    .filter(|i| i.asset_id == *avax)
                    .map(|i| {
                        let TransferableIn::Secp256k1(x) = &i.input;
                        u128::from(x.amount)
                    })
                    .sum(),
                t.outs
                    .iter()
                    .filter(|o| o.asset_id == *avax)
                    .map(|o| u128::from(o.amount))
                    .sum(),
            ),
            Self::Export(t) => (
                t.ins
                    .iter()
                    .filter(|i| i.asset_id == *avax)
                    .map(|i| u128::from(i.amount))
                    .sum(),
                t.exported_outputs
                    .iter()
                    .filter(|o| o.asset_id == *avax)
                    .map(|o| {
                        let TransferableOut::Secp256k1(x) = &o.output;
                        u128::from(x.amount)
                    })
                    .sum(),
            ),
        };
        u64::try_from(spent.saturating_sub(kept)).unwrap_or(u64::MAX)
    }
}

impl ImportTx {
    /// The ids of the UTXOs this import takes out of shared memory (`InputUTXOs`).
    pub fn imported_utxo_ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.imported_inputs.iter().map(|i| i.utxo_id.id())
    }
}

impl EvmOutput {
    /// The address as a `ShortId` (the same 20 bytes).
    pub fn short_id(&self) -> ShortId {
        ShortId(self.address)
    }
}
