//! `vms/nftfx`: non-fungible outputs (a group id and a payload) owned like secp256k1fx outputs.

use super::FxError;
use super::secp256k1fx::{Input, OutputOwners};
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// Largest valid payload: 1 KiB (`MaxPayloadSize`).
pub const MAX_PAYLOAD_SIZE: usize = 1024;

/// The credential of nftfx operations: the same body as secp256k1fx's.
pub type Credential = super::secp256k1fx::Credential;

/// The right to mint NFTs of one group: `u32 groupID | owners`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MintOutput {
    /// The group this right mints into.
    pub group_id: u32,
    /// Who can mint.
    pub owners: OutputOwners,
}

impl MintOutput {
    /// Valid owners (nftfx `MintOutput` inherits `OutputOwners.Verify`).
    pub fn verify(&self) -> Result<(), FxError> {
        self.owners.verify()
    }
}
impl Decode for MintOutput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            group_id: r.u32()?,
            owners: OutputOwners::decode(r)?,
        })
    }
}
impl Encode for MintOutput {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.group_id);
        self.owners.encode(w);
    }
}
impl MinSize for MintOutput {
    const MIN_SIZE: usize = 4 + OutputOwners::MIN_SIZE;
}
impl WriteJson for MintOutput {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.owners
            .write_json_with(w, ctx, None, Some(self.group_id), None);
    }
}

/// One NFT: `u32 groupID | u32+payload | owners`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TransferOutput {
    /// Its group.
    pub group_id: u32,
    /// Arbitrary bytes (at most 1 KiB when valid).
    pub payload: Vec<u8>,
    /// Who owns it.
    pub owners: OutputOwners,
}

impl TransferOutput {
    /// `TransferOutput.Verify`: payload size and owners.
    pub fn verify(&self) -> Result<(), FxError> {
        if self.payload.len() > MAX_PAYLOAD_SIZE {
            return Err(FxError::PayloadTooLarge);
        }
        self.owners.verify()
    }
}
impl Decode for TransferOutput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            group_id: r.u32()?,
            payload: r.bytes()?.to_vec(),
            owners: OutputOwners::decode(r)?,
        })
    }
}
impl Encode for TransferOutput {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.group_id);
        w.bytes(&self.payload);
        self.owners.encode(w);
    }
}
impl MinSize for TransferOutput {
    const MIN_SIZE: usize = 8 + OutputOwners::MIN_SIZE;
}
impl WriteJson for TransferOutput {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.owners
            .write_json_with(w, ctx, None, Some(self.group_id), Some(&self.payload));
    }
}

/// Mints NFTs: `Input | u32 groupID | u32+payload | u32 n | owners×n`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MintOperation {
    /// Signatures over the consumed mint output.
    pub mint_input: Input,
    /// The group minted into.
    pub group_id: u32,
    /// The payload of every minted NFT.
    pub payload: Vec<u8>,
    /// One owner set per minted NFT.
    pub outputs: Vec<OutputOwners>,
}

impl MintOperation {
    /// `MintOperation.Verify`: payload size, every owner set, then the input.
    pub fn verify(&self) -> Result<(), FxError> {
        if self.payload.len() > MAX_PAYLOAD_SIZE {
            return Err(FxError::PayloadTooLarge);
        }
        for o in &self.outputs {
            o.verify()?;
        }
        self.mint_input.verify()
    }
}
impl Decode for MintOperation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            mint_input: Input::decode(r)?,
            group_id: r.u32()?,
            payload: r.bytes()?.to_vec(),
            outputs: Vec::decode(r)?,
        })
    }
}
impl Encode for MintOperation {
    fn encode(&self, w: &mut Writer) {
        self.mint_input.encode(w);
        w.u32(self.group_id);
        w.bytes(&self.payload);
        self.outputs.encode(w);
    }
}
impl MinSize for MintOperation {
    const MIN_SIZE: usize = Input::MIN_SIZE + 12;
}
impl WriteJson for MintOperation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("mintInput");
        self.mint_input.write_json(w, ctx);
        w.key("groupID");
        w.u64(u64::from(self.group_id));
        w.key("payload");
        w.hex(&self.payload);
        w.key("outputs");
        w.array(ctx, &self.outputs);
        w.end_object();
    }
}

/// Moves one NFT: `Input | TransferOutput`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TransferOperation {
    /// Signatures over the consumed NFT.
    pub input: Input,
    /// The NFT's new state.
    pub output: TransferOutput,
}

impl TransferOperation {
    /// `TransferOperation.Verify`.
    pub fn verify(&self) -> Result<(), FxError> {
        self.input.verify()?;
        self.output.verify()
    }
}
impl Decode for TransferOperation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            input: Input::decode(r)?,
            output: TransferOutput::decode(r)?,
        })
    }
}
impl Encode for TransferOperation {
    fn encode(&self, w: &mut Writer) {
        self.input.encode(w);
        self.output.encode(w);
    }
}
impl MinSize for TransferOperation {
    const MIN_SIZE: usize = Input::MIN_SIZE + TransferOutput::MIN_SIZE;
}
impl WriteJson for TransferOperation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("input");
        self.input.write_json(w, ctx);
        w.key("output");
        self.output.write_json(w, ctx);
        w.end_object();
    }
}
