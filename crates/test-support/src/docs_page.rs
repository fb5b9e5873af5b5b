//! A service's `/docs` page in Chromium: it lists exactly the operations of the service's
//! `/openapi.json`, "Try it out" calls the server, and the page loads nothing from elsewhere,
//! fails no request and logs no error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::browser::{Browser, find};

/// Sets a React-controlled input or select of the operation and tells React; the blur makes
/// Swagger UI's debounced text inputs pass the value on at once.
const SET_VALUE: &str = "(el, v) => { \
    const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value'); \
    d.set.call(el, v); \
    el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true })); \
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true })); }";

/// The Chromium to test with, or `None` after saying the test is skipped; with
/// `SNOWLINE_REQUIRE_BROWSER=1` a missing Chromium fails instead.
pub fn chromium_or_skip() -> Option<PathBuf> {
    let found = find();
    if found.is_none() {
        let required = std::env::var("SNOWLINE_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SNOWLINE_REQUIRE_BROWSER=1 but no Chromium found"
        );
        eprintln!(
            "skipped: no Chromium to test /docs in (`cargo xtask setup` installs Debian's \
             chromium; SNOWLINE_CHROMIUM names another)"
        );
    }
    found
}

/// Every (METHOD, path) of an OpenAPI document, sorted.
pub fn operations(doc: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.to_uppercase(), path.clone()))
        })
        .collect();
    out.sort();
    out
}

/// Opens `{origin}/docs` and checks it lists exactly the operations of `doc`, under a title
/// starting with `title`, with the API key form and no error Swagger UI sees.
pub fn open(exe: &std::path::Path, origin: &str, doc: &Value, title: &str) -> Browser {
    let expected = operations(doc);
    let mut b = Browser::launch(exe);
    for domain in ["Network", "Runtime", "Log", "Page"] {
        b.call(&format!("{domain}.enable"), json!({}));
    }
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 1800, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.call("Page.navigate", json!({ "url": format!("{origin}/docs") }));
    b.wait_for(
        &format!(
            "document.querySelectorAll('.opblock').length === {}",
            expected.len()
        ),
        "every operation listed",
    );
    let shown = b.eval(
        "[...document.querySelectorAll('.opblock')].map(o => [\
           o.querySelector('.opblock-summary-method').textContent.trim(), \
           o.querySelector('.opblock-summary [data-path]').getAttribute('data-path')])",
    );
    let mut shown: Vec<(String, String)> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    shown.sort();
    assert_eq!(shown, expected);
    assert_eq!(
        b.eval(&format!(
            "document.querySelector('.info .title').textContent.startsWith({})",
            json!(title)
        )),
        true
    );
    assert_eq!(b.eval("!!document.querySelector('.btn.authorize')"), true);
    assert_eq!(b.eval("!!document.querySelector('.errors-wrapper')"), false);
    b
}

/// Opens operation `operation_id`, presses "Try it out", sets each `(parameter, input|select,
/// value)` until it holds (Swagger UI fills in examples as the form opens), executes it and
/// returns the status the page shows.
pub fn try_it(b: &mut Browser, operation_id: &str, values: &[(&str, &str, &str)]) -> String {
    let op = format!("document.querySelector(\"[id$='-{operation_id}']\")");
    b.eval(&format!(
        "{op}.querySelector('.opblock-summary-control').click()"
    ));
    b.wait_for(
        &format!("!!{op}.querySelector('.try-out__btn')"),
        "Try it out",
    );
    b.eval(&format!("{op}.querySelector('.try-out__btn').click()"));
    if let Some((first, tag, _)) = values.first() {
        b.wait_for(
            &format!(
                "!!{op}.querySelector('tr[data-param-name=\"{first}\"] {tag}:not([disabled])')"
            ),
            "the parameters editable",
        );
    }
    let triples = json!(values);
    b.wait_for(
        &format!(
            "(() => {{ const set = {SET_VALUE}; const op = {op}; let held = true; \
               for (const [name, tag, v] of {triples}) {{ \
                 const el = op.querySelector(`tr[data-param-name=\"${{name}}\"] ${{tag}}`); \
                 if (el.value !== v) {{ set(el, v); held = false; }} }} \
               return held; }})()"
        ),
        "the parameters set",
    );
    b.eval(&format!("{op}.querySelector('.execute').click()"));
    let status = b.wait_for(
        &format!(
            "(() => {{ const s = {op}.querySelector('.live-responses-table tbody .response-col_status'); \
               return s && s.textContent.trim(); }})()"
        ),
        "the answer shown",
    );
    b.drain();
    status.as_str().unwrap_or_default().to_owned()
}

/// The first response the page received whose URL contains `needle`: its path on `origin`
/// and its body as JSON.
pub fn response(b: &mut Browser, origin: &str, needle: &str) -> (String, Value) {
    let call = b
        .events_named("Network.responseReceived")
        .into_iter()
        .find(|e| {
            e["params"]["response"]["url"]
                .as_str()
                .is_some_and(|u| u.contains(needle))
        })
        .unwrap_or_else(|| panic!("the page called nothing like {needle}"))
        .clone();
    assert_eq!(call["params"]["response"]["status"], 200);
    let url = call["params"]["response"]["url"].as_str().unwrap();
    let path = url
        .strip_prefix(origin)
        .expect("called on this server")
        .to_owned();
    let body = b.call(
        "Network.getResponseBody",
        json!({ "requestId": call["params"]["requestId"] }),
    );
    (
        path,
        serde_json::from_str(body["body"].as_str().unwrap()).unwrap(),
    )
}

/// With `SNOWLINE_DOCS_SCREENSHOTS` set to a folder, the page as `name` there.
pub fn screenshot(b: &mut Browser, name: &str) {
    if let Some(folder) = std::env::var_os("SNOWLINE_DOCS_SCREENSHOTS") {
        let png = b.screenshot();
        std::fs::write(std::path::Path::new(&folder).join(name), png).unwrap();
    }
}

/// Nothing the page requested failed or went beyond `origin`, and nothing was thrown or logged
/// as an error.
pub fn assert_clean(b: &mut Browser, origin: &str) {
    b.drain();
    let requested: Vec<&str> = b
        .events_named("Network.requestWillBeSent")
        .iter()
        .filter_map(|e| e["params"]["request"]["url"].as_str())
        .collect();
    assert!(requested.len() >= 5, "{requested:?}");
    for url in &requested {
        assert!(
            url.starts_with(&format!("{origin}/")) || url.starts_with("data:"),
            "a request beyond this server: {url}"
        );
    }
    let failed: Vec<&Value> = b.events_named("Network.loadingFailed");
    assert!(failed.is_empty(), "failed requests: {failed:?}");
    for e in b.events_named("Network.responseReceived") {
        let status = e["params"]["response"]["status"].as_u64().unwrap_or(0);
        assert!(status < 400, "{}: {status}", e["params"]["response"]["url"]);
    }
    let thrown = b.events_named("Runtime.exceptionThrown");
    assert!(thrown.is_empty(), "exceptions: {thrown:?}");
    let errors: Vec<&Value> = b
        .events_named("Log.entryAdded")
        .into_iter()
        .filter(|e| e["params"]["entry"]["level"] == "error")
        .chain(
            b.events_named("Runtime.consoleAPICalled")
                .into_iter()
                .filter(|e| e["params"]["type"] == "error"),
        )
        .collect();
    assert!(errors.is_empty(), "errors logged: {errors:?}");
}
