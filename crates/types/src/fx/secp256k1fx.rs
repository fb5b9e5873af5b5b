//! `vms/secp256k1fx`: outputs owned by a threshold of secp256k1 addresses, the inputs that spend
//! them, the mint operation and the credential carrying 65-byte recoverable signatures.

use super::{FxError, is_sorted_unique};
use crate::ShortId;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// Length of a recoverable secp256k1 signature: `r ‖ s ‖ v`.
pub const SIGNATURE_LEN: usize = 65;

/// A recoverable secp256k1 signature as stored in credentials.
pub type Signature = [u8; SIGNATURE_LEN];

/// Who may spend an output, and from when: `u64 locktime | u32 threshold | u32 n | addr[20]×n`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct OutputOwners {
    /// Unix time (seconds) before which the output cannot be spent.
    pub locktime: u64,
    /// How many of `addrs` must sign.
    pub threshold: u32,
    /// The owner addresses, sorted ascending and unique when valid.
    pub addrs: Vec<ShortId>,
}

impl OutputOwners {
    /// `threshold`-of-`addrs` owners with no locktime; sorts the addresses as avalanchego does.
    pub fn new(threshold: u32, mut addrs: Vec<ShortId>) -> Self {
        addrs.sort_unstable();
        Self {
            locktime: 0,
            threshold,
            addrs,
        }
    }

    /// `OutputOwners.Verify`: spendable, optimized, addresses sorted and unique.
    pub fn verify(&self) -> Result<(), FxError> {
        if u64::from(self.threshold) > self.addrs.len() as u64 {
            Err(FxError::OutputUnspendable)
        } else if self.threshold == 0 && !self.addrs.is_empty() {
            Err(FxError::OutputUnoptimized)
        } else if !is_sorted_unique(&self.addrs) {
            Err(FxError::AddrsNotSortedUnique)
        } else {
            Ok(())
        }
    }

    /// Writes the JSON object of these owners plus the extra fields some outputs add, in Go's
    /// sorted-map key order: addresses, amount, groupID, locktime, payload, threshold.
    pub fn write_json_with(
        &self,
        w: &mut JsonWriter,
        ctx: &JsonCtx,
        amount: Option<u64>,
        group_id: Option<u32>,
        payload: Option<&[u8]>,
    ) {
        w.begin_object();
        w.key("addresses");
        w.begin_array();
        for a in &self.addrs {
            w.address(ctx, a);
        }
        w.end_array();
        if let Some(amount) = amount {
            w.key("amount");
            w.u64(amount);
        }
        if let Some(g) = group_id {
            w.key("groupID");
            w.u64(u64::from(g));
        }
        w.key("locktime");
        w.u64(self.locktime);
        if let Some(p) = payload {
            w.key("payload");
            w.hex(p);
        }
        w.key("threshold");
        w.u64(u64::from(self.threshold));
        w.end_object();
    }
}

impl Decode for OutputOwners {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            locktime: r.u64()?,
            threshold: r.u32()?,
            addrs: r.array_vec(ShortId)?,
        })
    }
}
impl Encode for OutputOwners {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.locktime);
        w.u32(self.threshold);
        self.addrs.encode(w);
    }
}
impl MinSize for OutputOwners {
    const MIN_SIZE: usize = 16;
}
impl WriteJson for OutputOwners {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.write_json_with(w, ctx, None, None, None);
    }
}

/// An amount of an asset owned by [`OutputOwners`]: `u64 amount | owners`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TransferOutput {
    /// The amount (never 0 when valid).
    pub amount: u64,
    /// Who can spend it.
    pub owners: OutputOwners,
}

impl TransferOutput {
    /// `TransferOutput.Verify`: non-zero amount and valid owners.
    pub fn verify(&self) -> Result<(), FxError> {
        if self.amount == 0 {
            return Err(FxError::NoValueOutput);
        }
        self.owners.verify()
    }
}
impl Decode for TransferOutput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            amount: r.u64()?,
            owners: OutputOwners::decode(r)?,
        })
    }
}
impl Encode for TransferOutput {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.amount);
        self.owners.encode(w);
    }
}
impl MinSize for TransferOutput {
    const MIN_SIZE: usize = 8 + OutputOwners::MIN_SIZE;
}
impl WriteJson for TransferOutput {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.owners
            .write_json_with(w, ctx, Some(self.amount), None, None);
    }
}

/// The right to mint more of an asset, held by [`OutputOwners`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MintOutput {
    /// Who can mint.
    pub owners: OutputOwners,
}

impl MintOutput {
    /// `MintOutput.Verify`: valid owners.
    pub fn verify(&self) -> Result<(), FxError> {
        self.owners.verify()
    }
}
impl Decode for MintOutput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            owners: OutputOwners::decode(r)?,
        })
    }
}
impl Encode for MintOutput {
    fn encode(&self, w: &mut Writer) {
        self.owners.encode(w);
    }
}
impl MinSize for MintOutput {
    const MIN_SIZE: usize = OutputOwners::MIN_SIZE;
}
impl WriteJson for MintOutput {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.owners.write_json(w, ctx);
    }
}

/// Which owner addresses sign: `u32 n | u32 sigIndex×n`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Input {
    /// Indices into the spent output's addresses, ascending and unique when valid.
    pub sig_indices: Vec<u32>,
}

impl Input {
    /// `Input.Verify`: signature indices sorted and unique.
    pub fn verify(&self) -> Result<(), FxError> {
        if is_sorted_unique(&self.sig_indices) {
            Ok(())
        } else {
            Err(FxError::InputIndicesNotSortedUnique)
        }
    }

    /// Writes `{"signatureIndices":[…]}`.
    fn write_fields(&self, w: &mut JsonWriter) {
        w.key("signatureIndices");
        w.u32_array(&self.sig_indices);
    }
}
impl Decode for Input {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            sig_indices: r.array_vec(u32::from_be_bytes)?,
        })
    }
}
impl Encode for Input {
    fn encode(&self, w: &mut Writer) {
        self.sig_indices.encode(w);
    }
}
impl MinSize for Input {
    const MIN_SIZE: usize = 4;
}
impl WriteJson for Input {
    fn write_json(&self, w: &mut JsonWriter, _ctx: &JsonCtx) {
        w.begin_object();
        self.write_fields(w);
        w.end_object();
    }
}

/// Spends a [`TransferOutput`]: `u64 amount | Input`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TransferInput {
    /// The amount consumed (must equal the spent output's).
    pub amount: u64,
    /// Which owners sign.
    pub input: Input,
}

impl TransferInput {
    /// `TransferInput.Verify`: non-zero amount and valid signature indices.
    pub fn verify(&self) -> Result<(), FxError> {
        if self.amount == 0 {
            return Err(FxError::NoValueInput);
        }
        self.input.verify()
    }
}
impl Decode for TransferInput {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            amount: r.u64()?,
            input: Input::decode(r)?,
        })
    }
}
impl Encode for TransferInput {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.amount);
        self.input.encode(w);
    }
}
impl MinSize for TransferInput {
    const MIN_SIZE: usize = 8 + Input::MIN_SIZE;
}
impl WriteJson for TransferInput {
    fn write_json(&self, w: &mut JsonWriter, _ctx: &JsonCtx) {
        w.begin_object();
        w.key("amount");
        w.u64(self.amount);
        self.input.write_fields(w);
        w.end_object();
    }
}

/// Mints: consumes a [`MintOutput`], recreates it and creates a [`TransferOutput`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MintOperation {
    /// Signatures over the consumed mint output.
    pub mint_input: Input,
    /// The recreated mint right.
    pub mint_output: MintOutput,
    /// The newly minted amount.
    pub transfer_output: TransferOutput,
}

impl MintOperation {
    /// `MintOperation.Verify`: all three parts valid.
    pub fn verify(&self) -> Result<(), FxError> {
        self.mint_input.verify()?;
        self.mint_output.verify()?;
        self.transfer_output.verify()
    }
}
impl Decode for MintOperation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            mint_input: Input::decode(r)?,
            mint_output: MintOutput::decode(r)?,
            transfer_output: TransferOutput::decode(r)?,
        })
    }
}
impl Encode for MintOperation {
    fn encode(&self, w: &mut Writer) {
        self.mint_input.encode(w);
        self.mint_output.encode(w);
        self.transfer_output.encode(w);
    }
}
impl MinSize for MintOperation {
    const MIN_SIZE: usize = Input::MIN_SIZE + MintOutput::MIN_SIZE + TransferOutput::MIN_SIZE;
}
impl WriteJson for MintOperation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("mintInput");
        self.mint_input.write_json(w, ctx);
        w.key("mintOutput");
        self.mint_output.write_json(w, ctx);
        w.key("transferOutput");
        self.transfer_output.write_json(w, ctx);
        w.end_object();
    }
}

/// Signatures proving the right to spend one input: `u32 n | sig[65]×n`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Credential {
    /// Recoverable signatures over `sha256(unsigned tx bytes)`.
    pub sigs: Vec<Signature>,
}
impl Credential {
    /// `Credential.Verify`: any decoded credential is structurally valid (signatures are checked
    /// against the spent outputs, which needs state).
    pub fn verify(&self) -> Result<(), FxError> {
        Ok(())
    }
}
impl Decode for Credential {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            sigs: r.array_vec(|s: Signature| s)?,
        })
    }
}
impl Encode for Credential {
    fn encode(&self, w: &mut Writer) {
        self.sigs.encode(w);
    }
}
impl MinSize for Credential {
    const MIN_SIZE: usize = 4;
}
impl WriteJson for Credential {
    fn write_json(&self, w: &mut JsonWriter, _ctx: &JsonCtx) {
        w.begin_object();
        w.key("signatures");
        w.begin_array();
        for s in &self.sigs {
            w.hex(s);
        }
        w.end_array();
        w.end_object();
    }
}
