//! Index paths, container JSON lines and Go RFC3339Nano timestamps.

use snowline_types::Id;
use snowline_types::container::{
    ContainerError, ContainerRecord, IndexCounter, IndexPath, TimestampError, format_rfc3339_nano,
    parse_rfc3339,
};
use snowline_types::formatting::HexError;
use snowline_types::hashing::sha256;
use snowline_types::proposervm::{Block, Epoch};

#[test]
fn timestamps_of_the_index_api_examples() {
    // vector: avalanchego indexer/service.md (reference §2.3) container timestamps
    let a = parse_rfc3339("2021-11-04T00:42:55.01643414Z").unwrap();
    assert_eq!(a, 1_635_986_575_016_434_140);
    assert_eq!(format_rfc3339_nano(a), "2021-11-04T00:42:55.01643414Z");
    let b = parse_rfc3339("2021-04-02T15:34:00.262979-07:00").unwrap();
    assert_eq!(b, 1_617_402_840_262_979_000);
    // Rendered in UTC as our service does.
    assert_eq!(format_rfc3339_nano(b), "2021-04-02T22:34:00.262979Z");
}

#[test]
fn go_rfc3339nano_formatting_rules() {
    // vector: Go src/time/format_test.go TestFormat: time.Unix(0, 1233810057012345600) formats
    // with RFC3339Nano as "2009-02-04T21:00:57.0123456-08:00" in PST.
    let t = parse_rfc3339("2009-02-04T21:00:57.0123456-08:00").unwrap();
    assert_eq!(t, 1_233_810_057_012_345_600);
    assert_eq!(format_rfc3339_nano(t), "2009-02-05T05:00:57.0123456Z");
    // Go's ".999999999": trailing zeros dropped, the dot omitted when the fraction is zero.
    assert_eq!(format_rfc3339_nano(0), "1970-01-01T00:00:00Z");
    assert_eq!(format_rfc3339_nano(1), "1970-01-01T00:00:00.000000001Z");
    assert_eq!(format_rfc3339_nano(100_000_000), "1970-01-01T00:00:00.1Z");
    assert_eq!(format_rfc3339_nano(-1), "1969-12-31T23:59:59.999999999Z");
    assert_eq!(
        format_rfc3339_nano(i64::MAX),
        "2262-04-11T23:47:16.854775807Z"
    );
    assert_eq!(
        format_rfc3339_nano(i64::MIN),
        "1677-09-21T00:12:43.145224192Z"
    );
    assert_eq!(
        format_rfc3339_nano(951_782_400 * 1_000_000_000),
        "2000-02-29T00:00:00Z"
    );
}

#[test]
fn rfc3339_parsing_edges() {
    for ns in [0, 1, -1, 42, 1_635_986_575_016_434_140, i64::MAX, i64::MIN] {
        assert_eq!(parse_rfc3339(&format_rfc3339_nano(ns)).unwrap(), ns);
    }
    assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00").unwrap(), 0);
    assert_eq!(
        parse_rfc3339("1970-01-01T00:00:00.5Z").unwrap(),
        500_000_000
    );
    for bad in [
        "",
        "2021-11-04 00:42:55Z",
        "2021-11-04T00:42:55",
        "2021-11-04T00:42:55.Z",
        "2021-11-04T00:42:55.0123456789Z",
        "2021-11-04T00:42:55z",
        "2021-11-04T00:42:55+0100",
        "2021-11-04T00:42:55Zx",
        "21-11-04T00:42:55Z",
    ] {
        assert!(
            matches!(parse_rfc3339(bad), Err(TimestampError::Syntax(_))),
            "{bad}"
        );
    }
    for bad in [
        "2021-13-04T00:00:00Z",
        "2021-04-31T00:00:00Z",
        "2021-02-29T00:00:00Z",
        "2021-01-01T24:00:00Z",
        "2021-01-01T00:60:00Z",
        "2021-01-01T00:00:60Z",
        "2021-01-01T00:00:00+24:00",
    ] {
        assert!(
            matches!(parse_rfc3339(bad), Err(TimestampError::OutOfRange(_))),
            "{bad}"
        );
    }
    assert!(matches!(
        parse_rfc3339("2263-01-01T00:00:00Z"),
        Err(TimestampError::Overflow(_))
    ));
}

#[test]
fn index_paths_parse_and_display() {
    // vector: avalanchego indexer/indexer.go index names (reference §2.1)
    for (p, s) in [
        (IndexPath::XTx, "X/tx"),
        (IndexPath::XBlock, "X/block"),
        (IndexPath::XVtx, "X/vtx"),
        (IndexPath::PBlock, "P/block"),
        (IndexPath::CBlock, "C/block"),
    ] {
        assert_eq!(p.to_string(), s);
        assert_eq!(s.parse::<IndexPath>().unwrap(), p);
    }
    assert!(matches!(
        "x/tx".parse::<IndexPath>(),
        Err(ContainerError::UnknownPath(_))
    ));
}

fn sample() -> ContainerRecord {
    let bytes = vec![0, 0, 1, 2, 3];
    ContainerRecord {
        path: IndexPath::XTx,
        id: Id(sha256(&bytes)),
        bytes,
        timestamp_ns: 1_635_986_575_016_434_140,
    }
}

#[test]
fn json_line_shape_and_round_trip() {
    let r = sample();
    let line = r.to_json_line(Some(7));
    let expected = format!(
        "{{\"path\":\"X/tx\",\"id\":\"{}\",\"bytes\":\"0x0000010203{}\",\"timestamp\":\"2021-11-04T00:42:55.01643414Z\",\"index\":\"7\"}}",
        r.id,
        hex::encode(&sha256(&r.bytes)[28..])
    );
    assert_eq!(line, expected);
    let back = ContainerRecord::parse_json_line(&line).unwrap();
    assert_eq!(back.record, r);
    assert_eq!(back.index, Some(7));
    let no_index = ContainerRecord::parse_json_line(&r.to_json_line(None)).unwrap();
    assert_eq!(no_index.index, None);
    back.record.check_id().unwrap();
}

#[test]
fn json_line_rejections() {
    let r = sample();
    let good = r.to_json_line(None);
    let with = |from: &str, to: &str| good.replacen(from, to, 1);
    assert!(matches!(
        ContainerRecord::parse_json_line(&with("X/tx", "X/txs")),
        Err(ContainerError::UnknownPath(_))
    ));
    assert!(matches!(
        ContainerRecord::parse_json_line(&with("\"bytes\":\"0x", "\"bytes\":\"")),
        Err(ContainerError::Hex(_))
    ));
    assert!(matches!(
        ContainerRecord::parse_json_line(&with("0x0000010203", "0x0000010204")),
        Err(ContainerError::Hex(_))
    ));
    assert!(matches!(
        ContainerRecord::parse_json_line(&with("01643414Z", "01643414")),
        Err(ContainerError::Timestamp(_))
    ));
    let extra = good.replacen('}', ",\"index\":\"-1\"}", 1);
    assert!(matches!(
        ContainerRecord::parse_json_line(&extra),
        Err(ContainerError::Index(_))
    ));
    let numeric = good.replacen('}', ",\"index\":1}", 1);
    assert!(matches!(
        ContainerRecord::parse_json_line(&numeric),
        Err(ContainerError::Json(_))
    ));
    let unknown = good.replacen('}', ",\"idx\":\"1\"}", 1);
    assert!(matches!(
        ContainerRecord::parse_json_line(&unknown),
        Err(ContainerError::Json(_))
    ));
    let enc_ok = good.replacen('}', ",\"encoding\":\"hex\"}", 1);
    assert!(ContainerRecord::parse_json_line(&enc_ok).is_ok());
    let enc_bad = good.replacen('}', ",\"encoding\":\"json\"}", 1);
    assert!(matches!(
        ContainerRecord::parse_json_line(&enc_bad),
        Err(ContainerError::Encoding(_))
    ));
    assert!(matches!(
        ContainerRecord::parse_json_line("[]"),
        Err(ContainerError::Json(_))
    ));
}

#[test]
fn id_checks_follow_the_index() {
    let mut r = sample();
    r.id = Id([9; 32]);
    assert!(matches!(
        r.check_id(),
        Err(ContainerError::IdMismatch { .. })
    ));
    // Proposervm-wrapped blocks use the proposervm id (sha256 without the signature).
    let blk = Block::build_unsigned(Id([1; 32]), 5, 6, Epoch::default(), vec![1, 2, 3]);
    let rec = ContainerRecord {
        path: IndexPath::XBlock,
        id: blk.id,
        bytes: blk.bytes.clone(),
        timestamp_ns: 0,
    };
    rec.check_id().unwrap();
    let c = ContainerRecord {
        path: IndexPath::CBlock,
        id: Id([3; 32]),
        bytes: vec![0xf9, 0x02],
        timestamp_ns: 0,
    };
    assert!(c.candidate_ids().is_empty());
    c.check_id().unwrap();
}

#[test]
fn index_counter_checks_positions_per_path() {
    let r = sample();
    let mut c = IndexCounter::new();
    assert!(c.is_empty());
    let line = |path, index| snowline_types::container::ContainerLine {
        record: ContainerRecord { path, ..r.clone() },
        index,
    };
    assert_eq!(c.assign(&line(IndexPath::XTx, Some(0))).unwrap(), 0);
    assert_eq!(c.assign(&line(IndexPath::XTx, None)).unwrap(), 1);
    assert_eq!(c.assign(&line(IndexPath::XVtx, Some(0))).unwrap(), 0);
    assert!(matches!(
        c.assign(&line(IndexPath::XTx, Some(5))),
        Err(ContainerError::IndexMismatch {
            given: 5,
            expected: 2,
            ..
        })
    ));
    assert_eq!(c.len(IndexPath::XTx), 2);
    assert_eq!(c.len(IndexPath::PBlock), 0);
}

#[test]
fn check_id_accepts_exactly_the_candidate_ids() {
    // The proposervm vectors of avalanchego `vms/proposervm/block/parse_test.go` are covered in
    // proposervm_vectors.rs; here built blocks of each kind, plain bytes, and every path, with
    // each candidate id, the other kind's id and a foreign id.
    let signed_like = Block::build_unsigned(Id([1; 32]), 5, 6, Epoch::default(), vec![1, 2, 3]);
    let option = Block::build_option(Id([2; 32]), vec![4, 5]);
    // The signed block of avalanchego `vms/proposervm/block/parse_test.go` (TestParseBlocks,
    // also in proposervm_vectors.rs): its id leaves out a 512-byte signature.
    let signed = hex::decode(include_str!("proposervm_signed_block.hex")).unwrap();
    let byte_forms = [
        signed_like.bytes,
        option.bytes,
        signed,
        b"not a block".to_vec(),
        Vec::new(),
    ];
    let mut accepted = 0;
    for path in IndexPath::ALL {
        for bytes in &byte_forms {
            let proposervm = Block::parse(bytes).ok().map(|p| p.id);
            let plain = Id(snowline_types::hashing::sha256(bytes));
            for id in [proposervm, Some(plain), Some(Id([7; 32]))]
                .into_iter()
                .flatten()
            {
                let r = ContainerRecord {
                    path,
                    id,
                    bytes: bytes.clone(),
                    timestamp_ns: 0,
                };
                let candidates = r.candidate_ids();
                let want = candidates.is_empty() || candidates.contains(&id);
                assert_eq!(r.check_id().is_ok(), want, "{path} {id}");
                // The one-pass check of checksum and id agrees, with or without a checksum,
                // and a wrong checksum is reported before the id.
                let sum = snowline_types::hashing::checksum(bytes);
                assert_eq!(r.check_sum_and_id(Some(sum)).is_ok(), want, "{path} {id}");
                assert_eq!(r.check_sum_and_id(None).is_ok(), want, "{path} {id}");
                let bad = [sum[0] ^ 1, sum[1], sum[2], sum[3]];
                assert!(matches!(
                    r.check_sum_and_id(Some(bad)),
                    Err(ContainerError::Hex(HexError::BadChecksum))
                ));
                accepted += usize::from(want);
            }
        }
    }
    assert!(accepted > 10, "both outcomes are exercised");
}
