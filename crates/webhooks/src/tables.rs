//! The webhook tables, in the data-api's index store: subscriptions, their addresses, each
//! organisation's shared secret, the outbox (events per webhook by sequence number, the next
//! number to give, and the delivery cursor) and the event stream's window.

/// Events of each webhook its event stream keeps (`GET /v1/webhooks/{id}/events`).
pub const STREAM_KEPT: u64 = 10_000;

use snowline_store::table;

table! {
    /// The webhook tables, for composing the data-api store's schema.
    pub fn tables();

    /// `(organisation, webhook id) -> webhook record (JSON)`: ids are time-ordered, so a scan of
    /// one organisation lists its webhooks oldest first.
    pub WhWebhooks: "wh_webhooks", (String, String) => Vec<u8>;
    /// `(set key, address)`: the addresses webhooks watch, each distinct set once under its
    /// key (`Webhook::address_set`; a webhook written before sets were shared has its rows
    /// under its own id).
    pub WhAddresses: "wh_addresses", (String, [u8; 20]) => ();
    /// `set key -> how many webhooks watch the set`: its rows go with the last of them.
    pub WhSetRefs: "wh_set_refs" (PointLookup), String => u64;
    /// `organisation -> shared secret`: what every delivery to the organisation is signed with.
    pub WhSecrets: "wh_secrets" (PointLookup), String => String;
    /// `(webhook id, sequence) -> the delivery's body`: the outbox, written in the batch of the
    /// block that produced the events; a delivered event is deleted with the cursor's advance.
    pub WhEvents: "wh_events", (String, u64) => Vec<u8>;
    /// `webhook id -> next sequence number`, written in the same batch as the events.
    pub WhNext: "wh_next" (PointLookup), String => u64;
    /// `webhook id -> first sequence number not yet acknowledged by the receiver`.
    pub WhAcked: "wh_acked" (PointLookup), String => u64;
    /// `(webhook id, sequence) -> the delivery's body`: the last [`STREAM_KEPT`] events of each
    /// webhook, acknowledged or not, for its event stream; written with the outbox's.
    pub WhStream: "wh_stream", (String, u64) => Vec<u8>;
}

/// The key of [`WhNext`] that names no webhook (ids are never empty) but holds how many
/// containers the Primary Network hook has derived in the batches written, by which it tells
/// whether the store shows a batch yet.
pub const BATCH_MARK: &str = "";
