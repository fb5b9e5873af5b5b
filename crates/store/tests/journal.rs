//! The commit journal against a real RocksDB: a primary's batches, read from its outbox and
//! applied on a second store, leave every table byte-identical; gaps, foreign schemas and local
//! writes to a replica are refused; acknowledgement trims the outbox; the position survives a
//! reopen and a checkpoint; a promoted replica continues the sequence.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use snowline_store::journal::{FrameOp, decode_frame, encode_frame};
use snowline_store::{JOURNAL_TABLE, JournalRole, ReadView, Schema, Store, StoreError, WriteBatch};

/// Batches touching every table, overwriting and deleting keys, one withdrawn put included.
fn write_history(store: &Store) {
    for h in 0..20u64 {
        let mut b = WriteBatch::new();
        for i in 0..3u64 {
            let id = id(h * 10 + i);
            b.put::<Blocks>(&(h, id), &vec![h as u8; (i as usize + 1) * 7]);
            b.put::<BlockIds>(&id, &h);
        }
        if h > 2 {
            b.delete::<BlockIds>(&id((h - 2) * 10));
            b.delete::<Blocks>(&(h - 3, id((h - 3) * 10 + 1)));
        }
        let withdrawn = b.put_tracked::<Blocks>(&(999, id(999)), &b"never".to_vec());
        b.cancel(withdrawn);
        b.put::<Cursor>(&(), &h);
        store.write(&b).unwrap();
    }
}

#[test]
fn batches_applied_on_a_second_store_give_equal_tables() {
    let (pdir, rdir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let primary = Store::open(pdir.path(), &schema()).unwrap();
    primary.set_journal_role(JournalRole::Primary).unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen2 = std::sync::Arc::clone(&seen);
    primary.on_commit(move |seq| seen2.lock().unwrap().push(seq));
    write_history(&primary);
    assert_eq!(*seen.lock().unwrap(), (1..=20).collect::<Vec<_>>());
    assert_eq!(primary.journal_position().unwrap().seq, 20);

    let replica = Store::open(rdir.path(), &schema()).unwrap();
    replica.set_journal_role(JournalRole::Replica).unwrap();
    // Read in small pieces, as a publisher does.
    let mut after = 0;
    loop {
        let entries = primary.journal_entries(after, 3, 1 << 20).unwrap();
        if entries.is_empty() {
            break;
        }
        for e in entries {
            assert_eq!(e.seq, after + 1);
            replica
                .apply_journal(e.seq, e.committed_ms, &e.frame)
                .unwrap();
            after = e.seq;
        }
    }
    assert_eq!(after, 20);
    assert_eq!(tables(&replica), tables(&primary));
    let nonempty = tables(&primary)
        .into_iter()
        .filter(|(_, rows)| !rows.is_empty())
        .count();
    assert_eq!(
        nonempty, 4,
        "blocks, block_ids, cursor and the schema's meta"
    );
    assert_eq!(replica.get::<Cursor>(&()).unwrap(), Some(19));
    assert_eq!(replica.get::<Blocks>(&(999, id(999))).unwrap(), None);
    let pos = replica.journal_position().unwrap();
    assert_eq!(pos.seq, 20);
    assert_eq!(
        pos.committed_ms,
        primary.journal_position().unwrap().committed_ms
    );
}

#[test]
fn a_frame_holds_exactly_the_batch_in_key_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    store.set_journal_role(JournalRole::Primary).unwrap();
    let mut b = WriteBatch::new();
    b.put::<Cursor>(&(), &5);
    b.put::<BlockIds>(&id(2), &2);
    b.put::<BlockIds>(&id(1), &1);
    b.delete::<BlockIds>(&id(2));
    store.write(&b).unwrap();
    let entries = store.journal_entries(0, 10, usize::MAX).unwrap();
    assert_eq!(entries.len(), 1);
    let frame = decode_frame(&entries[0].frame).unwrap();
    assert_eq!(frame.schema_version, 1);
    // The store's key encodings: u64 big-endian, an Id its 32 bytes, () nothing.
    let (k1, k2) = (id(1).0.to_vec(), id(2).0.to_vec());
    let (one, two, five) = (1u64.to_be_bytes(), 2u64.to_be_bytes(), 5u64.to_be_bytes());
    let want = [
        FrameOp::Put {
            table: "cursor",
            key: b"",
            value: &five,
        },
        FrameOp::Put {
            table: "block_ids",
            key: &k1,
            value: &one,
        },
        FrameOp::Put {
            table: "block_ids",
            key: &k2,
            value: &two,
        },
        FrameOp::Delete {
            table: "block_ids",
            key: &k2,
        },
    ];
    // Tables in order of first use, keys ascending within each, a key's ops in recorded order.
    assert_eq!(frame.ops, want);
}

#[test]
fn gaps_foreign_schemas_unknown_tables_and_local_writes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let replica = Store::open(dir.path(), &schema()).unwrap();
    let frame = encode_frame(
        1,
        &[FrameOp::Put {
            table: "cursor",
            key: b"",
            value: &7u64.to_be_bytes(),
        }],
    )
    .unwrap();
    // Not a replica yet.
    assert!(replica.apply_journal(1, 0, &frame).is_err());
    replica.set_journal_role(JournalRole::Replica).unwrap();
    assert_eq!(
        replica.apply_journal(2, 0, &frame),
        Err(StoreError::JournalGap {
            expected: 1,
            got: 2
        })
    );
    let other_schema = encode_frame(
        2,
        &[FrameOp::Put {
            table: "cursor",
            key: b"",
            value: &7u64.to_be_bytes(),
        }],
    )
    .unwrap();
    assert!(matches!(
        replica.apply_journal(1, 0, &other_schema),
        Err(StoreError::BadJournal(_))
    ));
    for table in ["extra", "__snowline_meta", JOURNAL_TABLE] {
        let foreign = encode_frame(
            1,
            &[FrameOp::Put {
                table,
                key: b"x",
                value: b"y",
            }],
        )
        .unwrap();
        assert!(
            matches!(
                replica.apply_journal(1, 0, &foreign),
                Err(StoreError::BadJournal(_))
            ),
            "{table}"
        );
    }
    assert!(matches!(
        replica.apply_journal(1, 0, &frame[..frame.len() - 1]),
        Err(StoreError::BadJournal(_))
    ));
    assert_eq!(replica.put::<Cursor>(&(), &1), Err(StoreError::Replica));
    // Nothing of the refused batches was written; the good one applies, then is a gap.
    assert_eq!(replica.get::<Cursor>(&()).unwrap(), None);
    replica.apply_journal(1, 42, &frame).unwrap();
    assert_eq!(replica.get::<Cursor>(&()).unwrap(), Some(7));
    assert_eq!(
        replica.apply_journal(1, 42, &frame),
        Err(StoreError::JournalGap {
            expected: 2,
            got: 1
        })
    );
}

#[test]
fn acknowledgement_trims_the_outbox_and_positions_survive_reopen_and_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let copy = tempfile::tempdir().unwrap();
    let copy_path = copy.path().join("checkpoint");
    {
        let store = Store::open(dir.path(), &schema()).unwrap();
        store.set_journal_role(JournalRole::Primary).unwrap();
        // Bulk mode is ignored by a journaled store: every batch is logged.
        store.set_unlogged_writes(true).unwrap();
        write_history(&store);
        store.journal_acked(15).unwrap();
        assert!(store.journal_acked(25).is_err());
        store.journal_acked(3).unwrap(); // behind: ignored
        let pos = store.journal_position().unwrap();
        assert_eq!((pos.seq, pos.acked), (20, 15));
        let left: Vec<u64> = store
            .journal_entries(0, 100, usize::MAX)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(left, (16..=20).collect::<Vec<_>>());
        store.sync_wal().unwrap();
        store.checkpoint(&copy_path).unwrap();
        // Dropped without a flush: the batches come back from the write-ahead log.
    }
    let store = Store::open(dir.path(), &schema()).unwrap();
    let pos = store.journal_position().unwrap();
    assert_eq!((pos.seq, pos.acked), (20, 15));
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(19));
    // The reopened primary continues the sequence.
    store.set_journal_role(JournalRole::Primary).unwrap();
    store.put::<Cursor>(&(), &100).unwrap();
    assert_eq!(store.journal_position().unwrap().seq, 21);

    // A replica started from the checkpoint stands at 20 with an empty outbox, and refuses
    // anything but 21, which the primary's outbox holds.
    let replica = Store::open(&copy_path, &schema()).unwrap();
    replica.set_journal_role(JournalRole::Replica).unwrap();
    let pos = replica.journal_position().unwrap();
    assert_eq!((pos.seq, pos.acked), (20, 0));
    assert!(
        replica
            .journal_entries(0, 100, usize::MAX)
            .unwrap()
            .is_empty()
    );
    let next = store.journal_entries(20, 1, usize::MAX).unwrap();
    assert_eq!(next[0].seq, 21);
    replica
        .apply_journal(21, next[0].committed_ms, &next[0].frame)
        .unwrap();
    assert_eq!(tables(&replica), tables(&store));

    // Promotion: the replica becomes a primary and numbers its own next batch 22.
    replica.set_journal_role(JournalRole::Primary).unwrap();
    replica.put::<Cursor>(&(), &101).unwrap();
    let own = replica.journal_entries(21, 10, usize::MAX).unwrap();
    assert_eq!(own.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![22]);
}

#[test]
fn a_standalone_store_journals_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    write_history(&store);
    assert_eq!(store.journal_position().unwrap().seq, 0);
    assert!(store.journal_entries(0, 10, usize::MAX).unwrap().is_empty());
    // The journal's table is reserved.
    struct Journal;
    impl snowline_store::Table for Journal {
        const NAME: &'static str = JOURNAL_TABLE;
        type Key = u64;
        type Value = u64;
    }
    assert!(matches!(
        Store::open(
            tempfile::tempdir().unwrap().path(),
            &Schema::new(1).with::<Journal>()
        ),
        Err(StoreError::InvalidSchema(_))
    ));
}

#[test]
fn a_store_with_rows_of_its_own_publishes_them_as_batch_one_and_is_no_replica() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    store.put::<Cursor>(&(), &1).unwrap();
    assert!(matches!(
        store.set_journal_role(JournalRole::Replica),
        Err(StoreError::InvalidArgument(_))
    ));
    store.set_journal_role(JournalRole::Primary).unwrap();
    let pos = store.journal_position().unwrap();
    assert_eq!((pos.seq, pos.acked), (1, 1));
    store.put::<Cursor>(&(), &2).unwrap();
    let entries = store.journal_entries(0, 10, usize::MAX).unwrap();
    assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![2]);
    // An empty replica cannot take batch 2: it needs the rows of batch 1 from a checkpoint.
    let rdir = tempfile::tempdir().unwrap();
    let replica = Store::open(rdir.path(), &schema()).unwrap();
    replica.set_journal_role(JournalRole::Replica).unwrap();
    assert_eq!(
        replica.apply_journal(2, 0, &entries[0].frame),
        Err(StoreError::JournalGap {
            expected: 1,
            got: 2
        })
    );
}
