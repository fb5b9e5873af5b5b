//! How a batch travels: the headers of each message (sequence, part, commit time, checksum, and
//! the message id the stream's duplicate window keys on) and the split of a large batch into
//! parts that fit the server's largest message.

use sha2::{Digest, Sha256};

/// The batch's sequence number, decimal.
pub const SEQ: &str = "Snowline-Seq";
/// The part of the batch this message holds, `i/n` (1-based).
pub const PART: &str = "Snowline-Part";
/// When the primary committed the batch, Unix milliseconds.
pub const TIME: &str = "Snowline-Time";
/// SHA-256 of the whole batch (every part's payload in order), lowercase hex.
pub const SHA256: &str = "Snowline-Sha256";

/// What the headers of one message say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchPart {
    /// The batch's sequence number.
    pub seq: u64,
    /// Which part this is, from 1.
    pub part: u32,
    /// How many parts the batch has.
    pub parts: u32,
    /// The primary's commit time, Unix milliseconds.
    pub committed_ms: u64,
    /// SHA-256 of the whole batch, hex.
    pub sha256: String,
}

impl BatchPart {
    /// The message id (`Nats-Msg-Id`, set by the publisher under the client's standard header
    /// name): the stream keeps one message per id within its duplicate window, so a republish
    /// after a crash is dropped.
    pub fn msg_id(&self) -> String {
        format!("{}.{}", self.seq, self.part)
    }

    /// Snowline's own headers to publish, as name and value pairs (beside the message id).
    pub fn headers(&self) -> [(&'static str, String); 4] {
        [
            (SEQ, self.seq.to_string()),
            (PART, format!("{}/{}", self.part, self.parts)),
            (TIME, self.committed_ms.to_string()),
            (SHA256, self.sha256.clone()),
        ]
    }

    /// Reads the headers through `get`; a missing or malformed one is an error naming it.
    pub fn parse<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Result<Self, String> {
        let need = |name: &str| get(name).ok_or_else(|| format!("header {name} missing"));
        let num = |name: &str| -> Result<u64, String> {
            need(name)?
                .parse()
                .map_err(|_| format!("header {name} is not a number"))
        };
        let (part, parts) = need(PART)?
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
            .filter(|(i, n)| *i >= 1 && i <= n)
            .ok_or_else(|| format!("header {PART} is not i/n"))?;
        let sha256 = need(SHA256)?.to_owned();
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("header {SHA256} is not a SHA-256"));
        }
        Ok(Self {
            seq: num(SEQ)?,
            part,
            parts,
            committed_ms: num(TIME)?,
            sha256,
        })
    }
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn checksum(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// `frame` cut into parts of at most `max` bytes (one empty part for an empty frame).
pub fn split(frame: &[u8], max: usize) -> Vec<&[u8]> {
    if frame.is_empty() {
        return vec![frame];
    }
    frame.chunks(max.max(1)).collect()
}

/// The headers of each part of batch `seq`.
pub fn parts_of(seq: u64, committed_ms: u64, frame: &[u8], max: usize) -> Vec<(BatchPart, &[u8])> {
    let sha256 = checksum(frame);
    let pieces = split(frame, max);
    let parts = u32::try_from(pieces.len()).unwrap_or(u32::MAX);
    pieces
        .into_iter()
        .zip(1u32..)
        .map(|(bytes, part)| {
            (
                BatchPart {
                    seq,
                    part,
                    parts,
                    committed_ms,
                    sha256: sha256.clone(),
                },
                bytes,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_and_malformed_ones_are_named() {
        let frame = vec![7u8; 10];
        let parts = parts_of(42, 1_700_000_000_123, &frame, 4);
        assert_eq!(parts.len(), 3);
        assert_eq!(
            parts.iter().map(|(_, b)| b.len()).collect::<Vec<_>>(),
            [4, 4, 2]
        );
        for (p, _) in &parts {
            let h = p.headers();
            let got =
                BatchPart::parse(|n| h.iter().find(|(k, _)| *k == n).map(|(_, v)| v.as_str()))
                    .unwrap();
            assert_eq!(&got, p);
        }
        assert_eq!(parts[2].0.msg_id(), "42.3");
        // SHA-256("abc") from FIPS 180-2, appendix B.1.
        assert_eq!(
            checksum(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let good = parts[0].0.headers();
        for (broken, value) in [
            (SEQ, "x"),
            (PART, "0/3"),
            (PART, "4/3"),
            (PART, "1"),
            (TIME, ""),
            (SHA256, "abc"),
        ] {
            let err = BatchPart::parse(|n| {
                if n == broken {
                    Some(value)
                } else {
                    good.iter().find(|(k, _)| *k == n).map(|(_, v)| v.as_str())
                }
            })
            .unwrap_err();
            assert!(err.contains(broken), "{broken}: {err}");
        }
        assert_eq!(split(&[], 4), vec![&[] as &[u8]]);
    }
}
