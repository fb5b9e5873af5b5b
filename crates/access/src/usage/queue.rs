//! [`Queue`]: events waiting to be written, already encoded. Recording an event copies its
//! strings into one growing byte buffer instead of allocating an owned event per request, and
//! the writer thread reads the bytes back when it groups them into rows.

use super::event::{UsageEventRef, encode};
use crate::batch::Pending;

/// Encoded events, each stored as `timestamp_ms u64 LE ‖ length u32 LE ‖ encoded value` (the
/// value as [`encode`] writes it); in memory only, never stored in this form.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    bytes: Vec<u8>,
    events: usize,
}

/// Bytes of an entry's header: the timestamp and the value's length.
const HEADER: usize = 12;

impl Queue {
    /// Appends `e`, encoded. An event whose encoding exceeds `u32::MAX` bytes (impossible for
    /// a request's strings, but not ruled out by the types) is not queued: returns `false`.
    pub(crate) fn push(&mut self, e: &UsageEventRef<'_>) -> bool {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(&e.timestamp_ms.to_le_bytes());
        self.bytes.extend_from_slice(&[0; 4]);
        encode(e, &mut self.bytes);
        let Ok(len) = u32::try_from(self.bytes.len() - start - HEADER) else {
            self.bytes.truncate(start);
            return false;
        };
        if let Some(slot) = self.bytes.get_mut(start + 8..start + HEADER) {
            slot.copy_from_slice(&len.to_le_bytes());
        }
        self.events += 1;
        true
    }

    /// Events queued.
    pub(crate) fn len(&self) -> usize {
        self.events
    }

    /// Whether no event is queued.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.events == 0
    }

    /// Forgets every event, keeping the buffer's capacity.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.events = 0;
    }

    /// Calls `f(timestamp_ms, encoded value)` for each event, in the order pushed.
    pub(crate) fn for_each(&self, mut f: impl FnMut(u64, &[u8])) {
        let mut rest = self.bytes.as_slice();
        while let Some((ts, tail)) = rest.split_first_chunk::<8>() {
            let Some((len, tail)) = tail.split_first_chunk::<4>() else {
                return;
            };
            let Some((value, tail)) = tail.split_at_checked(u32::from_le_bytes(*len) as usize)
            else {
                return;
            };
            f(u64::from_le_bytes(*ts), value);
            rest = tail;
        }
    }
}

impl Pending for Queue {
    fn len(&self) -> usize {
        Queue::len(self)
    }

    fn clear(&mut self) {
        Queue::clear(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usage::event::decode_ref;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn events_come_back_in_order_and_whole(
            events in proptest::collection::vec(
                (any::<u64>(), ".{0,12}", "[0-9a-f]{0,16}", ".{0,30}", any::<u16>(),
                 proptest::option::of(".{1,10}"), any::<u64>(), any::<u32>(), any::<u32>()),
                0..20,
            )
        ) {
            let mut q = Queue::default();
            for (ts, org, key, path, code, chain, lat, used, wasted) in &events {
                let e = UsageEventRef {
                    timestamp_ms: *ts, org_id: org, api_key_id: key, request_path: path,
                    response_code: *code, chain_id: chain.as_deref(), request_type: "data",
                    latency_us: *lat, credits_used: *used, credits_wasted: *wasted,
                    ip_address: "", host: "", user_agent: "",
                };
                prop_assert!(q.push(&e));
            }
            prop_assert_eq!(q.len(), events.len());
            let mut back = Vec::new();
            q.for_each(|ts, bytes| back.push(decode_ref(bytes, ts).unwrap().to_event()));
            prop_assert_eq!(back.len(), events.len());
            for (e, (ts, org, key, path, code, chain, lat, used, wasted)) in back.iter().zip(&events) {
                prop_assert_eq!(e.timestamp_ms, *ts);
                prop_assert_eq!((&e.org_id, &e.api_key_id, &e.request_path), (org, key, path));
                prop_assert_eq!((e.response_code, &e.chain_id, e.request_type.as_str()), (*code, chain, "data"));
                prop_assert_eq!((e.latency_us, e.credits_used, e.credits_wasted), (*lat, *used, *wasted));
            }
            q.clear();
            prop_assert!(q.is_empty());
            let mut left = 0;
            q.for_each(|_, _| left += 1);
            prop_assert_eq!(left, 0);
        }
    }
}
