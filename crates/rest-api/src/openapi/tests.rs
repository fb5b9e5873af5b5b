//! The document from a router's table: operations from the first reference that has them,
//! renamed components where two references disagree, additions and aliases marked, every
//! route present (undocumented ones too) and nothing else.

#![allow(clippy::unwrap_used)]

use super::*;

/// Two small references in the shape of the real ones: the same schema name with different
/// definitions, a parameter component, tags, and a path whose parameter name differs from the
/// router's.
const NEW: &str = r##"{
  "openapi": "3.1.0",
  "info": { "title": "New", "version": "2" },
  "tags": [{ "name": "Chains", "description": "chains" }, { "name": "Unused" }],
  "components": {
    "securitySchemes": { "apiKey": { "type": "apiKey", "in": "header", "name": "x-glacier-api-key" } },
    "parameters": { "Page": { "name": "pageSize", "in": "query", "schema": { "$ref": "#/components/schemas/Size" } } },
    "schemas": {
      "Size": { "type": "integer" },
      "Chain": { "type": "object", "properties": { "id": { "type": "string" } } },
      "List": { "type": "object", "properties": { "chains": { "type": "array", "items": { "$ref": "#/components/schemas/Chain" } } } },
      "Wrapper": { "type": "object", "properties": { "c": { "$ref": "#/components/schemas/Chain" }, "n": { "$ref": "#/components/schemas/Size" } } },
      "Orphan": { "type": "string" }
    }
  },
  "security": [{ "apiKey": [] }, {}],
  "paths": {
    "/v2/chains": { "get": { "operationId": "listChains", "tags": ["Chains"],
      "parameters": [{ "$ref": "#/components/parameters/Page" }],
      "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/List" } } } } } } },
    "/v2/chains/{chainId}": { "get": { "operationId": "getChain", "tags": ["Chains"],
      "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Wrapper" } } } } } } },
    "/v2/not-served": { "get": { "operationId": "notServed", "tags": ["Unused"], "responses": {} } }
  }
}"##;

const OLD: &str = r##"{
  "openapi": "3.0.0",
  "info": { "title": "Old", "version": "1" },
  "tags": [{ "name": "Throughput" }],
  "components": { "schemas": {
    "Chain": { "type": "object", "properties": { "chainId": { "type": "number" } } },
    "Wrapper": { "type": "object", "properties": { "c": { "$ref": "#/components/schemas/Chain" }, "n": { "$ref": "#/components/schemas/Size" } } },
    "Size": { "type": "integer" }
  } },
  "paths": {
    "/v2/chains": { "get": { "operationId": "oldListChains", "responses": {} } },
    "/v1/avg_tps/{chain}": { "get": { "operationId": "getAvgTps", "tags": ["Throughput"],
      "parameters": [{ "name": "chain", "in": "path", "required": true, "schema": { "type": "string" } }],
      "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Wrapper" } } } } } } }
  }
}"##;

const ADDITIONS: &str = r##"{
  "paths": {
    "/v2/old-chains": { "get": { "x-snowline-alias-of": "/v2/chains", "operationId": "listChainsAlias", "deprecated": true } },
    "/v2/extra": { "get": { "operationId": "extra", "responses": { "200": { "description": "ok",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Extra" } } } } } } }
  },
  "components": { "schemas": { "Extra": { "type": "object", "properties": { "chain": { "$ref": "#/components/schemas/Chain" } } } } }
}"##;

fn routes(list: &[(&str, &str)]) -> Vec<(Method, String)> {
    list.iter()
        .map(|(m, t)| (Method::from_bytes(m.as_bytes()).unwrap(), (*t).to_owned()))
        .collect()
}

fn described() -> ApiDescription {
    ApiDescription::new("Test API", "0.1.0", "What it serves.")
        .reference("new.json", NEW)
        .reference("old.json", OLD)
        .additions(ADDITIONS)
}

/// Every (method, path) of a document.
fn operations(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for m in item.as_object().unwrap().keys() {
            out.push((m.to_uppercase(), path.clone()));
        }
    }
    out.sort();
    out
}

/// Every `$ref` of `doc` names a component it holds.
fn refs_resolve(doc: &Value) {
    let mut refs = Vec::new();
    collect_refs(doc, &mut refs);
    assert!(!refs.is_empty());
    for r in refs {
        let (kind, name) = component_of(&r).unwrap();
        assert!(doc["components"][kind].get(name).is_some(), "{r} dangles");
    }
}

#[test]
fn the_document_lists_exactly_the_served_routes() {
    let served = routes(&[
        ("GET", "/v2/chains"),
        ("GET", "/v2/chains/{chainId}"),
        ("GET", "/v1/avg_tps/{chainId}"),
        ("GET", "/v2/old-chains"),
        ("GET", "/v2/extra"),
        ("POST", "/v2/chains/{chainId}/{thing}:poke"),
        ("GET", "/healthz"),
    ]);
    let doc = described().document(&served).unwrap();
    let expected: Vec<(String, String)> = {
        let mut v: Vec<(String, String)> = served
            .iter()
            .map(|(m, t)| {
                // The reference's own path (its parameter name) where it has the route.
                let t = if t == "/v1/avg_tps/{chainId}" {
                    "/v1/avg_tps/{chain}"
                } else {
                    t
                };
                (m.to_string(), t.to_owned())
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(operations(&doc), expected);

    // The first reference wins; the second supplies what the first lacks.
    assert_eq!(
        doc["paths"]["/v2/chains"]["get"]["operationId"],
        "listChains"
    );
    assert_eq!(
        doc["paths"]["/v1/avg_tps/{chain}"]["get"]["operationId"],
        "getAvgTps"
    );
    assert!(
        doc["paths"]["/v2/chains"]["get"]
            .get(SNOWLINE_EXTENSION)
            .is_none()
    );

    // Additions are marked and tagged; an alias is the reference's operation under its path.
    let alias = &doc["paths"]["/v2/old-chains"]["get"];
    assert_eq!(alias[SNOWLINE_EXTENSION], "alias");
    assert_eq!(alias["operationId"], "listChainsAlias");
    assert_eq!(alias["deprecated"], true);
    assert_eq!(
        alias["parameters"],
        doc["paths"]["/v2/chains"]["get"]["parameters"]
    );
    assert_eq!(alias["tags"], json!([SNOWLINE_TAG]));
    assert_eq!(
        doc["paths"]["/v2/extra"]["get"][SNOWLINE_EXTENSION],
        "addition"
    );
    assert_eq!(
        doc["paths"]["/healthz"]["get"][SNOWLINE_EXTENSION],
        "addition"
    );
    assert_eq!(doc["paths"]["/healthz"]["get"]["security"], json!([]));

    // The audit finds only the undocumented route.
    assert_eq!(
        audit(&doc, &[NEW, OLD]),
        ["POST /v2/chains/{chainId}/{thing}:poke is described nowhere"]
    );
    let mut forged = doc.clone();
    forged["paths"]["/v2/extra"]["get"]
        .as_object_mut()
        .unwrap()
        .remove(SNOWLINE_EXTENSION);
    forged["paths"]["/v2/chains"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        ["$ref"] = json!("#/components/schemas/Nowhere");
    assert_eq!(
        audit(&forged, &[NEW, OLD]),
        [
            "#/components/schemas/Nowhere names no component",
            "GET /v2/extra is unmarked but in no reference document",
            "POST /v2/chains/{chainId}/{thing}:poke is described nowhere",
        ]
    );

    // A route nothing describes is there, marked, with its path parameters.
    let poke = &doc["paths"]["/v2/chains/{chainId}/{thing}:poke"]["post"];
    assert_eq!(poke[SNOWLINE_EXTENSION], "undocumented");
    let names: Vec<&str> = poke["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["chainId", "thing"]);
}

#[test]
fn components_are_those_reached_and_a_clash_is_renamed() {
    let served = routes(&[
        ("GET", "/v2/chains"),
        ("GET", "/v2/chains/{chainId}"),
        ("GET", "/v1/avg_tps/{chainId}"),
        ("GET", "/v2/extra"),
        ("GET", "/readyz"),
    ]);
    let doc = described().document(&served).unwrap();
    refs_resolve(&doc);
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    names.sort_unstable();
    // `Orphan` is reached by nothing; old's `Chain` differs from new's, so it is renamed, and
    // so is old's `Wrapper`: written as new's, it refers to the renamed `Chain`. Old's `Size`
    // equals new's and is shared.
    assert_eq!(
        names,
        [
            "Chain",
            "Chain_old",
            "Extra",
            "List",
            "Size",
            "SnowlineStatus",
            "Wrapper",
            "Wrapper_old"
        ]
    );
    assert_eq!(
        schemas["Wrapper_old"]["properties"]["c"]["$ref"],
        "#/components/schemas/Chain_old"
    );
    assert_eq!(
        schemas["Wrapper"]["properties"]["c"]["$ref"],
        "#/components/schemas/Chain"
    );
    assert_eq!(
        doc["paths"]["/v1/avg_tps/{chain}"]["get"]["responses"]["200"]["content"]["application/json"]
            ["schema"]["$ref"],
        "#/components/schemas/Wrapper_old"
    );
    // The addition's own schema refers to the first reference's `Chain`.
    assert_eq!(
        schemas["Extra"]["properties"]["chain"]["$ref"],
        "#/components/schemas/Chain"
    );
    assert!(doc["components"]["parameters"].get("Page").is_some());

    // Tags: the used ones in the references' order, then this server's.
    let tags: Vec<&str> = doc["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tags, ["Chains", "Throughput", SNOWLINE_TAG]);
    assert_eq!(doc["security"], json!([{ "apiKey": [] }, {}]));
    assert_eq!(
        doc["components"]["securitySchemes"]["apiKey"]["name"],
        "x-glacier-api-key"
    );
    assert_eq!(doc["servers"][0]["url"], "/");
    assert_eq!(doc["info"]["title"], "Test API");
}

#[test]
fn without_a_scheme_the_edge_key_header_is_declared_and_edits_run_last() {
    let doc = ApiDescription::new("T", "1", "")
        .reference("old.json", OLD)
        .edit(|d| d["info"]["x-edited"] = json!(true))
        .document(&routes(&[("GET", "/v1/avg_tps/{c}")]))
        .unwrap();
    let scheme = &doc["components"]["securitySchemes"]["apiKey"];
    assert_eq!(scheme["name"], crate::auth::DATA_API_KEY_HEADER);
    assert_eq!(scheme[SNOWLINE_EXTENSION], "addition");
    assert_eq!(doc["info"]["x-edited"], true);
}

#[test]
fn bad_embedded_documents_and_dangling_aliases_are_errors() {
    let e = ApiDescription::new("T", "1", "")
        .reference("broken.json", "{")
        .document(&[]);
    assert!(matches!(e, Err(RestError::OpenApi(m)) if m.contains("broken.json")));
    let e = ApiDescription::new("T", "1", "")
        .reference("new.json", NEW)
        .additions(r#"{"paths": {"/x": {"get": {"x-snowline-alias-of": "/nowhere"}}}}"#)
        .document(&routes(&[("GET", "/x")]));
    assert!(matches!(e, Err(RestError::OpenApi(m)) if m.contains("/nowhere")));
}

#[test]
fn shapes_erase_parameter_names_only() {
    assert_eq!(
        shape("/v1/chains/{chainId}/tokens/{tokenId}:reindex"),
        "/v1/chains/{}/tokens/{}:reindex"
    );
    assert_eq!(shape("/v1/avg_tps/{chain}"), shape("/v1/avg_tps/{chainId}"));
    assert_ne!(shape("/v1/a/{x}"), shape("/v1/b/{x}"));
}
