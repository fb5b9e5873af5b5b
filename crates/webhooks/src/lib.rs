//! Webhooks of the Data API (`docs/webhooks.md`): subscriptions owned by an organisation and
//! kept in the data-api's store ([`Webhooks`], [`tables`](mod@tables)); `address_activity`
//! events derived from each indexed EVM block in the block's own batch into a durable outbox
//! ([`WebhookHook`]); delivery in order per webhook, signed, retried on a schedule, never to a
//! private network unless allowed ([`deliver`], [`net`], [`sign`]), over the outbound client
//! (`snowline-outbound`).

mod acks;
mod addresses;
pub mod deliver;
mod error;
pub mod event;
mod hook;
mod metadata;
pub mod model;
pub mod net;
mod outbox;
mod pevents;
mod phook;
pub mod pnaddress;
mod registry;
mod service;
pub mod sign;
mod stream;
pub mod tables;
mod threshold;
pub mod validator;

pub use addresses::AddressSet;
pub use deliver::{DeliveryConfig, parse_schedule};
pub use error::WebhookError;
pub use hook::WebhookHook;
pub use net::AllowList;
pub use outbox::Wakers;
pub use phook::PlatformHook;
pub use registry::{Registry, Sub};
pub use service::{Limits, Page, Target, Webhooks};
pub use stream::StreamEvents;
pub use tables::tables;
