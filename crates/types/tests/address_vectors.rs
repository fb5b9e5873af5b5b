//! Address formatting and parsing against avalanchego vectors, and the chain API parse rules of
//! `vms/components/avax/addresses.go`.

#![allow(clippy::unwrap_used)] // helpers outside #[test] fns build fixtures from constants

use snowline_types::address::{
    AddressContext, AddressError, ChainAddressError, format_address, format_bech32, parse_address,
    parse_bech32,
};
use snowline_types::network::{Chain, NetworkInfo};
use snowline_types::{Id, ShortId};

/// The short id of the ewoq key, 0x3cb7d384…b29c. vector: avalanchego vms/avm/service.md
/// (avm.getUTXOs with sourceChain: the UTXO owned by X-avax18jma8ppw…kulre5 lists this owner)
/// and vms/example/xsvm/genesis/genesis_test.go (cb58 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV).
fn ewoq() -> ShortId {
    ShortId::from_slice(&hex::decode("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c").unwrap()).unwrap()
}

#[test]
fn ewoq_short_id_cb58() {
    // vector: avalanchego vms/example/xsvm/genesis/genesis_test.go
    assert_eq!(ewoq().to_string(), "6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV");
}

#[test]
fn ewoq_address_on_local_and_mainnet() {
    // vector: avalanchego genesis/genesis_local.go (comment and genesis_local.json avaxAddr)
    let local = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
    assert_eq!(format_address("X", "local", &ewoq()).unwrap(), local);
    let parsed = parse_address(local).unwrap();
    assert_eq!(parsed.chain_alias, "X");
    assert_eq!(parsed.hrp, "local");
    assert_eq!(parsed.short_id, ewoq());

    // vector: avalanchego vms/avm/service.md (avm.getUTXOs endIndex.address)
    let mainnet = "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5";
    assert_eq!(format_address("X", "avax", &ewoq()).unwrap(), mainnet);
    assert_eq!(parse_address(mainnet).unwrap().short_id, ewoq());
}

#[test]
fn platform_test_address_on_mainnet() {
    // vector: avalanchego vms/platformvm/txs/base_tx_test.go TestBaseTxSerialization: addr
    // 0x445566778899aabb… renders as P-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr (mainnet).
    let addr = ShortId([
        0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
        0xbb, 0x44, 0x55, 0x66, 0x77,
    ]);
    let text = "P-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr";
    assert_eq!(format_address("P", "avax", &addr).unwrap(), text);
    assert_eq!(parse_address(text).unwrap().short_id, addr);
    assert_eq!(
        format_bech32("avax", &addr).unwrap(),
        "avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr"
    );
}

#[test]
fn upper_case_is_accepted_and_hrp_lower_cased() {
    // BIP-173: an all-upper-case string is valid; btcutil bech32.Decode (used by
    // utils/formatting/address/address.go) lower-cases it.
    let (hrp, addr) = parse_bech32("LOCAL18JMA8PPW3NHX5R4AP8CLAZZ0DPS7RV5U00Z96U").unwrap();
    assert_eq!(hrp, "local");
    assert_eq!(addr, ewoq());
}

#[test]
fn malformed_addresses_are_rejected_with_clear_errors() {
    // utils/formatting/address/address.go: ErrNoSeparator.
    assert_eq!(
        parse_address("local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"),
        Err(AddressError::NoSeparator)
    );
    assert_eq!(
        AddressError::NoSeparator.to_string(),
        "no separator found in address"
    );
    // Mixed case.
    assert_eq!(
        parse_address("X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96U"),
        Err(AddressError::MixedCase)
    );
    // One character changed: bad checksum.
    assert_eq!(
        parse_address("X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v"),
        Err(AddressError::BadChecksum)
    );
    // 'b' is not in the bech32 alphabet.
    assert_eq!(
        parse_address("X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z9bu"),
        Err(AddressError::InvalidChar('b'))
    );
    // No '1' between HRP and data.
    assert_eq!(
        parse_address("X-qqqqqqqqqq"),
        Err(AddressError::NoBech32Separator)
    );
    // Longer than 90 characters.
    let long = format!("X-{}", "q".repeat(91));
    assert_eq!(parse_address(&long), Err(AddressError::TooLong(91)));
}

#[test]
fn wrong_length_payloads_are_rejected() {
    // A valid bech32 string of 19 and of 21 bytes is not a 20-byte address
    // (ids.ToShortID in utils/formatting/address/converter.go rejects them).
    let hrp = bech32::Hrp::parse("local").unwrap();
    for (n, chars) in [(19usize, 31usize), (21, 34), (0, 0)] {
        let s = bech32::encode::<bech32::Bech32>(hrp, &vec![7u8; n]).unwrap();
        assert_eq!(
            parse_bech32(&s),
            Err(AddressError::WrongLength { chars }),
            "{n} bytes"
        );
    }
}

#[test]
fn bech32m_is_rejected() {
    // Avalanche uses BIP-173 bech32 (btcutil bech32.Decode); the same payload with a BIP-350
    // bech32m checksum must be refused, with its own error.
    let hrp = bech32::Hrp::parse("local").unwrap();
    let m = bech32::encode::<bech32::Bech32m>(hrp, ewoq().as_bytes()).unwrap();
    assert_eq!(parse_bech32(&m), Err(AddressError::Bech32m));
    assert_eq!(parse_address(&format!("X-{m}")), Err(AddressError::Bech32m));
}

#[test]
fn invalid_hrps_cannot_format() {
    assert!(matches!(
        format_address("X", "", &ewoq()),
        Err(AddressError::InvalidHrp { .. })
    ));
    assert!(matches!(
        format_address("X", "Mixed", &ewoq()),
        Err(AddressError::InvalidHrp { .. })
    ));
    assert!(matches!(
        format_address("X", "has space", &ewoq()),
        Err(AddressError::InvalidHrp { .. })
    ));
    // The longest HRP that keeps a 20-byte address within 90 characters works; one more fails.
    let ok = "a".repeat(51);
    let s = format_bech32(&ok, &ewoq()).unwrap();
    assert_eq!(s.len(), 90);
    assert_eq!(parse_bech32(&s).unwrap(), (ok, ewoq()));
    assert!(format_bech32(&"a".repeat(52), &ewoq()).is_err());
    // An upper-case HRP is formatted lower-case.
    assert_eq!(
        format_bech32("LOCAL", &ewoq()).unwrap(),
        "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
    );
}

// ------------------------------------------------------------------ chain rules

fn x_local() -> AddressContext {
    AddressContext::primary(&NetworkInfo::LOCAL, Chain::X).unwrap()
}

#[test]
fn local_x_chain_formats_and_parses() {
    let ctx = x_local();
    assert_eq!(ctx.primary_alias(), "X");
    assert_eq!(ctx.hrp(), "local");
    assert_eq!(ctx.chain_id(), NetworkInfo::LOCAL.x_chain_id);
    // vector: avalanchego genesis/genesis_local.go
    assert_eq!(
        ctx.format(&ewoq()),
        "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
    );
    for alias in [
        "X",
        "avm",
        "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed",
    ] {
        let s = format!("{alias}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u");
        assert_eq!(ctx.parse_local(&s), Ok(ewoq()), "{alias}");
    }
}

#[test]
fn wrong_chain_wrong_network_and_unknown_alias() {
    let ctx = x_local();
    // A P-Chain address on the X-Chain (vms/components/avax/addresses.go ErrMismatchedChainIDs).
    let err = ctx
        .parse_local("P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
        .unwrap_err();
    assert_eq!(
        err,
        ChainAddressError::WrongChain {
            expected: NetworkInfo::LOCAL.x_chain_id,
            actual: Id::EMPTY,
        }
    );
    assert_eq!(
        err.to_string(),
        "mismatched chainIDs: expected \"2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed\" \
         but got \"11111111111111111111111111111111LpoYY\""
    );
    // A mainnet address on the local network.
    let err = ctx
        .parse_local("X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5")
        .unwrap_err();
    assert_eq!(
        err,
        ChainAddressError::WrongNetwork {
            expected: "local".into(),
            actual: "avax".into(),
        }
    );
    assert_eq!(err.to_string(), r#"expected hrp "local" but got "avax""#);
    // An alias no chain has (ids/aliases.go ErrNoIDWithAlias).
    let err = ctx
        .parse_local("Z-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u")
        .unwrap_err();
    assert_eq!(err, ChainAddressError::UnknownAlias("Z".into()));
    assert_eq!(err.to_string(), "there is no ID with alias: Z");
    // Aliases are case-sensitive.
    assert_eq!(
        ctx.parse_local("x-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"),
        Err(ChainAddressError::UnknownAlias("x".into()))
    );
}

#[test]
fn service_parse_accepts_cb58_first() {
    // vms/components/avax/addresses.go ParseServiceAddress: plain cb58 of 20 bytes is accepted
    // whatever the network. vector: vms/example/xsvm/genesis/genesis_test.go (ewoq cb58).
    let ctx = x_local();
    assert_eq!(
        ctx.parse_service("6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV"),
        Ok(ewoq())
    );
    assert_eq!(
        ctx.parse_service("X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"),
        Ok(ewoq())
    );
    let err = ctx
        .parse_service("X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "couldn't parse address \"X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5\": \
         expected hrp \"local\" but got \"avax\""
    );
    assert!(matches!(err.source, ChainAddressError::WrongNetwork { .. }));
    // A 32-byte cb58 id is not an address, and then it has no separator.
    let err = ctx
        .parse_service("11111111111111111111111111111111LpoYY")
        .unwrap_err();
    assert_eq!(
        err.source,
        ChainAddressError::Address(AddressError::NoSeparator)
    );
}

#[test]
fn mainnet_contexts() {
    // vector: avalanchego vms/platformvm/txs/base_tx_test.go (P-avax1g32k…) on mainnet's P-Chain.
    let p = AddressContext::primary(&NetworkInfo::MAINNET, Chain::P).unwrap();
    let addr = p
        .parse_local("P-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr")
        .unwrap();
    assert_eq!(
        p.format(&addr),
        "P-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr"
    );
    assert_eq!(
        p.parse_local("platform-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr"),
        Ok(addr)
    );
    assert!(matches!(
        p.parse_local("C-avax1g32kvaugnx4tk3z4vemc3xd2hdz92enh972wxr"),
        Err(ChainAddressError::WrongChain { .. })
    ));
    // A custom chain with explicit aliases.
    let chain = Id([9; 32]);
    let custom = AddressContext::new(chain, &["mychain"], "custom").unwrap();
    let s = custom.format(&ewoq());
    assert!(s.starts_with("mychain-custom1"), "{s}");
    assert_eq!(custom.parse_local(&s), Ok(ewoq()));
    assert_eq!(
        custom.parse_local(&format!("{chain}-{}", s.trim_start_matches("mychain-"))),
        Ok(ewoq())
    );
}
