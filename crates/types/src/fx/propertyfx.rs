//! `vms/propertyfx`: owned "property" outputs, minted from a mint right and burnable.

use super::FxError;
use super::secp256k1fx::{Input, OutputOwners};
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// The credential of propertyfx operations: the same body as secp256k1fx's.
pub type Credential = super::secp256k1fx::Credential;

macro_rules! owners_output {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
        pub struct $name {
            /// Who owns it.
            pub owners: OutputOwners,
        }
        impl $name {
            /// Valid owners (`OutputOwners.Verify`).
            pub fn verify(&self) -> Result<(), FxError> {
                self.owners.verify()
            }
        }
        impl Decode for $name {
            fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
                Ok(Self { owners: OutputOwners::decode(r)? })
            }
        }
        impl Encode for $name {
            fn encode(&self, w: &mut Writer) {
                self.owners.encode(w);
            }
        }
        impl MinSize for $name {
            const MIN_SIZE: usize = OutputOwners::MIN_SIZE;
        }
        impl WriteJson for $name {
            fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
                self.owners.write_json(w, ctx);
            }
        }
    };
}

owners_output!(
    /// The right to mint property: owners only.
    MintOutput
);
owners_output!(
    /// A piece of property: owners only.
    OwnedOutput
);

/// Mints property: `Input | MintOutput | OwnedOutput`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MintOperation {
    /// Signatures over the consumed mint output.
    pub mint_input: Input,
    /// The recreated mint right.
    pub mint_output: MintOutput,
    /// The new property.
    pub owned_output: OwnedOutput,
}

impl MintOperation {
    /// `MintOperation.Verify`.
    pub fn verify(&self) -> Result<(), FxError> {
        self.mint_input.verify()?;
        self.mint_output.verify()?;
        self.owned_output.verify()
    }
}
impl Decode for MintOperation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            mint_input: Input::decode(r)?,
            mint_output: MintOutput::decode(r)?,
            owned_output: OwnedOutput::decode(r)?,
        })
    }
}
impl Encode for MintOperation {
    fn encode(&self, w: &mut Writer) {
        self.mint_input.encode(w);
        self.mint_output.encode(w);
        self.owned_output.encode(w);
    }
}
impl MinSize for MintOperation {
    const MIN_SIZE: usize = Input::MIN_SIZE + 2 * OutputOwners::MIN_SIZE;
}
impl WriteJson for MintOperation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("mintInput");
        self.mint_input.write_json(w, ctx);
        w.key("mintOutput");
        self.mint_output.write_json(w, ctx);
        w.key("ownedOutput");
        self.owned_output.write_json(w, ctx);
        w.end_object();
    }
}

/// Burns property: the signature indices only (`{"signatureIndices":[…]}` in JSON).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BurnOperation {
    /// Signatures over the burnt output.
    pub input: Input,
}

impl BurnOperation {
    /// `Input.Verify`.
    pub fn verify(&self) -> Result<(), FxError> {
        self.input.verify()
    }
}
impl Decode for BurnOperation {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            input: Input::decode(r)?,
        })
    }
}
impl Encode for BurnOperation {
    fn encode(&self, w: &mut Writer) {
        self.input.encode(w);
    }
}
impl MinSize for BurnOperation {
    const MIN_SIZE: usize = Input::MIN_SIZE;
}
impl WriteJson for BurnOperation {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.input.write_json(w, ctx);
    }
}
