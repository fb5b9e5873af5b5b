//! The hash functions Avalanche ids are built from.

use ripemd::Ripemd160;
use sha2::{Digest, Sha256};

/// Keccak-256 of `data` (Ethereum's, not NIST SHA3-256): C-Chain block hashes and `ExtDataHash`.
#[inline]
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    sha3::Keccak256::digest(data).into()
}

/// SHA-256 of `data`: tx ids, block ids, checksums.
#[inline]
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// SHA-256 of `data` and, in the same pass, of its first `prefix` bytes when that is shorter
/// (`None` otherwise): a proposervm block's id hashes all but its signature, while its API hex
/// checksum hashes all of it.
pub fn sha256_and_prefix(data: &[u8], prefix: usize) -> ([u8; 32], Option<[u8; 32]>) {
    let (head, tail) = data.split_at(prefix.min(data.len()));
    let mut hasher = Sha256::new();
    hasher.update(head);
    let of_prefix = (!tail.is_empty()).then(|| hasher.clone().finalize().into());
    hasher.update(tail);
    (hasher.finalize().into(), of_prefix)
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
    checksum_of(&sha256(data))
}

/// [`checksum`] of data whose SHA-256 is `hash`.
#[inline]
pub fn checksum_of(hash: &[u8; 32]) -> [u8; 4] {
    [hash[28], hash[29], hash[30], hash[31]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_gives_the_whole_and_the_prefix_hash() {
        // FIPS 180-2 appendix B.1: SHA-256("abc").
        let abc = hex::decode("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            .unwrap();
        let (whole, prefix) = sha256_and_prefix(b"abcdef", 3);
        assert_eq!(prefix.map(|p| p.to_vec()), Some(abc.clone()));
        assert_eq!(whole, sha256(b"abcdef"));
        assert_ne!(whole.to_vec(), abc);
        // A prefix as long as the data (or longer) is the whole hash, given once.
        assert_eq!(sha256_and_prefix(b"abc", 3), (sha256(b"abc"), None));
        assert_eq!(sha256_and_prefix(b"abc", 9), (sha256(b"abc"), None));
        assert_eq!(sha256_and_prefix(b"abc", 0).1, Some(sha256(b"")));
    }
}
