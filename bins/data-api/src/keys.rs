//! `data-api keys ...`: key management on the keys store (`DATA_DIR/keys`), or with `--fleet` on
//! the fleet's key bucket. The server follows that store as a secondary and watches the bucket,
//! so changes apply to running servers within a second.

use std::path::Path;

use std::time::Duration;

use bytes::Bytes;
use snowline_access::AccessError;
use snowline_access::keys::{
    ApiKeys, KeyChange, KeyRecord, Tier, change_shared, is_key_of, new_shared_key, shared_record,
};
use snowline_fleet::{Bucket, FleetConfig, KEYS_BUCKET};

use crate::cli::{KeysAction, KeysArgs};

/// Runs one key operation on the data directory's keys, or the fleet's with `--fleet`, and
/// prints its outcome.
pub fn run(args: &KeysArgs) -> Result<(), String> {
    match &args.fleet {
        None => run_local(&args.common.data_dir, args.action.clone()),
        Some(url) => {
            let config = FleetConfig {
                url: url.clone(),
                stream: args.stream.clone(),
                replicas: args.stream_replicas,
                max_age: Duration::ZERO,
            };
            config.validate()?;
            snowline_cli::runtime()?.block_on(run_fleet(&config, args.action.clone()))
        }
    }
}

/// A key operation on the fleet's key bucket: each key under its hash in hex.
async fn run_fleet(config: &FleetConfig, action: KeysAction) -> Result<(), String> {
    let bucket = Bucket::open(config, KEYS_BUCKET).await?;
    let tier = |name: &str| Tier::for_key(name).map_err(|e| e.to_string());
    match action {
        KeysAction::Create { name, org, tier: t } => {
            let (key, value, record, secret) =
                new_shared_key(&name, &org, tier(&t)?).map_err(|e| e.to_string())?;
            if !bucket.create(&key, Bytes::from(value)).await? {
                return Err("a key with this hash exists already; run the command again".into());
            }
            print_created(&record, &secret);
        }
        KeysAction::List => {
            println!("{}", header());
            for (key, value) in bucket.entries().await? {
                println!(
                    "{}",
                    row(&shared_record(&key, &value).map_err(|e| e.to_string())?)
                );
            }
        }
        KeysAction::Disable { key_id } => {
            change(&bucket, &key_id, KeyChange::Disabled(true)).await?
        }
        KeysAction::Enable { key_id } => {
            change(&bucket, &key_id, KeyChange::Disabled(false)).await?
        }
        KeysAction::SetTier { key_id, tier: t } => {
            change(&bucket, &key_id, KeyChange::Tier(tier(&t)?)).await?;
        }
        KeysAction::Delete { key_id } => {
            let (key, value, _) = find(&bucket, &key_id).await?;
            let record = shared_record(&key, &value).map_err(|e| e.to_string())?;
            bucket.delete(&key).await?;
            println!("deleted {} ({})", record.key_id, record.name);
        }
    }
    Ok(())
}

/// Changes the fleet key `key_id` (if no one changed it meanwhile) and prints it.
async fn change(bucket: &Bucket, key_id: &str, change: KeyChange) -> Result<(), String> {
    let (key, value, revision) = find(bucket, key_id).await?;
    let value = change_shared(&value, change).map_err(|e| e.to_string())?;
    bucket
        .update(&key, Bytes::from(value.clone()), revision)
        .await?;
    print_one(shared_record(&key, &value))
}

/// The bucket entry of the key `key_id`: its bucket key, value and revision.
async fn find(bucket: &Bucket, key_id: &str) -> Result<(String, Bytes, u64), String> {
    for (key, _) in bucket.entries().await? {
        if is_key_of(&key, key_id).map_err(|e| e.to_string())? {
            if let Some((value, revision)) = bucket.get(&key).await? {
                return Ok((key, value, revision));
            }
        }
    }
    Err(AccessError::UnknownKey(key_id.to_owned()).to_string())
}

fn print_created(record: &KeyRecord, secret: &str) {
    println!("{}", header());
    println!("{}", row(record));
    println!();
    println!("secret (shown once; send it as x-data-api-key): {secret}");
}

/// A key operation on the data directory's keys store.
fn run_local(data_dir: &Path, action: KeysAction) -> Result<(), String> {
    let keys = ApiKeys::open(data_dir.join("keys"))
        .map_err(|e| format!("cannot open the keys store in {}: {e}", data_dir.display()))?;
    let tier = |name: &str| Tier::for_key(name).map_err(|e| e.to_string());
    match action {
        KeysAction::Create { name, org, tier: t } => {
            let (record, secret) = keys
                .create(&name, &org, tier(&t)?)
                .map_err(|e| e.to_string())?;
            print_created(&record, &secret);
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
