//! The canonical Warp validator set (avalanchego `snow/validators/warp.go`
//! `FlattenValidatorSet`): the order signer bitsets index into, so it must match the verifier's.

use std::collections::HashMap;

use snowline_types::NodeId;

use crate::bls::{PUBLIC_KEY_UNCOMPRESSED_LEN, PublicKey};

/// One node of a validator set as the P-Chain reports it (`GetValidatorOutput`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeValidator {
    /// The node.
    pub node_id: NodeId,
    /// Its BLS key; `None` when it registered none (it then cannot sign).
    pub public_key: Option<PublicKey>,
    /// Its weight.
    pub weight: u64,
}

/// A validator of the canonical set: every node sharing one BLS key, merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalValidator {
    /// The shared BLS key.
    pub public_key: PublicKey,
    /// Its uncompressed bytes, the sort key.
    pub public_key_bytes: [u8; PUBLIC_KEY_UNCOMPRESSED_LEN],
    /// Sum of the merged nodes' weights.
    pub weight: u64,
    /// The merged nodes, in input order; any of them can answer for the validator.
    pub node_ids: Vec<NodeId>,
}

/// The canonical validators and the total weight, which counts validators without a key too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CanonicalSet {
    /// Validators with a BLS key, sorted by uncompressed key bytes.
    pub validators: Vec<CanonicalValidator>,
    /// Weight of every input node, with or without a key.
    pub total_weight: u64,
}

/// Why a validator set cannot be flattened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ValidatorSetError {
    /// The weights sum past `u64::MAX` (`math.Add` overflow).
    #[error("overflow")]
    WeightOverflow,
}

impl CanonicalSet {
    /// Flattens nodes into the canonical set: nodes without a key are left out but their
    /// weight stays in the total, nodes sharing a key are merged (weights summed, node ids
    /// appended), the result is sorted by the uncompressed key bytes.
    pub fn flatten(
        nodes: impl IntoIterator<Item = NodeValidator>,
    ) -> Result<Self, ValidatorSetError> {
        let mut total: u64 = 0;
        let mut by_key: HashMap<[u8; PUBLIC_KEY_UNCOMPRESSED_LEN], usize> = HashMap::new();
        let mut validators: Vec<CanonicalValidator> = Vec::new();
        for node in nodes {
            total = total
                .checked_add(node.weight)
                .ok_or(ValidatorSetError::WeightOverflow)?;
            let Some(public_key) = node.public_key else {
                continue;
            };
            let key = public_key.to_uncompressed();
            match by_key.get(&key).and_then(|&i| validators.get_mut(i)) {
                Some(v) => {
                    // Cannot overflow: bounded by `total`, which was checked.
                    v.weight = v.weight.saturating_add(node.weight);
                    v.node_ids.push(node.node_id);
                }
                None => {
                    by_key.insert(key, validators.len());
                    validators.push(CanonicalValidator {
                        public_key,
                        public_key_bytes: key,
                        weight: node.weight,
                        node_ids: vec![node.node_id],
                    });
                }
            }
        }
        validators.sort_by_key(|v| v.public_key_bytes);
        Ok(Self {
            validators,
            total_weight: total,
        })
    }

    /// Number of canonical validators (those with a key).
    pub fn len(&self) -> usize {
        self.validators.len()
    }

    /// Whether no validator has a key.
    pub fn is_empty(&self) -> bool {
        self.validators.is_empty()
    }

    /// The canonical index of the validator `node` belongs to.
    pub fn index_of_node(&self, node: &NodeId) -> Option<usize> {
        self.validators
            .iter()
            .position(|v| v.node_ids.contains(node))
    }

    /// The summed weight of the validators at `indices` (u128: cannot overflow).
    pub fn weight_of(&self, indices: impl IntoIterator<Item = usize>) -> u128 {
        indices
            .into_iter()
            .filter_map(|i| self.validators.get(i))
            .map(|v| u128::from(v.weight))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use snowline_devnet::nodes::DevnetNode;

    fn key(i: u32) -> PublicKey {
        PublicKey::from_compressed(&DevnetNode::new(11, i).unwrap().bls_public_key).unwrap()
    }

    fn node(id: u8, public_key: Option<PublicKey>, weight: u64) -> NodeValidator {
        NodeValidator {
            node_id: NodeId::from([id; 20]),
            public_key,
            weight,
        }
    }

    // Rules of `FlattenValidatorSet` in avalanchego `snow/validators/warp.go`: every node's
    // weight is added to TotalWeight (with overflow check) before the nil-key skip; keys are
    // grouped by `PublicKeyToUncompressedBytes`; the list is sorted with `bytes.Compare` on
    // those uncompressed bytes.
    #[test]
    fn flatten_follows_warp_go() {
        let (k0, k1, k2) = (key(0), key(1), key(2));
        let set = CanonicalSet::flatten([
            node(1, Some(k0), 10),
            node(2, None, 1000),
            node(3, Some(k1), 20),
            node(4, Some(k0), 5),
            node(5, Some(k2), 7),
        ])
        .unwrap();
        assert_eq!(set.total_weight, 1042);
        assert_eq!(set.len(), 3);
        // Sorted by uncompressed bytes, strictly increasing.
        for w in set.validators.windows(2) {
            assert!(w[0].public_key_bytes < w[1].public_key_bytes);
        }
        let merged = set.validators.iter().find(|v| v.public_key == k0).unwrap();
        assert_eq!(merged.weight, 15);
        assert_eq!(
            merged.node_ids,
            vec![NodeId::from([1; 20]), NodeId::from([4; 20])]
        );
        assert_eq!(set.index_of_node(&NodeId::from([2; 20])), None);
        let i4 = set.index_of_node(&NodeId::from([4; 20])).unwrap();
        assert_eq!(set.validators[i4].public_key, k0);
        assert_eq!(set.weight_of(0..3), 42);
    }

    #[test]
    fn order_is_by_uncompressed_not_compressed_bytes() {
        // Over many keys the two orders differ; the set must follow the uncompressed one.
        let keys: Vec<PublicKey> = (0..24).map(key).collect();
        let set = CanonicalSet::flatten(
            keys.iter()
                .enumerate()
                .map(|(i, k)| node(i as u8, Some(*k), 1)),
        )
        .unwrap();
        let mut by_uncompressed: Vec<_> = keys.iter().map(|k| k.to_uncompressed()).collect();
        by_uncompressed.sort();
        let got: Vec<_> = set.validators.iter().map(|v| v.public_key_bytes).collect();
        assert_eq!(got, by_uncompressed);
        let mut by_compressed = keys.clone();
        by_compressed.sort_by_key(|k| k.to_compressed());
        let compressed_order: Vec<_> = by_compressed.iter().map(|k| k.to_uncompressed()).collect();
        assert_ne!(
            compressed_order, got,
            "the fixture should tell the two orders apart"
        );
    }

    #[test]
    fn overflow_is_an_error_even_without_keys() {
        let err = CanonicalSet::flatten([node(1, None, u64::MAX), node(2, None, 1)]);
        assert_eq!(err, Err(ValidatorSetError::WeightOverflow));
        let ok =
            CanonicalSet::flatten([node(1, None, u64::MAX - 1), node(2, Some(key(0)), 1)]).unwrap();
        assert_eq!(ok.total_weight, u64::MAX);
        assert_eq!(ok.validators[0].weight, 1);
    }

    #[test]
    fn empty_input_gives_empty_set() {
        let set = CanonicalSet::flatten([]).unwrap();
        assert!(set.is_empty());
        assert_eq!(set.total_weight, 0);
    }
}
