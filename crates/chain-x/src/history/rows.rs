//! The values of the history tables: a UTXO with its creation and consumption, a tx's place, a
//! vertex, a linear block, an asset, a balance sum. Each has a compact fixed layout
//! (`history::codec`); UTXOs keep the chain's own bytes.

pub use snowline_derive::AssetTotal;
use snowline_store::DecodeError;
use snowline_store::value::ValueCodec;
use snowline_types::Id;
use snowline_types::avm::{Output, Utxo};
use snowline_types::codec::CodecError;
use snowline_types::container::TxPlace;
use snowline_types::fx::secp256k1fx::OutputOwners;

use super::codec::{In, Out};

/// Where a UTXO lives relative to the X-Chain, which decides the balance it counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Holding {
    /// Created and consumed on the X-Chain (`unlocked` / `locked`).
    Native,
    /// Exported by an X-Chain `ExportTx` into the destination chain's atomic memory
    /// (`consumedOnChainId` = the destination); counts in `atomicMemory*` until imported there.
    ExportedFromX,
    /// Exported to the X-Chain by another chain (`createdOnChainId` = the source), waiting in
    /// X's atomic memory until an X-Chain `ImportTx` consumes it.
    ExportedToX,
}

impl Holding {
    /// The stable one-byte code used in keys and rows (never renumber: it is on disk).
    pub const fn code(self) -> u8 {
        match self {
            Holding::Native => 0,
            Holding::ExportedFromX => 1,
            Holding::ExportedToX => 2,
        }
    }

    /// The holding of a code, if it is one.
    pub fn from_code(code: u8) -> Option<Self> {
        [
            Holding::Native,
            Holding::ExportedFromX,
            Holding::ExportedToX,
        ]
        .into_iter()
        .find(|h| h.code() == code)
    }
}

/// When and by what a UTXO was created or consumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// The creating or consuming tx.
    pub tx_id: Id,
    /// Height of the vertex or block that accepted the tx (`None` for genesis UTXOs, and for a
    /// DAG tx seen in `X/tx` before its vertex).
    pub height: Option<u64>,
    /// Acceptance time of the container, Unix seconds.
    pub timestamp: u64,
}

/// One UTXO as the Data API shows it: the node's bytes plus its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoRecord {
    /// Native, exported from X, or exported to X.
    pub holding: Holding,
    /// The amount it counts for: secp256k1fx transfer amount, 1 for an NFT, 0 for mint rights
    /// and property outputs (see [`output_amount`]).
    pub amount: u64,
    /// `createdOnChainId`: X, or the source chain of an atomic UTXO exported to X.
    pub created_on: Id,
    /// `consumedOnChainId`: X, or the destination chain of an X-Chain export.
    pub consumed_on: Id,
    /// The creating tx, its height and time.
    pub created: Event,
    /// The consuming tx, once spent (an X-Chain export stays unconsumed until P/C are indexed).
    pub consumed: Option<Event>,
    /// The UTXO as `avm.getUTXOs` serves it (codec version 0 ‖ utxo).
    pub bytes: Vec<u8>,
}

impl UtxoRecord {
    /// Parses the stored UTXO bytes.
    pub fn utxo(&self) -> Result<Utxo, CodecError> {
        Utxo::parse(&self.bytes)
    }

    /// The chain whose atomic memory holds it (`sharedWithChainId`), for atomic UTXOs.
    pub fn shared_with(&self) -> Option<Id> {
        match self.holding {
            Holding::Native => None,
            Holding::ExportedFromX => Some(self.consumed_on),
            Holding::ExportedToX => Some(self.created_on),
        }
    }
}

const F_CREATED_HEIGHT: u8 = 1;
const F_CONSUMED: u8 = 2;
const F_CONSUMED_HEIGHT: u8 = 4;
/// `consumed_on` equals `created_on` (every native UTXO) and is not repeated.
const F_SAME_CHAINS: u8 = 8;
/// The creating tx is the one in the UTXO bytes (always, in practice) and is not repeated.
const F_CREATED_TX_IN_UTXO: u8 = 16;
/// Flags a row may carry; any other bit is corruption.
const F_KNOWN: u8 =
    F_CREATED_HEIGHT | F_CONSUMED | F_CONSUMED_HEIGHT | F_SAME_CHAINS | F_CREATED_TX_IN_UTXO;

/// Where the UTXO's tx id sits in its bytes: after the `u16` codec version.
const UTXO_TX_ID: std::ops::Range<usize> = 2..34;

impl ValueCodec for UtxoRecord {
    /// `u8 flags ‖ u8 holding ‖ u64 amount ‖ created_on ‖ [consumed_on] ‖ [created tx] ‖ u64
    /// created height ‖ u64 created ts ‖ [consumed (tx, u64 height, u64 ts)] ‖ utxo bytes`.
    /// `consumed_on` is left out when it equals `created_on`, and the creating tx when it is the
    /// tx id inside the UTXO bytes: 64 of a native UTXO's ≈ 290 bytes, on the largest table.
    fn encode_value(&self, out: &mut Vec<u8>) {
        let mut flags = 0;
        if self.created.height.is_some() {
            flags |= F_CREATED_HEIGHT;
        }
        if let Some(c) = &self.consumed {
            flags |= F_CONSUMED;
            if c.height.is_some() {
                flags |= F_CONSUMED_HEIGHT;
            }
        }
        let same_chains = self.consumed_on == self.created_on;
        if same_chains {
            flags |= F_SAME_CHAINS;
        }
        let tx_in_utxo = self.bytes.get(UTXO_TX_ID) == Some(&self.created.tx_id.0[..]);
        if tx_in_utxo {
            flags |= F_CREATED_TX_IN_UTXO;
        }
        out.reserve(1 + 1 + 8 + 64 + 48 + 48 + self.bytes.len());
        let mut o = Out(out);
        o.u8(flags)
            .u8(self.holding.code())
            .u64(self.amount)
            .id(&self.created_on);
        if !same_chains {
            o.id(&self.consumed_on);
        }
        if !tx_in_utxo {
            o.id(&self.created.tx_id);
        }
        o.u64(self.created.height.unwrap_or(0))
            .u64(self.created.timestamp);
        if let Some(c) = &self.consumed {
            o.id(&c.tx_id).u64(c.height.unwrap_or(0)).u64(c.timestamp);
        }
        o.0.extend_from_slice(&self.bytes);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let flags = i.u8()?;
        if flags & !F_KNOWN != 0 {
            return Err(DecodeError::Other(format!(
                "unknown UTXO row flags {flags:#04x}"
            )));
        }
        let code = i.u8()?;
        let holding = Holding::from_code(code)
            .ok_or_else(|| DecodeError::Other(format!("unknown UTXO holding code {code}")))?;
        let amount = i.u64()?;
        let created_on = i.id()?;
        let consumed_on = if flags & F_SAME_CHAINS != 0 {
            created_on
        } else {
            i.id()?
        };
        let created_tx = if flags & F_CREATED_TX_IN_UTXO == 0 {
            Some(i.id()?)
        } else {
            None
        };
        let created_height = i.u64()?;
        let created_ts = i.u64()?;
        let consumed = if flags & F_CONSUMED != 0 {
            let tx_id = i.id()?;
            let height = i.u64()?;
            let timestamp = i.u64()?;
            Some(Event {
                tx_id,
                height: (flags & F_CONSUMED_HEIGHT != 0).then_some(height),
                timestamp,
            })
        } else {
            None
        };
        let bytes = i.rest();
        let tx_id = match created_tx {
            Some(id) => id,
            None => In(bytes.get(UTXO_TX_ID.start..).unwrap_or_default()).id()?,
        };
        let created = Event {
            tx_id,
            height: (flags & F_CREATED_HEIGHT != 0).then_some(created_height),
            timestamp: created_ts,
        };
        Ok(Self {
            holding,
            amount,
            created_on,
            consumed_on,
            created,
            consumed,
            bytes: bytes.to_vec(),
        })
    }
}

/// Where an accepted tx sits: when, and at which vertex or block height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxRow {
    /// Acceptance time of the container that brought it, Unix seconds.
    pub timestamp: u64,
    /// Vertex or block height (`None` for genesis txs and a DAG tx not yet seen in a vertex).
    pub height: Option<u64>,
    /// A linear block's tx: where its bytes lie in the `X/block` container at `height`, so it
    /// is read without parsing its block (`None` for the DAG's and genesis txs).
    pub place: Option<TxPlace>,
}

impl ValueCodec for TxRow {
    /// `u64 ts ‖ u8 has height ‖ u64 height ‖ u8 has place ‖ u32 offset ‖ u32 len`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .u64(self.timestamp)
            .u8(u8::from(self.height.is_some()))
            .u64(self.height.unwrap_or(0))
            .place(self.place);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let timestamp = i.u64()?;
        let has = i.u8()?;
        let height = i.u64()?;
        let place = i.place()?;
        i.end()?;
        Ok(Self {
            timestamp,
            height: (has != 0).then_some(height),
            place,
        })
    }
}

/// A C-Chain atomic tx (`xh_c_txs`): its `C/block` container and the block's number, hash and
/// time, and where the tx's bytes lie in the container, so the tx is read without its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CTxRow {
    /// The `C/block` container id.
    pub container: Id,
    /// The block's number.
    pub number: u64,
    /// The block's hash (keccak-256 of its header).
    pub hash: [u8; 32],
    /// The block's time, Unix seconds.
    pub timestamp: u64,
    /// The tx's bytes in the container, without the codec version.
    pub place: Option<TxPlace>,
}

impl ValueCodec for CTxRow {
    /// `container ‖ u64 number ‖ hash ‖ u64 time ‖ place`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .id(&self.container)
            .u64(self.number)
            .id(&Id(self.hash))
            .u64(self.timestamp)
            .place(self.place);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let row = Self {
            container: i.id()?,
            number: i.u64()?,
            hash: i.hash()?,
            timestamp: i.u64()?,
            place: i.place()?,
        };
        i.end()?;
        Ok(row)
    }
}

/// A consumption remembered before its UTXO exists (`xh_early_spends`).
impl ValueCodec for Event {
    /// `tx ‖ u64 ts ‖ u8 has height ‖ u64 height`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .id(&self.tx_id)
            .u64(self.timestamp)
            .u8(u8::from(self.height.is_some()))
            .u64(self.height.unwrap_or(0));
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let tx_id = i.id()?;
        let timestamp = i.u64()?;
        let has = i.u8()?;
        let height = i.u64()?;
        i.end()?;
        Ok(Self {
            tx_id,
            height: (has != 0).then_some(height),
            timestamp,
        })
    }
}

/// A DAG vertex as `vertices:listByHeight` shows it (height and index are its key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexRow {
    /// `vertexHash`.
    pub id: Id,
    /// `parentHashes`.
    pub parent_ids: Vec<Id>,
    /// `vertexTimestamp`: acceptance time, Unix seconds.
    pub timestamp: u64,
    /// `transactions` (`txCount` is their number).
    pub tx_ids: Vec<Id>,
    /// `vertexSizeBytes`: the container's byte length.
    pub size: u32,
}

impl ValueCodec for VertexRow {
    /// `id ‖ u64 ts ‖ u32 size ‖ parents (u32 n, ids) ‖ txs (u32 n, ids)`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .id(&self.id)
            .u64(self.timestamp)
            .u32(self.size)
            .ids(&self.parent_ids)
            .ids(&self.tx_ids);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let row = Self {
            id: i.id()?,
            timestamp: i.u64()?,
            size: i.u32()?,
            parent_ids: i.ids()?,
            tx_ids: i.ids()?,
        };
        i.end()?;
        Ok(row)
    }
}

/// A linear-chain block (post-Cortina), by height.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRow {
    /// The inner avm block id (what `avm.getBlock` takes).
    pub id: Id,
    /// The proposervm block id (the `X/block` container id); the inner id for the linear
    /// genesis block, which is never wrapped.
    pub container_id: Id,
    /// The inner parent block id.
    pub parent_id: Id,
    /// The block's own `time` field, Unix seconds.
    pub block_time: u64,
    /// Acceptance time of the container, Unix seconds (the block time for the genesis block).
    pub timestamp: u64,
    /// The txs in order.
    pub tx_ids: Vec<Id>,
    /// The container's byte length.
    pub size: u32,
}

impl ValueCodec for BlockRow {
    /// `id ‖ container id ‖ parent ‖ u64 block time ‖ u64 ts ‖ u32 size ‖ txs (u32 n, ids)`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .id(&self.id)
            .id(&self.container_id)
            .id(&self.parent_id)
            .u64(self.block_time)
            .u64(self.timestamp)
            .u32(self.size)
            .ids(&self.tx_ids);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let row = Self {
            id: i.id()?,
            container_id: i.id()?,
            parent_id: i.id()?,
            block_time: i.u64()?,
            timestamp: i.u64()?,
            size: i.u32()?,
            tx_ids: i.ids()?,
        };
        i.end()?;
        Ok(row)
    }
}

/// `PrimaryNetworkAssetType`: what the Data API calls an asset's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssetType {
    /// Fungible: no nftfx output among the `CreateAssetTx` initial states (`secp256k1`).
    Secp256k1,
    /// An nftfx output among the initial states (`nft`).
    Nft,
}

impl AssetType {
    /// The Data API spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            AssetType::Secp256k1 => "secp256k1",
            AssetType::Nft => "nft",
        }
    }
}

/// `PrimaryNetworkAssetCap`: whether more can be minted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssetCap {
    /// No mint output among the initial states (`fixed`).
    Fixed,
    /// At least one mint output among the initial states (`variable`).
    Variable,
}

impl AssetCap {
    /// The Data API spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            AssetCap::Fixed => "fixed",
            AssetCap::Variable => "variable",
        }
    }
}

/// An asset a `CreateAssetTx` created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetInfo {
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// Decimal places.
    pub denomination: u8,
    /// `secp256k1` or `nft`.
    pub asset_type: AssetType,
    /// `fixed` or `variable`.
    pub cap: AssetCap,
    /// Acceptance time of the `CreateAssetTx`, Unix seconds (`createdAtTimestamp`).
    pub created_at: u64,
}

impl ValueCodec for AssetInfo {
    /// `u8 denom ‖ u8 type ‖ u8 cap ‖ u64 created ‖ name (u32 len) ‖ symbol (u32 len)`.
    fn encode_value(&self, out: &mut Vec<u8>) {
        Out(out)
            .u8(self.denomination)
            .u8(match self.asset_type {
                AssetType::Secp256k1 => 0,
                AssetType::Nft => 1,
            })
            .u8(match self.cap {
                AssetCap::Fixed => 0,
                AssetCap::Variable => 1,
            })
            .u64(self.created_at)
            .bytes(self.name.as_bytes())
            .bytes(self.symbol.as_bytes());
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut i = In(bytes);
        let denomination = i.u8()?;
        let asset_type = match i.u8()? {
            0 => AssetType::Secp256k1,
            1 => AssetType::Nft,
            b => return Err(DecodeError::Other(format!("unknown asset type code {b}"))),
        };
        let cap = match i.u8()? {
            0 => AssetCap::Fixed,
            1 => AssetCap::Variable,
            b => return Err(DecodeError::Other(format!("unknown asset cap code {b}"))),
        };
        let created_at = i.u64()?;
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| DecodeError::InvalidUtf8);
        let name = text(i.bytes()?)?;
        let symbol = text(i.bytes()?)?;
        i.end()?;
        Ok(Self {
            name,
            symbol,
            denomination,
            asset_type,
            cap,
            created_at,
        })
    }
}

/// The owners of any X-Chain output (every fx output has `OutputOwners`).
pub fn output_owners(output: &Output) -> &OutputOwners {
    match output {
        Output::Secp256k1Mint(o) => &o.owners,
        Output::Secp256k1Transfer(o) => &o.owners,
        Output::NftMint(o) => &o.owners,
        Output::NftTransfer(o) => &o.owners,
        Output::PropertyMint(o) => &o.owners,
        Output::PropertyOwned(o) => &o.owners,
    }
}

/// Whether `output` is locked at `time` (Unix seconds): its locktime is after it.
pub fn locked_at(output: &Output, time: u64) -> bool {
    output_owners(output).locktime > time
}

/// What an output counts for in the amount order and in balances: the secp256k1fx transfer
/// amount, 1 for an NFT; `None` for mint rights and propertyfx outputs, which hold no amount and
/// are left out of balances (they still appear in UTXO lists, with amount 0).
pub fn output_amount(output: &Output) -> Option<u64> {
    match output {
        Output::Secp256k1Transfer(o) => Some(o.amount),
        Output::NftTransfer(_) => Some(1),
        Output::Secp256k1Mint(_)
        | Output::NftMint(_)
        | Output::PropertyMint(_)
        | Output::PropertyOwned(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use snowline_store::encode_value;

    fn id(b: u8) -> Id {
        Id([b; 32])
    }

    fn event() -> impl Strategy<Value = Event> {
        (
            any::<u8>(),
            proptest::option::of(any::<u64>()),
            any::<u64>(),
        )
            .prop_map(|(t, h, ts)| Event {
                tx_id: id(t),
                height: h,
                timestamp: ts,
            })
    }

    #[test]
    fn native_utxo_row_does_not_repeat_its_chain_or_tx() {
        let tx = id(7);
        let mut bytes = vec![0, 0];
        bytes.extend_from_slice(&tx.0);
        bytes.extend_from_slice(&[0, 0, 0, 1]);
        let created = Event {
            tx_id: tx,
            height: Some(3),
            timestamp: 9,
        };
        let r = UtxoRecord {
            holding: Holding::Native,
            amount: 5,
            created_on: id(1),
            consumed_on: id(1),
            created,
            consumed: None,
            bytes: bytes.clone(),
        };
        let enc = encode_value(&r);
        // flags, holding, amount, one chain id, height, time, then the UTXO bytes.
        assert_eq!(enc.len(), 1 + 1 + 8 + 32 + 8 + 8 + bytes.len());
        assert_eq!(UtxoRecord::decode_value(&enc), Ok(r.clone()));
        // An export (two chains) whose bytes name another tx keeps both in full.
        let other = UtxoRecord {
            consumed_on: id(2),
            created: Event {
                tx_id: id(8),
                ..created
            },
            ..r
        };
        let enc = encode_value(&other);
        assert_eq!(enc.len(), 1 + 1 + 8 + 64 + 32 + 8 + 8 + bytes.len());
        assert_eq!(UtxoRecord::decode_value(&enc), Ok(other));
    }

    proptest! {
        #[test]
        fn utxo_record_round_trips(
            holding in 0u8..3, amount in any::<u64>(), a in any::<u8>(), b in any::<u8>(),
            same_chains in any::<bool>(), tx_in_utxo in any::<bool>(),
            created in event(), consumed in proptest::option::of(event()),
            mut bytes in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            // The elided forms (`consumed_on` = `created_on`, the creating tx inside the UTXO
            // bytes) and the full ones all come back as they were.
            if tx_in_utxo && bytes.len() >= 34 {
                bytes[2..34].copy_from_slice(&created.tx_id.0);
            }
            let consumed_on = if same_chains { id(a) } else { id(b) };
            let r = UtxoRecord {
                holding: Holding::from_code(holding).unwrap(),
                amount, created_on: id(a), consumed_on, created, consumed, bytes,
            };
            let enc = encode_value(&r);
            prop_assert_eq!(UtxoRecord::decode_value(&enc), Ok(r.clone()));
            // Every cut before the UTXO bytes fails instead of decoding garbage, and so does a
            // cut of the bytes that holds the creating tx.
            let head = enc.len() - r.bytes.len();
            let elided_tx = enc[0] & F_CREATED_TX_IN_UTXO != 0;
            for cut in 0..head {
                prop_assert!(UtxoRecord::decode_value(&enc[..cut]).is_err());
            }
            if elided_tx {
                for cut in head..head + 34 {
                    prop_assert!(UtxoRecord::decode_value(&enc[..cut]).is_err());
                }
            }
        }

        #[test]
        fn utxo_record_flags_are_checked(flags in any::<u8>(), rest in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut enc = vec![flags];
            enc.extend_from_slice(&rest);
            if flags & !F_KNOWN != 0 {
                prop_assert!(UtxoRecord::decode_value(&enc).is_err());
            } else if let Ok(r) = UtxoRecord::decode_value(&enc) {
                // Whatever decodes encodes back to a row that decodes the same.
                prop_assert_eq!(UtxoRecord::decode_value(&encode_value(&r)), Ok(r));
            }
        }

        #[test]
        fn vertex_and_block_rows_round_trip(
            parents in proptest::collection::vec(any::<u8>(), 0..5),
            txs in proptest::collection::vec(any::<u8>(), 0..5),
            ts in any::<u64>(), size in any::<u32>(),
        ) {
            let v = VertexRow {
                id: id(1), parent_ids: parents.iter().map(|b| id(*b)).collect(), timestamp: ts,
                tx_ids: txs.iter().map(|b| id(*b)).collect(), size,
            };
            let enc = encode_value(&v);
            prop_assert_eq!(VertexRow::decode_value(&enc), Ok(v.clone()));
            prop_assert!(VertexRow::decode_value(&enc[..enc.len() - 1]).is_err());
            let b = BlockRow {
                id: id(2), container_id: id(3), parent_id: id(4), block_time: ts / 2,
                timestamp: ts, tx_ids: v.tx_ids.clone(), size,
            };
            let enc = encode_value(&b);
            prop_assert_eq!(BlockRow::decode_value(&enc), Ok(b));
            prop_assert!(BlockRow::decode_value(&enc[..enc.len() - 1]).is_err());
        }

        #[test]
        fn small_rows_round_trip(ts in any::<u64>(), h in proptest::option::of(any::<u64>()),
                                 amount in any::<u128>(), n in any::<u64>(),
                                 name in ".{0,12}", symbol in ".{0,5}",
                                 place in proptest::option::of((any::<u32>(), any::<u32>()))) {
            let place = place.map(|(offset, len)| TxPlace { offset, len });
            let t = TxRow { timestamp: ts, height: h, place };
            prop_assert_eq!(TxRow::decode_value(&encode_value(&t)), Ok(t));
            let c = CTxRow {
                container: id(5), number: n, hash: [7; 32], timestamp: ts, place,
            };
            let enc = encode_value(&c);
            prop_assert_eq!(CTxRow::decode_value(&enc), Ok(c));
            prop_assert!(CTxRow::decode_value(&enc[..enc.len() - 1]).is_err());
            let s = AssetTotal { amount, utxo_count: n };
            prop_assert_eq!(AssetTotal::decode_value(&encode_value(&s)), Ok(s));
            let a = AssetInfo {
                name, symbol, denomination: 9, asset_type: AssetType::Nft,
                cap: AssetCap::Variable, created_at: ts,
            };
            let enc = encode_value(&a);
            prop_assert_eq!(AssetInfo::decode_value(&enc), Ok(a));
            prop_assert!(AssetInfo::decode_value(&enc[..enc.len() - 1]).is_err());
        }
    }

    #[test]
    fn unknown_codes_are_rejected() {
        assert_eq!(Holding::from_code(3), None);
        let a = AssetInfo {
            name: "n".into(),
            symbol: "s".into(),
            denomination: 0,
            asset_type: AssetType::Secp256k1,
            cap: AssetCap::Fixed,
            created_at: 0,
        };
        let mut enc = encode_value(&a);
        enc[1] = 7;
        assert!(AssetInfo::decode_value(&enc).is_err());
    }

    #[test]
    fn totals_add_and_remove() {
        let mut t = AssetTotal::default();
        t.add(u64::MAX);
        t.add(u64::MAX);
        assert_eq!(t.amount, 2 * u128::from(u64::MAX));
        t.sub(u64::MAX);
        assert_eq!(
            t,
            AssetTotal {
                amount: u128::from(u64::MAX),
                utxo_count: 1
            }
        );
    }
}
