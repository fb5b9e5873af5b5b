//! Derive hooks: what turns an accepted container into rows of a chain's tables, in the same
//! atomic batch as the container. Each hook names the index paths it derives from, so hooks of
//! several chains run in one ingest, each seeing only its own containers.

use snowline_store::{Store, WriteBatch};
use snowline_types::container::{ContainerRecord, IndexPath};

use crate::error::DeriveError;
use crate::staging::Staging;

/// What a [`Derive`] hook computes from a container alone, before it reaches the writer: no
/// store access, so any thread may run it (the import on its parse threads, the follower while
/// the previous page is written).
pub trait Prepare: Sized + Send + 'static {
    /// Prepares `record`. An error surfaces only if the container turns out to be new (a
    /// duplicate is never derived), exactly as if the hook had failed on it.
    fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError>;
}

/// Nothing to prepare.
impl Prepare for () {
    fn prepare(_record: &ContainerRecord) -> Result<Self, DeriveError> {
        Ok(())
    }
}

/// Rows derived from each new container of the paths a hook names (a chain's tx, UTXO and
/// address rows), written in the same atomic batch as the container. Its [`Staging`] side hears
/// how each batch ends.
pub trait Derive: Staging {
    /// The paths whose containers this hook derives from.
    const PATHS: &'static [IndexPath];

    /// What the hook needs prepared for each of its containers (`()` for nothing).
    type Prepared: Prepare;

    /// Adds the rows derived from `record` (now at `index` in its path; `prepared` is its
    /// [`Prepare`]) to `batch`. `view` is the store as committed before this batch; earlier
    /// containers of the same batch are not visible there, so a hook that needs them keeps its
    /// own overlays until [`Staging::committed`].
    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
        prepared: &Self::Prepared,
    ) -> Result<(), DeriveError>;

    /// Whether the next batch may be derived while the sealed one is being written. A hook that
    /// says so answers reads about a sealed batch from its own overlays until
    /// [`Staging::committed`] (the store may not show that batch yet), and takes `committed`
    /// while the next batch is part-derived; `finish` still comes only after the previous
    /// batch's `committed`, so at most one sealed batch is unwritten. `false` by default: each
    /// batch is then written before the next one starts.
    fn overlaps_writes(&self) -> bool {
        false
    }
}

/// A [`Derive`] that adds nothing: the container index alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoDerive;

impl Staging for NoDerive {
    fn seal(&mut self) {}
    fn committed(&mut self) {}
    fn discard(&mut self) {}
}

impl Derive for NoDerive {
    const PATHS: &'static [IndexPath] = &IndexPath::ALL;
    type Prepared = ();

    fn derive(
        &mut self,
        _batch: &mut WriteBatch,
        _view: &Store,
        _record: &ContainerRecord,
        _index: u64,
        _prepared: &(),
    ) -> Result<(), DeriveError> {
        Ok(())
    }
}

/// What a pair of hooks prepared for one container: each hook's own preparation, for the hooks
/// whose [`Derive::PATHS`] hold the container's path.
pub struct Dispatched<A: Derive, B: Derive>(Option<A::Prepared>, Option<B::Prepared>);

impl<A: Derive + 'static, B: Derive + 'static> Prepare for Dispatched<A, B> {
    fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError> {
        let mine = |paths: &[IndexPath]| paths.contains(&record.path);
        Ok(Self(
            mine(A::PATHS)
                .then(|| A::Prepared::prepare(record))
                .transpose()?,
            mine(B::PATHS)
                .then(|| B::Prepared::prepare(record))
                .transpose()?,
        ))
    }
}

/// Two hooks in one ingest (an X- and a P-Chain hook, or two views of one chain), dispatched by
/// path: each derives the containers of its own paths, both hear how every batch ends, and a
/// failure of either drops the batch for both. Nest pairs for more.
impl<A: Derive + 'static, B: Derive + 'static> Derive for (A, B) {
    /// Every path either hook derives from (a path not listed is skipped by both).
    const PATHS: &'static [IndexPath] = &IndexPath::ALL;
    type Prepared = Dispatched<A, B>;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
        prepared: &Dispatched<A, B>,
    ) -> Result<(), DeriveError> {
        if let Some(p) = &prepared.0 {
            self.0.derive(batch, view, record, index, p)?;
        }
        if let Some(p) = &prepared.1 {
            self.1.derive(batch, view, record, index, p)?;
        }
        Ok(())
    }

    fn overlaps_writes(&self) -> bool {
        self.0.overlaps_writes() && self.1.overlaps_writes()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use snowline_store::Schema;
    use snowline_types::Id;

    /// Counts what it prepared and derived; refuses to prepare when its path says so.
    #[derive(Default)]
    struct Probe<const P: u8> {
        derived: Vec<IndexPath>,
        committed: u32,
        discarded: u32,
    }

    struct Prepared<const P: u8>(IndexPath);

    impl<const P: u8> Prepare for Prepared<P> {
        fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError> {
            if record.bytes == [P] {
                return Err(DeriveError::Derive(format!("probe {P} refuses")));
            }
            Ok(Self(record.path))
        }
    }

    impl<const P: u8> Staging for Probe<P> {
        fn seal(&mut self) {}
        fn committed(&mut self) {
            self.committed += 1;
        }
        fn discard(&mut self) {
            self.discarded += 1;
        }
    }

    /// Probe 0 derives from `X/tx` and `X/block`, probe 1 from `P/block` and `X/block`.
    impl<const P: u8> Derive for Probe<P> {
        const PATHS: &'static [IndexPath] = if P == 0 {
            &[IndexPath::XTx, IndexPath::XBlock]
        } else {
            &[IndexPath::PBlock, IndexPath::XBlock]
        };
        type Prepared = Prepared<P>;
        fn derive(
            &mut self,
            _: &mut WriteBatch,
            _: &Store,
            _: &ContainerRecord,
            _: u64,
            p: &Prepared<P>,
        ) -> Result<(), DeriveError> {
            self.derived.push(p.0);
            Ok(())
        }
    }

    fn record(path: IndexPath, bytes: Vec<u8>) -> ContainerRecord {
        ContainerRecord {
            path,
            id: Id::EMPTY,
            bytes,
            timestamp_ns: 0,
        }
    }

    #[test]
    fn a_pair_dispatches_each_container_to_the_hooks_of_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Schema::new(1)).unwrap();
        let mut hooks = (Probe::<0>::default(), Probe::<1>::default());
        let mut batch = WriteBatch::new();
        for path in IndexPath::ALL {
            let r = record(path, Vec::new());
            let p = <(Probe<0>, Probe<1>) as Derive>::Prepared::prepare(&r).unwrap();
            hooks.derive(&mut batch, &store, &r, 0, &p).unwrap();
        }
        assert_eq!(hooks.0.derived, [IndexPath::XTx, IndexPath::XBlock]);
        assert_eq!(hooks.1.derived, [IndexPath::XBlock, IndexPath::PBlock]);
        hooks.committed();
        hooks.discard();
        assert_eq!((hooks.0.committed, hooks.1.committed), (1, 1));
        assert_eq!((hooks.0.discarded, hooks.1.discarded), (1, 1));

        // A hook's preparation runs only on its own paths, and its failure fails the pair.
        type Pair = (Probe<0>, Probe<1>);
        assert!(<Pair as Derive>::Prepared::prepare(&record(IndexPath::PBlock, vec![0])).is_ok());
        assert!(<Pair as Derive>::Prepared::prepare(&record(IndexPath::XTx, vec![0])).is_err());
        assert!(<Pair as Derive>::Prepared::prepare(&record(IndexPath::XBlock, vec![1])).is_err());
    }
}
