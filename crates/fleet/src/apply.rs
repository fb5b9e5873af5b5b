//! The replica's rule, apart from any network: batches are applied strictly in sequence, each
//! only once all its parts arrived in order and its checksum matches; anything else is refused
//! and said why, so the caller counts it and fetches again from its position.

use snowline_store::{Store, StoreError};

use crate::wire::{BatchPart, checksum};

/// Where replicated batches are written: a replica's store, or a test's fake.
pub trait BatchSink {
    /// The last batch applied (0 for none).
    fn position(&self) -> Result<u64, String>;
    /// Applies batch `seq` atomically with the new position.
    fn apply(&self, seq: u64, committed_ms: u64, frame: &[u8]) -> Result<(), String>;
}

impl BatchSink for Store {
    fn position(&self) -> Result<u64, String> {
        self.journal_position()
            .map(|p| p.seq)
            .map_err(|e| e.to_string())
    }

    fn apply(&self, seq: u64, committed_ms: u64, frame: &[u8]) -> Result<(), String> {
        self.apply_journal(seq, committed_ms, frame)
            .map_err(|e: StoreError| e.to_string())
    }
}

impl<S: BatchSink + ?Sized> BatchSink for std::sync::Arc<S> {
    fn position(&self) -> Result<u64, String> {
        (**self).position()
    }

    fn apply(&self, seq: u64, committed_ms: u64, frame: &[u8]) -> Result<(), String> {
        (**self).apply(seq, committed_ms, frame)
    }
}

/// What became of one offered message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The batch is complete and applied; the position is now this.
    Applied(u64),
    /// A part kept until the batch's other parts arrive.
    Partial,
    /// A batch already applied (a republish the duplicate window no longer caught): skipped.
    Duplicate(u64),
    /// Not the next part of the next batch: refused; fetch again after the position.
    Gap {
        /// The batch that comes next here.
        expected: u64,
        /// The batch offered.
        got: u64,
    },
    /// The assembled batch does not match its checksum: refused; fetch it again.
    BadChecksum(u64),
    /// The sink refused the batch (another schema, a failed write): said why.
    Refused(u64, String),
}

/// A replica's applier over `sink`: the position and the parts of the next batch gathered.
#[derive(Debug)]
pub struct Applier<S> {
    sink: S,
    position: u64,
    pending: Option<(BatchPart, Vec<u8>)>,
}

impl<S: BatchSink> Applier<S> {
    /// An applier at the sink's position.
    pub fn new(sink: S) -> Result<Self, String> {
        let position = sink.position()?;
        Ok(Self {
            sink,
            position,
            pending: None,
        })
    }

    /// The last batch applied.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Forgets a batch's parts gathered so far (before fetching again).
    pub fn reset(&mut self) {
        self.pending = None;
    }

    /// Offers one message: its headers and payload.
    pub fn offer(&mut self, part: &BatchPart, payload: &[u8]) -> Outcome {
        let next = self.position.saturating_add(1);
        if part.seq < next {
            return Outcome::Duplicate(part.seq);
        }
        if part.seq > next {
            self.pending = None;
            return Outcome::Gap {
                expected: next,
                got: part.seq,
            };
        }
        if part.part == 1 && part.parts == 1 {
            // A batch in one message (most of them): checked and applied from the payload
            // itself, without gathering a copy.
            self.pending = None;
            return self.complete(part, payload);
        }
        let mut gathered = match self.pending.take() {
            None if part.part == 1 => Vec::with_capacity(payload.len()),
            // A batch starting over (a republish of its first part): begin again.
            Some(_) if part.part == 1 => Vec::with_capacity(payload.len()),
            Some((prev, bytes))
                if prev.seq == part.seq
                    && prev.part + 1 == part.part
                    && prev.parts == part.parts
                    && prev.sha256 == part.sha256 =>
            {
                bytes
            }
            _ => {
                return Outcome::Gap {
                    expected: next,
                    got: part.seq,
                };
            }
        };
        gathered.extend_from_slice(payload);
        if part.part < part.parts {
            self.pending = Some((part.clone(), gathered));
            return Outcome::Partial;
        }
        self.complete(part, &gathered)
    }

    /// Checks a whole batch (`frame`, the last part's headers in `part`) and applies it.
    fn complete(&mut self, part: &BatchPart, frame: &[u8]) -> Outcome {
        if checksum(frame) != part.sha256 {
            return Outcome::BadChecksum(part.seq);
        }
        match self.sink.apply(part.seq, part.committed_ms, frame) {
            Ok(()) => {
                self.position = part.seq;
                Outcome::Applied(part.seq)
            }
            Err(e) => Outcome::Refused(part.seq, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::wire::parts_of;

    /// A sink that records what it applied, refusing frames that start with `!`.
    #[derive(Default)]
    struct Fake(Mutex<Vec<(u64, Vec<u8>)>>);

    impl BatchSink for Fake {
        fn position(&self) -> Result<u64, String> {
            Ok(self.0.lock().unwrap().last().map_or(0, |(s, _)| *s))
        }
        fn apply(&self, seq: u64, _: u64, frame: &[u8]) -> Result<(), String> {
            if frame.first() == Some(&b'!') {
                return Err("refused".into());
            }
            self.0.lock().unwrap().push((seq, frame.to_vec()));
            Ok(())
        }
    }

    /// The messages of batches 1..=n, batch k being k copies of byte k, cut in parts of 3.
    fn stream(n: u64) -> Vec<(BatchPart, Vec<u8>)> {
        (1..=n)
            .flat_map(|k| {
                let frame = vec![k as u8; k as usize];
                parts_of(k, 1000 + k, &frame, 3)
                    .into_iter()
                    .map(|(p, b)| (p, b.to_vec()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Offers every message of `msgs` in order; returns the outcomes.
    fn run(applier: &mut Applier<Fake>, msgs: &[(BatchPart, Vec<u8>)]) -> Vec<Outcome> {
        let mut out = Vec::new();
        for (p, b) in msgs {
            out.push(applier.offer(p, b));
        }
        out
    }

    #[test]
    fn an_ordered_stream_applies_every_batch_once() {
        let mut a = Applier::new(Fake::default()).unwrap();
        let msgs = stream(6);
        let out = run(&mut a, &msgs);
        let applied: Vec<_> = out
            .iter()
            .filter_map(|o| match o {
                Outcome::Applied(s) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(applied, [1, 2, 3, 4, 5, 6]);
        assert_eq!(a.position(), 6);
        let got = a.sink().0.lock().unwrap().clone();
        for (seq, frame) in got {
            assert_eq!(frame, vec![seq as u8; seq as usize]);
        }
    }

    #[test]
    fn duplicates_are_skipped_gaps_and_bad_checksums_refused() {
        let msgs = stream(5);
        let mut a = Applier::new(Fake::default()).unwrap();
        // Batch 1 (one part), then batch 3's first part: batch 2 is missing.
        assert_eq!(a.offer(&msgs[0].0, &msgs[0].1), Outcome::Applied(1));
        let b3 = msgs.iter().position(|(p, _)| p.seq == 3).unwrap();
        assert_eq!(
            a.offer(&msgs[b3].0, &msgs[b3].1),
            Outcome::Gap {
                expected: 2,
                got: 3
            }
        );
        // A republished batch 1 is a duplicate.
        assert_eq!(a.offer(&msgs[0].0, &msgs[0].1), Outcome::Duplicate(1));
        // Batch 2 fits in one part; corrupted, it is refused and the position holds.
        let b2 = &msgs[1];
        let mut bad = b2.1.clone();
        bad[0] ^= 1;
        assert_eq!(a.offer(&b2.0, &bad), Outcome::BadChecksum(2));
        assert_eq!(a.position(), 1);
        assert_eq!(a.offer(&b2.0, &b2.1), Outcome::Applied(2));
        // Batch 4 has two parts: the second alone is a gap, the two in order apply.
        let b4: Vec<_> = msgs.iter().filter(|(p, _)| p.seq == 4).collect();
        assert_eq!(b4.len(), 2);
        let b3: Vec<_> = msgs.iter().filter(|(p, _)| p.seq == 3).collect();
        assert_eq!(a.offer(&b3[0].0, &b3[0].1), Outcome::Applied(3));
        assert_eq!(
            a.offer(&b4[1].0, &b4[1].1),
            Outcome::Gap {
                expected: 4,
                got: 4
            }
        );
        assert_eq!(a.offer(&b4[0].0, &b4[0].1), Outcome::Partial);
        // The first part again (a republish): gathering starts over.
        assert_eq!(a.offer(&b4[0].0, &b4[0].1), Outcome::Partial);
        assert_eq!(a.offer(&b4[1].0, &b4[1].1), Outcome::Applied(4));
        assert_eq!(
            a.sink()
                .0
                .lock()
                .unwrap()
                .iter()
                .map(|(s, _)| *s)
                .collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn a_refusing_sink_keeps_the_position() {
        let mut a = Applier::new(Fake::default()).unwrap();
        let parts = parts_of(1, 5, b"!no", 100);
        assert_eq!(
            a.offer(&parts[0].0, parts[0].1),
            Outcome::Refused(1, "refused".into())
        );
        assert_eq!(a.position(), 0);
    }

    #[test]
    fn a_shuffled_and_repeated_stream_refetched_after_each_refusal_applies_each_batch_once() {
        // The consumer's view: each fetch reads from a position, and the fake stream delivers
        // a window with one message dropped, one repeated and one corrupted, chosen by a seed.
        let msgs = stream(30);
        let mut a = Applier::new(Fake::default()).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut refusals = 0;
        for _round in 0..10_000 {
            if a.position() == 30 {
                break;
            }
            a.reset();
            let start = msgs.iter().position(|(p, _)| p.seq > a.position()).unwrap();
            for (i, (p, b)) in msgs[start..].iter().enumerate() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mut b = b.clone();
                match seed % 10 {
                    0 if i > 0 => continue, // dropped
                    1 if !b.is_empty() => b[0] ^= 0x40,
                    _ => {}
                }
                let o = a.offer(p, &b);
                if matches!(o, Outcome::Gap { .. } | Outcome::BadChecksum(_)) {
                    refusals += 1;
                    break;
                }
                if seed % 10 == 2 {
                    // Delivered twice.
                    let again = a.offer(p, &b);
                    if matches!(again, Outcome::Gap { .. } | Outcome::BadChecksum(_)) {
                        refusals += 1;
                        break;
                    }
                }
            }
        }
        assert_eq!(a.position(), 30);
        assert!(refusals > 0, "the faults never hit");
        let got = a.sink().0.lock().unwrap().clone();
        assert_eq!(
            got.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            (1..=30).collect::<Vec<_>>()
        );
        for (seq, frame) in got {
            assert_eq!(frame, vec![seq as u8; seq as usize]);
        }
    }
}
