//! The chain registry: which EVM chains this instance serves, per network, for the Data API's
//! `GET /v1/chains` and `GET /v1/chains/{chainId}`, every `chainId` path parameter of its EVM
//! endpoints, and the metrics API's chains.
//!
//! Built in: the C-Chain of mainnet, Fuji and the local network (`default.json`). An operator's
//! file in the same format (an object from network name to a list of `ChainInfo` records) adds
//! chains (EVM L1s) and replaces built-in entries with the same `chainId`.

use std::collections::BTreeMap;

use snowline_types::Id;
use snowline_types::network::NetworkInfo;
use snowline_types::rest::{ApiFeature, ChainRecord};

/// The built-in registry file.
const BUILTIN: &str = include_str!("default.json");

/// Why a registry file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegistryError {
    /// Not JSON of the expected shape.
    #[error("chain registry is not valid: {0}")]
    Parse(String),
    /// A network name other than `mainnet`, `fuji` (`testnet`) or `local`.
    #[error("chain registry: unknown network {0:?} (expected mainnet, fuji, testnet or local)")]
    Network(String),
    /// A record breaks a rule.
    #[error("chain registry: chain {chain_id:?}: {reason}")]
    Record {
        /// The record's `chainId`.
        chain_id: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// Why a `chainId` path value names no chain.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ChainLookupError {
    /// Neither a decimal EVM chain id nor a cb58 blockchain id.
    #[error(
        "Invalid chainId: {0:?} is neither an EVM chain id (decimal) nor a blockchain id (cb58)"
    )]
    Invalid(String),
    /// Well-formed, but not served here.
    #[error("chain {0} is not served by this instance; GET /v1/chains lists the chains it serves")]
    NotFound(String),
}

#[derive(Debug, Clone)]
struct Entry {
    network: &'static NetworkInfo,
    evm_chain_id: u64,
    blockchain_id: Option<Id>,
    record: ChainRecord,
}

/// The EVM chains this instance serves.
#[derive(Debug, Clone)]
pub struct ChainRegistry {
    entries: Vec<Entry>,
}

impl ChainRegistry {
    /// The built-in registry: the C-Chain of mainnet, Fuji and the local network.
    pub fn builtin() -> Result<Self, RegistryError> {
        Self::from_json(BUILTIN)
    }

    /// The built-in registry, merged with the operator's `file` when one is given.
    pub fn builtin_with(file: Option<&std::path::Path>) -> Result<Self, String> {
        let builtin = Self::builtin().map_err(|e| e.to_string())?;
        let Some(file) = file else {
            return Ok(builtin);
        };
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read the chain registry {}: {e}", file.display()))?;
        let extra = Self::from_json(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        Ok(builtin.merged_with(extra))
    }

    /// Parses and validates a registry file.
    pub fn from_json(text: &str) -> Result<Self, RegistryError> {
        let raw: BTreeMap<String, Vec<ChainRecord>> =
            serde_json::from_str(text).map_err(|e| RegistryError::Parse(e.to_string()))?;
        let mut registry = ChainRegistry {
            entries: Vec::new(),
        };
        // Keep a stable order: mainnet, then the test network, then local, then the file's order.
        let mut networks: Vec<(&'static NetworkInfo, Vec<ChainRecord>)> = Vec::new();
        for (name, records) in raw {
            let network = network_named(&name).ok_or(RegistryError::Network(name))?;
            networks.push((network, records));
        }
        networks.sort_by_key(|(n, _)| NetworkInfo::KNOWN.iter().position(|k| *k == *n));
        for (network, records) in networks {
            for record in records {
                registry.insert(network, record)?;
            }
        }
        Ok(registry)
    }

    /// This registry with the chains of `other` added, `other`'s records replacing those with the
    /// same `chainId`.
    pub fn merged_with(mut self, other: ChainRegistry) -> Self {
        for entry in other.entries {
            match self
                .entries
                .iter_mut()
                .find(|e| e.evm_chain_id == entry.evm_chain_id)
            {
                Some(slot) => *slot = entry,
                None => self.entries.push(entry),
            }
        }
        self
    }

    /// Adds `record` to the chains of network `network` (`mainnet`, `fuji`, `testnet`, `local`),
    /// with the checks a registry file's records get.
    pub fn add(&mut self, network: &str, record: ChainRecord) -> Result<(), RegistryError> {
        let info = network_named(network).ok_or_else(|| RegistryError::Network(network.into()))?;
        self.insert(info, record)
    }

    fn insert(
        &mut self,
        network: &'static NetworkInfo,
        record: ChainRecord,
    ) -> Result<(), RegistryError> {
        let bad = |reason: String| RegistryError::Record {
            chain_id: record.chain_id.clone(),
            reason,
        };
        let evm_chain_id = parse_evm_chain_id(&record.chain_id)
            .ok_or_else(|| bad("chainId must be a non-zero decimal integer".into()))?;
        if self.entries.iter().any(|e| e.evm_chain_id == evm_chain_id) {
            return Err(bad("listed twice".into()));
        }
        let blockchain_id = match &record.platform_chain_id {
            Some(raw) => Some(
                raw.parse::<Id>()
                    .map_err(|e| bad(format!("platformChainId {raw:?}: {e}")))?,
            ),
            None => None,
        };
        for (field, value) in [("subnetId", &record.subnet_id), ("vmId", &record.vm_id)] {
            if let Some(raw) = value {
                raw.parse::<Id>()
                    .map_err(|e| bad(format!("{field} {raw:?}: {e}")))?;
            }
        }
        if record.rpc_url.is_empty() {
            return Err(bad("rpcUrl is empty".into()));
        }
        if network.network_id == NetworkInfo::MAINNET.network_id && record.is_testnet {
            return Err(bad("a mainnet chain cannot have isTestnet true".into()));
        }
        if network.network_id != NetworkInfo::MAINNET.network_id && !record.is_testnet {
            return Err(bad(format!(
                "a {} chain must have isTestnet true",
                network.name
            )));
        }
        if let Some(id) = blockchain_id {
            if self.entries.iter().any(|e| e.blockchain_id == Some(id)) {
                return Err(bad(format!("platformChainId {id} is listed twice")));
            }
        }
        self.entries.push(Entry {
            network,
            evm_chain_id,
            blockchain_id,
            record,
        });
        Ok(())
    }

    /// The chains of `network` (all networks when `None`) that have `feature` (any when `None`),
    /// in registry order.
    pub fn list<'a>(
        &'a self,
        network: Option<&'a NetworkInfo>,
        feature: Option<ApiFeature>,
    ) -> impl Iterator<Item = &'a ChainRecord> + 'a {
        self.entries
            .iter()
            .filter(move |e| network.is_none_or(|n| e.network.network_id == n.network_id))
            .filter(move |e| feature.is_none_or(|f| e.record.enabled_features.contains(&f)))
            .map(|e| &e.record)
    }

    /// The chain a `chainId` path value names: a decimal EVM chain id, or the chain's blockchain id.
    pub fn lookup(&self, chain_ref: &str) -> Result<&ChainRecord, ChainLookupError> {
        self.lookup_entry(chain_ref).map(|e| &e.record)
    }

    fn lookup_entry(&self, chain_ref: &str) -> Result<&Entry, ChainLookupError> {
        let not_found = || ChainLookupError::NotFound(chain_ref.to_owned());
        if !chain_ref.is_empty() && chain_ref.bytes().all(|b| b.is_ascii_digit()) {
            let id = chain_ref.parse::<u64>().map_err(|_| not_found())?;
            return self
                .entries
                .iter()
                .find(|e| e.evm_chain_id == id)
                .ok_or_else(not_found);
        }
        let id = chain_ref
            .parse::<Id>()
            .map_err(|_| ChainLookupError::Invalid(truncate(chain_ref, 64)))?;
        self.entries
            .iter()
            .find(|e| e.blockchain_id == Some(id))
            .ok_or_else(not_found)
    }

    /// Number of chains.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no chain is served.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

fn network_named(name: &str) -> Option<&'static NetworkInfo> {
    match name {
        "mainnet" => Some(&NetworkInfo::MAINNET),
        "fuji" | "testnet" => Some(&NetworkInfo::FUJI),
        "local" => Some(&NetworkInfo::LOCAL),
        _ => None,
    }
}

fn parse_evm_chain_id(raw: &str) -> Option<u64> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) || raw.starts_with('0') {
        return None;
    }
    raw.parse().ok().filter(|id| *id != 0)
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operators_file_adds_and_replaces_chains_and_its_faults_name_it() {
        let dir = tempfile::tempdir().unwrap();
        let builtin = ChainRegistry::builtin().unwrap();
        assert_eq!(
            ChainRegistry::builtin_with(None)
                .unwrap()
                .list(None, None)
                .count(),
            builtin.list(None, None).count()
        );
        let missing = dir.path().join("missing.json");
        let err = ChainRegistry::builtin_with(Some(&missing)).unwrap_err();
        assert!(err.starts_with("cannot read the chain registry"), "{err}");
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{\"atlantis\": []}").unwrap();
        let err = ChainRegistry::builtin_with(Some(&bad)).unwrap_err();
        assert!(
            err.contains("bad.json") && err.contains("atlantis"),
            "{err}"
        );
        // The built-in local C-Chain, renamed by the operator's file: same chainId, replaced.
        let local = builtin.lookup("43112").unwrap().clone();
        let renamed = ChainRecord {
            chain_name: "my local C-Chain".into(),
            ..local
        };
        let file = dir.path().join("chains.json");
        let text = serde_json::json!({ "local": [renamed] }).to_string();
        std::fs::write(&file, text).unwrap();
        let merged = ChainRegistry::builtin_with(Some(&file)).unwrap();
        assert_eq!(
            merged.lookup("43112").unwrap().chain_name,
            "my local C-Chain"
        );
        assert_eq!(
            merged.list(None, None).count(),
            builtin.list(None, None).count()
        );
    }

    #[test]
    fn the_builtin_registry_names_each_networks_c_chain_by_both_ids() {
        let r = ChainRegistry::builtin().unwrap();
        for (evm, net) in [
            ("43114", &NetworkInfo::MAINNET),
            ("43113", &NetworkInfo::FUJI),
            ("43112", &NetworkInfo::LOCAL),
        ] {
            let by_evm = r.lookup(evm).unwrap();
            // The C-Chain's blockchain id is the network's well-known one (types::network).
            let by_id = r.lookup(&net.c_chain_id.to_string()).unwrap();
            assert_eq!(by_evm, by_id);
            assert_eq!(by_evm.platform_chain_id, Some(net.c_chain_id.to_string()));
        }
        assert_eq!(r.list(Some(&NetworkInfo::MAINNET), None).count(), 1);
        assert_eq!(r.list(None, None).count(), 3);
        assert_eq!(r.list(None, Some(ApiFeature::NftIndexing)).count(), 0);
    }

    #[test]
    fn lookups_tell_malformed_from_unknown() {
        let r = ChainRegistry::builtin().unwrap();
        assert_eq!(
            r.lookup("99999"),
            Err(ChainLookupError::NotFound("99999".into()))
        );
        assert_eq!(
            r.lookup("184467440737095516160"),
            Err(ChainLookupError::NotFound("184467440737095516160".into()))
        );
        assert!(matches!(
            r.lookup("0xa86a"),
            Err(ChainLookupError::Invalid(_))
        ));
        assert!(matches!(r.lookup(""), Err(ChainLookupError::Invalid(_))));
        let unknown_id = Id([7; 32]).to_string();
        assert_eq!(
            r.lookup(&unknown_id),
            Err(ChainLookupError::NotFound(unknown_id.clone()))
        );
    }

    #[test]
    fn an_operator_file_adds_l1s_and_overrides_builtins() {
        let file = r#"{
          "fuji": [
            {"chainId": "43113", "chainName": "My Fuji C", "description": "d",
             "rpcUrl": "http://node:9650/ext/bc/C/rpc", "isTestnet": true,
             "networkToken": {"name": "Avalanche", "symbol": "AVAX", "decimals": 18}},
            {"chainId": "779672", "chainName": "Dispatch", "description": "an L1",
             "platformChainId": "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY",
             "rpcUrl": "http://node:9650/ext/bc/x/rpc", "isTestnet": true,
             "enabledFeatures": ["teleporter"],
             "networkToken": {"name": "Dispatch", "symbol": "DIS", "decimals": 18}}
          ]
        }"#;
        let r = ChainRegistry::builtin()
            .unwrap()
            .merged_with(ChainRegistry::from_json(file).unwrap());
        assert_eq!(r.len(), 4);
        assert_eq!(r.lookup("43113").unwrap().chain_name, "My Fuji C");
        let fuji: Vec<_> = r.list(Some(&NetworkInfo::FUJI), None).collect();
        assert_eq!(fuji.len(), 2);
        let teleporter: Vec<_> = r.list(None, Some(ApiFeature::Teleporter)).collect();
        assert_eq!(teleporter.len(), 1);
        assert_eq!(teleporter[0].chain_id, "779672");
        assert_eq!(
            r.lookup("2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY")
                .unwrap()
                .chain_id,
            "779672"
        );
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let rec = |id: &str, testnet: bool, extra: &str| {
            format!(
                r#"{{"chainId": "{id}", "chainName": "n", "description": "d", "rpcUrl": "u",
                   "isTestnet": {testnet}, {extra}
                   "networkToken": {{"name": "A", "symbol": "A", "decimals": 18}}}}"#
            )
        };
        let cases = [
            (
                format!(r#"{{"devnet": [{}]}}"#, rec("1", true, "")),
                "unknown network",
            ),
            (
                format!(r#"{{"mainnet": [{}]}}"#, rec("01", false, "")),
                "decimal",
            ),
            (
                format!(r#"{{"mainnet": [{}]}}"#, rec("1", true, "")),
                "isTestnet",
            ),
            (
                format!(r#"{{"fuji": [{}]}}"#, rec("1", false, "")),
                "isTestnet",
            ),
            (
                format!(
                    r#"{{"fuji": [{}, {}]}}"#,
                    rec("5", true, ""),
                    rec("5", true, "")
                ),
                "twice",
            ),
            (
                format!(r#"{{"fuji": [{}]}}"#, rec("5", true, r#""vmId": "nope","#)),
                "vmId",
            ),
            (
                r#"{"fuji": [{"chainId": "5"}]}"#.to_owned(),
                "missing field",
            ),
            ("[]".to_owned(), "not valid"),
        ];
        for (text, needle) in cases {
            let err = ChainRegistry::from_json(&text).unwrap_err().to_string();
            assert!(err.contains(needle), "{err:?} should mention {needle:?}");
        }
    }
}
