//! What `GET /openapi.json` and `/docs` describe: the real Data API's OpenAPI document
//! (`openapi/glacier-data-api.json`, embedded), kept by the REST edge to the routes this build
//! registers, with this service's additions (`openapi/snowline-additions.json`) and the changes
//! its configuration makes: the network it serves, and the `spec` profile's shapes.

use serde_json::{Value, json};
use snowline_rest_api::openapi::SNOWLINE_EXTENSION;
use snowline_rest_api::{ApiDescription, Profile};
use snowline_types::network::NetworkInfo;

/// The real service's document, as published.
pub const GLACIER_DATA_API: &str = include_str!("../openapi/glacier-data-api.json");

/// The routes this service adds: the ICM endpoints under their former `/v1/teleporter/` names.
pub const ADDITIONS: &str = include_str!("../openapi/snowline-additions.json");

/// The description of a data-api serving `network` under `profile`.
pub fn description(profile: Profile, network: &'static NetworkInfo) -> ApiDescription {
    ApiDescription::new(
        "Snowline Data API",
        env!("CARGO_PKG_VERSION"),
        &format!(
            "The Avalanche Data API served by Snowline from its own index of the `{}` \
             network, under the `{}` profile.",
            network.name,
            match profile {
                Profile::Spec => "spec",
                Profile::Glacier => "glacier",
            }
        ),
    )
    .reference("glacier-data-api.json", GLACIER_DATA_API)
    .additions(ADDITIONS)
    .edit(move |doc| served_network(doc, network))
    .edit(move |doc| {
        if profile == Profile::Spec {
            spec_profile(doc);
        }
    })
}

/// The network this instance serves is the one a `network` parameter takes by default (a
/// `local` devnet is not in the real service's enum), and its chain ids are blockchain ids.
fn served_network(doc: &mut Value, network: &NetworkInfo) {
    let schemas = &mut doc["components"]["schemas"];
    if let Some(n) = schemas.get_mut("Network") {
        push_enum(n, json!(network.name));
        n["default"] = json!(network.name);
        n[SNOWLINE_EXTENSION] = json!(format!("default: the network served, {}", network.name));
    }
    if let Some(b) = schemas.get_mut("BlockchainId") {
        for id in [network.p_chain_id, network.x_chain_id, network.c_chain_id] {
            push_enum(b, json!(id.to_string()));
        }
    }
}

fn push_enum(schema: &mut Value, value: Value) {
    if let Some(values) = schema.get_mut("enum").and_then(Value::as_array_mut)
        && !values.contains(&value)
    {
        values.push(value);
    }
}

/// The `spec` profile's answers where they differ from the real service's: a POST that
/// creates answers 200 (not 201), and a price's `value` is a decimal string.
fn spec_profile(doc: &mut Value) {
    for (_, item) in doc["paths"].as_object_mut().into_iter().flatten() {
        let Some(responses) = item
            .get_mut("post")
            .and_then(|op| op.get_mut("responses"))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        if !responses.contains_key("200")
            && let Some(created) = responses.remove("201")
        {
            responses.insert("200".to_owned(), created);
        }
    }
    if let Some(value) = doc["components"]["schemas"]
        .get_mut("Money")
        .and_then(|m| m.get_mut("properties"))
        .and_then(|p| p.get_mut("value"))
    {
        *value = json!({
            "type": "string",
            "description": "Monetary value as a decimal string (the spec profile; `--compat \
                            glacier` answers a number).",
            "examples": ["42.42"],
            SNOWLINE_EXTENSION: "the spec profile's shape",
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use snowline_rest_api::hyper::Method;

    /// Routes this crate registers, as the real service names them: the document keeps the
    /// reference's operations and shapes and applies the served network and the profile.
    #[test]
    fn the_reference_operations_with_the_network_and_the_profile() {
        let routes = vec![
            (
                Method::POST,
                "/v1/signatureAggregator/{network}/aggregateSignatures".to_owned(),
            ),
            (
                Method::GET,
                "/v1/networks/{network}/blockchains/{blockchainId}/balances".to_owned(),
            ),
            (Method::GET, "/v1/teleporter/messages".to_owned()),
        ];
        let reference: Value = serde_json::from_str(GLACIER_DATA_API).unwrap();
        for profile in [Profile::Spec, Profile::Glacier] {
            let doc = description(profile, &NetworkInfo::LOCAL)
                .document(&routes)
                .unwrap();
            let post = &doc["paths"]["/v1/signatureAggregator/{network}/aggregateSignatures"]["post"]
                ["responses"];
            let (ok, created) = (post.get("200").is_some(), post.get("201").is_some());
            assert_eq!(
                (ok, created),
                (profile == Profile::Spec, profile == Profile::Glacier)
            );
            let network = &doc["components"]["schemas"]["Network"];
            assert_eq!(network["default"], "local");
            assert!(
                network["enum"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("mainnet"))
            );
            assert!(
                network["enum"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("local"))
            );
            let chains = doc["components"]["schemas"]["BlockchainId"]["enum"]
                .as_array()
                .unwrap();
            assert!(chains.contains(&json!(NetworkInfo::LOCAL.x_chain_id.to_string())));
            let balances =
                &doc["paths"]["/v1/networks/{network}/blockchains/{blockchainId}/balances"]["get"];
            let original = &reference["paths"]["/v1/networks/{network}/blockchains/{blockchainId}/balances"]
                ["get"];
            assert_eq!(balances, original);
            let alias = &doc["paths"]["/v1/teleporter/messages"]["get"];
            assert_eq!(alias[SNOWLINE_EXTENSION], "alias");
            assert_eq!(
                alias["parameters"],
                reference["paths"]["/v1/icm/messages"]["get"]["parameters"]
            );
        }
    }
}
