//! The devnet going on after its bundled history: one X block or P-Chain block per step, the
//! same chains continued under the same rules, stamped with the wall-clock time they are
//! accepted at (`docs/devnet.md`, "Live").

use snowline_types::container::ContainerRecord;

use crate::error::DevnetError;
use crate::generator::Devnet;
use crate::rng::DetRng;

const NANOS: i64 = 1_000_000_000;

/// A devnet past its history, made a step at a time ([`LiveDevnet::step`]). The containers'
/// bytes are a function of the seed and the number of steps (as long as the chains' schedules
/// lag the clock, which they do for months at any sensible rate); only their index timestamps
/// come from the clock.
pub struct LiveDevnet {
    devnet: Devnet,
    rng: DetRng,
    last_ts: i64,
    failed: bool,
}

impl Devnet {
    /// Continues this devnet live. Whatever is left of the bundled history is generated first
    /// and dropped (its consumer, e.g. an index loaded from it, has it already).
    pub fn into_live(mut self) -> Result<LiveDevnet, DevnetError> {
        for record in self.by_ref() {
            record?;
        }
        if self.has_failed() {
            return Err(DevnetError::Failed);
        }
        Ok(LiveDevnet {
            rng: DetRng::new(self.config().seed, 0x6c69_7665),
            last_ts: self.last_timestamp_ns(),
            devnet: self,
            failed: false,
        })
    }
}

impl LiveDevnet {
    /// The devnet (its genesis, keys, config and counts so far).
    pub fn devnet(&self) -> &Devnet {
        &self.devnet
    }

    /// The next step's containers: an X block, or a P-Chain block (a reward proposal comes
    /// with its option, as a node accepts them together), chosen by the seed. `clock` gives Unix
    /// nanoseconds: read before building, chain times never pass it; read again once built, it
    /// stamps the containers (strictly after every earlier stamp, never before that reading).
    /// After an error the devnet makes nothing more.
    pub fn step(
        &mut self,
        clock: &mut impl FnMut() -> i64,
    ) -> Result<Vec<ContainerRecord>, DevnetError> {
        if self.failed {
            return Err(DevnetError::Failed);
        }
        let built = self.build(clock().div_euclid(NANOS));
        let (mut records, exports) = match built {
            Ok(b) => b,
            Err(e) => {
                self.failed = true;
                return Err(e);
            }
        };
        let at = clock();
        for r in &mut records {
            r.timestamp_ns = at.max(self.last_ts.saturating_add(1));
            self.last_ts = r.timestamp_ns;
        }
        if let Some(r) = records.first() {
            self.devnet.x_exported(r.timestamp_ns, exports);
        }
        Ok(records)
    }

    /// One unstamped step, with the X block's exports to P.
    fn build(
        &mut self,
        now_s: i64,
    ) -> Result<(Vec<ContainerRecord>, Vec<snowline_types::platformvm::Utxo>), DevnetError> {
        if self.rng.chance(50) {
            let (record, exports) = self.devnet.live_x_block(now_s)?;
            Ok((vec![record], exports))
        } else {
            let now_s = u64::try_from(now_s).unwrap_or(0);
            Ok((self.devnet.live_p_step(now_s)?, Vec::new()))
        }
    }
}
