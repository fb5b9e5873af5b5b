//! Parses arbitrary text as a container JSON line; whatever parses must write back to a line that
//! parses to the same record, and the id check must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::container::{ContainerRecord, parse_rfc3339};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_rfc3339(text);
    if let Ok(line) = ContainerRecord::parse_json_line(text) {
        let again = ContainerRecord::parse_json_line(&line.record.to_json_line(line.index));
        assert_eq!(again.ok(), Some(line.clone()));
        let _ = line.record.check_id();
    }
});
