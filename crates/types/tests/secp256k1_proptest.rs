//! Property tests: signatures made here recover to their signer, and key/signature decoders
//! survive any input.

use proptest::prelude::*;
use snowline_types::secp256k1::{PrivateKey, PublicKey, recover};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn signatures_recover_to_the_signer(seed in any::<u64>(), hash in any::<[u8; 32]>()) {
        let key = PrivateKey::from_seed(seed);
        let sig = key.sign_hash(&hash).unwrap();
        prop_assert!(sig[64] <= 3);
        prop_assert_eq!(recover(&hash, &sig).unwrap(), key.public_key());
        prop_assert!(key.public_key().verify_hash(&hash, &sig));
        // Deterministic: the same key and hash give the same signature.
        prop_assert_eq!(key.sign_hash(&hash).unwrap(), sig);
    }

    #[test]
    fn private_keys_round_trip(seed in any::<u64>()) {
        let key = PrivateKey::from_seed(seed);
        let text = key.to_string();
        prop_assert!(text.starts_with("PrivateKey-"));
        prop_assert_eq!(text.parse::<PrivateKey>().unwrap(), key.clone());
        prop_assert_eq!(PrivateKey::from_bytes(&key.to_bytes()).unwrap(), key.clone());
        let public = key.public_key();
        prop_assert_eq!(PublicKey::from_bytes(&public.to_bytes()).unwrap(), public);
    }

    #[test]
    fn decoders_never_panic(
        hash in any::<[u8; 32]>(),
        sig in proptest::collection::vec(any::<u8>(), 0..80),
        key_bytes in proptest::collection::vec(any::<u8>(), 0..40),
        text in "(PrivateKey-)?[1-9A-HJ-NP-Za-km-z]{0,60}",
    ) {
        let _ = recover(&hash, &sig);
        let _ = PublicKey::from_bytes(&key_bytes);
        let _ = PrivateKey::from_bytes(&key_bytes);
        if let Ok(key) = text.parse::<PrivateKey>() {
            prop_assert_eq!(key.to_string(), text);
        }
    }

    #[test]
    fn random_65_byte_signatures_never_panic(hash in any::<[u8; 32]>(), sig in any::<[u8; 65]>()) {
        if let Ok(key) = recover(&hash, &sig) {
            prop_assert!(key.verify_hash(&hash, &sig));
        }
    }
}
