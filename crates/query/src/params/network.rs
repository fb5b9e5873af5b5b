//! The `{network}` and `{blockchainId}` path values.

use std::fmt;

use snowline_types::network::NetworkRefusal;
use snowline_types::{Chain, Id, NetworkInfo};

use super::enums::one_of;
use crate::error::ParamError;

/// A network the service answers for: `mainnet`, `fuji` (also spelled `testnet`), and — an
/// extension for devnets, only where the caller allows it — `local`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Network {
    /// Mainnet.
    Mainnet,
    /// Fuji, the public test network (`fuji` or `testnet`).
    Fuji,
    /// The default local network (id 12345), not part of the Data API.
    Local,
}

impl Network {
    /// The path parameter's name.
    pub const PARAM: &'static str = "network";

    /// Parses the exact spelling; `local` only when `allow_local`.
    pub fn parse(raw: &str, allow_local: bool) -> Result<Network, ParamError> {
        match raw {
            "mainnet" => Ok(Network::Mainnet),
            "fuji" | "testnet" => Ok(Network::Fuji),
            "local" if allow_local => Ok(Network::Local),
            _ => {
                let allowed: &[&str] = if allow_local {
                    &["mainnet", "fuji", "testnet", "local"]
                } else {
                    &["mainnet", "fuji", "testnet"]
                };
                Err(ParamError::invalid(
                    Self::PARAM,
                    one_of(allowed.iter().copied()),
                    raw,
                ))
            }
        }
    }

    /// The canonical name (`mainnet`, `fuji`, `local`).
    pub const fn as_str(self) -> &'static str {
        self.info().name
    }

    /// The network's ids, HRP and chain ids.
    pub const fn info(self) -> &'static NetworkInfo {
        match self {
            Network::Mainnet => &NetworkInfo::MAINNET,
            Network::Fuji => &NetworkInfo::FUJI,
            Network::Local => &NetworkInfo::LOCAL,
        }
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Resolves a `{network}` value against `served`, the network the instance indexes: `local` is
/// a name only where the local network is the one indexed; `fuji` and `testnet` are one network.
pub fn served_network(raw: &str, served: &'static NetworkInfo) -> Result<Network, NetworkRefusal> {
    let allow_local = served.network_id == snowline_types::network::LOCAL_ID;
    let n = Network::parse(raw, allow_local).map_err(|e| NetworkRefusal::Invalid(e.to_string()))?;
    if n.info().network_id != served.network_id {
        return Err(NetworkRefusal::NotIndexed {
            asked: raw.to_owned(),
            indexed: served.name,
        });
    }
    Ok(n)
}

/// The Data API's name of a primary chain (`p-chain`, `x-chain`, `c-chain`).
pub const fn chain_name(chain: Chain) -> &'static str {
    match chain {
        Chain::P => "p-chain",
        Chain::X => "x-chain",
        Chain::C => "c-chain",
    }
}

/// A `{blockchainId}` path value resolved to one of the network's primary chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockchainRef {
    /// Which chain.
    pub chain: Chain,
    /// Its id on the network it was parsed for.
    pub id: Id,
}

impl BlockchainRef {
    /// The path parameter's name.
    pub const PARAM: &'static str = "blockchainId";

    /// Parses `p-chain`/`x-chain`/`c-chain` or the cb58 id of that chain on `network`, accepting
    /// only the chains in `allowed` (an endpoint's list, e.g. X-Chain only for vertices). The
    /// error lists the accepted spellings.
    pub fn parse(raw: &str, network: &NetworkInfo, allowed: &[Chain]) -> Result<Self, ParamError> {
        let as_id = raw.parse::<Id>().ok();
        let chain = Chain::ALL
            .into_iter()
            .find(|c| raw == chain_name(*c) || as_id == Some(network.chain_id(*c)));
        match chain {
            Some(chain) if allowed.contains(&chain) => Ok(BlockchainRef {
                chain,
                id: network.chain_id(chain),
            }),
            _ => {
                let mut spellings = Vec::with_capacity(2 * allowed.len());
                for c in allowed {
                    spellings.push(chain_name(*c).to_owned());
                    spellings.push(network.chain_id(*c).to_string());
                }
                let expected = format!(
                    "{} (a primary chain of {} this endpoint serves)",
                    one_of(spellings.iter().map(String::as_str)),
                    network.name
                );
                Err(ParamError::invalid(Self::PARAM, expected, raw))
            }
        }
    }

    /// The Data API's name of the chain (`x-chain`, …).
    pub const fn name(&self) -> &'static str {
        chain_name(self.chain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_and_the_testnet_alias() {
        assert_eq!(Network::parse("mainnet", false), Ok(Network::Mainnet));
        assert_eq!(Network::parse("fuji", false), Ok(Network::Fuji));
        assert_eq!(Network::parse("testnet", false), Ok(Network::Fuji));
        assert_eq!(Network::parse("local", true), Ok(Network::Local));
        assert_eq!(Network::Fuji.info().network_id, 5);
        assert_eq!(Network::Local.info().hrp, "local");
        let err = Network::parse("local", false).unwrap_err().to_string();
        assert_eq!(
            err,
            r#"Invalid network: must be one of mainnet, fuji, testnet, got "local""#
        );
        for bad in ["Mainnet", "", "network-1", "1"] {
            assert!(Network::parse(bad, true).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_instance_answers_for_the_network_it_indexes_only() {
        let fuji = &NetworkInfo::FUJI;
        assert_eq!(served_network("testnet", fuji), Ok(Network::Fuji));
        assert_eq!(
            served_network("mainnet", fuji).unwrap_err().to_string(),
            "network mainnet is not indexed by this instance (it indexes fuji)"
        );
        // `local` is a name only where the local network is indexed.
        assert!(matches!(
            served_network("local", fuji),
            Err(NetworkRefusal::Invalid(_))
        ));
        let local = &NetworkInfo::LOCAL;
        assert_eq!(served_network("local", local), Ok(Network::Local));
        assert!(matches!(
            served_network("fuji", local),
            Err(NetworkRefusal::NotIndexed { .. })
        ));
        assert!(matches!(
            served_network("Fuji", local),
            Err(NetworkRefusal::Invalid(_))
        ));
    }

    #[test]
    fn blockchain_aliases_and_ids_of_the_network() {
        let m = &NetworkInfo::MAINNET;
        let x = BlockchainRef::parse("x-chain", m, &Chain::ALL).unwrap();
        assert_eq!((x.chain, x.id), (Chain::X, m.x_chain_id));
        let by_id = BlockchainRef::parse(
            "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
            m,
            &Chain::ALL,
        );
        assert_eq!(by_id, Ok(x));
        let p =
            BlockchainRef::parse("11111111111111111111111111111111LpoYY", m, &Chain::ALL).unwrap();
        assert_eq!(p.chain, Chain::P);
        assert_eq!(
            BlockchainRef::parse("c-chain", m, &Chain::ALL)
                .unwrap()
                .name(),
            "c-chain"
        );
        // Fuji's X-Chain id is not a chain of mainnet.
        assert!(
            BlockchainRef::parse(&NetworkInfo::FUJI.x_chain_id.to_string(), m, &Chain::ALL)
                .is_err()
        );
        assert!(BlockchainRef::parse("X", m, &Chain::ALL).is_err());
    }

    #[test]
    fn a_chain_the_endpoint_does_not_serve_names_the_allowed_values() {
        let err = BlockchainRef::parse("p-chain", &NetworkInfo::FUJI, &[Chain::X]).unwrap_err();
        assert_eq!(err.param, "blockchainId");
        assert_eq!(
            err.message,
            r#"must be one of x-chain, 2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm (a primary chain of fuji this endpoint serves), got "p-chain""#
        );
    }
}
