//! Transaction exports (`postTransactionExportJob`, `getOperationResult`): a job that writes the
//! txs a set of addresses took part in on some EVM chains (or, through an [`ExportSource`], on
//! the Primary Network), within whole UTC days, as CSV to a file of the data directory. Jobs are rows of [`EvExports`](crate::tables::EvExports), so they
//! outlive the process: a job found running at start is run again from the beginning (its file
//! is written under a temporary name and renamed when complete, then the row says so), so a
//! crash anywhere leaves either no file and a running job, or the whole file.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use snowline_query::SortOrder;
use snowline_query::params::BlockRange;
use snowline_store::{Direction, ReadView, Store};
use snowline_types::evm::Address;
use snowline_types::{Id, ShortId};
use tokio::sync::Notify;

use crate::pages::{EvmPages, EvmReadError, HistoryQuery};
use crate::rows::{Roles, TxRow};
use crate::tables::EvExports;

/// Seconds in a day.
const DAY: u64 = 86_400;

/// The header of an export's CSV.
pub const CSV_HEADER: &str = "chainId,blockNumber,blockTimestamp,date,txHash,transactionIndex,\
from,to,value,gasLimit,gasUsed,effectiveGasPrice,nonce,txType,txStatus,contractAddress";

/// The EVM export's `OperationType`.
pub const EVM_EXPORT: &str = "TRANSACTION_EXPORT_EVM";

fn evm_kind() -> String {
    EVM_EXPORT.to_owned()
}

/// One line of an export's CSV, with its tx's block time (the row bound cuts by day).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRow {
    /// The block time, Unix seconds.
    pub timestamp: u64,
    /// The CSV line, without its line end.
    pub line: String,
}

/// Where the rows of a job of another kind than [`EVM_EXPORT`] come from (the Primary
/// Network's, read by a crate this one does not see).
pub trait ExportSource: Send + Sync {
    /// The CSV header of jobs of `kind`.
    fn header(&self, kind: &str) -> &'static str;
    /// The rows of `job`, in file order; an error fails the job with its text.
    fn rows(&self, job: &ExportJob) -> Result<Vec<ExportRow>, String>;
}

/// `OperationStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExportStatus {
    /// Being written.
    Running,
    /// Written whole.
    Completed,
    /// Written up to the row bound: the rest starts at `next_date`.
    CompletedWithWarning,
    /// Failed: `message` says why.
    Failed,
}

/// One export job, as stored (JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportJob {
    /// UUID.
    pub id: String,
    /// The organisation that asked.
    pub org_id: String,
    /// The OpenAPI's `OperationType` (a job stored before there were others: EVM).
    #[serde(default = "evm_kind")]
    pub kind: String,
    /// The EVM addresses.
    pub addresses: Vec<Address>,
    /// The EVM chains.
    pub chains: Vec<u64>,
    /// A Primary Network job's addresses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primary_addresses: Vec<ShortId>,
    /// A Primary Network job's chains (blockchain ids).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primary_chains: Vec<Id>,
    /// The first day included, Unix seconds of its 00:00 UTC.
    pub first_day: u64,
    /// The last day included, Unix seconds of its 00:00 UTC.
    pub last_day: u64,
    /// Where it stands.
    pub status: ExportStatus,
    /// Unix seconds.
    pub created_at: u64,
    /// Unix seconds of the last change.
    pub updated_at: u64,
    /// Rows written (when done).
    #[serde(default)]
    pub rows: u64,
    /// With `CompletedWithWarning`: the first day not written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_day: Option<u64>,
    /// With `Failed`: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What can go wrong with an export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] snowline_store::StoreError),
    /// Reading the txs failed.
    #[error(transparent)]
    Page(#[from] EvmReadError),
    /// Writing the file failed.
    #[error("export file: {0}")]
    Io(#[from] std::io::Error),
    /// A stored job that is not JSON.
    #[error("corrupt export job: {0}")]
    Corrupt(String),
    /// The Primary Network's rows could not be read.
    #[error("{0}")]
    Source(String),
}

/// The export jobs of one data directory.
#[derive(Debug)]
pub struct Exports {
    store: Arc<Store>,
    dir: PathBuf,
    max_rows: u64,
    wake: Notify,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DD` of the day starting at `day` (Unix seconds).
pub fn date_text(day: u64) -> String {
    // Howard Hinnant's civil-from-days (the proleptic Gregorian calendar).
    let z = (day / DAY) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The Unix seconds of 00:00 UTC of `YYYY-MM-DD`, if it is a real date from 1970 on.
pub fn parse_date(raw: &str) -> Option<u64> {
    let mut parts = raw.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if y < 1970 || !(1..=12).contains(&m) || d < 1 {
        return None;
    }
    // days-from-civil, the inverse of `date_text`.
    let yy = if m <= 2 { y - 1 } else { y };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let day = u64::try_from(days).ok()? * DAY;
    // A day past its month's end (2023-02-30) comes back as another date.
    (date_text(day) == raw).then_some(day)
}

impl Exports {
    /// The jobs of `store`, their files in `dir`; a job writes at most `max_rows` rows.
    pub fn new(store: Arc<Store>, dir: PathBuf, max_rows: u64) -> Self {
        Self {
            store,
            dir,
            max_rows: max_rows.max(1),
            wake: Notify::new(),
        }
    }

    /// The CSV of job `id`, once written.
    pub fn file(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.csv"))
    }

    fn save(&self, job: &ExportJob) -> Result<(), ExportError> {
        let json = serde_json::to_vec(job).map_err(|e| ExportError::Corrupt(e.to_string()))?;
        self.store.put::<EvExports>(&job.id, &json)?;
        Ok(())
    }

    /// Records a new running job and wakes the runner.
    pub fn create(&self, job: &ExportJob) -> Result<(), ExportError> {
        self.save(job)?;
        self.wake.notify_one();
        Ok(())
    }

    /// Job `id`, if organisation `org` made it.
    pub fn get(&self, org: &str, id: &str) -> Result<Option<ExportJob>, ExportError> {
        let Some(json) = self.store.get::<EvExports>(&id.to_owned())? else {
            return Ok(None);
        };
        let job: ExportJob =
            serde_json::from_slice(&json).map_err(|e| ExportError::Corrupt(e.to_string()))?;
        Ok((job.org_id == org).then_some(job))
    }

    /// The CSV of job `id` of organisation `org`, if it is written.
    pub fn csv(&self, org: &str, id: &str) -> Result<Option<Vec<u8>>, ExportError> {
        match self.get(org, id)? {
            Some(job)
                if matches!(
                    job.status,
                    ExportStatus::Completed | ExportStatus::CompletedWithWarning
                ) =>
            {
                Ok(Some(std::fs::read(self.file(id))?))
            }
            _ => Ok(None),
        }
    }

    fn running(&self) -> Result<Vec<ExportJob>, ExportError> {
        let mut out = Vec::new();
        for entry in self.store.scan::<EvExports, _>(.., Direction::Forward)? {
            let (_, json) = entry?;
            match serde_json::from_slice::<ExportJob>(&json) {
                Ok(job) if job.status == ExportStatus::Running => out.push(job),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "an unreadable export job was skipped"),
            }
        }
        Ok(out)
    }

    /// Runs every running job, oldest first, then waits for more; forever. `primary` gives the
    /// rows of the Primary Network's jobs.
    pub async fn run(self: Arc<Self>, pages: Arc<EvmPages>, primary: Arc<dyn ExportSource>) {
        loop {
            let me = Arc::clone(&self);
            let p = Arc::clone(&pages);
            let s = Arc::clone(&primary);
            let done = tokio::task::spawn_blocking(move || me.run_pending(&p, &*s)).await;
            match done {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(error = %e, "export jobs"),
                Err(e) => tracing::warn!(error = %e, "export jobs"),
            }
            self.wake.notified().await;
        }
    }

    /// Runs the jobs found running, one after the other.
    pub fn run_pending(
        &self,
        pages: &EvmPages,
        primary: &dyn ExportSource,
    ) -> Result<(), ExportError> {
        for mut job in self.running()? {
            let rows = if job.kind == EVM_EXPORT {
                self.txs(pages, &job).map(|txs| {
                    txs.iter()
                        .map(|(chain, tx, hash)| ExportRow {
                            timestamp: tx.timestamp,
                            line: evm_line(*chain, tx, hash),
                        })
                        .collect()
                })
            } else {
                primary.rows(&job).map_err(ExportError::Source)
            };
            let header = if job.kind == EVM_EXPORT {
                CSV_HEADER
            } else {
                primary.header(&job.kind)
            };
            match rows.and_then(|rows| self.write(&job, header, rows)) {
                Ok((rows, next_day)) => {
                    job.rows = rows;
                    job.next_day = next_day;
                    job.status = if next_day.is_some() {
                        ExportStatus::CompletedWithWarning
                    } else {
                        ExportStatus::Completed
                    };
                }
                Err(e) => {
                    job.status = ExportStatus::Failed;
                    job.message = Some(e.to_string());
                }
            }
            job.updated_at = now_secs();
            self.save(&job)?;
        }
        Ok(())
    }

    /// The txs of `job`, in chain order per chain (chains in the order asked), each once.
    fn txs(
        &self,
        pages: &EvmPages,
        job: &ExportJob,
    ) -> Result<Vec<(u64, TxRow, String)>, ExportError> {
        let end = job.last_day.saturating_add(DAY);
        let mut rows = Vec::new();
        for &chain in &job.chains {
            let mut found: BTreeMap<(u64, u32), (TxRow, String)> = BTreeMap::new();
            for address in &job.addresses {
                let mut from: Option<Vec<u8>> = None;
                loop {
                    let q = HistoryQuery {
                        only: Roles::default(),
                        parts: false,
                        order: SortOrder::Asc,
                    };
                    let page = match pages.address_txs(
                        chain,
                        *address,
                        BlockRange::default(),
                        q,
                        100,
                        from.as_deref(),
                    ) {
                        Ok(p) => p,
                        Err(EvmReadError::NotIndexed(_)) => break,
                        Err(e) => return Err(e.into()),
                    };
                    for t in page.txs {
                        if (job.first_day..end).contains(&t.tx.timestamp) {
                            let hash = format!("{:#x}", t.tx.hash);
                            found.insert((t.tx.block, t.tx.index), (t.tx, hash));
                        }
                    }
                    match page.next {
                        Some(next) => from = Some(next),
                        None => break,
                    }
                }
            }
            rows.extend(found.into_values().map(|(tx, hash)| (chain, tx, hash)));
        }
        Ok(rows)
    }

    /// Writes job's CSV of `rows` under `header` (whole days only when they exceed the row
    /// bound); its rows and the first day left out, if any.
    fn write(
        &self,
        job: &ExportJob,
        header: &str,
        mut txs: Vec<ExportRow>,
    ) -> Result<(u64, Option<u64>), ExportError> {
        // Over the bound: keep the whole days before the day of the first row over it (at
        // least the bound's worth when one day alone exceeds it).
        let mut next_day = None;
        if txs.len() as u64 > self.max_rows {
            let mut by_time: Vec<usize> = (0..txs.len()).collect();
            by_time.sort_by_key(|&i| (txs[i].timestamp, i));
            let cut_day = txs[by_time[self.max_rows as usize]].timestamp / DAY * DAY;
            let first_day = txs[by_time[0]].timestamp / DAY * DAY;
            let cut_day = if cut_day == first_day {
                cut_day + DAY
            } else {
                cut_day
            };
            let keep: BTreeSet<usize> = by_time
                .into_iter()
                .filter(|&i| txs[i].timestamp < cut_day)
                .take(self.max_rows as usize)
                .collect();
            let mut i = 0;
            txs.retain(|_| {
                let k = keep.contains(&i);
                i += 1;
                k
            });
            next_day = Some(cut_day);
        }
        std::fs::create_dir_all(&self.dir)?;
        let part = self.dir.join(format!("{}.csv.part", job.id));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&part)?);
        writeln!(out, "{header}")?;
        for row in &txs {
            writeln!(out, "{}", row.line)?;
        }
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&part, self.file(&job.id))?;
        Ok((txs.len() as u64, next_day))
    }
}

/// The CSV line of an EVM tx.
fn evm_line(chain: u64, tx: &TxRow, hash: &str) -> String {
    let to = tx.to.map(|a| a.to_checksum(None)).unwrap_or_default();
    let created = tx.created.map(|a| a.to_checksum(None)).unwrap_or_default();
    let status = match tx.status {
        Some(true) => "1",
        Some(false) => "0",
        None => "",
    };
    format!(
        "{chain},{},{},{},{hash},{},{},{to},{},{},{},{},{},{},{status},{created}",
        tx.block,
        tx.timestamp,
        date_text(tx.timestamp / DAY * DAY),
        tx.index,
        tx.from.to_checksum(None),
        tx.value,
        tx.gas_limit,
        tx.gas_used,
        tx.effective_gas_price,
        tx.nonce,
        tx.tx_type,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_impossible_ones_are_refused() {
        // 2023-05-01 00:00 UTC is 1682899200 (the OpenAPI's example `firstDate`).
        assert_eq!(parse_date("2023-05-01"), Some(1_682_899_200));
        assert_eq!(date_text(1_682_899_200), "2023-05-01");
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(
            parse_date("2024-02-29").map(date_text).as_deref(),
            Some("2024-02-29")
        );
        for bad in [
            "2023-02-29",
            "2023-13-01",
            "2023-5-01",
            "1969-12-31",
            "",
            "2023-05-01x",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }
}
