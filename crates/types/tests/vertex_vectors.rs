//! DAG vertex layout, ids and validity rules.
//!
//! avalanchego's vertex tests (`snow/engine/avalanche/vertex/parser_test.go`, `builder_test.go`,
//! `stateless_vertex_test.go`) build vertices in memory and compare structs; they carry no byte
//! vectors. So the expected bytes below are written out field by field from the serialize tags
//! of `innerStatelessVertex` (`stateless_vertex.go`: V0 = chainID, height, epoch, parentIDs, txs;
//! V1 = chainID, height, parentIDs) and the linear codec (`codec/linearcodec`), using the inputs
//! of those Go tests.

use snowline_types::Id;
use snowline_types::codec::CodecError;
use snowline_types::hashing::sha256;
use snowline_types::vertex::{MAX_PARENTS, MAX_TXS, MAX_VERTEX_SIZE, Vertex, VertexError};

fn id(first: u8) -> Id {
    let mut b = [0u8; 32];
    b[0] = first;
    Id(b)
}

/// The bytes of the vertex of `TestParseValid` (chainID {1}, height 2, parents {4},{5},
/// txs {6},{7}), laid out by hand.
fn parse_valid_bytes() -> Vec<u8> {
    let mut v = vec![0x00, 0x00]; // codec version 0
    v.extend_from_slice(&id(1).0); // chainID
    v.extend_from_slice(&2u64.to_be_bytes()); // height
    v.extend_from_slice(&0u32.to_be_bytes()); // epoch
    v.extend_from_slice(&2u32.to_be_bytes()); // parent count
    v.extend_from_slice(&id(4).0);
    v.extend_from_slice(&id(5).0);
    v.extend_from_slice(&2u32.to_be_bytes()); // tx count
    v.extend_from_slice(&[0, 0, 0, 1, 6]); // sha256([6]) = 6758… < sha256([7]) = ca35…
    v.extend_from_slice(&[0, 0, 0, 1, 7]);
    v
}

#[test]
fn build_matches_the_hand_written_layout() {
    // vector: avalanchego snow/engine/avalanche/vertex/parser_test.go TestParseValid inputs
    let built = Vertex::build(id(1), 2, vec![id(5), id(4)], vec![vec![7], vec![6]]).unwrap();
    let expected = parse_valid_bytes();
    assert_eq!(built.bytes, expected);
    assert_eq!(built.id, Id(sha256(&expected)));
    // Build sorts parents ascending and txs by hash (builder_test.go TestBuildValid).
    assert_eq!(built.vertex.parent_ids, vec![id(4), id(5)]);
    assert_eq!(built.vertex.txs, vec![vec![6], vec![7]]);
}

#[test]
fn parse_round_trips_byte_for_byte() {
    // vector: avalanchego snow/engine/avalanche/vertex/parser_test.go TestParseValid
    let bytes = parse_valid_bytes();
    let p = Vertex::parse(&bytes).unwrap();
    assert!(!p.vertex.stop);
    assert_eq!(p.vertex.version(), 0);
    assert_eq!(p.vertex.chain_id, id(1));
    assert_eq!(p.vertex.height, 2);
    assert_eq!(p.vertex.epoch, 0);
    assert_eq!(p.vertex.parent_ids, vec![id(4), id(5)]);
    assert_eq!(p.vertex.txs, vec![vec![6], vec![7]]);
    assert_eq!(p.id, Id(sha256(&bytes)));
    assert_eq!(p.vertex.bytes(), bytes);
    assert_eq!(p.tx_ids(), vec![Id(sha256(&[6])), Id(sha256(&[7]))]);
    p.vertex.verify().unwrap();
}

#[test]
fn stop_vertex_keeps_parents_but_has_no_epoch_or_txs() {
    // layout: avalanchego snow/engine/avalanche/vertex/stateless_vertex.go serializeV1 tags
    let built = Vertex::build_stop(id(1), 3, vec![id(5), id(4)]).unwrap();
    let mut expected = vec![0x00, 0x01]; // CodecVersionWithStopVtx
    expected.extend_from_slice(&id(1).0);
    expected.extend_from_slice(&3u64.to_be_bytes());
    expected.extend_from_slice(&2u32.to_be_bytes());
    expected.extend_from_slice(&id(4).0);
    expected.extend_from_slice(&id(5).0);
    assert_eq!(built.bytes, expected);
    assert_eq!(built.id, Id(sha256(&expected)));
    let p = Vertex::parse(&expected).unwrap();
    assert!(p.vertex.stop);
    assert_eq!(p.vertex.version(), 1);
    assert!(p.vertex.txs.is_empty());
    assert_eq!(p.vertex.bytes(), expected);
    p.vertex.verify().unwrap();
    // A stop vertex with no parents is also valid (an empty DAG).
    assert!(Vertex::build_stop(id(1), 0, vec![]).is_ok());
}

#[test]
fn parse_rejects_unknown_versions_short_and_trailing_input() {
    // vector: avalanchego snow/engine/avalanche/vertex/parser_test.go TestParseInvalid
    assert_eq!(
        Vertex::parse(&[1, 2, 3, 4, 5]).unwrap_err(),
        CodecError::UnknownVersion(0x0102)
    );
    assert!(matches!(
        Vertex::parse(&[]),
        Err(CodecError::UnexpectedEof { .. })
    ));
    let mut bytes = parse_valid_bytes();
    bytes.push(0);
    assert_eq!(
        Vertex::parse(&bytes).unwrap_err(),
        CodecError::TrailingBytes(1)
    );
    let bytes = parse_valid_bytes();
    for cut in 0..bytes.len() {
        assert!(Vertex::parse(&bytes[..cut]).is_err(), "prefix {cut}");
    }
    // A huge count cannot make the parser allocate: it is checked against what remains.
    let mut huge = vec![0, 0];
    huge.extend_from_slice(&[0u8; 32 + 8 + 4]);
    huge.extend_from_slice(&u32::MAX.to_be_bytes());
    assert!(matches!(
        Vertex::parse(&huge),
        Err(CodecError::CountTooLarge { .. })
    ));
    let too_big = vec![0u8; MAX_VERTEX_SIZE + 1];
    assert!(matches!(
        Vertex::parse(&too_big),
        Err(CodecError::TooLarge { .. })
    ));
}

fn plain(parent_ids: Vec<Id>, txs: Vec<Vec<u8>>) -> Vertex {
    Vertex {
        stop: false,
        chain_id: Id::EMPTY,
        height: 0,
        epoch: 0,
        parent_ids,
        txs,
    }
}

#[test]
fn verify_follows_stateless_vertex_test() {
    // vector: avalanchego snow/engine/avalanche/vertex/stateless_vertex_test.go TestVertexVerify
    let too_many_parents: Vec<Id> = (0..=MAX_PARENTS).map(|i| id(i as u8)).collect();
    let too_many_txs: Vec<Vec<u8>> = (0..=MAX_TXS).map(|i| vec![i as u8]).collect();
    let cases: Vec<(&str, Vertex, Result<(), VertexError>)> = vec![
        (
            "zero vertex",
            Vertex::default(),
            Err(VertexError::NoOperations),
        ),
        ("valid vertex", plain(vec![], vec![vec![]]), Ok(())),
        (
            "invalid vertex epoch",
            Vertex {
                epoch: 1,
                ..plain(vec![], vec![vec![]])
            },
            Err(VertexError::BadEpoch),
        ),
        (
            "too many vertex parents",
            plain(too_many_parents, vec![vec![]]),
            Err(VertexError::TooManyParentIds),
        ),
        (
            "no vertex txs",
            plain(vec![], vec![]),
            Err(VertexError::NoOperations),
        ),
        (
            "too many vertex txs",
            plain(vec![], too_many_txs),
            Err(VertexError::TooManyTxs),
        ),
        (
            "unsorted vertex parents",
            plain(vec![id(1), id(0)], vec![vec![]]),
            Err(VertexError::InvalidParents),
        ),
        (
            "unsorted vertex txs",
            plain(vec![], vec![vec![0], vec![1]]),
            Err(VertexError::InvalidTxs),
        ),
        (
            "duplicate vertex parents",
            plain(vec![id(0), id(0)], vec![vec![]]),
            Err(VertexError::InvalidParents),
        ),
        (
            "duplicate vertex txs",
            plain(vec![], vec![vec![0], vec![0]]),
            Err(VertexError::InvalidTxs),
        ),
    ];
    for (name, vtx, want) in cases {
        assert_eq!(vtx.verify(), want, "{name}");
    }
}

#[test]
fn stop_vertex_rules() {
    // vector: avalanchego snow/engine/avalanche/vertex/stateless_vertex.go verifyStopVertex
    let stop = |parent_ids: Vec<Id>, txs: Vec<Vec<u8>>| Vertex {
        stop: true,
        ..plain(parent_ids, txs)
    };
    assert_eq!(stop(vec![], vec![]).verify(), Ok(()));
    assert_eq!(
        stop(vec![], vec![vec![1]]).verify(),
        Err(VertexError::TooManyTxs)
    );
    assert_eq!(
        stop(vec![id(1), id(0)], vec![]).verify(),
        Err(VertexError::InvalidParents)
    );
    assert_eq!(
        Vertex {
            epoch: 2,
            ..stop(vec![], vec![])
        }
        .verify(),
        Err(VertexError::BadEpoch)
    );
}

#[test]
fn build_rejects_duplicate_txs() {
    // vector: avalanchego snow/engine/avalanche/vertex/builder_test.go TestBuildDuplicateTxs
    assert_eq!(
        Vertex::build(id(1), 2, vec![id(4), id(5)], vec![vec![6], vec![6]]).unwrap_err(),
        VertexError::InvalidTxs
    );
}

#[test]
fn error_messages_are_avalanchegos() {
    // vector: avalanchego snow/engine/avalanche/vertex/stateless_vertex.go error values
    assert_eq!(
        VertexError::TooManyParentIds.to_string(),
        "vertex contains more than 128 parentIDs"
    );
    assert_eq!(
        VertexError::InvalidTxs.to_string(),
        "vertex contains non-sorted or duplicated transactions"
    );
    assert_eq!(
        VertexError::NoOperations.to_string(),
        "vertex contains no operations"
    );
}

#[test]
fn tx_offsets_point_at_each_tx_in_the_encoding() {
    // vector: avalanchego snow/engine/avalanche/vertex/parser_test.go TestParseValid: the two
    // txs sit after the 4-byte tx count (offset 118) as u32 length + byte.
    let bytes = parse_valid_bytes();
    let p = Vertex::parse(&bytes).unwrap();
    assert_eq!(p.vertex.tx_offsets(), vec![122, 127]);
    // Several parents and longer txs, and a stop vertex (no txs at all).
    let built = Vertex::build(
        id(9),
        7,
        vec![id(1), id(2), id(3)],
        vec![vec![1; 40], vec![2; 3], vec![3; 300]],
    )
    .unwrap();
    let offsets = built.vertex.tx_offsets();
    assert_eq!(offsets.len(), 3);
    for (tx, at) in built.vertex.txs.iter().zip(offsets) {
        assert_eq!(&built.bytes[at..at + tx.len()], tx.as_slice());
    }
    let stop = Vertex::build_stop(id(9), 7, vec![id(1)]).unwrap();
    assert!(stop.vertex.tx_offsets().is_empty());
}
