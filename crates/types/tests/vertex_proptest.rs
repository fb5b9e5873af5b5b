//! Vertex parsing never panics and re-encodes what it accepts byte for byte.

use proptest::prelude::*;
use snowline_types::Id;
use snowline_types::vertex::Vertex;

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(p) = Vertex::parse(&bytes) {
            prop_assert_eq!(p.vertex.bytes(), bytes);
        }
    }

    #[test]
    fn built_vertices_parse_back(
        chain in any::<[u8; 32]>(),
        height in any::<u64>(),
        parents in proptest::collection::btree_set(any::<[u8; 32]>(), 0..6),
        txs in proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 0..40), 1..6),
        stop in any::<bool>(),
    ) {
        let parents: Vec<Id> = parents.into_iter().map(Id).collect();
        let built = if stop {
            Vertex::build_stop(Id(chain), height, parents).unwrap()
        } else {
            Vertex::build(Id(chain), height, parents, txs.into_iter().collect()).unwrap()
        };
        let parsed = Vertex::parse(&built.bytes).unwrap();
        prop_assert_eq!(&parsed, &built);
        prop_assert!(parsed.vertex.verify().is_ok());
        // Flipping any one bit of the version or counts never panics.
        for i in 0..built.bytes.len().min(64) {
            let mut b = built.bytes.clone();
            b[i] ^= 0x80;
            let _ = Vertex::parse(&b);
        }
    }
}
