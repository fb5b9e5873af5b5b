//! A webhook's event stream (`GET /v1/webhooks/{id}/events`): the events of its outbox's
//! window ([`STREAM_KEPT`] per webhook, acknowledged or not), by sequence number, for a consumer
//! reading them as Server-Sent Events and resuming from the last id it saw.

use snowline_store::{Direction, ReadView};

use crate::error::WebhookError;
use crate::service::Webhooks;
use crate::tables::{STREAM_KEPT, WhNext, WhStream};

/// Events of a stream, each with its sequence number (the SSE `id`).
pub type StreamEvents = Vec<(u64, Vec<u8>)>;

impl Webhooks {
    /// Up to `max` events of `org`'s webhook `id` after sequence number `after` (from the
    /// oldest kept when `None`), in order. Events that were queued after `after` but are no
    /// longer kept are a 400 saying from where the stream can resume: nothing is skipped
    /// silently.
    pub fn stream(
        &self,
        org: &str,
        id: &str,
        after: Option<u64>,
        max: usize,
    ) -> Result<StreamEvents, WebhookError> {
        let sub = self.owned(org, id)?;
        let id = sub.webhook.id.clone();
        let store = self.store();
        let from = after.map(|a| (id.clone(), a));
        let mut out = Vec::new();
        for entry in store
            .prefix_scan::<WhStream, _>(&id, from.as_ref(), Direction::Forward)?
            .take(max)
        {
            let ((_, seq), body) = entry?;
            out.push((seq, body));
        }
        if let Some(a) = after {
            let first = out.first().map(|(seq, _)| *seq);
            let next = store.get::<WhNext>(&id)?.unwrap_or(0);
            let wanted = a.saturating_add(1);
            if wanted < next && first != Some(wanted) {
                let oldest = next.saturating_sub(STREAM_KEPT);
                return Err(WebhookError::invalid(format!(
                    "Invalid Last-Event-ID: events before {oldest} are no longer kept (the \
                     last {STREAM_KEPT} of each webhook are); resume without it to start from \
                     the oldest kept"
                )));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use serde_json::json;
    use snowline_store::{Schema, Store, WriteBatch};

    use super::*;
    use crate::model::CreateRequest;
    use crate::outbox::Outbox;
    use crate::service::{Limits, Target};

    #[test]
    fn the_stream_keeps_a_window_and_resumes_only_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let schema = crate::tables()
            .into_iter()
            .fold(Schema::new(1), Schema::with_spec);
        let store = Arc::new(Store::open(dir.path(), &schema).unwrap());
        let webhooks = Webhooks::open(Arc::clone(&store), Limits::default()).unwrap();
        let req: CreateRequest = serde_json::from_value(json!({
            "eventType": "validator_activity", "url": "http://example.com/", "network": "local",
            "metadata": {"keyType": "subnetId", "keys": ["11111111111111111111111111111111LpoYY"],
                         "subEvents": {"validatorActivitySubEvents": ["validator_stake"]}}}))
        .unwrap();
        let target = Target::Platform {
            network: "local".to_owned(),
            chain_id: "p".to_owned(),
        };
        let id = webhooks.create("o", req, target).unwrap().id;
        let sub = webhooks.registry().get(&id).unwrap();
        // Three more events than the window holds, in one batch, as a hook queues them.
        let mut outbox = Outbox::new(
            webhooks.registry().clone(),
            Arc::new(crate::outbox::Wakers::default()),
            u64::MAX,
        );
        let mut batch = WriteBatch::new();
        for n in 0..STREAM_KEPT + 3 {
            outbox
                .queue(&store, &mut batch, &sub, || n.to_string().into_bytes())
                .unwrap();
        }
        outbox.finish(&mut batch);
        store.write(batch).unwrap();

        let seqs = |e: &StreamEvents| e.iter().map(|(s, _)| *s).collect::<Vec<_>>();
        let oldest = webhooks.stream("o", &id, None, 2).unwrap();
        assert_eq!(seqs(&oldest), vec![3, 4]);
        assert_eq!(oldest[0].1, b"3");
        let resumed = webhooks.stream("o", &id, Some(STREAM_KEPT), 100).unwrap();
        assert_eq!(seqs(&resumed), vec![STREAM_KEPT + 1, STREAM_KEPT + 2]);
        assert!(
            webhooks
                .stream("o", &id, Some(STREAM_KEPT + 2), 100)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            seqs(&webhooks.stream("o", &id, Some(2), 1).unwrap()),
            vec![3]
        );
        let gone = webhooks
            .stream("o", &id, Some(1), 1)
            .err()
            .unwrap()
            .to_string();
        assert!(
            gone.contains("events before 3 are no longer kept"),
            "{gone}"
        );
        assert!(matches!(
            webhooks.stream("other", &id, None, 1),
            Err(WebhookError::NotFound(_))
        ));
    }
}
