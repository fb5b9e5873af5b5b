//! Wire bytes against avalanchego's `.proto` files: each expected byte string is written out by
//! hand from the field numbers and types in `proto/p2p/p2p.proto` and `proto/sdk/sdk.proto`
//! (tag = field << 3 | wire type; 0 varint, 2 length-delimited).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use snowline_p2p::frame::{FrameError, MAX_MESSAGE_SIZE, frame_len, read_frame, split_frames};
use snowline_p2p::handshake::EMPTY_BLOOM_FILTER;
use snowline_p2p::proto::*;

fn encode(kind: Kind) -> Vec<u8> {
    encode_message(&Message { kind: Some(kind) })
}

#[test]
fn handshake_fields_match_p2p_proto() {
    let h = Handshake {
        network_id: 12345,
        my_time: 1000,
        ip_addr: vec![127, 0, 0, 1],
        ip_port: 9651,
        upgrade_time: 0,
        ip_signing_time: 1000,
        ip_node_id_sig: vec![0xaa, 0xbb],
        tracked_subnets: vec![],
        client: Some(Client {
            name: "avalanchego".into(),
            major: 1,
            minor: 14,
            patch: 2,
        }),
        supported_acps: vec![23, 24],
        objected_acps: vec![],
        known_peers: Some(BloomFilter {
            filter: EMPTY_BLOOM_FILTER.to_vec(),
            salt: vec![],
        }),
        ip_bls_sig: vec![0xcc],
        all_subnets: true,
    };
    let mut body = vec![
        0x08, 0xb9, 0x60, // network_id = 1: 12345
        0x10, 0xe8, 0x07, // my_time = 2: 1000
        0x1a, 0x04, 127, 0, 0, 1, // ip_addr = 3
        0x20, 0xb3, 0x4b, // ip_port = 4: 9651 (upgrade_time = 5 is 0, omitted)
        0x30, 0xe8, 0x07, // ip_signing_time = 6
        0x3a, 0x02, 0xaa, 0xbb, // ip_node_id_sig = 7
        0x4a, 0x13, // client = 9, 19 bytes: name = 1, major = 2, minor = 3, patch = 4
        0x0a, 0x0b,
    ];
    body.extend_from_slice(b"avalanchego");
    body.extend_from_slice(&[0x10, 0x01, 0x18, 0x0e, 0x20, 0x02]);
    body.extend_from_slice(&[0x52, 0x02, 23, 24]); // supported_acps = 10, packed
    body.extend_from_slice(&[0x62, 0x0c, 0x0a, 0x0a, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // known_peers = 12 { filter = 1 }
    body.extend_from_slice(&[0x6a, 0x01, 0xcc]); // ip_bls_sig = 13
    body.extend_from_slice(&[0x70, 0x01]); // all_subnets = 14
    let mut expected = vec![0x6a, body.len() as u8]; // Message.handshake = 13
    expected.extend_from_slice(&body);
    assert_eq!(encode(Kind::Handshake(h.clone())), expected);
    assert_eq!(
        decode_message(&expected).unwrap().kind,
        Some(Kind::Handshake(h))
    );
}

#[test]
fn app_request_with_signature_request_matches_the_protos() {
    let sig_req = prost::Message::encode_to_vec(&SignatureRequest {
        message: vec![1, 2, 3],
        justification: vec![9],
    });
    // sdk.proto: message = 1, justification = 2.
    assert_eq!(sig_req, [0x0a, 0x03, 1, 2, 3, 0x12, 0x01, 9]);
    let app_bytes = prefix_handler(SIGNATURE_REQUEST_HANDLER_ID, &sig_req);
    assert_eq!(app_bytes[0], 0x02, "uvarint(2) handler prefix");
    let req = AppRequest {
        chain_id: vec![0x11; 32],
        request_id: 7,
        deadline: 300,
        app_bytes,
    };
    let mut expected = vec![0xf2, 0x01, 0]; // Message.app_request = 30: tag 242 as a varint
    let mut body = vec![0x0a, 0x20];
    body.extend_from_slice(&[0x11; 32]); // chain_id = 1
    body.extend_from_slice(&[0x10, 0x07]); // request_id = 2
    body.extend_from_slice(&[0x18, 0xac, 0x02]); // deadline = 3: 300
    body.extend_from_slice(&[0x22, 0x09, 0x02, 0x0a, 0x03, 1, 2, 3, 0x12, 0x01, 9]); // app_bytes = 4
    expected[2] = body.len() as u8;
    expected.extend_from_slice(&body);
    assert_eq!(encode(Kind::AppRequest(req)), expected);
}

#[test]
fn app_error_code_is_zigzag_sint32() {
    let bytes = encode(Kind::AppError(AppError {
        chain_id: vec![],
        request_id: 1,
        error_code: -1,
        error_message: "x".into(),
    }));
    // Message.app_error = 34 (tag 274); request_id = 2; error_code = 3 (sint32 -1 -> 1); error_message = 4.
    assert_eq!(
        bytes,
        [0x92, 0x02, 0x07, 0x10, 0x01, 0x18, 0x01, 0x22, 0x01, b'x']
    );
}

#[test]
fn ping_pong_and_signature_response() {
    assert_eq!(encode(Kind::Pong(Pong {})), [0x62, 0x00]); // pong = 12
    assert_eq!(
        encode(Kind::Ping(Ping { uptime: 100 })),
        [0x5a, 0x02, 0x08, 100]
    ); // ping = 11
    let resp = prost::Message::encode_to_vec(&SignatureResponse {
        signature: vec![5; 96],
    });
    assert_eq!(&resp[..2], [0x0a, 96]); // signature = 1
}

#[test]
fn unknown_variants_are_skipped() {
    // Message.get = 25 (tag 202), empty.
    let msg = decode_message(&[0xca, 0x01, 0x00]).unwrap();
    assert_eq!(msg.kind, None);
}

#[test]
fn zstd_compressed_messages_are_decoded() {
    // compressed_zstd = 2 holding a zstd frame: magic, single-segment header with a 1-byte
    // content size, one last raw block of 2 bytes (header 1 | 0 << 1 | 2 << 3), the Pong bytes.
    let frame = [
        0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x02, 0x11, 0x00, 0x00, 0x62, 0x00,
    ];
    let mut bytes = vec![0x12, frame.len() as u8];
    bytes.extend_from_slice(&frame);
    assert_eq!(
        decode_message(&bytes).unwrap().kind,
        Some(Kind::Pong(Pong {}))
    );
}

#[test]
fn zstd_bombs_stop_at_the_max_message_size() {
    // Window log 17, then 17 RLE blocks of 128 KiB each (2176 KiB > 2 MiB).
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    for i in 0..17 {
        let last = u8::from(i == 16);
        frame.extend_from_slice(&[0x02 | last, 0x00, 0x10, 0x41]);
    }
    let mut bytes = vec![0x12, frame.len() as u8];
    bytes.extend_from_slice(&frame);
    assert!(matches!(decode_message(&bytes), Err(DecodeError::TooLarge)));
}

#[test]
fn handler_prefix_is_a_uvarint() {
    assert_eq!(prefix_handler(2, b"x"), [0x02, b'x']);
    assert_eq!(prefix_handler(300, b""), [0xac, 0x02]);
    assert_eq!(split_handler(&[0xac, 0x02, 7]), Some((300, &[7u8][..])));
    assert_eq!(split_handler(&[]), None);
    assert_eq!(split_handler(&[0x80]), None);
    // Overflow past 64 bits, as Go's binary.Uvarint refuses.
    assert_eq!(
        split_handler(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]),
        None
    );
    assert_eq!(split_handler(&[0x80; 11]), None);
}

#[test]
fn frames_over_the_max_are_refused() {
    assert_eq!(
        frame_len([0x00, 0x20, 0x00, 0x00]).unwrap(),
        MAX_MESSAGE_SIZE
    );
    assert!(matches!(
        frame_len([0x00, 0x20, 0x00, 0x01]),
        Err(FrameError::TooLarge(_))
    ));
    assert!(matches!(
        split_frames(&[0xff, 0xff, 0xff, 0xff]),
        Err(FrameError::TooLarge(_))
    ));
    let frames = split_frames(&[0, 0, 0, 2, 0x62, 0x00, 0, 0, 0, 9, 1]).unwrap();
    assert_eq!(frames, vec![&[0x62u8, 0x00][..]]);
}

#[tokio::test]
async fn an_oversized_prefix_fails_before_the_body_is_read() {
    // Only the prefix is there: reading a body would end in UnexpectedEof, so TooLarge shows
    // that nothing was allocated or read for it.
    let mut stream: &[u8] = &[0xff, 0xff, 0xff, 0xff];
    assert!(matches!(
        read_frame(&mut stream).await,
        Err(FrameError::TooLarge(0xffff_ffff))
    ));
    let mut truncated: &[u8] = &[0, 0, 0, 5, 1];
    assert!(matches!(
        read_frame(&mut truncated).await,
        Err(FrameError::Io(_))
    ));
}

#[test]
fn libzstd_compressed_app_response_is_decoded() {
    // An AppResponse (Message field 31) compressed by the reference libzstd 1.5.4 at level 3
    // without a checksum, the frame avalanchego's DataDog/zstd `CompressLevel` writes: single
    // segment with its content size, one compressed block.
    let zstd = hex::decode(
        "28b52ffd60fb062d0100d8fa01f70f0a200710091ad00f6176616c616e63686520776172702002007c97f9b3061801",
    )
    .unwrap();
    let mut bytes = vec![0x12, zstd.len() as u8]; // compressed_zstd = 2
    bytes.extend_from_slice(&zstd);
    let app_bytes: Vec<u8> = (0..2000).map(|i| b"avalanche warp "[i % 15]).collect();
    let expected = Kind::AppResponse(AppResponse {
        chain_id: vec![7; 32],
        request_id: 9,
        app_bytes,
    });
    assert_eq!(decode_message(&bytes).unwrap().kind, Some(expected));
}
