//! Identifiers in path and query values: EVM addresses and hashes, node ids, cb58 ids, hex
//! payloads, comma-separated lists of them.

use snowline_types::{Id, NodeId};

use crate::error::ParamError;

/// Most entries a comma-separated id list (`nodeIds`) may hold.
pub const MAX_LIST: usize = 64;

fn hex_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// An EVM address: `0x` and 40 hex digits (any case).
pub fn evm_address(param: &str, raw: &str) -> Result<[u8; 20], ParamError> {
    let bad = || ParamError::invalid(param, "must be an EVM address (0x and 40 hex digits)", raw);
    let digits = raw
        .strip_prefix("0x")
        .or_else(|| raw.strip_prefix("0X"))
        .ok_or_else(bad)?;
    if digits.len() != 40 || !hex_digits(digits) {
        return Err(bad());
    }
    let mut out = [0u8; 20];
    hex::decode_to_slice(digits, &mut out).map_err(|_| bad())?;
    Ok(out)
}

/// A 32-byte EVM hash: `0x` and 64 hex digits.
pub fn evm_hash(param: &str, raw: &str) -> Result<[u8; 32], ParamError> {
    let bad = || ParamError::invalid(param, "must be a hash (0x and 64 hex digits)", raw);
    let digits = raw
        .strip_prefix("0x")
        .or_else(|| raw.strip_prefix("0X"))
        .ok_or_else(bad)?;
    if digits.len() != 64 || !hex_digits(digits) {
        return Err(bad());
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(digits, &mut out).map_err(|_| bad())?;
    Ok(out)
}

/// A block: a decimal height or a `0x` hash (`blockId` of the EVM block endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockRef {
    /// By height.
    Number(u64),
    /// By hash.
    Hash([u8; 32]),
}

/// Parses a [`BlockRef`].
pub fn block_ref(param: &str, raw: &str) -> Result<BlockRef, ParamError> {
    if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) {
        return raw.parse().map(BlockRef::Number).map_err(|_| {
            ParamError::invalid(param, "must be a block number or a 0x block hash", raw)
        });
    }
    evm_hash(param, raw)
        .map(BlockRef::Hash)
        .map_err(|_| ParamError::invalid(param, "must be a block number or a 0x block hash", raw))
}

/// A cb58 id (a tx, blockchain, subnet or validation id).
pub fn cb58_id(param: &str, raw: &str) -> Result<Id, ParamError> {
    raw.parse::<Id>()
        .map_err(|_| ParamError::invalid(param, "must be an id in cb58", raw))
}

/// An id given as cb58 or as hex (`0x` optional): `signingSubnetId`.
pub fn cb58_or_hex_id(param: &str, raw: &str) -> Result<Id, ParamError> {
    let digits = raw.strip_prefix("0x").unwrap_or(raw);
    if digits.len() == 64 && hex_digits(digits) {
        let mut out = [0u8; 32];
        if hex::decode_to_slice(digits, &mut out).is_ok() {
            return Ok(Id(out));
        }
    }
    raw.parse::<Id>()
        .map_err(|_| ParamError::invalid(param, "must be an id in cb58 or 64 hex digits", raw))
}

/// A node id: `NodeID-` and cb58.
pub fn node_id(param: &str, raw: &str) -> Result<NodeId, ParamError> {
    raw.parse::<NodeId>()
        .map_err(|_| ParamError::invalid(param, "must be a node id (NodeID- and cb58)", raw))
}

/// A comma-separated list of node ids (at most [`MAX_LIST`]), duplicates removed.
pub fn node_ids(param: &str, raw: &str) -> Result<Vec<NodeId>, ParamError> {
    let entries: Vec<&str> = raw.split(',').map(str::trim).collect();
    if entries.len() > MAX_LIST {
        return Err(ParamError::new(
            param,
            format!("at most {MAX_LIST} entries, got {}", entries.len()),
        ));
    }
    let mut out: Vec<NodeId> = entries
        .into_iter()
        .map(|e| node_id(param, e))
        .collect::<Result<_, _>>()?;
    out.sort_by_key(|n| n.0.0);
    out.dedup();
    Ok(out)
}

/// Hex bytes with an optional `0x` prefix and an even number of digits (a Warp message or a
/// justification).
pub fn hex_payload(param: &str, raw: &str) -> Result<Vec<u8>, ParamError> {
    let digits = raw.strip_prefix("0x").unwrap_or(raw);
    hex::decode(digits).map_err(|_| {
        ParamError::invalid(
            param,
            "must be hex (an even number of digits, 0x optional)",
            raw,
        )
    })
}

/// A chain named by its EVM chain id (decimal) or its blockchain id (cb58), as ICM filters take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainRef {
    /// An EVM chain id.
    Evm(u64),
    /// A blockchain id.
    Blockchain(Id),
}

/// Parses a [`ChainRef`].
pub fn chain_ref(param: &str, raw: &str) -> Result<ChainRef, ParamError> {
    if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) {
        return raw.parse().map(ChainRef::Evm).map_err(|_| {
            ParamError::invalid(
                param,
                "must be an EVM chain id or a blockchain id (cb58)",
                raw,
            )
        });
    }
    raw.parse::<Id>().map(ChainRef::Blockchain).map_err(|_| {
        ParamError::invalid(
            param,
            "must be an EVM chain id or a blockchain id (cb58)",
            raw,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evm_addresses_and_hashes() {
        let a = evm_address("address", "0x71C7656EC7ab88b098defB751B7401B5f6d8976F").unwrap();
        assert_eq!(a[0], 0x71);
        assert_eq!(a[19], 0x6f);
        for bad in [
            "71C7656EC7ab88b098defB751B7401B5f6d8976F",
            "0x71C7",
            "0xzz",
            "",
            "0x",
        ] {
            let e = evm_address("address", bad).unwrap_err().to_string();
            assert!(
                e.starts_with("Invalid address: must be an EVM address"),
                "{e}"
            );
        }
        let h = format!("0x{}", "ab".repeat(32));
        assert_eq!(evm_hash("txHash", &h).unwrap(), [0xab; 32]);
        assert!(evm_hash("txHash", &h[..65]).is_err());
        assert_eq!(block_ref("blockId", "42").unwrap(), BlockRef::Number(42));
        assert_eq!(
            block_ref("blockId", &h).unwrap(),
            BlockRef::Hash([0xab; 32])
        );
        for bad in ["-1", "0x12", "18446744073709551616", "latest"] {
            assert!(block_ref("blockId", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_node_ids_and_payloads() {
        // avalanchego ids/node_id_test.go: "NodeID-111111111111111111116DBWJs" is the empty id.
        assert_eq!(
            node_id("nodeId", "NodeID-111111111111111111116DBWJs").unwrap(),
            NodeId::default()
        );
        assert!(node_id("nodeId", "111111111111111111116DBWJs").is_err());
        let list = node_ids(
            "nodeIds",
            "NodeID-111111111111111111116DBWJs, NodeID-111111111111111111116DBWJs",
        )
        .unwrap();
        assert_eq!(list.len(), 1);
        assert!(node_ids("nodeIds", "NodeID-x,").is_err());
        let empty = "11111111111111111111111111111111LpoYY";
        assert_eq!(cb58_id("txHash", empty).unwrap(), Id::EMPTY);
        assert_eq!(cb58_or_hex_id("signingSubnetId", empty).unwrap(), Id::EMPTY);
        assert_eq!(
            cb58_or_hex_id("signingSubnetId", &format!("0x{}", "00".repeat(32))).unwrap(),
            Id::EMPTY
        );
        assert!(cb58_or_hex_id("signingSubnetId", "0x00").is_err());
        assert_eq!(hex_payload("message", "0x0a0B").unwrap(), vec![10, 11]);
        assert_eq!(hex_payload("message", "0a0b").unwrap(), vec![10, 11]);
        assert!(hex_payload("message", "0x0").is_err());
        assert!(hex_payload("message", "xyz").is_err());
        assert_eq!(
            chain_ref("sourceBlockchainId", "43114").unwrap(),
            ChainRef::Evm(43114)
        );
        assert_eq!(
            chain_ref("sourceBlockchainId", empty).unwrap(),
            ChainRef::Blockchain(Id::EMPTY)
        );
        assert!(chain_ref("sourceBlockchainId", "0xa86a").is_err());
    }
}
