//! secp256k1 keys, addresses and recoverable signatures against avalanchego's vectors.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns build fixtures from constants

use snowline_types::address::format_address;
use snowline_types::cb58::Cb58Error;
use snowline_types::hashing::sha256;
use snowline_types::secp256k1::{PrivateKey, PublicKey, Secp256k1Error, recover, recover_message};

/// avalanchego utils/crypto/secp256k1/test_keys.go TestKeys (cb58 of the raw 32 bytes).
const TEST_KEYS: [&str; 5] = [
    "24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5",
    "2MMvUMsxx6zsHSNXJdFD8yc5XkancvwyKPwpw4xUK3TCGDuNBY",
    "cxb7KpGWhDMALTjNNSJ7UQkkomPesyWAPUaWRGdyeBNzR6f35",
    "ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN",
    "2RWLv6YVEXDiWLpaCbXhhqxtLbnFaKQsWPSSMSPhpWo47uJAeV",
];

fn test_key(i: usize) -> PrivateKey {
    format!("PrivateKey-{}", TEST_KEYS[i]).parse().unwrap()
}

#[test]
fn test_keys_round_trip_their_strings() {
    // vector: avalanchego utils/crypto/secp256k1/test_keys.go
    for k in TEST_KEYS {
        let text = format!("PrivateKey-{k}");
        let key: PrivateKey = text.parse().unwrap();
        assert_eq!(key.to_string(), text);
        assert_eq!(
            PrivateKey::from_bytes(&key.to_bytes()).unwrap().to_string(),
            text
        );
    }
}

#[test]
fn exported_methods_vector() {
    // vector: avalanchego utils/crypto/secp256k1/secp256k1_test.go TestExportedMethods
    let key = test_key(0);
    let expected_pub = [
        0x03, 0x73, 0x93, 0x53, 0x47, 0x88, 0x44, 0x78, 0xe4, 0x94, 0x5c, 0xd0, 0xfd, 0x94, 0x8e,
        0xcf, 0x08, 0x8b, 0x94, 0xdf, 0xc9, 0x20, 0x74, 0xf0, 0xfb, 0x03, 0xda, 0x6f, 0x4d, 0xbc,
        0x94, 0x35, 0x7d,
    ];
    let public = key.public_key();
    assert_eq!(public.to_bytes(), expected_pub);
    assert_eq!(
        public.address().to_string(),
        "Q4MzFZZDPHRPAHFeDs3NiyyaZDvxHKivf"
    );
    assert_eq!(
        key.address().to_string(),
        "Q4MzFZZDPHRPAHFeDs3NiyyaZDvxHKivf"
    );
    let parsed = PublicKey::from_bytes(&expected_pub).unwrap();
    assert_eq!(parsed, public);
    assert_eq!(parsed.address(), public.address());
}

#[test]
fn signing_vectors() {
    // vector: avalanchego utils/crypto/secp256k1/secp256k1_test.go TestSigning (TestKeys()[0])
    let cases: [(&str, &str); 3] = [
        (
            "hello world",
            "178cb6096b3ca5820a4c6ecedf15b68b6f50e252c2b64f3774888602cc9fa08c\
             5d019d82fdde95fdf234aa2d12ad79b5abb345fe953a9f72f70914fd3139063b00",
        ),
        (
            "scooby doo",
            "c2573f29b0d17ae7009a9f17a4558d32462e5b8d059e3832ecb032541abc7daf\
             5751f96b8571bcb718d26be8ed8d59b0d60369ab57acc0f7133b219456038ec701",
        ),
        (
            "a really long string",
            "1bf561c36007d2a61268e9e13a902a9c2ba43e28f8d47554215711dcdcc6d35e\
             784318f62291373c95779f6794910a4416bfa3ae9f25fa34a014ea9c6fe0203700",
        ),
    ];
    let key = test_key(0);
    for (msg, sig_hex) in cases {
        let sig = key.sign(msg.as_bytes()).unwrap();
        assert_eq!(hex::encode(sig), sig_hex.replace(' ', ""), "{msg}");
        assert_eq!(
            key.sign_hash(&sha256(msg.as_bytes())).unwrap(),
            sig,
            "{msg}"
        );
        // Recovery gives the signer back (TestRecover).
        assert_eq!(
            recover_message(msg.as_bytes(), &sig).unwrap(),
            key.public_key()
        );
        assert!(key.public_key().verify(msg.as_bytes(), &sig));
        assert!(!key.public_key().verify(b"another message", &sig));
    }
}

#[test]
fn rfc6979_vectors() {
    // vector: avalanchego utils/crypto/secp256k1/rfc6979_test.go TestRFC6979Compliance
    // (r ‖ s of Sign(msg), i.e. over sha256(msg))
    let cases: [(&str, &str, &str); 7] = [
        (
            "0000000000000000000000000000000000000000000000000000000000000001",
            "Everything should be made as simple as possible, but not simpler.",
            "33a69cd2065432a30f3d1ce4eb0d59b8ab58c74f27c41a7fdb5696ad4e6108c96f807982866f785d3f6418d24163ddae117b7db4d5fdf0071de069fa54342262",
        ),
        (
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140",
            "Equations are more important to me, because politics is for the present, but an equation is something for eternity.",
            "54c4a33c6423d689378f160a7ff8b61330444abb58fb470f96ea16d99d4a2fed07082304410efa6b2943111b6a4e0aaa7b7db55a07e9861d1fb3cb1f421044a5",
        ),
        (
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140",
            "Not only is the Universe stranger than we think, it is stranger than we can think.",
            "ff466a9f1b7b273e2f4c3ffe032eb2e814121ed18ef84665d0f515360dab3dd06fc95f5132e5ecfdc8e5e6e616cc77151455d46ed48f5589b7db7771a332b283",
        ),
        (
            "0000000000000000000000000000000000000000000000000000000000000001",
            "How wonderful that we have met with a paradox. Now we have some hope of making progress.",
            "c0dafec8251f1d5010289d210232220b03202cba34ec11fec58b3e93a85b91d375afdc06b7d6322a590955bf264e7aaa155847f614d80078a90292fe205064d3",
        ),
        (
            "69ec59eaa1f4f2e36b639716b7c30ca86d9a5375c7b38d8918bd9c0ebc80ba64",
            "Computer science is no more about computers than astronomy is about telescopes.",
            "7186363571d65e084e7f02b0b77c3ec44fb1b257dee26274c38c928986fea45d0de0b38e06807e46bda1f1e293f4f6323e854c86d58abdd00c46c16441085df6",
        ),
        (
            "00000000000000000000000000007246174ab1e92e9149c6e446fe194d072637",
            "...if you aren't, at any given time, scandalized by code you wrote five or even three years ago, you're not learning anywhere near enough",
            "fbfe5076a15860ba8ed00e75e9bd22e05d230f02a936b653eb55b61c99dda4870e68880ebb0050fe4312b1b1eb0899e1b82da89baa5b895f612619edf34cbd37",
        ),
        (
            "000000000000000000000000000000000000000000056916d0f9b31dc9b637f3",
            "The question of whether computers can think is like the question of whether submarines can swim.",
            "cde1302d83f8dd835d89aef803c74a119f561fbaef3eb9129e45f30de86abbf906ce643f5049ee1f27890467b77a6a8e11ec4661cc38cd8badf90115fbd03cef",
        ),
    ];
    for (sk, msg, rs) in cases {
        let key = PrivateKey::from_bytes(&hex::decode(sk).unwrap()).unwrap();
        let sig = key.sign(msg.as_bytes()).unwrap();
        assert_eq!(hex::encode(&sig[..64]), rs, "{msg}");
        assert_eq!(
            recover_message(msg.as_bytes(), &sig).unwrap(),
            key.public_key()
        );
    }
}

#[test]
fn genesis_keys_give_their_addresses() {
    // vector: avalanchego genesis/genesis_local.go (comments on VMRQKeyStr and EWOQKeyStr)
    let ewoq: PrivateKey = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"
        .parse()
        .unwrap();
    assert_eq!(
        format_address("X", "local", &ewoq.address()).unwrap(),
        "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
    );
    let vmrq: PrivateKey = "PrivateKey-vmRQiZeXEXYMyJhEiqdC2z5JhuDbxL8ix9UVvjgMu2Er1NepE"
        .parse()
        .unwrap();
    assert_eq!(
        format_address("P", "local", &vmrq.address()).unwrap(),
        "P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2"
    );
    // ewoq's cb58 short id, vector: avalanchego vms/example/xsvm/genesis/genesis_test.go
    assert_eq!(
        ewoq.address().to_string(),
        "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV"
    );
}

#[test]
fn private_key_parse_errors() {
    // vector: avalanchego utils/crypto/secp256k1/secp256k1_test.go
    // TestPrivateKeySECP256K1RUnmarshalJSONError
    let parse = |s: &str| s.parse::<PrivateKey>().unwrap_err();
    assert_eq!(
        parse("PrivateKfy-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"),
        Secp256k1Error::MissingKeyPrefix
    );
    assert_eq!(
        parse("PrivateKey-"),
        Secp256k1Error::Cb58(Cb58Error::InvalidBase58)
    );
    assert_eq!(
        parse("PrivateKey-1"),
        Secp256k1Error::Cb58(Cb58Error::MissingChecksum)
    );
    assert_eq!(
        parse("PrivateKey-45PJLL"),
        Secp256k1Error::InvalidPrivateKeyLength
    );
    assert_eq!(
        Secp256k1Error::MissingKeyPrefix.to_string(),
        "private key missing PrivateKey- prefix"
    );
    assert_eq!(
        Secp256k1Error::InvalidPrivateKeyLength.to_string(),
        "private key has unexpected length, expected 32"
    );
    // JSON strings parse the same way (MarshalJSON / UnmarshalJSON).
    let json = r#""PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN""#;
    let key: PrivateKey = serde_json::from_str(json).unwrap();
    assert_eq!(serde_json::to_string(&key).unwrap(), json);
    assert!(serde_json::from_str::<PrivateKey>(r#""PrivateKey-45PJLL""#).is_err());
}

#[test]
fn out_of_range_private_keys_are_rejected() {
    // Zero and the curve order itself are not keys (avalanchego would reduce them mod n).
    assert_eq!(
        PrivateKey::from_bytes(&[0u8; 32]),
        Err(Secp256k1Error::PrivateKeyOutOfRange)
    );
    let n =
        hex::decode("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141").unwrap();
    assert_eq!(
        PrivateKey::from_bytes(&n),
        Err(Secp256k1Error::PrivateKeyOutOfRange)
    );
    assert_eq!(
        PrivateKey::from_bytes(&[1u8; 31]),
        Err(Secp256k1Error::InvalidPrivateKeyLength)
    );
}

#[test]
fn mutated_signature_is_rejected() {
    // vector: avalanchego utils/crypto/secp256k1/secp256k1_test.go TestVerifyMutatedSignature:
    // replacing s by n - s (the high-S twin) must fail with errMutatedSig.
    let key = test_key(0);
    let mut sig = key.sign(b"hello").unwrap();
    let n =
        hex::decode("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141").unwrap();
    // n - s, big-endian subtraction.
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = i16::from(n[i]) - i16::from(sig[32 + i]) - borrow;
        borrow = i16::from(d < 0);
        sig[32 + i] = d.rem_euclid(256) as u8;
    }
    assert_eq!(
        recover_message(b"hello", &sig),
        Err(Secp256k1Error::MutatedSignature)
    );
    assert_eq!(
        Secp256k1Error::MutatedSignature.to_string(),
        "signature was mutated from its original format"
    );
    assert!(!key.public_key().verify(b"hello", &sig));
}

#[test]
fn bad_recovery_bytes_and_lengths() {
    let key = test_key(3);
    let hash = sha256(b"snowline");
    let sig = key.sign_hash(&hash).unwrap();
    assert!(sig[64] <= 1, "low-S signatures use v 0 or 1");
    assert_eq!(recover(&hash, &sig).unwrap(), key.public_key());

    let mut flipped = sig;
    flipped[64] ^= 1;
    // The other parity recovers a different key (or none), never the signer.
    assert_ne!(recover(&hash, &flipped).ok(), Some(key.public_key()));

    for v in 4..=7u8 {
        let mut bad = sig;
        bad[64] = v;
        assert_eq!(
            recover(&hash, &bad),
            Err(Secp256k1Error::CompressedRecoveryCode)
        );
    }
    for v in [8u8, 27, 28, 255] {
        let mut bad = sig;
        bad[64] = v;
        assert_eq!(recover(&hash, &bad), Err(Secp256k1Error::InvalidSignature));
    }
    assert_eq!(
        recover(&hash, &sig[..64]),
        Err(Secp256k1Error::InvalidSignatureLength)
    );
    // r = 0 is not a signature.
    let mut zero_r = sig;
    zero_r[..32].fill(0);
    assert_eq!(
        recover(&hash, &zero_r),
        Err(Secp256k1Error::InvalidSignature)
    );
    // s ≥ n is not a signature either.
    let mut big_s = sig;
    big_s[32..64].fill(0xff);
    assert_eq!(
        recover(&hash, &big_s),
        Err(Secp256k1Error::InvalidSignature)
    );
}

#[test]
fn public_key_parse_errors() {
    assert_eq!(
        PublicKey::from_bytes(&[2u8; 32]),
        Err(Secp256k1Error::InvalidPublicKeyLength)
    );
    // 0x05 is not a SEC1 compressed tag.
    let mut bad = test_key(0).public_key().to_bytes();
    bad[0] = 0x05;
    assert_eq!(
        PublicKey::from_bytes(&bad),
        Err(Secp256k1Error::InvalidPublicKey)
    );
    // x = 0 is not on the curve (7 is not a square mod p).
    let mut off_curve = [0u8; 33];
    off_curve[0] = 0x02;
    assert_eq!(
        PublicKey::from_bytes(&off_curve),
        Err(Secp256k1Error::InvalidPublicKey)
    );
    // Uncompressed keys are 65 bytes, not 33.
    assert_eq!(
        PublicKey::from_bytes(&[4u8; 65]),
        Err(Secp256k1Error::InvalidPublicKeyLength)
    );
}

#[test]
fn seeded_keys_are_deterministic_and_distinct() {
    // Snowline-specific derivation: pin the first key so the scheme cannot drift silently.
    let k0 = PrivateKey::from_seed(0);
    assert_eq!(
        k0.to_bytes(),
        sha256(b"snowline/secp256k1/seed/v1\0\0\0\0\0\0\0\0\0\0\0\0")
    );
    assert_eq!(PrivateKey::from_seed(0), k0);
    assert_ne!(PrivateKey::from_seed(1), k0);
    assert_ne!(PrivateKey::from_seed(1).address(), k0.address());
}

#[test]
fn debug_does_not_leak_the_secret() {
    let key = test_key(3);
    let shown = format!("{key:?}");
    assert!(!shown.contains("ewoq"), "{shown}");
    assert!(
        shown.contains("6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV"),
        "{shown}"
    );
}

#[test]
fn ewoq_eth_address() {
    // vector: avalanchego genesis/genesis_local.json cChainGenesis alloc, the EWOQ key's
    // C-Chain address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC.
    let ewoq: PrivateKey = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN"
        .parse()
        .unwrap();
    assert_eq!(
        hex::encode(ewoq.public_key().eth_address()),
        "8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"
    );
}
