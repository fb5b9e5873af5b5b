//! The C-Chain's blocks in the Primary Network's block operations end to end: a devnet served
//! as a node would serve it, `data-api` following it, and `getBlockById` (by number, `0x` hash
//! and container id), `listLatestPrimaryNetworkBlocks` and `listPrimaryNetworkBlocksByNodeId`
//! on `c-chain` equal what the devnet's `C/block` containers say, read here: the proposervm
//! wrapper (`vms/proposervm/block`: its id, parent, signer's certificate, timestamp, P-Chain
//! height) around the coreth block (`graft/coreth/plugin/evm/customtypes/block_ext.go`: its
//! header's hash, parent, number and time, its atomic txs in the extra data). The devnet's C
//! blocks are signed by the genesis validators in turn, so every node has blocks to list.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::{follow, has_null, upstream};
use serde_json::{Value, json};
use snowline_types::container::IndexPath;
use snowline_types::coreth::AtomicBlock;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::proposervm;
use snowline_types::{Id, NodeId};

const C: &str = "/v1/networks/local/blockchains/c-chain";

/// A C-Chain block as its container says.
struct MBlock {
    number: u64,
    id: Id,
    hash: String,
    time: u64,
    node: Option<NodeId>,
    record: Value,
}

#[test]
fn c_chain_blocks_by_id_latest_and_node_equal_the_containers() {
    let up = upstream::start(4, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 4, 120);
    let network_id = snowline_types::network::NetworkInfo::LOCAL.network_id;
    let mut blocks: Vec<MBlock> = Vec::new();
    for r in up.records.iter().filter(|r| r.path == IndexPath::CBlock) {
        let outer = proposervm::Block::parse(&r.bytes).unwrap();
        assert_eq!(outer.id, r.id);
        let (ts, p_height) = match &outer.block {
            proposervm::Block::Stateless(s) => (s.timestamp, s.p_chain_height),
            proposervm::Block::Option { .. } => panic!("the devnet's C blocks are not options"),
        };
        let node = outer.block.proposer();
        let c = AtomicBlock::from_container(&r.bytes, network_id).unwrap();
        let txs: Vec<String> = c.txs.iter().map(|t| t.id.to_string()).collect();
        let hash = encode_hex_plain(&c.block.hash);
        let mut proposer = json!({
            "proposerId": r.id.to_string(),
            "proposerParentId": outer.block.parent_id().to_string(),
            "proposerPChainHeight": p_height,
            "proposerTimestamp": ts,
        });
        if let Some(n) = node {
            proposer["proposerNodeId"] = json!(n.to_string());
        }
        let record = json!({
            "blockNumber": c.block.number().to_string(),
            "blockHash": hash,
            "parentHash": encode_hex_plain(&c.block.parent_hash()),
            "blockTimestamp": c.block.timestamp(),
            "blockType": "Block",
            "txCount": txs.len(),
            "transactions": txs,
            "blockSizeBytes": r.bytes.len(),
            "proposerDetails": proposer,
        });
        blocks.push(MBlock {
            number: c.block.number(),
            id: r.id,
            hash,
            time: c.block.timestamp(),
            node,
            record,
        });
    }
    blocks.sort_by_key(|b| b.number);
    assert!(blocks.len() >= 10, "{} C blocks", blocks.len());
    let nodes: BTreeSet<NodeId> = blocks.iter().filter_map(|b| b.node).collect();
    assert!(
        nodes.len() >= 2,
        "the devnet's C blocks name proposers: {nodes:?}"
    );
    let last = &blocks.last().unwrap().hash;
    assert!(api.wait_until(120, |a| a.get(&format!("{C}/blocks/{last}")).status == 200));
    // By number, by hash, by the container's id: the same record.
    for b in &blocks {
        for key in [b.number.to_string(), b.hash.clone(), b.id.to_string()] {
            let v = api.get(&format!("{C}/blocks/{key}")).json();
            assert_eq!(v, b.record, "{key}");
            assert!(!has_null(&v), "{v}");
        }
    }
    api.get(&format!("{C}/blocks/0x{}", "ab".repeat(32)))
        .error(404, "Not Found");
    api.get(&format!("{C}/blocks/{}", Id([5; 32])))
        .error(404, "Not Found");
    api.get(&format!("{C}/blocks/99999999"))
        .error(404, "Not Found");
    let m = api
        .get(&format!("{C}/blocks/0x12"))
        .error(400, "Bad Request");
    assert!(m.contains("blockId"), "{m}");
    // Latest, newest first, in windows, every page size.
    let hashes = |path: &str| -> Vec<Value> {
        let (items, sizes) = common::paged(&api, path, "blocks");
        let size: usize = path
            .split("pageSize=")
            .nth(1)
            .and_then(|s| s.split('&').next())
            .map_or(10, |s| s.parse().unwrap());
        common::assert_full_pages(path, &sizes, size);
        items
    };
    let (t1, t2) = (
        blocks[blocks.len() / 3].time,
        blocks[blocks.len() * 2 / 3].time,
    );
    for (start, end) in [
        (None, None),
        (Some(t1), Some(t2)),
        (None, Some(t2)),
        (Some(t1), None),
    ] {
        let inside =
            |b: &&MBlock| start.is_none_or(|s| b.time >= s) && end.is_none_or(|e| b.time < e);
        let want: Vec<Value> = blocks
            .iter()
            .rev()
            .filter(inside)
            .map(|b| b.record.clone())
            .collect();
        assert!(!want.is_empty());
        let mut q = String::new();
        if let Some(s) = start {
            q.push_str(&format!("&startTimestamp={s}"));
        }
        if let Some(e) = end {
            q.push_str(&format!("&endTimestamp={e}"));
        }
        for size in [1, 3, 100] {
            let path = format!("{C}/blocks?pageSize={size}{q}");
            assert_eq!(hashes(&path), want, "{path}");
        }
        // By each node that signed a wrapper, and by one that signed none.
        for n in nodes
            .iter()
            .map(|n| n.to_string())
            .chain(["NodeID-111111111111111111116DBWJs".to_owned()])
        {
            let want: Vec<Value> = blocks
                .iter()
                .rev()
                .filter(inside)
                .filter(|b| b.node.map(|x| x.to_string()) == Some(n.clone()))
                .map(|b| b.record.clone())
                .collect();
            for size in [1, 100] {
                let path = format!("{C}/nodes/{n}/blocks?pageSize={size}{q}");
                assert_eq!(hashes(&path), want, "{path}");
            }
        }
    }
    let first = api.get(&format!("{C}/blocks?pageSize=1")).json();
    assert_eq!(
        first["chainInfo"],
        json!({"chainName": "c-chain", "network": "local"})
    );
    // A token of the latest listing is not one of a node's.
    let token = first["nextPageToken"].as_str().unwrap();
    let n = nodes.iter().next().unwrap();
    api.get(&format!("{C}/nodes/{n}/blocks?pageToken={token}"))
        .error(400, "Bad Request");
    api.get(&format!("{C}/nodes/NodeID-x/blocks"))
        .error(400, "Bad Request");
}
