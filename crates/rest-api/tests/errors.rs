//! The error body of every status, the glacier profile, and handler panics.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get, read_response, request, spawn};
use snowline_rest_api::{
    ApiError, App, Profile, RateLimits, Reply, Request, Router, ServerConfig, Weight,
};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

const CASES: [(u16, &str); 10] = [
    (400, "Bad Request"),
    (401, "Unauthorized"),
    (403, "Forbidden"),
    (404, "Not Found"),
    (405, "Method Not Allowed"),
    (413, "Payload Too Large"),
    (429, "Too Many Requests"),
    (500, "Internal Server Error"),
    (502, "Bad Gateway"),
    (503, "Service Unavailable"),
];

async fn fail(req: Request) -> Result<Reply, ApiError> {
    let code: u16 = req
        .required_param("status")?
        .parse()
        .map_err(|_| ApiError::bad_request("status must be a number"))?;
    let msg = format!("failing with {code}");
    Err(match code {
        400 => ApiError::bad_request(msg),
        401 => ApiError::unauthorized(msg),
        403 => ApiError::forbidden(msg),
        404 => ApiError::not_found(msg),
        405 => ApiError::method_not_allowed(msg),
        413 => ApiError::payload_too_large(msg),
        429 => ApiError::too_many_requests(msg),
        500 => ApiError::internal(msg),
        502 => ApiError::bad_gateway(msg),
        503 => ApiError::service_unavailable(msg),
        _ => return Reply::json(&"not a case"),
    })
}

async fn boom(_: Request) -> Result<Reply, ApiError> {
    panic!("handler bug");
}

fn app(profile: Profile) -> App {
    App::new(
        Router::new()
            .get("/v1/fail/{status}", Weight::FREE, fail)
            .get("/v1/boom", Weight::FREE, boom)
            .get("/v1/ok", Weight::FREE, |_| async { Reply::json(&"ok") }),
    )
    .profile(profile)
    .rate_limits(RateLimits::disabled())
}

#[tokio::test]
async fn every_status_has_the_spec_body() {
    let s = spawn(app(Profile::Spec), ServerConfig::default()).await;
    for (code, reason) in CASES {
        let r = get(s.addr, &format!("/v1/fail/{code}"), &[]).await;
        let msg = assert_error(&r, code, reason);
        assert_eq!(msg, format!("failing with {code}"));
    }
}

#[tokio::test]
async fn glacier_profile_puts_400_messages_in_an_array() {
    let s = spawn(app(Profile::Glacier), ServerConfig::default()).await;
    for (code, reason) in CASES {
        let r = get(s.addr, &format!("/v1/fail/{code}"), &[]).await;
        let msg = assert_error(&r, code, reason);
        if code == 400 {
            assert_eq!(msg, serde_json::json!(["failing with 400"]));
        } else {
            assert_eq!(msg, format!("failing with {code}"));
        }
    }
    // Errors made by the server itself follow the profile too.
    let r = get(s.addr, "/v1/fail/%zz", &[]).await;
    assert!(assert_error(&r, 400, "Bad Request").is_array());
}

#[tokio::test]
async fn a_panicking_handler_is_a_500_and_the_connection_keeps_serving() {
    let s = spawn(app(Profile::Spec), ServerConfig::default()).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(request("GET", "/v1/boom", &[], "").as_bytes())
        .await
        .unwrap();
    let r = read_response(&mut c).await.unwrap();
    assert_error(&r, 500, "Internal Server Error");
    c.write_all(request("GET", "/v1/ok", &[], "").as_bytes())
        .await
        .unwrap();
    let r = read_response(&mut c).await.unwrap();
    assert_eq!((r.status, r.body.as_str()), (200, "\"ok\""));
    let r = get(s.addr, "/v1/ok", &[]).await;
    assert_eq!(r.status, 200);
}
