//! The Primary Network's transaction exports: the rows of a `TRANSACTION_EXPORT_PRIMARY_NETWORK`
//! (or `_SIMPLE`, the same rows) or `_STAKING` (staking txs only) job, the P-Chain txs its
//! addresses take part in within its days, read through `chain_p`'s tx listing.
//! `docs/exports.md`.

use std::collections::BTreeSet;
use std::sync::Arc;

use snowline_chain_evm::export::{ExportJob, ExportRow, ExportSource, date_text};
use snowline_chain_p::pages::{PChainPages, PTxQuery};
use snowline_query::SortOrder;
use snowline_query::params::TimeRange;
use snowline_types::Id;
use snowline_types::platformvm::UnsignedTx;

/// The Primary Network export's `OperationType`s.
pub const PRIMARY: &str = "TRANSACTION_EXPORT_PRIMARY_NETWORK";
/// Staking txs only.
pub const PRIMARY_STAKING: &str = "TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING";
/// The same rows as [`PRIMARY`].
pub const PRIMARY_SIMPLE: &str = "TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE";

/// The header of a Primary Network export's CSV.
pub const PRIMARY_CSV_HEADER: &str = "chainId,blockNumber,blockTimestamp,date,txHash,txType";

/// The P-Chain's staking txs (`PChainTransactionType`), what a `_STAKING` export lists.
const STAKING: [&str; 6] = [
    "AddValidatorTx",
    "AddDelegatorTx",
    "AddPermissionlessValidatorTx",
    "AddPermissionlessDelegatorTx",
    "AddSubnetValidatorTx",
    "RewardValidatorTx",
];

/// Seconds in a day.
const DAY: u64 = 86_400;

/// Txs read per page.
const PAGE: usize = 100;

/// The rows of Primary Network jobs over the P-Chain's pages.
#[derive(Debug)]
pub struct PrimaryExports {
    pages: Arc<PChainPages>,
    p_chain: Id,
}

impl PrimaryExports {
    /// Rows read from `pages`, of the P-Chain `p_chain`.
    pub fn new(pages: Arc<PChainPages>, p_chain: Id) -> Self {
        Self { pages, p_chain }
    }
}

impl ExportSource for PrimaryExports {
    fn header(&self, _kind: &str) -> &'static str {
        PRIMARY_CSV_HEADER
    }

    fn rows(&self, job: &ExportJob) -> Result<Vec<ExportRow>, String> {
        if job.primary_chains.iter().any(|c| *c != self.p_chain) {
            return Err("only the P-Chain's txs are exported".to_owned());
        }
        let types: BTreeSet<String> = if job.kind == PRIMARY_STAKING {
            STAKING.iter().map(|t| (*t).to_owned()).collect()
        } else {
            BTreeSet::new()
        };
        let q = PTxQuery {
            addresses: job.primary_addresses.clone(),
            types,
            range: TimeRange {
                start: Some(job.first_day),
                end: Some(job.last_day.saturating_add(DAY)),
            },
            page_size: PAGE,
            sort: SortOrder::Asc,
            l1_validation: None,
        };
        let mut rows = Vec::new();
        let mut from: Option<Vec<u8>> = None;
        loop {
            let page = self
                .pages
                .txs(&q, from.as_deref())
                .map_err(|e| format!("reading the P-Chain's txs: {e}"))?;
            for t in &page.txs {
                let (height, ts) = (t.row.event.height, t.row.event.timestamp);
                rows.push(ExportRow {
                    timestamp: ts,
                    line: format!(
                        "{},{height},{ts},{},{},{}",
                        self.p_chain,
                        date_text(ts / DAY * DAY),
                        t.id,
                        UnsignedTx::data_api_type_of(t.row.type_id),
                    ),
                });
            }
            match page.next {
                Some(next) => from = Some(next),
                None => return Ok(rows),
            }
        }
    }
}
