//! UTXOs standing in for the source chains' ExportTxs: the P- and C-Chain outputs already in the
//! X-Chain's shared memory when the devnet starts, which its ImportTxs spend.

use snowline_types::avm::{Output, Utxo};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
use snowline_types::hashing::sha256;
use snowline_types::network::NetworkInfo;
use snowline_types::{Id, ShortId};

use crate::rng::DetRng;

/// A UTXO exported to the X-Chain by another chain, waiting in shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomicUtxo {
    /// The chain that exported it (the P-Chain or the C-Chain).
    pub source_chain: Id,
    /// The UTXO as the source chain's ExportTx created it.
    pub utxo: Utxo,
}

/// `count` atomic UTXOs, alternating P- and C-Chain sources, AVAX only, each owned 1-of-1 by one
/// of `owners`. The exporting tx ids are synthetic:
/// `sha256("snowline/devnet/atomic/v1" ‖ u64_be(seed) ‖ u32_be(i))`.
pub fn generate(
    seed: u64,
    count: u32,
    net: &NetworkInfo,
    avax: Id,
    owners: &[ShortId],
) -> Vec<AtomicUtxo> {
    let mut rng = DetRng::new(seed, 0x6174_6f6d);
    (0..count)
        .map(|i| {
            let mut pre = b"snowline/devnet/atomic/v1".to_vec();
            pre.extend_from_slice(&seed.to_be_bytes());
            pre.extend_from_slice(&i.to_be_bytes());
            let tx_id = Id(sha256(&pre));
            let owner = owners
                .get(rng.index(owners.len()))
                .copied()
                .unwrap_or_default();
            let source_chain = if i % 2 == 0 {
                net.p_chain_id
            } else {
                net.c_chain_id
            };
            AtomicUtxo {
                source_chain,
                utxo: Utxo {
                    utxo_id: UtxoId::new(tx_id, i % 3),
                    asset_id: avax,
                    output: Output::Secp256k1Transfer(TransferOutput {
                        amount: rng.range(1_000_000_000, 5_000_000_000_000),
                        owners: OutputOwners::new(1, vec![owner]),
                    }),
                },
            }
        })
        .collect()
}
