//! `/openapi.json` and `/docs`: the generated document and the Swagger UI page that renders
//! it, every file served from memory with its content type, an `ETag` (a matching
//! `If-None-Match` is a 304), `Cache-Control`, and gzip where the client accepts it.

use crate::error::{ApiError, RestError};
use crate::reply::{JSON_CONTENT_TYPE, Reply};
use crate::swagger;
use bytes::Bytes;
use hyper::StatusCode;
use hyper::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG,
    HeaderMap, HeaderName, HeaderValue, IF_NONE_MATCH, VARY, X_CONTENT_TYPE_OPTIONS,
};
use serde_json::Value;
use std::hash::{Hash, Hasher};

/// The routes this module answers (besides the files under `/docs/`), as the document lists
/// them.
pub(crate) const DOCS_ROUTES: [&str; 2] = ["/openapi.json", "/docs"];

/// The page: Swagger UI's own files, then ours.
const INDEX_HTML: &str = include_str!("../docs-page/index.html");
const INIT_JS: &str = include_str!("../docs-page/snowline-docs.js");
const INIT_NAME: &str = "snowline-docs.js";

/// Scripts, styles and requests from this server only (Swagger UI sets inline styles; its
/// icons are `data:` images).
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' \
                           'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
                           frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// One file ready to send.
struct File {
    content_type: &'static str,
    body: Bytes,
    gzip: Option<Bytes>,
    etag: HeaderValue,
    cache: &'static str,
}

/// The document and the page, built once at start-up.
pub(crate) struct DocsSite {
    openapi: File,
    index: File,
    init: File,
    /// Swagger UI's version, part of its files' `ETag`s.
    swagger_version: String,
}

/// A strong `ETag` of `body`, from a hash of it (the document and page change only with the
/// binary and its routes).
fn etag_of(body: &[u8]) -> HeaderValue {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut h);
    HeaderValue::from_str(&format!("\"{:016x}\"", h.finish()))
        .unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

fn file(content_type: &'static str, body: Bytes, cache: &'static str) -> File {
    File {
        content_type,
        etag: etag_of(&body),
        body,
        gzip: None,
        cache,
    }
}

/// `&` `<` `>` `"` escaped for HTML text.
fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl DocsSite {
    /// The site of `document`; fails if Swagger UI's archive cannot be read.
    pub(crate) fn new(document: &Value) -> Result<Self, RestError> {
        let (swagger_version, _) = swagger::assets().map_err(|e| RestError::OpenApi(e.into()))?;
        let json = serde_json::to_vec(document)
            .map_err(|e| RestError::OpenApi(format!("serializing the document: {e}")))?;
        let title = document["info"]["title"].as_str().unwrap_or("API");
        let index = INDEX_HTML.replace("{title}", &escape_html(title));
        Ok(Self {
            openapi: file(JSON_CONTENT_TYPE, Bytes::from(json), "no-cache"),
            index: file("text/html; charset=utf-8", Bytes::from(index), "no-cache"),
            init: file(
                "text/javascript; charset=utf-8",
                Bytes::from_static(INIT_JS.as_bytes()),
                "no-cache",
            ),
            swagger_version: swagger_version.clone(),
        })
    }

    /// The answer to `GET path` if it is the document, the page or one of its files; the route
    /// it is counted under in `/metrics`.
    pub(crate) fn answer(&self, path: &str, headers: &HeaderMap) -> Option<(&'static str, Reply)> {
        if path == "/openapi.json" {
            return Some(("/openapi.json", send(&self.openapi, headers, false)));
        }
        if path == "/docs" {
            return Some(("/docs", send(&self.index, headers, true)));
        }
        let name = path.strip_prefix("/docs/")?;
        if name == INIT_NAME {
            return Some(("/docs/{file}", send(&self.init, headers, false)));
        }
        let (_, assets) = swagger::assets().ok()?;
        let asset = assets.iter().find(|a| a.name == name)?;
        let f = File {
            content_type: asset.content_type,
            body: asset.body.clone(),
            gzip: asset.gzip.clone(),
            etag: HeaderValue::from_str(&format!("\"{}-{}\"", self.swagger_version, asset.name))
                .unwrap_or_else(|_| HeaderValue::from_static("\"swagger-ui\"")),
            cache: "public, max-age=3600",
        };
        Some(("/docs/{file}", send(&f, headers, false)))
    }
}

/// Whether `headers` accept a gzip-encoded answer (`accept-encoding` names `gzip` or `*`
/// without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .is_some_and(|q| q.parse::<f32>().is_ok_and(|q| q == 0.0))
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}

/// Whether `If-None-Match` names `etag` (or is `*`).
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(etag) = etag.to_str() else {
        return false;
    };
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == etag || t == "*")
}

fn send(f: &File, headers: &HeaderMap, page: bool) -> Reply {
    let mut extra: Vec<(HeaderName, HeaderValue)> = vec![
        (CONTENT_TYPE, HeaderValue::from_static(f.content_type)),
        (ETAG, f.etag.clone()),
        (CACHE_CONTROL, HeaderValue::from_static(f.cache)),
        (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    ];
    if page {
        extra.push((
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(PAGE_POLICY),
        ));
    }
    if f.gzip.is_some() {
        extra.push((VARY, HeaderValue::from_static("accept-encoding")));
    }
    let reply = if not_modified(headers, &f.etag) {
        Reply::bytes(StatusCode::NOT_MODIFIED, Bytes::new())
    } else {
        match &f.gzip {
            Some(gz) if accepts_gzip(headers) => {
                extra.push((CONTENT_ENCODING, HeaderValue::from_static("gzip")));
                Reply::bytes(StatusCode::OK, gz.clone())
            }
            _ => Reply::bytes(StatusCode::OK, f.body.clone()),
        }
    };
    extra
        .into_iter()
        .fold(reply, |r, (n, v)| r.with_header(n, v))
}

/// The answer to a method other than GET on these routes.
pub(crate) fn method_not_allowed(method: &hyper::Method, path: &str) -> ApiError {
    ApiError::method_not_allowed(format!("Cannot {method} {path}; allowed: GET"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (n, v) in pairs {
            h.append(*n, HeaderValue::from_static(v));
        }
        h
    }

    fn header<'a>(r: &'a Reply, name: &HeaderName) -> Option<&'a str> {
        r.headers
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.to_str().ok())
    }

    #[test]
    fn files_carry_type_tag_and_caching_and_revalidate_to_304() {
        let doc = serde_json::json!({ "info": { "title": "A <b> API" }, "paths": {} });
        let site = DocsSite::new(&doc).unwrap();
        let (route, page) = site.answer("/docs", &HeaderMap::new()).unwrap();
        assert_eq!(route, "/docs");
        assert_eq!(
            header(&page, &CONTENT_TYPE),
            Some("text/html; charset=utf-8")
        );
        assert!(header(&page, &CONTENT_SECURITY_POLICY).is_some());
        let html = std::str::from_utf8(&page.body).unwrap();
        assert!(html.contains("<title>A &lt;b&gt; API</title>"), "{html}");
        let etag = header(&page, &ETAG).unwrap().to_owned();
        let h = headers(&[("if-none-match", Box::leak(etag.into_boxed_str()))]);
        let (_, again) = site.answer("/docs", &h).unwrap();
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert!(again.body.is_empty());

        let (_, js) = site
            .answer("/docs/swagger-ui-bundle.js", &HeaderMap::new())
            .unwrap();
        assert_eq!(
            header(&js, &CONTENT_TYPE),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(header(&js, &CONTENT_ENCODING), None);
        let gz = site
            .answer(
                "/docs/swagger-ui-bundle.js",
                &headers(&[("accept-encoding", "br, gzip;q=0.8")]),
            )
            .unwrap()
            .1;
        assert_eq!(header(&gz, &CONTENT_ENCODING), Some("gzip"));
        assert!(gz.body.len() < js.body.len() / 2);
        let refused = site
            .answer(
                "/docs/swagger-ui-bundle.js",
                &headers(&[("accept-encoding", "gzip;q=0")]),
            )
            .unwrap()
            .1;
        assert_eq!(header(&refused, &CONTENT_ENCODING), None);

        let (_, json) = site.answer("/openapi.json", &HeaderMap::new()).unwrap();
        assert_eq!(
            serde_json::from_slice::<Value>(&json.body).unwrap(),
            doc,
            "the document as given"
        );
        assert!(site.answer("/docs/nope.js", &HeaderMap::new()).is_none());
        assert!(site.answer("/docsx", &HeaderMap::new()).is_none());
    }
}
