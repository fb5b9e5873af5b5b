//! The X-Chain's interface values: each enum reads a `u32` type id (`vms/avm/txs/parser.go` order,
//! then secp256k1fx, nftfx, propertyfx registering theirs) and then the fx body. Each enum only
//! accepts the types avalanchego's codec accepts in that position (the concrete type must
//! implement the field's Go interface); any other id is an error.

use crate::Id;
use crate::components::FxValue;
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::fx::{FxError, NFTFX_ID, PROPERTYFX_ID, SECP256K1FX_ID, nftfx, propertyfx, secp256k1fx};

/// X-Chain codec type ids (`vms/avm/txs/parser.go`, the fxs' `Initialize`, `vms/avm/block/parser.go`).
pub mod type_id {
    /// `txs.BaseTx`.
    pub const BASE_TX: u32 = 0;
    /// `txs.CreateAssetTx`.
    pub const CREATE_ASSET_TX: u32 = 1;
    /// `txs.OperationTx`.
    pub const OPERATION_TX: u32 = 2;
    /// `txs.ImportTx`.
    pub const IMPORT_TX: u32 = 3;
    /// `txs.ExportTx`.
    pub const EXPORT_TX: u32 = 4;
    /// `secp256k1fx.TransferInput`.
    pub const SECP256K1_TRANSFER_INPUT: u32 = 5;
    /// `secp256k1fx.MintOutput`.
    pub const SECP256K1_MINT_OUTPUT: u32 = 6;
    /// `secp256k1fx.TransferOutput`.
    pub const SECP256K1_TRANSFER_OUTPUT: u32 = 7;
    /// `secp256k1fx.MintOperation`.
    pub const SECP256K1_MINT_OPERATION: u32 = 8;
    /// `secp256k1fx.Credential`.
    pub const SECP256K1_CREDENTIAL: u32 = 9;
    /// `nftfx.MintOutput`.
    pub const NFT_MINT_OUTPUT: u32 = 10;
    /// `nftfx.TransferOutput`.
    pub const NFT_TRANSFER_OUTPUT: u32 = 11;
    /// `nftfx.MintOperation`.
    pub const NFT_MINT_OPERATION: u32 = 12;
    /// `nftfx.TransferOperation`.
    pub const NFT_TRANSFER_OPERATION: u32 = 13;
    /// `nftfx.Credential`.
    pub const NFT_CREDENTIAL: u32 = 14;
    /// `propertyfx.MintOutput`.
    pub const PROPERTY_MINT_OUTPUT: u32 = 15;
    /// `propertyfx.OwnedOutput`.
    pub const PROPERTY_OWNED_OUTPUT: u32 = 16;
    /// `propertyfx.MintOperation`.
    pub const PROPERTY_MINT_OPERATION: u32 = 17;
    /// `propertyfx.BurnOperation`.
    pub const PROPERTY_BURN_OPERATION: u32 = 18;
    /// `propertyfx.Credential`.
    pub const PROPERTY_CREDENTIAL: u32 = 19;
    /// `block.StandardBlock` (post-Cortina).
    pub const STANDARD_BLOCK: u32 = 20;
}

/// Declares an X-Chain interface enum (`crate::codec::typed_enum!` with the X-Chain's type ids)
/// whose variants are fx values: each also names its fx, verifies, and writes its JSON.
macro_rules! fx_enum {
    (
        $(#[$m:meta])* $name:ident, $what:literal,
        { $( $(#[$vm:meta])* $var:ident($ty:ty) = $id:path, $fx:expr; )+ }
    ) => {
        crate::codec::typed_enum! {
            $(#[$m])* $name, $what, { $( $(#[$vm])* $var($ty) = $id; )+ }
        }

        impl FxValue for $name {
            fn fx_id(&self) -> Id {
                match self { $( Self::$var(_) => $fx, )+ }
            }
            fn verify(&self) -> Result<(), FxError> {
                match self { $( Self::$var(v) => v.verify(), )+ }
            }
        }

        impl WriteJson for $name {
            fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
                match self { $( Self::$var(v) => v.write_json(w, ctx), )+ }
            }
        }
    };
}

fx_enum!(
    /// Any UTXO output (`verify.State`): what UTXOs and `CreateAssetTx` initial states hold.
    Output, "output", {
        /// secp256k1fx mint right (6).
        Secp256k1Mint(secp256k1fx::MintOutput) = type_id::SECP256K1_MINT_OUTPUT, SECP256K1FX_ID;
        /// secp256k1fx amount (7).
        Secp256k1Transfer(secp256k1fx::TransferOutput) = type_id::SECP256K1_TRANSFER_OUTPUT, SECP256K1FX_ID;
        /// nftfx mint right (10).
        NftMint(nftfx::MintOutput) = type_id::NFT_MINT_OUTPUT, NFTFX_ID;
        /// nftfx NFT (11).
        NftTransfer(nftfx::TransferOutput) = type_id::NFT_TRANSFER_OUTPUT, NFTFX_ID;
        /// propertyfx mint right (15).
        PropertyMint(propertyfx::MintOutput) = type_id::PROPERTY_MINT_OUTPUT, PROPERTYFX_ID;
        /// propertyfx property (16).
        PropertyOwned(propertyfx::OwnedOutput) = type_id::PROPERTY_OWNED_OUTPUT, PROPERTYFX_ID;
    }
);

fx_enum!(
    /// A tx output (`avax.TransferableOut`, which needs `Amount()`): only secp256k1fx
    /// `TransferOutput` qualifies on the X-Chain.
    TransferableOut, "transferable output", {
        /// secp256k1fx amount (7).
        Secp256k1(secp256k1fx::TransferOutput) = type_id::SECP256K1_TRANSFER_OUTPUT, SECP256K1FX_ID;
    }
);

fx_enum!(
    /// A tx input (`avax.TransferableIn`): only secp256k1fx `TransferInput`.
    TransferableIn, "transferable input", {
        /// secp256k1fx spend (5).
        Secp256k1(secp256k1fx::TransferInput) = type_id::SECP256K1_TRANSFER_INPUT, SECP256K1FX_ID;
    }
);

fx_enum!(
    /// An operation of an `OperationTx` (`fxs.FxOperation`).
    FxOperation, "operation", {
        /// secp256k1fx mint (8).
        Secp256k1Mint(secp256k1fx::MintOperation) = type_id::SECP256K1_MINT_OPERATION, SECP256K1FX_ID;
        /// nftfx mint (12).
        NftMint(nftfx::MintOperation) = type_id::NFT_MINT_OPERATION, NFTFX_ID;
        /// nftfx transfer (13).
        NftTransfer(nftfx::TransferOperation) = type_id::NFT_TRANSFER_OPERATION, NFTFX_ID;
        /// propertyfx mint (17).
        PropertyMint(propertyfx::MintOperation) = type_id::PROPERTY_MINT_OPERATION, PROPERTYFX_ID;
        /// propertyfx burn (18).
        PropertyBurn(propertyfx::BurnOperation) = type_id::PROPERTY_BURN_OPERATION, PROPERTYFX_ID;
    }
);

fx_enum!(
    /// A credential. avalanchego's codec would accept any registered type with a `Verify()` here,
    /// but only the three credential types can pass verification, so only they are decoded.
    Credential, "credential", {
        /// secp256k1fx signatures (9).
        Secp256k1(secp256k1fx::Credential) = type_id::SECP256K1_CREDENTIAL, SECP256K1FX_ID;
        /// nftfx signatures (14).
        Nft(nftfx::Credential) = type_id::NFT_CREDENTIAL, NFTFX_ID;
        /// propertyfx signatures (19).
        Property(propertyfx::Credential) = type_id::PROPERTY_CREDENTIAL, PROPERTYFX_ID;
    }
);

impl Credential {
    /// The signatures, whichever fx the credential belongs to.
    pub fn signatures(&self) -> &[secp256k1fx::Signature] {
        match self {
            Self::Secp256k1(c) | Self::Nft(c) | Self::Property(c) => &c.sigs,
        }
    }

    /// `{"fxID": …, "credential": {"signatures": […]}}` (`fxs.FxCredential`).
    pub fn write_fx_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("fxID");
        w.id(&self.fx_id());
        w.key("credential");
        self.write_json(w, ctx);
        w.end_object();
    }
}

impl TransferableOut {
    /// The amount carried.
    pub fn amount(&self) -> u64 {
        match self {
            Self::Secp256k1(o) => o.amount,
        }
    }
}

impl TransferableIn {
    /// The amount consumed.
    pub fn amount(&self) -> u64 {
        match self {
            Self::Secp256k1(i) => i.amount,
        }
    }
}
