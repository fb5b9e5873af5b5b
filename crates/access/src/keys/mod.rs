//! API keys: creation (a secret shown once), the stored record (hash only), tiers, and the
//! lookup the REST edge performs on every request.

mod api;
mod follow;
mod record;
mod secret;
mod shared;
mod table;
mod tier;

pub use api::{ApiKeys, MAX_FIELD_BYTES};
pub use follow::CatchUp;
pub use record::{Caller, KeyLookup, KeyRecord};
pub use secret::{KEY_ID_HEX_LEN, SECRET_BYTES, SECRET_PREFIX, key_id_of, parse_secret};
pub use shared::{KeyChange, SharedKeys, change_shared, is_key_of, new_shared_key, shared_record};
pub use table::{KEYS_TABLE, SCHEMA_VERSION, schema, tables};
pub use tier::Tier;
