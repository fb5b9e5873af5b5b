//! Property tests: addresses round-trip, parsing is canonical and never panics, and the network
//! name parser survives any input.

use proptest::prelude::*;
use snowline_types::ShortId;
use snowline_types::address::{
    AddressContext, format_address, format_bech32, parse_address, parse_bech32,
};
use snowline_types::network::{self, Chain, NetworkInfo};

fn hrps() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["avax", "fuji", "local", "custom", "testing"])
            .prop_map(str::to_owned),
        "[a-z0-9]{1,20}",
        "[!-~&&[^A-Z]]{1,51}",
    ]
}

fn address_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[XPC]-(avax|local|fuji)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{30,45}",
        "[A-Za-z0-9]{0,6}-[a-z]{1,8}1[qpzry9x8gf2tvdw0s3jn54khce6mua7lB]{0,50}",
        "[1-9A-HJ-NP-Za-km-z]{20,40}",
        any::<String>(),
    ]
}

proptest! {
    #[test]
    fn addresses_round_trip(bytes in any::<[u8; 20]>(), hrp in hrps(), alias in "[A-Za-z]{1,8}") {
        let addr = ShortId(bytes);
        let text = format_address(&alias, &hrp, &addr).unwrap();
        let parsed = parse_address(&text).unwrap();
        prop_assert_eq!(parsed.chain_alias, alias);
        prop_assert_eq!(parsed.hrp, hrp.clone());
        prop_assert_eq!(parsed.short_id, addr);
        // Upper-case is the same address.
        let bech = format_bech32(&hrp, &addr).unwrap();
        prop_assert_eq!(parse_bech32(&bech.to_uppercase()).unwrap(), (hrp, addr));
    }

    #[test]
    fn address_parsing_never_panics_and_is_canonical(s in address_like()) {
        if let Ok(p) = parse_address(&s) {
            let again = format_address(&p.chain_alias, &p.hrp, &p.short_id).unwrap();
            prop_assert_eq!(again.to_lowercase(), s.to_lowercase());
        }
        let ctx = AddressContext::primary(&NetworkInfo::LOCAL, Chain::X).unwrap();
        if let Ok(addr) = ctx.parse_local(&s) {
            let by_id = format!("{}-", NetworkInfo::LOCAL.x_chain_id);
            prop_assert!(s.starts_with("X-") || s.starts_with("avm-") || s.starts_with(&by_id));
            prop_assert_eq!(parse_address(&s).unwrap().short_id, addr);
        }
        let _ = ctx.parse_service(&s);
    }

    #[test]
    fn context_accepts_exactly_its_own_addresses(bytes in any::<[u8; 20]>(), which in 0usize..3) {
        let addr = ShortId(bytes);
        let chain = Chain::ALL[which];
        let x = AddressContext::primary(&NetworkInfo::MAINNET, Chain::X).unwrap();
        let text = AddressContext::primary(&NetworkInfo::MAINNET, chain).unwrap().format(&addr);
        prop_assert_eq!(x.parse_local(&text).is_ok(), chain == Chain::X);
        // The same address is accepted as cb58 regardless.
        prop_assert_eq!(x.parse_service(&addr.to_string()), Ok(addr));
    }

    #[test]
    fn network_names_never_panic(s in any::<String>()) {
        if let Ok(id) = network::network_id(&s) {
            // Every accepted name names the id whose canonical name parses back to it.
            prop_assert_eq!(network::network_id(&network::network_name(id)), Ok(id));
        }
    }

    #[test]
    fn network_names_round_trip(id in any::<u32>()) {
        prop_assert_eq!(network::network_id(&network::network_name(id)), Ok(id));
        prop_assert_eq!(network::network_id(&id.to_string()), Ok(id));
    }
}
