//! Feeds arbitrary strings to the bech32 address parsers: no panic, and whatever parses
//! re-formats to the same (lower-cased) text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::address::{AddressContext, format_address, parse_address, parse_bech32};
use snowline_types::network::{self, Chain, NetworkInfo};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = parse_address(s) {
        let again = format_address(&parsed.chain_alias, &parsed.hrp, &parsed.short_id);
        assert_eq!(again.map(|a| a.to_lowercase()), Ok(s.to_lowercase()));
    }
    if let Ok((hrp, addr)) = parse_bech32(s) {
        assert_eq!(parse_bech32(&s.to_lowercase()), Ok((hrp, addr)));
    }
    if let Ok(ctx) = AddressContext::primary(&NetworkInfo::MAINNET, Chain::X) {
        if let Ok(addr) = ctx.parse_service(s) {
            assert!(addr.to_string() == s || parse_address(s).is_ok());
        }
    }
    if let Ok(id) = network::network_id(s) {
        assert_eq!(network::network_id(&network::network_name(id)), Ok(id));
    }
});
