//! Checking a Warp signature share: a compressed BLS signature (min-pk) over the unsigned
//! message bytes with the signature DST, as `bls.Verify` does.

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey, Signature};
use snowline_devnet::nodes::BLS_SIG_DST;

/// Whether `signature` (96 bytes, compressed) is `public_key`'s (48 bytes, compressed) over
/// `message`; malformed or off-subgroup points are refused.
pub fn verify_warp_signature(public_key: &[u8], message: &[u8], signature: &[u8]) -> bool {
    let (Ok(pk), Ok(sig)) = (
        PublicKey::key_validate(public_key),
        Signature::sig_validate(signature, true),
    ) else {
        return false;
    };
    sig.verify(false, message, BLS_SIG_DST, &[], &pk, false) == BLST_ERROR::BLST_SUCCESS
}
