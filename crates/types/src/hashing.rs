//! The hash functions Avalanche ids are built from.

use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

/// SHA-256 of `data`: tx ids, block ids, checksums.
#[inline]
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// RIPEMD-160 of `data`, used on top of SHA-256 for addresses and node ids.
#[inline]
pub fn ripemd160(data: &[u8]) -> [u8; 20] {
    Ripemd160::digest(data).into()
}

/// `ripemd160(sha256(data))`: the short id of a public key or staking certificate.
#[inline]
pub fn hash160(data: &[u8]) -> [u8; 20] {
    ripemd160(&sha256(data))
}

/// The 4-byte checksum Avalanche appends in cb58 and API hex: the last four bytes of SHA-256.
#[inline]
pub fn checksum(data: &[u8]) -> [u8; 4] {
    let h = sha256(data);
    [h[28], h[29], h[30], h[31]]
}
