//! Decodes arbitrary bytes as a DAG vertex; on success re-encoding must give the same bytes, the
//! id must be their sha256, and verification must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::Id;
use snowline_types::hashing::sha256;
use snowline_types::vertex::Vertex;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Vertex::parse(data) {
        assert_eq!(p.vertex.bytes(), data);
        assert_eq!(p.id, Id(sha256(data)));
        let _ = p.vertex.verify();
    }
});
