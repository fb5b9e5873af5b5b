//! The spendable UTXOs the generator tracks while it builds txs. Outputs created inside a
//! container only become spendable in the next one, so txs never depend on a sibling in the same
//! vertex or block.

use snowline_types::Id;
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::OutputOwners;

use crate::keys::KeyRing;
use crate::rng::DetRng;

/// Who owns an output, as key indices in address order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owners {
    /// Key indices, ordered by their addresses.
    pub keys: Vec<u32>,
    /// Signatures needed.
    pub threshold: u32,
    /// Unix seconds before which it is locked.
    pub locktime: u64,
}

impl Owners {
    /// 1-of-1 by key `k`.
    pub fn single(k: u32) -> Self {
        Self {
            keys: vec![k],
            threshold: 1,
            locktime: 0,
        }
    }

    /// `threshold`-of-`keys`, sorted by address.
    pub fn multi(ring: &KeyRing, mut keys: Vec<u32>, threshold: u32, locktime: u64) -> Self {
        keys.sort_by_key(|k| ring.addr(*k));
        keys.dedup();
        Self {
            keys,
            threshold,
            locktime,
        }
    }

    /// The wire form.
    pub fn to_output_owners(&self, ring: &KeyRing) -> OutputOwners {
        OutputOwners {
            locktime: self.locktime,
            threshold: self.threshold,
            addrs: self.keys.iter().map(|k| ring.addr(*k)).collect(),
        }
    }

    /// Reads owners back from the wire; `None` if an address is not one of ours.
    pub fn from_output_owners(ring: &KeyRing, o: &OutputOwners) -> Option<Self> {
        let keys = o
            .addrs
            .iter()
            .map(|a| ring.index_of(a))
            .collect::<Option<Vec<u32>>>()?;
        Some(Self {
            keys,
            threshold: o.threshold,
            locktime: o.locktime,
        })
    }

    /// The signature indices and signing keys of a spend: the first `threshold` owners.
    pub fn signers(&self) -> (Vec<u32>, Vec<u32>) {
        let t = self.threshold as usize;
        let idx = (0..self.threshold).collect();
        let keys = self.keys.iter().take(t).copied().collect();
        (idx, keys)
    }
}

/// A fungible secp256k1fx output (AVAX or another asset).
#[derive(Debug, Clone)]
pub(crate) struct Coin {
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub amount: u64,
    pub owners: Owners,
}

/// A secp256k1fx mint right.
#[derive(Debug, Clone)]
pub(crate) struct MintRight {
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub owners: Owners,
}

/// An nftfx mint right for one group.
#[derive(Debug, Clone)]
pub(crate) struct NftMintRight {
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub group_id: u32,
    pub owners: Owners,
}

/// One NFT.
#[derive(Debug, Clone)]
pub(crate) struct Nft {
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub group_id: u32,
    pub payload: Vec<u8>,
    pub owners: Owners,
}

/// One kind of thing the pool holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bags {
    pub avax: Vec<Coin>,
    pub tokens: Vec<Coin>,
    pub mints: Vec<MintRight>,
    pub nft_mints: Vec<NftMintRight>,
    pub nfts: Vec<Nft>,
}

impl Bags {
    fn append(&mut self, other: &mut Bags) {
        self.avax.append(&mut other.avax);
        self.tokens.append(&mut other.tokens);
        self.mints.append(&mut other.mints);
        self.nft_mints.append(&mut other.nft_mints);
        self.nfts.append(&mut other.nfts);
    }
}

/// Spendable now, and created in the current container.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pool {
    pub ready: Bags,
    pub pending: Bags,
}

impl Pool {
    /// Makes what the last container created spendable.
    pub fn commit(&mut self) {
        let mut p = std::mem::take(&mut self.pending);
        self.ready.append(&mut p);
    }

    /// Takes a random item out of a bag.
    pub fn take<T>(rng: &mut DetRng, bag: &mut Vec<T>) -> Option<T> {
        if bag.is_empty() {
            return None;
        }
        let i = rng.index(bag.len());
        Some(bag.swap_remove(i))
    }

    /// Takes the first item matching `pred`.
    pub fn take_where<T>(bag: &mut Vec<T>, pred: impl Fn(&T) -> bool) -> Option<T> {
        let i = bag.iter().position(pred)?;
        Some(bag.swap_remove(i))
    }
}
