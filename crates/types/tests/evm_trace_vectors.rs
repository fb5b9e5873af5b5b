//! `callTracer` output read into `snowline_types::evm::trace` and flattened into internal
//! transactions, on coreth's tracer test data (`fixtures/evm/calltracer-*.json`: the `result`
//! of ava-labs/coreth `eth/tracers/internal/tracetest/testdata/call_tracer/<name>.json`).
//! Expected frames are read off the fixtures by hand.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_types::evm::{
    Address, B256, CallFrame, CallKind, TraceEntry, U256, internal_transactions,
};
use snowline_types::rest::InternalTxType;

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

fn frame(raw: &str) -> CallFrame<'_> {
    serde_json::from_str(raw).unwrap()
}

#[test]
fn simple_value_call_is_listed() {
    // call_tracer/simple.json: CALL (value 0) -> CALL 0x3b87...→0x0024... value 0x6f05b59d3b20000.
    let f = frame(include_str!("fixtures/evm/calltracer-simple.json"));
    let list = internal_transactions(&f);
    assert_eq!(list.len(), 1);
    let c = &list[0];
    assert_eq!(c.depth, 1);
    assert_eq!(c.kind, CallKind::Call);
    assert_eq!(c.internal_tx_type(), InternalTxType::Call);
    assert_eq!(c.from, addr("0x3b873a919aa0512d5a0f09e6dcceaa4a6727fafe"));
    assert_eq!(
        c.to,
        Some(addr("0x0024f658a46fbb89d8ac105e98d7ac7cbbaf27c5"))
    );
    assert_eq!(c.value, U256::from(0x6f05b59d3b20000u64));
    assert_eq!((c.gas_limit, c.gas_used), (0x6d05, 0));
    assert!(!c.reverted);
}

#[test]
fn reverted_root_reverts_its_value_transfer() {
    // call_tracer/inner_throw_outer_revert.json: the root CALL moves 0xe92596fd6290000 and ends
    // in "execution reverted"; its child (value 0, invalid opcode) is not listed.
    let f = frame(include_str!(
        "fixtures/evm/calltracer-inner_throw_outer_revert.json"
    ));
    assert_eq!(f.error.as_deref(), Some("execution reverted"));
    let list = internal_transactions(&f);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].depth, 0);
    assert_eq!(list[0].value, U256::from(0xe92596fd6290000u64));
    assert!(list[0].reverted);
}

#[test]
fn failed_creation_has_no_address() {
    // call_tracer/inner_create_oog_outer_throw.json: root CALL (value 0) fails; its CREATE
    // child runs out of gas and has no `to`.
    let f = frame(include_str!(
        "fixtures/evm/calltracer-inner_create_oog_outer_throw.json"
    ));
    let list = internal_transactions(&f);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].kind, CallKind::Create);
    assert_eq!(list[0].to, None);
    assert_eq!(list[0].depth, 1);
    assert!(list[0].reverted);
    assert_eq!(
        list[0].from,
        addr("0x1d3ddf7caf024f253487e18bc4a15b1a360c170a")
    );
}

#[test]
fn a_successful_frame_under_a_reverted_one_is_reverted() {
    // call_tracer/inner_revert_reason.json: root CREATE (reverted, no `to`) -> CREATE (ok) and
    // STATICCALL (reverted, with revertReason). Both creations listed, both reverted.
    let f = frame(include_str!(
        "fixtures/evm/calltracer-inner_revert_reason.json"
    ));
    assert_eq!(f.revert_reason.as_deref(), Some("This called failed"));
    assert_eq!(f.calls[1].kind, CallKind::StaticCall);
    assert_eq!(f.calls[1].value, None);
    assert_eq!(f.calls[0].error, None);
    let list = internal_transactions(&f);
    let kinds: Vec<_> = list.iter().map(|c| (c.kind, c.depth, c.reverted)).collect();
    assert_eq!(
        kinds,
        [(CallKind::Create, 0, true), (CallKind::Create, 1, true)]
    );
    assert_eq!(list[0].to, None);
    assert_eq!(
        list[1].to,
        Some(addr("0xd15abca351f79181dedfb6d019e382db90f3628a"))
    );
}

#[test]
fn delegatecall_and_selfdestruct_are_not_listed() {
    // call_tracer/delegatecall.json: CALL -> CALL -> DELEGATECALL, all value 0.
    let f = frame(include_str!("fixtures/evm/calltracer-delegatecall.json"));
    assert_eq!(f.calls[0].calls[0].kind, CallKind::DelegateCall);
    assert!(internal_transactions(&f).is_empty());
    // call_tracer/selfdestruct.json: CALL -> SELFDESTRUCT (value 0x4d87094125a369d9bd5).
    let f = frame(include_str!("fixtures/evm/calltracer-selfdestruct.json"));
    assert_eq!(f.calls[0].kind, CallKind::SelfDestruct);
    assert_eq!(
        InternalTxType::from(CallKind::SelfDestruct),
        InternalTxType::Unknown
    );
    assert!(internal_transactions(&f).is_empty());
}

#[test]
fn deep_tree_reads_every_frame_in_order() {
    // call_tracer/deep_calls.json: 29 frames, all value 0 (so none listed); the reader keeps
    // them all: counted here from the text ("type" once per frame).
    let raw = include_str!("fixtures/evm/calltracer-deep_calls.json");
    let f = frame(raw);
    fn count(f: &CallFrame<'_>) -> usize {
        1 + f.calls.iter().map(count).sum::<usize>()
    }
    assert_eq!(count(&f), raw.matches("\"type\"").count());
    assert!(internal_transactions(&f).is_empty());
}

#[test]
fn depth_first_order_and_value_filter() {
    // A tree shaped after call_tracer/simple.json with value-moving frames at several depths
    // and a CREATE2: the listing is pre-order (parent before children, children in order).
    let raw = r#"{"type":"CALL","from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002","value":"0x1","gas":"0x10","gasUsed":"0x5","input":"0x",
      "calls":[
        {"type":"CALL","from":"0x0000000000000000000000000000000000000002","to":"0x0000000000000000000000000000000000000003","value":"0x2","gas":"0x8","gasUsed":"0x1","input":"0x",
          "calls":[{"type":"CREATE2","from":"0x0000000000000000000000000000000000000003","to":"0x0000000000000000000000000000000000000004","value":"0x0","gas":"0x4","gasUsed":"0x1","input":"0x00"}]},
        {"type":"STATICCALL","from":"0x0000000000000000000000000000000000000002","to":"0x0000000000000000000000000000000000000005","gas":"0x2","gasUsed":"0x1","input":"0x"},
        {"type":"CALLCODE","from":"0x0000000000000000000000000000000000000002","to":"0x0000000000000000000000000000000000000006","value":"0x3","gas":"0x2","gasUsed":"0x1","input":"0x","error":"out of gas"}
      ]}"#;
    let list = internal_transactions(&frame(raw));
    let got: Vec<_> = list
        .iter()
        .map(|c| {
            (
                c.internal_tx_type(),
                c.depth,
                c.value.to::<u64>(),
                c.reverted,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (InternalTxType::Call, 0, 1, false),
            (InternalTxType::Call, 1, 2, false),
            (InternalTxType::Create2, 2, 0, false),
            (InternalTxType::CallCode, 1, 3, true),
        ]
    );
}

#[test]
fn frames_with_logs_read() {
    // call_tracer_withLog/multilogs.json: `logs` on frames are not read.
    let f = frame(include_str!(
        "fixtures/evm/calltracer-withlog-multilogs.json"
    ));
    assert_eq!(f.kind, CallKind::Call);
}

#[test]
fn block_trace_entries() {
    // debug_traceBlockByNumber answers `[{txHash, result}]`, or `{txHash, error}` for a tx the
    // tracer failed on (graft/coreth/eth/tracers/api.go, txTraceResult: `json:"txHash"`,
    // `json:"result,omitempty"`, `json:"error,omitempty"`).
    let simple = include_str!("fixtures/evm/calltracer-simple.json");
    let tx = format!("0x{}", "11".repeat(32));
    let raw = format!(
        r#"[{{"txHash":"{tx}","result":{simple}}},{{"txHash":"{tx}","error":"execution timeout"}},{{"result":{simple}}}]"#
    );
    let entries: Vec<TraceEntry<'_>> = serde_json::from_str(&raw).unwrap();
    assert_eq!(entries[0].tx_hash, Some(B256::repeat_byte(0x11)));
    assert_eq!(entries[2].tx_hash, None);
    let mut it = entries.into_iter().map(TraceEntry::into_result);
    assert!(it.next().unwrap().is_ok());
    assert_eq!(it.next().unwrap().unwrap_err(), "execution timeout");
    assert!(it.next().unwrap().is_ok());
}

/// A chain of `depth` CALL frames below the root, each moving 1 wei.
fn chain(depth: usize) -> String {
    let frame = |i: usize| {
        format!(
            r#"{{"type":"CALL","from":"0x{:040x}","to":"0x{:040x}","value":"0x1","gas":"0x0","gasUsed":"0x0","input":"0x""#,
            i,
            i + 1
        )
    };
    let mut s = String::new();
    for i in 0..=depth {
        s.push_str(&frame(i));
        if i < depth {
            s.push_str(r#","calls":["#);
        }
    }
    s.push('}');
    for _ in 0..depth {
        s.push_str("]}");
    }
    s
}

#[test]
fn the_deepest_evm_call_tree_parses_and_a_deeper_one_is_refused() {
    use snowline_types::evm::{TraceParseError, parse_block_trace, parse_call_frame};
    // The EVM's call depth limit is 1024 (go-ethereum params.CallCreateDepth): a root frame
    // with 1024 nested calls below it is the deepest tree a node can answer.
    let deepest = chain(1024);
    let block = format!(
        r#"[{{"txHash":"0x{}","result":{deepest}}}]"#,
        "00".repeat(32)
    );
    let too_deep = format!(r#"[{{"result":{}}}]"#, chain(1030));
    // Parsed on a thread with room for the nesting (debug builds use more stack per level).
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let entries = parse_block_trace(&block).unwrap();
            let root = entries.into_iter().next().unwrap().into_result().unwrap();
            let list = internal_transactions(&root);
            assert_eq!(list.len(), 1025);
            assert_eq!(list.last().unwrap().depth, 1024);
            assert!(parse_call_frame(&deepest).is_ok());
            matches!(
                parse_block_trace(&too_deep),
                Err(TraceParseError::TooDeep(_))
            )
        })
        .unwrap();
    assert!(handle.join().unwrap());
}

#[test]
fn nesting_ignores_brackets_in_strings() {
    use snowline_types::evm::trace::json_nesting;
    assert_eq!(json_nesting(br#"[{"a":"[[[{{{"}]"#), 2);
    assert_eq!(json_nesting(br#"{"a":"\"[["}"#), 1);
    assert_eq!(json_nesting(b"]]]"), 0);
    assert_eq!(json_nesting(b""), 0);
}
