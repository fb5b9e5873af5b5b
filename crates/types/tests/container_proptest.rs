//! Container lines and timestamps round-trip; arbitrary text never panics the parser.

use proptest::prelude::*;
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath, format_rfc3339_nano, parse_rfc3339};

proptest! {
    #[test]
    fn timestamps_round_trip(ns in any::<i64>()) {
        prop_assert_eq!(parse_rfc3339(&format_rfc3339_nano(ns)).unwrap(), ns);
    }

    #[test]
    fn lines_round_trip(
        path in 0usize..5,
        id in any::<[u8; 32]>(),
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        ts in any::<i64>(),
        index in proptest::option::of(any::<u64>()),
    ) {
        let r = ContainerRecord { path: IndexPath::ALL[path], id: Id(id), bytes, timestamp_ns: ts };
        let line = r.to_json_line(index);
        let back = ContainerRecord::parse_json_line(&line).unwrap();
        prop_assert_eq!(back.record, r);
        prop_assert_eq!(back.index, index);
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,200}") {
        let _ = ContainerRecord::parse_json_line(&s);
        let _ = parse_rfc3339(&s);
    }
}
