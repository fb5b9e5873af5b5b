//! Token holders of the metrics service's Looking Glass end to end: the real `data-api` indexing
//! both recorded devnet chains and serving the metrics API (`--metrics-listen`);
//! `nfts:listHolders` (`getNftHoldersByContractAddress`) and `/balances`
//! (`getAddressesByBalanceOverTime`) compared with the holders this test sums from the recorded
//! `Transfer` / `TransferSingle` / `TransferBatch` logs (`snowline_evm_devnet::model`, which decodes
//! them with nothing of the indexer's code), block times read from the recorded blocks, for every
//! collection and ERC-20, several thresholds and time windows, and page sizes 1 and 1000.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::looking_glass::{after_each_block, all_pages, checksum, serve};
use common::request;
use snowline_evm_devnet::model::{RecordingModel, q};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, U256};

#[test]
fn holders_are_those_the_recorded_logs_give() {
    let dir = tempfile::tempdir().unwrap();
    let chains = [C_CHAIN_ID, L1_CHAIN_ID];
    let (_rt, urls) = common::replays(&chains.map(|c| (c, recording_path(c))));
    let (_api, metrics) = serve(dir.path(), &urls, |_| {}, &[]);
    for chain in chains {
        let m = RecordingModel::load(&recording_path(chain));
        let transfers = m.transfers();
        let times: Vec<u64> = m.blocks.iter().map(|b| q(&b.block["timestamp"])).collect();
        let by_block = after_each_block(&m, &transfers);
        let last = by_block.last().unwrap();

        // NFT collections: each holder now with the number of its tokens (ERC-1155 amounts
        // summed), the holders and the ids held counted.
        let collections: BTreeSet<Address> = transfers
            .iter()
            .filter(|t| t.standard != 20)
            .map(|t| t.token)
            .collect();
        assert!(!collections.is_empty());
        for c in &collections {
            let mut held: BTreeMap<String, U256> = BTreeMap::new();
            let mut ids = BTreeSet::new();
            for ((owner, token, id), v) in last {
                if token == c && !v.is_zero() {
                    *held.entry(checksum(owner)).or_default() += *v;
                    ids.insert(*id);
                }
            }
            let want: Vec<(String, String)> = held
                .iter()
                .map(|(a, v)| (a.clone(), v.to_string()))
                .collect();
            for size in [1, 1000] {
                let path = format!(
                    "/v2/chains/{chain}/contracts/{}/nfts:listHolders?pageSize={size}",
                    checksum(c)
                );
                let (got, first) = all_pages(&metrics, &path);
                // By address: the model's map orders checksummed strings; compare as sets in
                // the service's (byte) order.
                let mut sorted = want.clone();
                sorted.sort_by_key(|(a, _)| a.to_lowercase());
                assert_eq!(got, sorted, "{path}");
                assert_eq!(first["totalHolders"], held.len(), "{path}");
                assert_eq!(first["totalTokens"], ids.len(), "{path}");
                assert!(first["nftCollectionName"].is_string() && first["nftSymbol"].is_string());
            }
        }

        // ERC-20s: the holders whose balance was at least the threshold after some block timed
        // within the window, or entering it, with their balance after its last block.
        let erc20s: BTreeSet<Address> = transfers
            .iter()
            .filter(|t| t.standard == 20)
            .map(|t| t.token)
            .collect();
        assert!(!erc20s.is_empty());
        let (t0, tn) = (times[0], *times.last().unwrap());
        let mid = t0 + (tn - t0) / 2;
        // How many answers listed someone, and how many listed fewer holders than ever held.
        let (mut listed, mut fewer) = (0, 0);
        for token in &erc20s {
            let holders: BTreeSet<Address> = by_block
                .iter()
                .flat_map(|b| b.keys())
                .filter(|(_, t, _)| t == token)
                .map(|(o, _, _)| *o)
                .collect();
            let balance = |o: &Address, n: usize| {
                by_block[n]
                    .get(&(*o, *token, U256::ZERO))
                    .copied()
                    .unwrap_or_default()
            };
            let amounts: BTreeSet<U256> = by_block
                .iter()
                .flat_map(|b| b.iter())
                .filter(|((_, t, _), _)| t == token)
                .map(|(_, v)| *v)
                .collect();
            let median = amounts.iter().nth(amounts.len() / 2).copied().unwrap();
            for threshold in [U256::from(1u8), median] {
                for (from, to) in [(0, u64::MAX), (mid, tn), (t0, mid), (tn + 1, u64::MAX)] {
                    let window: Vec<usize> = (0..times.len())
                        .filter(|n| from <= times[*n] && times[*n] <= to)
                        .collect();
                    let mut want: Vec<(String, String)> = Vec::new();
                    if let (Some(&s), Some(&e)) = (window.first(), window.last()) {
                        for o in &holders {
                            let entering =
                                s.checked_sub(1).map(|p| balance(o, p)).unwrap_or_default();
                            let reached = entering >= threshold
                                || (s..=e).any(|n| balance(o, n) >= threshold);
                            if reached {
                                want.push((checksum(o), balance(o, e).to_string()));
                            }
                        }
                    }
                    want.sort_by_key(|(a, _)| a.to_lowercase());
                    listed += usize::from(!want.is_empty());
                    fewer += usize::from(!want.is_empty() && want.len() < holders.len());
                    for size in [1, 1000] {
                        let mut path = format!(
                            "/v2/chains/{chain}/contracts/{}/balances?threshold={threshold}&pageSize={size}&startTimestamp={from}",
                            checksum(token)
                        );
                        if to != u64::MAX {
                            path.push_str(&format!("&endTimestamp={to}"));
                        }
                        let (got, _) = all_pages(&metrics, &path);
                        assert_eq!(got, want, "{path}");
                    }
                }
            }
        }
        assert!(listed > 0 && fewer > 0, "{listed} {fewer}");
        // Bad input: a 400 naming the parameter.
        let token = checksum(erc20s.iter().next().unwrap());
        for (path, name) in [
            (
                format!("/v2/chains/{chain}/contracts/{token}/balances"),
                "threshold",
            ),
            (
                format!("/v2/chains/{chain}/contracts/{token}/balances?threshold=x"),
                "threshold",
            ),
            (
                format!("/v2/chains/{chain}/contracts/0x12/balances?threshold=1"),
                "address",
            ),
            (
                format!("/v2/chains/{chain}/contracts/{token}/nfts:listHolders?pageSize=5001"),
                "pageSize",
            ),
            (
                format!(
                    "/v2/chains/{chain}/contracts/{token}/balances?threshold=1&startTimestamp=5&endTimestamp=4"
                ),
                "startTimestamp",
            ),
        ] {
            let r = request(&metrics, "GET", &path, &[], "");
            assert_eq!(r.status, 400, "{path}: {}", r.body);
            assert!(r.body.contains(name), "{path}: {}", r.body);
        }
    }
}
