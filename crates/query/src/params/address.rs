//! The `addresses` list of the primary-network endpoints.

use std::collections::BTreeMap;

use snowline_types::address::{AddressFormatter, parse_bech32};
use snowline_types::{Chain, ShortId};

use crate::error::{ParamError, echo};

/// The most addresses one request may list unless the caller says otherwise.
pub const DEFAULT_MAX_ADDRESSES: usize = 64;
/// The most bad addresses named in one error message; the rest are counted.
const MAX_NAMED_ERRORS: usize = 5;

/// A parsed, de-duplicated address list: the 20-byte ids sorted by their bytes, with the
/// canonical bech32 string (lower-case, no chain prefix) of each at the same index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressList {
    /// The addresses, sorted by raw bytes, each once.
    pub ids: Vec<ShortId>,
    /// `strings[i]` is the canonical `<hrp>1…` form of `ids[i]`.
    pub strings: Vec<String>,
}

impl AddressList {
    /// The query parameter's name.
    pub const PARAM: &'static str = "addresses";

    /// Parses a comma-separated list of at most [`DEFAULT_MAX_ADDRESSES`] addresses; see
    /// [`AddressList::parse_with_max`].
    pub fn parse(raw: &str, hrp: &str, prefixes: &[Chain]) -> Result<Self, ParamError> {
        Self::parse_with_max(raw, hrp, prefixes, DEFAULT_MAX_ADDRESSES)
    }

    /// Parses a comma-separated list: each entry trimmed of spaces, optionally prefixed with the
    /// alias of one of `prefixes` and `-` (`X-`, `P-`), then a bech32 address with the network's
    /// `hrp` (either case). At most `max` entries; empty entries are errors; duplicates collapse.
    /// Every bad entry is named in the error (the first few, then a count).
    pub fn parse_with_max(
        raw: &str,
        hrp: &str,
        prefixes: &[Chain],
        max: usize,
    ) -> Result<Self, ParamError> {
        let entries: Vec<&str> = raw.split(',').map(|e| e.trim_matches(' ')).collect();
        if entries.len() > max {
            return Err(ParamError::new(
                Self::PARAM,
                format!("must list at most {max} addresses, got {}", entries.len()),
            ));
        }
        let mut found = BTreeMap::new();
        let mut bad = Vec::new();
        for entry in entries {
            match parse_one(entry, hrp, prefixes) {
                Ok(id) => {
                    found.insert(id, ());
                }
                Err(why) => bad.push(format!("{} ({why})", echo(entry))),
            }
        }
        if !bad.is_empty() {
            return Err(ParamError::new(
                Self::PARAM,
                bad_message(&bad, hrp, prefixes),
            ));
        }
        let formatter = AddressFormatter::new("", hrp).map_err(|e| {
            ParamError::new(
                Self::PARAM,
                format!("cannot format addresses with hrp {hrp:?}: {e}"),
            )
        })?;
        let ids: Vec<ShortId> = found.into_keys().collect();
        let strings = ids
            .iter()
            .map(|id| {
                let mut s = String::new();
                formatter.write_bech32(&mut s, id);
                s
            })
            .collect();
        Ok(AddressList { ids, strings })
    }

    /// How many distinct addresses.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none (never true for a parsed list).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// One entry: optional `<alias>-`, then bech32 with `hrp`.
fn parse_one(entry: &str, hrp: &str, prefixes: &[Chain]) -> Result<ShortId, String> {
    if entry.is_empty() {
        return Err("empty entry".to_owned());
    }
    let bech = match entry.split_once('-') {
        Some((alias, rest)) => {
            if !prefixes.iter().any(|c| c.primary_alias() == alias) {
                return Err(format!("prefix {} not accepted here", echo(alias)));
            }
            rest
        }
        None => entry,
    };
    let (got_hrp, id) = parse_bech32(bech).map_err(|e| e.to_string())?;
    if !got_hrp.eq_ignore_ascii_case(hrp) {
        return Err(format!("hrp {got_hrp:?} is not this network's {hrp:?}"));
    }
    Ok(id)
}

/// `invalid addresses: "a" (why), "b" (why) and 3 more; each must be …`.
fn bad_message(bad: &[String], hrp: &str, prefixes: &[Chain]) -> String {
    let named = bad
        .iter()
        .take(MAX_NAMED_ERRORS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let more = match bad.len().saturating_sub(MAX_NAMED_ERRORS) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let prefix_rule = match prefixes {
        [] => String::new(),
        _ => {
            let list: Vec<String> = prefixes
                .iter()
                .map(|c| format!("{}-", c.primary_alias()))
                .collect();
            format!(", optionally prefixed with {}", list.join(" or "))
        }
    };
    format!("each must be a bech32 address with hrp {hrp:?}{prefix_rule}; rejected {named}{more}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use snowline_types::address::format_bech32;

    fn addr(hrp: &str, byte: u8) -> String {
        format_bech32(hrp, &ShortId([byte; 20])).unwrap()
    }

    #[test]
    fn trims_accepts_prefixes_dedups_and_sorts() {
        let raw = format!(
            " X-{} ,{}, P-{},{}",
            addr("avax", 9),
            addr("avax", 1),
            addr("avax", 9),
            addr("avax", 5).to_uppercase()
        );
        let list = AddressList::parse(&raw, "avax", &[Chain::P, Chain::X]).unwrap();
        assert_eq!(
            list.ids,
            [ShortId([1; 20]), ShortId([5; 20]), ShortId([9; 20])]
        );
        assert_eq!(
            list.strings,
            [addr("avax", 1), addr("avax", 5), addr("avax", 9)]
        );
        assert_eq!(list.len(), 3);
    }

    #[test]
    fn prefixes_are_per_endpoint() {
        let raw = format!("P-{}", addr("fuji", 1));
        assert!(AddressList::parse(&raw, "fuji", &[Chain::P]).is_ok());
        let err = AddressList::parse(&raw, "fuji", &[Chain::X]).unwrap_err();
        assert!(
            err.message.contains("prefix \"P\" not accepted here"),
            "{err}"
        );
        assert!(err.message.contains("optionally prefixed with X-"), "{err}");
        assert!(AddressList::parse(&raw, "fuji", &[]).is_err());
    }

    #[test]
    fn every_bad_address_is_named() {
        let raw = format!(
            "{},nope,{},,X-{}",
            addr("avax", 1),
            addr("fuji", 2),
            addr("avax", 3)
        );
        let err = AddressList::parse(&raw, "avax", &[Chain::X]).unwrap_err();
        assert_eq!(err.param, "addresses");
        assert!(err.message.contains("\"nope\" ("), "{err}");
        assert!(
            err.message
                .contains(&format!("{:?} (hrp \"fuji\"", addr("fuji", 2))),
            "{err}"
        );
        assert!(err.message.contains("\"\" (empty entry)"), "{err}");
        assert!(!err.message.contains(&addr("avax", 1)), "{err}");
        let many: Vec<String> = (0..9).map(|i| format!("bad{i}")).collect();
        let err = AddressList::parse(&many.join(","), "avax", &[]).unwrap_err();
        assert!(err.message.ends_with("and 4 more"), "{err}");
    }

    #[test]
    fn the_count_is_bounded() {
        let list: Vec<String> = (0..65u8).map(|i| addr("avax", i)).collect();
        let err = AddressList::parse(&list.join(","), "avax", &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid addresses: must list at most 64 addresses, got 65"
        );
        assert!(AddressList::parse_with_max(&list.join(","), "avax", &[], 65).is_ok());
        assert!(AddressList::parse_with_max(&list[..3].join(","), "avax", &[], 2).is_err());
        assert!(AddressList::parse("", "avax", &[]).is_err());
    }

    proptest! {
        #[test]
        fn any_list_parses_to_its_sorted_distinct_ids(bytes in proptest::collection::vec(any::<[u8; 20]>(), 1..20), dup in any::<prop::sample::Index>()) {
            let mut strings: Vec<String> = bytes.iter().map(|b| format_bech32("local", &ShortId(*b)).unwrap()).collect();
            strings.push(strings[dup.index(strings.len())].clone());
            let list = AddressList::parse(&strings.join(","), "local", &[Chain::X]).unwrap();
            let mut want: Vec<ShortId> = bytes.iter().map(|b| ShortId(*b)).collect();
            want.sort();
            want.dedup();
            prop_assert_eq!(&list.ids, &want);
            for (id, s) in list.ids.iter().zip(&list.strings) {
                prop_assert_eq!(&format_bech32("local", id).unwrap(), s);
            }
        }

        #[test]
        fn arbitrary_input_never_panics(raw in ".{0,200}") {
            let _ = AddressList::parse(&raw, "avax", &[Chain::P, Chain::X]);
        }
    }
}
