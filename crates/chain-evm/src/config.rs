//! Which EVM chains to index and from where: `CHAIN_ID=URL` flags and a JSON file of sources.
//! A source names its chain by EVM chain id; a chain the chain registry does not list yet can
//! be described in the file (network, name, blockchain id, native token) and is added to it.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Deserializer};
use snowline_types::evm::Address;
use snowline_types::rest::evm_balances::TokenReputation;
use snowline_types::rest::{ChainRecord, ChainStatus, NetworkToken, VmName};

use crate::genesis::{Genesis, GenesisLookup, GenesisOrigin, parse_alloc};

/// One EVM chain to index.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvmSourceConfig {
    /// Its EVM chain id (`eth_chainId` must answer it), a number or a decimal string.
    #[serde(deserialize_with = "chain_id")]
    pub chain_id: u64,
    /// The node's JSON-RPC URL (`http://host:9650/ext/bc/C/rpc`, an L1's, an anvil's).
    pub rpc_url: String,
    /// The URL `/v1/chains` shows for the chain's RPC. Without it the listing shows `rpcUrl` with
    /// any credentials, query and fragment removed: a key carried in the path needs this.
    #[serde(default)]
    pub public_rpc_url: Option<String>,
    /// The first block to index when the store holds none of the chain (0: the whole chain).
    #[serde(default)]
    pub start_block: u64,
    /// The network the chain belongs to (`mainnet`, `fuji`, `local`): with `chainName` and
    /// `networkToken`, lists a chain the registry does not know.
    #[serde(default)]
    pub network: Option<String>,
    /// The chain's name in listings.
    #[serde(default)]
    pub chain_name: Option<String>,
    /// Its blockchain id on the P-Chain (cb58), so `{chainId}` can name it that way too.
    #[serde(default)]
    pub blockchain_id: Option<String>,
    /// Its native token.
    #[serde(default)]
    pub network_token: Option<NetworkToken>,
    /// The accounts its genesis funds (the keys of the genesis file's `alloc`): no block names
    /// them, so their balances are read at block 0.
    #[serde(default)]
    pub genesis_accounts: Vec<Address>,
    /// The chain's genesis document (coreth's / subnet-evm's genesis JSON, whose `alloc` is
    /// read): preferred to `genesisAccounts` and to the genesis the P-Chain index holds.
    #[serde(default)]
    pub genesis_file: Option<std::path::PathBuf>,
    /// The operator's token reputation list: `Malicious` or `Benign` per token contract.
    /// Balance listings show it as `tokenReputation` and `filterSpamTokens` hides the
    /// malicious ones; a token not listed has no known reputation.
    #[serde(default)]
    pub token_reputation: BTreeMap<Address, TokenReputation>,
}

/// The shape of a sources file: `{"chains": [EvmSourceConfig, ...]}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SourcesFile {
    chains: Vec<EvmSourceConfig>,
}

fn chain_id<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Number(u64),
        Text(String),
    }
    let id = match Id::deserialize(d)? {
        Id::Number(n) => n,
        Id::Text(s) => s.parse().map_err(|_| {
            serde::de::Error::custom(format!("chainId {s:?} is not a decimal integer"))
        })?,
    };
    if id == 0 {
        return Err(serde::de::Error::custom("chainId must not be 0"));
    }
    Ok(id)
}

impl EvmSourceConfig {
    /// A source given as `CHAIN_ID=URL` (the chain must be in the registry).
    pub fn parse_flag(s: &str) -> Result<Self, String> {
        let (id, url) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?}: expected CHAIN_ID=RPC_URL"))?;
        let chain_id = id
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{s:?}: {id:?} is not an EVM chain id"))?;
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!(
                "{s:?}: the RPC URL must start with http:// or https://"
            ));
        }
        Ok(Self {
            chain_id,
            rpc_url: url.to_owned(),
            public_rpc_url: None,
            start_block: 0,
            network: None,
            chain_name: None,
            blockchain_id: None,
            network_token: None,
            genesis_accounts: Vec::new(),
            genesis_file: None,
            token_reputation: BTreeMap::new(),
        })
    }

    /// What the source says of the chain's genesis allocation: its genesis file, else its
    /// listed accounts, else `pchain` (the genesis bytes of the chain's `CreateChainTx`, looked
    /// up when block 0 is derived), else unknown. A genesis file that cannot be read or does not
    /// parse is an error.
    pub fn genesis(&self, pchain: Option<GenesisLookup>) -> Result<Genesis, String> {
        if let Some(path) = &self.genesis_file {
            let bytes = std::fs::read(path).map_err(|e| {
                format!(
                    "chain {}: cannot read genesisFile {}: {e}",
                    self.chain_id,
                    path.display()
                )
            })?;
            let alloc = parse_alloc(&bytes).map_err(|e| {
                format!(
                    "chain {}: genesisFile {}: {e}",
                    self.chain_id,
                    path.display()
                )
            })?;
            return Ok(Genesis::Alloc(GenesisOrigin::File, alloc));
        }
        if !self.genesis_accounts.is_empty() {
            return Ok(Genesis::Accounts(self.genesis_accounts.clone()));
        }
        Ok(pchain.map_or(Genesis::Unknown, Genesis::Lookup))
    }

    /// The sources listed in the JSON file at `path`.
    pub fn load(path: &Path) -> Result<Vec<Self>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the EVM sources {}: {e}", path.display()))?;
        Self::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The sources of a sources file's text.
    pub fn parse_file(text: &str) -> Result<Vec<Self>, String> {
        let file: SourcesFile =
            serde_json::from_str(text).map_err(|e| format!("not a valid sources file: {e}"))?;
        let mut seen = std::collections::BTreeSet::new();
        for c in &file.chains {
            if !seen.insert(c.chain_id) {
                return Err(format!("chain {} is listed twice", c.chain_id));
            }
        }
        Ok(file.chains)
    }

    /// The chain's registry record and network name, when the source describes the chain
    /// (`network` given); `chainName` and `networkToken` are then required.
    pub fn listing(&self) -> Option<Result<(String, ChainRecord), String>> {
        let network = self.network.clone()?;
        let missing =
            |what: &str| format!("chain {}: {what} is required with network", self.chain_id);
        Some((|| {
            let chain_name = self
                .chain_name
                .clone()
                .ok_or_else(|| missing("chainName"))?;
            let network_token = self
                .network_token
                .clone()
                .ok_or_else(|| missing("networkToken"))?;
            Ok((
                network.clone(),
                ChainRecord {
                    chain_id: self.chain_id.to_string(),
                    status: ChainStatus::Ok,
                    description: format!("{chain_name}, indexed from its node's JSON-RPC."),
                    chain_name,
                    platform_chain_id: self.blockchain_id.clone(),
                    subnet_id: None,
                    vm_id: None,
                    vm_name: VmName::Evm,
                    explorer_url: None,
                    rpc_url: self.listed_rpc_url(),
                    ws_url: None,
                    is_testnet: network != "mainnet",
                    utility_addresses: None,
                    network_token,
                    chain_logo_uri: None,
                    private: None,
                    enabled_features: Vec::new(),
                },
            ))
        })())
    }

    /// The RPC URL a listing may show: `publicRpcUrl`, or `rpcUrl` without what may be secret
    /// (`user:password@`, `?query`, `#fragment`).
    pub fn listed_rpc_url(&self) -> String {
        if let Some(url) = &self.public_rpc_url {
            return url.clone();
        }
        let url = self.rpc_url.as_str();
        let url = url.split(['?', '#']).next().unwrap_or(url);
        let Some((scheme, rest)) = url.split_once("://") else {
            return url.to_owned();
        };
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let host = authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host);
        format!("{scheme}://{host}{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_never_show_credentials() {
        let listed = |url: &str, public: Option<&str>| {
            let mut s = EvmSourceConfig::parse_flag(&format!("5={url}"))?;
            s.public_rpc_url = public.map(str::to_owned);
            Ok::<_, String>(s.listed_rpc_url())
        };
        let plain = "http://node:9650/ext/bc/C/rpc";
        assert_eq!(listed(plain, None).as_deref(), Ok(plain));
        assert_eq!(
            listed("https://u:secret@node:9650/ext/bc/C/rpc?token=k#f", None).as_deref(),
            Ok("https://node:9650/ext/bc/C/rpc")
        );
        assert_eq!(
            listed("https://rpc.example/v3/KEY", Some("https://rpc.example")).as_deref(),
            Ok("https://rpc.example")
        );
    }

    #[test]
    fn flags_name_a_chain_and_a_url() {
        let s = EvmSourceConfig::parse_flag("43112=http://127.0.0.1:9650/ext/bc/C/rpc");
        assert_eq!(s.as_ref().map(|s| s.chain_id), Ok(43112));
        assert_eq!(
            s.map(|s| s.rpc_url),
            Ok("http://127.0.0.1:9650/ext/bc/C/rpc".to_owned())
        );
        for bad in [
            "43112",
            "x=http://a",
            "0=http://a",
            "1=ftp://a",
            "=http://a",
        ] {
            assert!(EvmSourceConfig::parse_flag(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn files_list_sources_and_describe_new_chains() {
        let text = r#"{"chains": [
            {"chainId": "43112", "rpcUrl": "http://a"},
            {"chainId": 99999, "rpcUrl": "http://b", "startBlock": 7, "network": "local",
             "chainName": "Snow L1", "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}}
        ]}"#;
        let sources = EvmSourceConfig::parse_file(text).unwrap_or_default();
        assert_eq!(sources.len(), 2);
        assert!(sources[0].listing().is_none());
        assert_eq!(sources[1].start_block, 7);
        let listed = sources[1].listing().and_then(Result::ok);
        let (network, record) = listed.unwrap_or_else(|| panic!("no listing"));
        assert_eq!(network, "local");
        assert_eq!(record.chain_id, "99999");
        assert!(record.is_testnet);
        assert_eq!(record.network_token.symbol, "SNOW");

        let incomplete =
            r#"{"chains": [{"chainId": 5, "rpcUrl": "http://b", "network": "local"}]}"#;
        let s = EvmSourceConfig::parse_file(incomplete).unwrap_or_default();
        assert!(matches!(s[0].listing(), Some(Err(e)) if e.contains("chainName")));
        for bad in [
            r#"{"chains": [{"chainId": "0x1", "rpcUrl": "http://a"}]}"#,
            r#"{"chains": [{"chainId": 0, "rpcUrl": "http://a"}]}"#,
            r#"{"chains": [{"chainId": 1, "rpcUrl": "http://a", "colour": 1}]}"#,
            r#"{"chains": [{"chainId": 1, "rpcUrl": "a"}, {"chainId": "1", "rpcUrl": "b"}]}"#,
        ] {
            assert!(EvmSourceConfig::parse_file(bad).is_err(), "{bad}");
        }
    }
}
