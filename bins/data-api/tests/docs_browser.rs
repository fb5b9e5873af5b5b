//! `/docs` in a real headless Chromium, against the real `data-api` binary following the devnet: the
//! page loads with no failed request and none beyond this server, lists every operation of
//! `/openapi.json`, and its "Try it out" answers the X-Chain balances of a genesis address as the
//! API does. Skipped, saying so, when no Chromium is installed (`cargo xtask setup` installs
//! Debian's); `SNOWLINE_REQUIRE_BROWSER=1` makes that a failure. With `SNOWLINE_DOCS_SCREENSHOTS`
//! set to a folder, the page's screenshots are written there (`docs/` keeps them).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod browser;
mod common;

use serde_json::{Value, json};

/// Every (METHOD, path) of a document, sorted.
fn operations(doc: &Value) -> Vec<(String, String)> {
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

/// Sets a React-controlled input or select of the operation and tells React; the blur makes
/// Swagger UI's debounced text inputs pass the value on at once.
const SET_VALUE: &str = "(el, v) => { \
    const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value'); \
    d.set.call(el, v); \
    el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true })); \
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true })); }";

#[test]
fn the_docs_page_lists_every_operation_and_tries_one_against_the_server() {
    let Some(exe) = browser::find() else {
        let required = std::env::var("SNOWLINE_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SNOWLINE_REQUIRE_BROWSER=1 but no Chromium found"
        );
        eprintln!(
            "skipped: no Chromium to test /docs in (`cargo xtask setup` installs Debian's \
             chromium; SNOWLINE_CHROMIUM names another)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // data-api following a node that serves the small devnet, caught up.
    let up = common::upstream::start(1, 0);
    let api = common::follow(dir.path(), &up, 1, 120);
    let origin = format!("http://{}", api.addr);
    // A genesis address the devnet funds, from the examples the server prints.
    let example = api
        .stdout_line("balances?addresses=")
        .expect("an example address");
    let address = example
        .split("addresses=")
        .nth(1)
        .and_then(|s| s.split(['\'', '&']).next())
        .unwrap()
        .to_owned();
    let doc = api.get("/openapi.json").json();
    let expected = operations(&doc);

    let mut b = browser::Browser::launch(&exe);
    for domain in ["Network", "Runtime", "Log", "Page"] {
        b.call(&format!("{domain}.enable"), json!({}));
    }
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 1800, "deviceScaleFactor": 1, "mobile": false }),
    );
    b.call("Page.navigate", json!({ "url": format!("{origin}/docs") }));

    // Every operation of the document is listed, and nothing else.
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
        b.eval(
            "document.querySelector('.info .title').textContent.startsWith('Snowline Data API')"
        ),
        true
    );
    // The API key can be given (Authorize), and the document has no errors Swagger UI sees.
    assert_eq!(b.eval("!!document.querySelector('.btn.authorize')"), true);
    assert_eq!(b.eval("!!document.querySelector('.errors-wrapper')"), false);
    if let Some(folder) = std::env::var_os("SNOWLINE_DOCS_SCREENSHOTS") {
        let png = b.screenshot();
        std::fs::write(std::path::Path::new(&folder).join("data-api-docs.png"), png).unwrap();
    }

    // Try it: the X-Chain balances of the genesis address, on the network served.
    let op = "document.querySelector(\"[id$='-getBalancesByAddresses']\")";
    b.eval(&format!(
        "{op}.querySelector('.opblock-summary-control').click()"
    ));
    b.wait_for(
        &format!("!!{op}.querySelector('.try-out__btn')"),
        "Try it out",
    );
    b.eval(&format!("{op}.querySelector('.try-out__btn').click()"));
    b.wait_for(
        &format!("!!{op}.querySelector('tr[data-param-name=\"addresses\"] input:not([disabled])')"),
        "the parameters editable",
    );
    // Swagger UI fills in the examples when "Try it out" opens: set each value until it holds
    // (the example timestamp cleared, so the balances are today's).
    b.wait_for(
        &format!(
            "(() => {{ const set = {SET_VALUE}; const op = {op}; let held = true; \
               for (const [name, tag, v] of [['addresses', 'input', '{address}'], \
                   ['blockTimestamp', 'input', ''], ['blockchainId', 'select', 'x-chain'], \
                   ['network', 'select', 'local']]) {{ \
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
    let called: Vec<&str> = b
        .events_named("Network.requestWillBeSent")
        .iter()
        .filter_map(|e| e["params"]["request"]["url"].as_str())
        .filter(|u| u.contains("/balances"))
        .collect();
    assert_eq!(status, "200", "{called:?}");

    // The page's call is the API's answer to the same request, and it holds AVAX.
    let call = b
        .events_named("Network.responseReceived")
        .into_iter()
        .find(|e| {
            e["params"]["response"]["url"]
                .as_str()
                .is_some_and(|u| u.contains("/balances?"))
        })
        .expect("the page called /balances")
        .clone();
    let url = call["params"]["response"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(call["params"]["response"]["status"], 200);
    let path = url.strip_prefix(&origin).expect("called on this server");
    assert!(
        path.starts_with("/v1/networks/local/blockchains/x-chain/balances?"),
        "{path}"
    );
    let body = b.call(
        "Network.getResponseBody",
        json!({ "requestId": call["params"]["requestId"] }),
    );
    let seen: Value = serde_json::from_str(body["body"].as_str().unwrap()).unwrap();
    assert_eq!(seen, api.get(path).json());
    let unlocked = seen["balances"]["unlocked"].as_array().unwrap();
    assert!(
        unlocked
            .iter()
            .any(|a| a["amount"].as_str().is_some_and(|n| n != "0")),
        "{seen}"
    );
    if let Some(folder) = std::env::var_os("SNOWLINE_DOCS_SCREENSHOTS") {
        b.eval(&format!("{op}.scrollIntoView()"));
        let png = b.screenshot();
        std::fs::write(
            std::path::Path::new(&folder).join("data-api-docs-try-it.png"),
            png,
        )
        .unwrap();
    }

    // Nothing failed, nothing went beyond this server, nothing was logged as an error.
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
