//! `data-api keys ...`: key management on the keys store (`DATA_DIR/keys`). The server follows
//! that store as a secondary, so changes apply to a running server within a second.

use std::path::Path;

use snowline_access::keys::{ApiKeys, KeyRecord, Tier};

use crate::cli::KeysAction;

/// Runs one key operation and prints its outcome.
pub fn run(data_dir: &Path, action: KeysAction) -> Result<(), String> {
    let keys = ApiKeys::open(data_dir.join("keys"))
        .map_err(|e| format!("cannot open the keys store in {}: {e}", data_dir.display()))?;
    let tier = |name: &str| Tier::for_key(name).map_err(|e| e.to_string());
    match action {
        KeysAction::Create { name, org, tier: t } => {
            let (record, secret) = keys
                .create(&name, &org, tier(&t)?)
                .map_err(|e| e.to_string())?;
            println!("{}", header());
            println!("{}", row(&record));
            println!();
            println!("secret (shown once; send it as x-data-api-key): {secret}");
        }
        KeysAction::List => {
            let list = keys.list().map_err(|e| e.to_string())?;
            println!("{}", header());
            for record in &list {
                println!("{}", row(record));
            }
        }
        KeysAction::Disable { key_id } => print_one(keys.set_disabled(&key_id, true))?,
        KeysAction::Enable { key_id } => print_one(keys.set_disabled(&key_id, false))?,
        KeysAction::SetTier { key_id, tier: t } => {
            print_one(keys.set_tier(&key_id, tier(&t)?))?;
        }
        KeysAction::Delete { key_id } => {
            let record = keys.delete(&key_id).map_err(|e| e.to_string())?;
            println!("deleted {} ({})", record.key_id, record.name);
        }
    }
    Ok(())
}

fn print_one(r: Result<KeyRecord, snowline_access::AccessError>) -> Result<(), String> {
    let record = r.map_err(|e| e.to_string())?;
    println!("{}", header());
    println!("{}", row(&record));
    Ok(())
}

fn header() -> String {
    format!(
        "{:<16}  {:<20}  {:<16}  {:<9}  {:<8}  {}",
        "KEY ID", "NAME", "ORG", "TIER", "STATE", "CREATED"
    )
}

fn row(r: &KeyRecord) -> String {
    format!(
        "{:<16}  {:<20}  {:<16}  {:<9}  {:<8}  {}",
        r.key_id,
        r.name,
        r.org_id,
        r.tier.as_str(),
        if r.disabled { "disabled" } else { "active" },
        r.created_at
    )
}
