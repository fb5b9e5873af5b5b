//! The devnet's keys: the local network's well-known funded `ewoq` key, then `n` keys derived
//! from the seed.

use std::collections::HashMap;

use snowline_types::ShortId;
use snowline_types::secp256k1::PrivateKey;

use crate::error::DevnetError;
use crate::rng::DetRng;

/// `PrivateKey-ewoq…`: funded in the local genesis, address `X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`
/// (avalanchego `genesis/genesis_local.go` `EWOQKey`).
pub const EWOQ_KEY: &str = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";

/// Index of the ewoq key in a [`KeyRing`].
pub const EWOQ: u32 = 0;

/// Keys with their addresses, and the reverse map.
#[derive(Debug, Clone)]
pub struct KeyRing {
    keys: Vec<PrivateKey>,
    addrs: Vec<ShortId>,
    by_addr: HashMap<ShortId, u32>,
}

impl KeyRing {
    /// The ewoq key followed by `n` keys derived from `seed`
    /// (`PrivateKey::from_seed` of successive values of a seeded [`DetRng`]).
    pub fn new(seed: u64, n: u32) -> Result<Self, DevnetError> {
        let mut keys = Vec::with_capacity(n as usize + 1);
        keys.push(EWOQ_KEY.parse::<PrivateKey>()?);
        let mut rng = DetRng::new(seed, 0x6b65_7973);
        for _ in 0..n {
            keys.push(PrivateKey::from_seed(rng.next_u64()));
        }
        let addrs: Vec<ShortId> = keys.iter().map(PrivateKey::address).collect();
        let by_addr = addrs
            .iter()
            .enumerate()
            .map(|(i, a)| (*a, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        Ok(Self {
            keys,
            addrs,
            by_addr,
        })
    }

    /// How many keys, ewoq included.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none (never, since ewoq is always present).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Key `i`.
    pub fn key(&self, i: u32) -> Option<&PrivateKey> {
        self.keys.get(i as usize)
    }

    /// Address of key `i` (the empty address when out of range).
    pub fn addr(&self, i: u32) -> ShortId {
        self.addrs.get(i as usize).copied().unwrap_or_default()
    }

    /// Which key owns `addr`.
    pub fn index_of(&self, addr: &ShortId) -> Option<u32> {
        self.by_addr.get(addr).copied()
    }

    /// Every address, by key index.
    pub fn addrs(&self) -> &[ShortId] {
        &self.addrs
    }
}
