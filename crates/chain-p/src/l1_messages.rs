//! The P-Chain messages that L1 validator txs carry inside their signed Warp messages
//! (ACP-77): read once here for the deriver and the tx index.

use snowline_types::warp::l1::{L1Message, RegisterL1Validator};
use snowline_types::warp::message::Message as WarpMessage;
use snowline_types::warp::payload::Payload;

/// The AddressedCall payload of a signed Warp message, if it carries one.
fn addressed_payload(signed: &[u8]) -> Option<Vec<u8>> {
    let message = WarpMessage::parse(signed).ok()?;
    match Payload::parse(&message.unsigned.payload).ok()? {
        Payload::AddressedCall(call) => Some(call.payload),
        Payload::Hash(_) => None,
    }
}

/// The P-Chain message a signed Warp message carries in its AddressedCall, if any.
pub(crate) fn l1_message(signed: &[u8]) -> Option<L1Message> {
    L1Message::parse(&addressed_payload(signed)?).ok()
}

/// A `RegisterL1Validator` message with its payload bytes (whose hash is the validation id).
pub(crate) fn register_message(signed: &[u8]) -> Option<(RegisterL1Validator, Vec<u8>)> {
    let payload = addressed_payload(signed)?;
    match L1Message::parse(&payload).ok()? {
        L1Message::RegisterL1Validator(r) => Some((r, payload)),
        _ => None,
    }
}
