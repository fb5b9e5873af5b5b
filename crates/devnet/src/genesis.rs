//! The local network's X-Chain genesis, built as avalanchego builds it (`genesis/genesis.go`
//! `FromConfig`, `vms/avm/genesis.go` `NewGenesis`, `genesis/genesis_local.json`), so the AVAX
//! asset id is the real local one, `2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe`.
//!
//! The AVAX `CreateAssetTx`: network 12345, blockchain id empty, no inputs or outputs, memo = the
//! `ethAddr` bytes of each allocation with `initialAmount > 0` (sorted by amount, then address),
//! name `Avalanche`, symbol `AVAX`, denomination 9, one secp256k1fx initial state holding one
//! 1-of-1 `TransferOutput` per such allocation, sorted by bytes. Its id (with no credentials,
//! genesis codec) is the asset id; its initial outputs are UTXOs `(assetID, i)`.

use snowline_types::address::parse_address;
use snowline_types::avm::{
    BaseTx, CreateAssetTx, InitialState, Output, ParsedTx, Tx, UnsignedTx, Utxo,
};
use snowline_types::codec::{Writer, encode_to_vec};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
use snowline_types::network::{LOCAL_ID, NetworkInfo};
use snowline_types::{Id, ShortId};

use crate::error::DevnetError;

/// The `ethAddr` of every local allocation (`genesis_local.json`).
const LOCAL_ETH_ADDR: [u8; 20] = [
    0xb3, 0xd8, 0x2b, 0x13, 0x67, 0xd3, 0x62, 0xde, 0x99, 0xab, 0x59, 0xa6, 0x58, 0x16, 0x5a, 0xff,
    0x52, 0x0c, 0xbd, 0x4d,
];

/// The local allocations with an X-Chain `initialAmount` (`genesis_local.json`).
const LOCAL_X_ALLOCATIONS: [(&str, u64); 2] = [
    (
        "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
        300_000_000_000_000_000,
    ),
    (
        "X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu",
        10_000_000_000_000_000,
    ),
];

/// The X-Chain genesis state: the AVAX asset and its initial UTXOs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XGenesis {
    /// The network (local: id 12345, X-Chain `2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed`).
    pub network: NetworkInfo,
    /// The AVAX `CreateAssetTx`, with no credentials.
    pub avax_tx: ParsedTx,
    /// Its id, the AVAX asset id.
    pub avax_asset_id: Id,
    /// The UTXOs it creates, by output index.
    pub utxos: Vec<Utxo>,
}

impl XGenesis {
    /// The genesis of avalanchego's default local network.
    pub fn local() -> Result<Self, DevnetError> {
        let mut allocs: Vec<(u64, ShortId)> = Vec::with_capacity(LOCAL_X_ALLOCATIONS.len());
        for (addr, amount) in LOCAL_X_ALLOCATIONS {
            allocs.push((amount, parse_address(addr)?.short_id));
        }
        // `utils.Sort(xAllocations)`: by initial amount, then by address.
        allocs.sort();
        let memo: Vec<u8> = allocs.iter().flat_map(|_| LOCAL_ETH_ADDR).collect();
        let mut outs: Vec<Output> = allocs
            .iter()
            .map(|(amount, addr)| {
                Output::Secp256k1Transfer(TransferOutput {
                    amount: *amount,
                    owners: OutputOwners::new(1, vec![*addr]),
                })
            })
            .collect();
        // `InitialState.Sort`: by the codec bytes of each output.
        outs.sort_by_cached_key(encode_to_vec);
        let unsigned = UnsignedTx::CreateAsset(CreateAssetTx {
            base: BaseTx {
                network_id: LOCAL_ID,
                blockchain_id: Id::EMPTY,
                outputs: Vec::new(),
                inputs: Vec::new(),
                memo,
            },
            name: "Avalanche".into(),
            symbol: "AVAX".into(),
            denomination: 9,
            states: vec![InitialState {
                fx_index: 0,
                outputs: outs.clone(),
            }],
        });
        let avax_tx = ParsedTx::from_tx(Tx::new(unsigned, Vec::new()));
        let avax_asset_id = avax_tx.id;
        let utxos = outs
            .into_iter()
            .enumerate()
            .map(|(i, output)| Utxo {
                utxo_id: UtxoId::new(avax_asset_id, u32::try_from(i).unwrap_or(u32::MAX)),
                asset_id: avax_asset_id,
                output,
            })
            .collect();
        Ok(Self {
            network: NetworkInfo::LOCAL,
            avax_tx,
            avax_asset_id,
            utxos,
        })
    }

    /// The avm genesis bytes (`avm.Genesis`, genesis codec): `u16 0 | u32 1 | u16+"AVAX" |
    /// CreateAssetTx body`, what `avm.buildGenesis` returns for this asset.
    pub fn avm_genesis_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.u16(0);
        w.u32(1);
        w.str("AVAX");
        if let UnsignedTx::CreateAsset(t) = &self.avax_tx.tx.unsigned {
            w.raw(&encode_to_vec(t));
        }
        w.into_bytes()
    }
}
