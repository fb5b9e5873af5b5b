//! What a handler sees of a request: path and query parameters, headers, client IP,
//! the (already size-limited) body and the authenticated caller.

use crate::auth::Caller;
use crate::error::{ApiError, Profile};
use bytes::Bytes;
use hyper::Method;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use serde::de::DeserializeOwned;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// A routed request, as handed to a handler.
#[derive(Debug, Clone)]
pub struct Request {
    method: Method,
    path: String,
    template: Arc<str>,
    params: Vec<(Arc<str>, String)>,
    query: Vec<(String, String)>,
    headers: HeaderMap,
    client_ip: IpAddr,
    body: Bytes,
    caller: Option<Arc<Caller>>,
    profile: Profile,
    /// When the handler first saw the request, Unix seconds.
    now_secs: u64,
}

impl Request {
    /// A request for `uri` (path plus optional `?query`) with no body, headers, caller
    /// or path parameters, from 127.0.0.1: for testing handlers without a server.
    pub fn mock(method: Method, uri: &str) -> Request {
        let (path, query) = uri.split_once('?').unwrap_or((uri, ""));
        Request {
            method,
            path: path.to_owned(),
            template: Arc::from(path),
            params: Vec::new(),
            query: parse_query(query),
            headers: HeaderMap::new(),
            client_ip: IpAddr::V4(Ipv4Addr::LOCALHOST),
            body: Bytes::new(),
            caller: None,
            profile: Profile::Spec,
            now_secs: unix_secs(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        method: Method,
        path: String,
        template: Arc<str>,
        params: Vec<(Arc<str>, String)>,
        query: Option<&str>,
        headers: HeaderMap,
        client_ip: IpAddr,
        caller: Option<Arc<Caller>>,
        profile: Profile,
    ) -> Request {
        Request {
            method,
            path,
            template,
            params,
            query: parse_query(query.unwrap_or("")),
            headers,
            client_ip,
            body: Bytes::new(),
            caller,
            profile,
            now_secs: unix_secs(),
        }
    }

    /// The same request with a path parameter set (for tests).
    pub fn with_param(mut self, name: &str, value: &str) -> Request {
        self.params.retain(|(n, _)| &**n != name);
        self.params.push((Arc::from(name), value.to_owned()));
        self
    }

    /// The same request with this body.
    pub fn with_body(mut self, body: impl Into<Bytes>) -> Request {
        self.body = body.into();
        self
    }

    /// The same request with one more header.
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Request {
        self.headers.append(name, value);
        self
    }

    /// The HTTP method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The raw (still percent-encoded) path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The template of the matched route, e.g. `/v1/chains/{chainId}`.
    pub fn template(&self) -> &str {
        &self.template
    }

    /// A percent-decoded path parameter by its template name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every path parameter as `(name, decoded value)`, in template order.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params.iter().map(|(n, v)| (&**n, v.as_str()))
    }

    /// A path parameter that the route guarantees: a 500 if absent (a routing bug).
    pub fn required_param(&self, name: &str) -> Result<&str, ApiError> {
        self.param(name)
            .ok_or_else(|| ApiError::internal(format!("route has no path parameter {name:?}")))
    }

    /// A decoded query parameter; when repeated, the first value wins.
    pub fn query(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The decoded values of the query parameters `names`, in one pass over the query (when a
    /// name repeats, its first value wins, as with [`query`](Self::query)): a handler reads all
    /// the parameters it takes in one call.
    pub fn query_values<const N: usize>(&self, names: [&str; N]) -> [Option<&str>; N] {
        let mut values = [None; N];
        for (name, value) in &self.query {
            if let Some(i) = names.iter().position(|n| n == name) {
                values[i].get_or_insert(value.as_str());
            }
        }
        values
    }

    /// Every decoded value of a query parameter, in request order (an array parameter sent as
    /// `name=a&name=b`).
    pub fn query_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.query
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// A header as text, if present and visible ASCII.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// All request headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The client's IP address (the TCP peer).
    pub fn client_ip(&self) -> IpAddr {
        self.client_ip
    }

    /// The request body, already limited to the server's `max_body_bytes`.
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// The API-key holder, or `None` for an anonymous caller.
    pub fn caller(&self) -> Option<&Caller> {
        self.caller.as_deref()
    }

    /// The compatibility profile the server runs under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The request's "now", Unix seconds: read once, so every row of one answer is judged at
    /// the same instant (and a page token is checked against it).
    pub fn now_secs(&self) -> u64 {
        self.now_secs
    }

    /// Decodes the body as JSON; a malformed body is a 400 naming serde's error.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        serde_json::from_slice(&self.body)
            .map_err(|e| ApiError::bad_request(format!("Invalid JSON body: {e}")))
    }

    pub(crate) fn set_body(&mut self, body: Bytes) {
        self.body = body;
    }
}

/// Now, Unix seconds (0 before the epoch).
fn unix_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn parse_query(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_query_value_wins_and_plus_is_space() {
        let r = Request::mock(Method::GET, "/x?a=1&b=x+y%21&a=2");
        assert_eq!(r.query("a"), Some("1"));
        assert_eq!(r.query("b"), Some("x y!"));
        assert_eq!(r.query("c"), None);
    }

    #[test]
    fn query_values_read_every_name_in_one_pass_like_query() {
        let r = Request::mock(Method::GET, "/x?b=2&a=1&c=&a=3&d=4");
        let [a, b, c, e] = r.query_values(["a", "b", "c", "e"]);
        assert_eq!(
            [a, b, c, e],
            [r.query("a"), r.query("b"), r.query("c"), r.query("e")]
        );
        assert_eq!([a, b, c, e], [Some("1"), Some("2"), Some(""), None]);
    }

    #[test]
    fn json_errors_name_the_problem() {
        #[derive(serde::Deserialize, Debug)]
        struct B {
            #[allow(dead_code)]
            n: u32,
        }
        let r = Request::mock(Method::POST, "/x").with_body(r#"{"n":"x"}"#);
        let e = r.json::<B>().unwrap_err();
        assert_eq!(e.status, hyper::StatusCode::BAD_REQUEST);
        assert!(
            e.message.starts_with("Invalid JSON body: invalid type"),
            "{}",
            e.message
        );
    }
}
