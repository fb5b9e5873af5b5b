//! X-Chain unsigned txs (`vms/avm/txs`): [`BaseTx`] and the four txs that extend it, and the
//! [`UnsignedTx`] interface value (`u32 type id | body`).

use super::fx_types::{FxOperation, Output, TransferableIn, TransferableOut, type_id};
use crate::Id;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer, marshal};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::components::{self, FxValue, UtxoId};

/// An X-Chain tx output.
pub type TransferableOutput = components::TransferableOutput<TransferableOut>;
/// An X-Chain tx input.
pub type TransferableInput = components::TransferableInput<TransferableIn>;
/// An X-Chain `CreateAssetTx` initial state.
pub type InitialState = components::InitialState<Output>;

/// The common part of every X-Chain tx (`avax.BaseTx`):
/// `u32 networkID | blockchainID | outs | ins | u32+memo`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BaseTx {
    /// Network the tx is for (1 mainnet, 5 fuji, …).
    pub network_id: u32,
    /// The X-Chain's id (replay protection).
    pub blockchain_id: Id,
    /// Outputs, sorted by asset then bytes when valid.
    pub outputs: Vec<TransferableOutput>,
    /// Inputs, sorted by UTXO id when valid.
    pub inputs: Vec<TransferableInput>,
    /// Arbitrary bytes (at most 256 when valid).
    pub memo: Vec<u8>,
}

impl Decode for BaseTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            network_id: r.u32()?,
            blockchain_id: Id::decode(r)?,
            outputs: Vec::decode(r)?,
            inputs: Vec::decode(r)?,
            memo: r.bytes()?.to_vec(),
        })
    }
}
impl Encode for BaseTx {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.network_id);
        self.blockchain_id.encode(w);
        self.outputs.encode(w);
        self.inputs.encode(w);
        w.bytes(&self.memo);
    }
}

impl BaseTx {
    /// Writes the base members into an open JSON object.
    fn write_json_fields(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.key("networkID");
        w.u64(u64::from(self.network_id));
        w.key("blockchainID");
        w.id(&self.blockchain_id);
        w.key("outputs");
        w.array(ctx, &self.outputs);
        w.key("inputs");
        w.array(ctx, &self.inputs);
        w.key("memo");
        w.hex(&self.memo);
    }
}

/// Creates an asset: `BaseTx | u16+name | u16+symbol | u8 denomination | initial states`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct CreateAssetTx {
    /// Common fields.
    pub base: BaseTx,
    /// Asset name (1–128 letters, digits and spaces when valid).
    pub name: String,
    /// Symbol (1–4 upper-case letters when valid).
    pub symbol: String,
    /// Decimal places (at most 32 when valid).
    pub denomination: u8,
    /// Initial outputs per fx, sorted by fx index when valid.
    pub states: Vec<InitialState>,
}

/// Mints or transfers with fx operations: `BaseTx | operations`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct OperationTx {
    /// Common fields.
    pub base: BaseTx,
    /// The operations, sorted by their bytes when valid.
    pub operations: Vec<Operation>,
}

/// One operation (`txs.Operation`): `assetID | utxoIDs | u32 type id | op`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The asset operated on.
    pub asset_id: Id,
    /// The UTXOs consumed, sorted and unique when valid.
    pub utxo_ids: Vec<UtxoId>,
    /// The fx operation.
    pub op: FxOperation,
}

/// Imports from another chain's shared memory: `BaseTx | sourceChain | imported inputs`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ImportTx {
    /// Common fields.
    pub base: BaseTx,
    /// The chain the UTXOs come from.
    pub source_chain: Id,
    /// The imported UTXOs being spent.
    pub imported_inputs: Vec<TransferableInput>,
}

/// Exports to another chain's shared memory: `BaseTx | destinationChain | exported outputs`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ExportTx {
    /// Common fields.
    pub base: BaseTx,
    /// The chain receiving the outputs.
    pub destination_chain: Id,
    /// The exported outputs.
    pub exported_outputs: Vec<TransferableOutput>,
}

impl Decode for CreateAssetTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            base: BaseTx::decode(r)?,
            name: r.str()?.to_owned(),
            symbol: r.str()?.to_owned(),
            denomination: r.u8()?,
            states: Vec::decode(r)?,
        })
    }
}
impl Encode for CreateAssetTx {
    fn encode(&self, w: &mut Writer) {
        self.base.encode(w);
        w.str(&self.name);
        w.str(&self.symbol);
        w.u8(self.denomination);
        self.states.encode(w);
    }
}

impl Decode for Operation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            asset_id: Id::decode(r)?,
            utxo_ids: Vec::decode(r)?,
            op: FxOperation::decode(r)?,
        })
    }
}
impl Encode for Operation {
    fn encode(&self, w: &mut Writer) {
        self.asset_id.encode(w);
        self.utxo_ids.encode(w);
        self.op.encode(w);
    }
}
impl MinSize for Operation {
    const MIN_SIZE: usize = 32 + 4 + 4;
}
impl WriteJson for Operation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("assetID");
        w.id(&self.asset_id);
        w.key("inputIDs");
        w.array(ctx, &self.utxo_ids);
        w.key("fxID");
        w.id(&self.op.fx_id());
        w.key("operation");
        self.op.write_json(w, ctx);
        w.end_object();
    }
}

impl Decode for OperationTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            base: BaseTx::decode(r)?,
            operations: Vec::decode(r)?,
        })
    }
}
impl Encode for OperationTx {
    fn encode(&self, w: &mut Writer) {
        self.base.encode(w);
        self.operations.encode(w);
    }
}

impl Decode for ImportTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            base: BaseTx::decode(r)?,
            source_chain: Id::decode(r)?,
            imported_inputs: Vec::decode(r)?,
        })
    }
}
impl Encode for ImportTx {
    fn encode(&self, w: &mut Writer) {
        self.base.encode(w);
        self.source_chain.encode(w);
        self.imported_inputs.encode(w);
    }
}

impl Decode for ExportTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            base: BaseTx::decode(r)?,
            destination_chain: Id::decode(r)?,
            exported_outputs: Vec::decode(r)?,
        })
    }
}
impl Encode for ExportTx {
    fn encode(&self, w: &mut Writer) {
        self.base.encode(w);
        self.destination_chain.encode(w);
        self.exported_outputs.encode(w);
    }
}

/// Any X-Chain unsigned tx (`txs.UnsignedTx`): `u32 type id (0–4) | body`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UnsignedTx {
    /// Type 0.
    Base(BaseTx),
    /// Type 1.
    CreateAsset(CreateAssetTx),
    /// Type 2.
    Operation(OperationTx),
    /// Type 3.
    Import(ImportTx),
    /// Type 4.
    Export(ExportTx),
}

impl UnsignedTx {
    /// The codec type id.
    pub fn type_id(&self) -> u32 {
        match self {
            Self::Base(_) => type_id::BASE_TX,
            Self::CreateAsset(_) => type_id::CREATE_ASSET_TX,
            Self::Operation(_) => type_id::OPERATION_TX,
            Self::Import(_) => type_id::IMPORT_TX,
            Self::Export(_) => type_id::EXPORT_TX,
        }
    }

    /// The common part.
    pub fn base(&self) -> &BaseTx {
        match self {
            Self::Base(t) => t,
            Self::CreateAsset(t) => &t.base,
            Self::Operation(t) => &t.base,
            Self::Import(t) => &t.base,
            Self::Export(t) => &t.base,
        }
    }

    /// The signing preimage: `u16 version | u32 type id | body`; signatures are over its sha256.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }

    /// The nAVAX (asset `avax`) this tx burns: what its inputs spend (imported ones included)
    /// less what it outputs and exports, which the avm's flow check makes its fee and anything
    /// left over (avalanchego `vms/avm/txs/executor/syntactic_verifier.go`,
    /// `avax.VerifyTx`: inputs cover outputs plus the fee); 0 if it were to spend less.
    pub fn burned(&self, avax: &crate::Id) -> u64 {
        let base = self.base();
        let mut spent: u128 = base
            .inputs
            .iter()
            .filter(|i| i.asset_id == *avax)
            .map(|i| u128::from(i.input.amount()))
            .sum();
        let mut kept: u128 = base
            .outputs
            .iter()
            .filter(|o| o.asset_id == *avax)
            .map(|o| u128::from(o.output.amount()))
            .sum();
        match self {
            Self::Import(t) => {
                spent += t
                    .imported_inputs
                    .iter()
                    .filter(|i| i.asset_id == *avax)
                    .map(|i| u128::from(i.input.amount()))
                    .sum::<u128>();
            }
            Self::Export(t) => {
                kept += t
                    .exported_outputs
                    .iter()
                    .filter(|o| o.asset_id == *avax)
                    .map(|o| u128::from(o.output.amount()))
                    .sum::<u128>();
            }
            _ => {}
        }
        u64::try_from(spent.saturating_sub(kept)).unwrap_or(u64::MAX)
    }

    /// How many credentials a valid tx carries: one per input (base and imported) and per operation.
    pub fn num_credentials(&self) -> usize {
        let base = self.base().inputs.len();
        match self {
            Self::Operation(t) => base + t.operations.len(),
            Self::Import(t) => base + t.imported_inputs.len(),
            _ => base,
        }
    }

    /// Every UTXO this tx consumes: base inputs, then operation or imported inputs.
    pub fn input_utxos(&self) -> Vec<UtxoId> {
        let mut out: Vec<UtxoId> = self.base().inputs.iter().map(|i| i.utxo_id).collect();
        match self {
            Self::Operation(t) => {
                for op in &t.operations {
                    out.extend_from_slice(&op.utxo_ids);
                }
            }
            Self::Import(t) => out.extend(t.imported_inputs.iter().map(|i| i.utxo_id)),
            _ => {}
        }
        out
    }
}

impl Decode for UnsignedTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        match r.u32()? {
            type_id::BASE_TX => Ok(Self::Base(BaseTx::decode(r)?)),
            type_id::CREATE_ASSET_TX => Ok(Self::CreateAsset(CreateAssetTx::decode(r)?)),
            type_id::OPERATION_TX => Ok(Self::Operation(OperationTx::decode(r)?)),
            type_id::IMPORT_TX => Ok(Self::Import(ImportTx::decode(r)?)),
            type_id::EXPORT_TX => Ok(Self::Export(ExportTx::decode(r)?)),
            type_id => Err(CodecError::UnknownTypeId {
                type_id,
                context: "unsigned tx",
            }),
        }
    }
}
impl Encode for UnsignedTx {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.type_id());
        match self {
            Self::Base(t) => t.encode(w),
            Self::CreateAsset(t) => t.encode(w),
            Self::Operation(t) => t.encode(w),
            Self::Import(t) => t.encode(w),
            Self::Export(t) => t.encode(w),
        }
    }
}

/// The `unsignedTx` object: base members, then the variant's own, in Go struct order.
impl WriteJson for UnsignedTx {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        self.base().write_json_fields(w, ctx);
        match self {
            Self::Base(_) => {}
            Self::CreateAsset(t) => {
                w.key("name");
                w.string(&t.name);
                w.key("symbol");
                w.string(&t.symbol);
                w.key("denomination");
                w.u64(u64::from(t.denomination));
                w.key("initialStates");
                w.array(ctx, &t.states);
            }
            Self::Operation(t) => {
                w.key("operations");
                w.array(ctx, &t.operations);
            }
            Self::Import(t) => {
                w.key("sourceChain");
                w.id(&t.source_chain);
                w.key("importedInputs");
                w.array(ctx, &t.imported_inputs);
            }
            Self::Export(t) => {
                w.key("destinationChain");
                w.id(&t.destination_chain);
                w.key("exportedOutputs");
                w.array(ctx, &t.exported_outputs);
            }
        }
        w.end_object();
    }
}
