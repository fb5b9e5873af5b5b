//! A small checker of JSON values against OpenAPI schemas, for the REST record tests: every
//! required member present, no member the schema does not name, each value of the schema's type
//! and enumeration, `oneOf` unions matched by their discriminator, and no `null` anywhere the
//! schema's type does not name it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::Serialize;
use serde_json::Value;

/// The `schemas` of a fixture holding `{"source": …, "schemas": {…}}`.
pub fn load(fixture: &str) -> serde_json::Map<String, Value> {
    let doc: Value = serde_json::from_str(fixture).expect("fixture parses");
    doc["schemas"].as_object().expect("schemas").clone()
}

pub fn resolve<'a>(all: &'a serde_json::Map<String, Value>, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().expect("ref name");
            all.get(name)
                .unwrap_or_else(|| panic!("schema {name} missing"))
        }
        None => schema,
    }
}

/// Checks `value` against `schema`; returns the errors, each with its JSON path.
pub fn check(
    all: &serde_json::Map<String, Value>,
    schema: &Value,
    value: &Value,
    path: &str,
) -> Vec<String> {
    let schema = resolve(all, schema);
    let mut errors = Vec::new();
    // A type list (`["string", "null"]`) names the JSON types allowed; `null` only where it
    // names `null`, the value the schema gives a required member that has none.
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        Some(Value::String(t)) => vec![t.as_str()],
        _ => Vec::new(),
    };
    if value.is_null() {
        if types.contains(&"null") {
            return errors;
        }
        return vec![format!("{path}: null")];
    }
    let non_null: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    let schema_type = match non_null.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        for part in parts {
            errors.extend(check(all, part, value, path));
        }
        return errors;
    }
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        if let Some(disc) = schema.get("discriminator") {
            let prop = disc["propertyName"].as_str().expect("propertyName");
            let tag = value.get(prop).and_then(Value::as_str).unwrap_or_default();
            let Some(target) = disc["mapping"].get(tag) else {
                return vec![format!("{path}: discriminator {prop}={tag:?} not mapped")];
            };
            return check(all, &serde_json::json!({ "$ref": target }), value, path);
        }
        let matching = options
            .iter()
            .filter(|o| check(all, o, value, path).is_empty())
            .count();
        if matching != 1 {
            errors.push(format!("{path}: matches {matching} of the oneOf options"));
        }
        return errors;
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            errors.push(format!("{path}: {value} not in {allowed:?}"));
        }
    }
    match schema_type {
        Some("string") if !value.is_string() => errors.push(format!("{path}: not a string")),
        Some("number") if !value.is_number() => errors.push(format!("{path}: not a number")),
        Some("integer") if !value.is_u64() && !value.is_i64() => {
            errors.push(format!("{path}: not an integer"))
        }
        Some("boolean") if !value.is_boolean() => errors.push(format!("{path}: not a boolean")),
        Some("array") => match value.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    errors.extend(check(all, &schema["items"], item, &format!("{path}[{i}]")));
                }
            }
            None => errors.push(format!("{path}: not an array")),
        },
        Some("object") | None if schema.get("properties").is_some() => {
            let Some(obj) = value.as_object() else {
                return vec![format!("{path}: not an object")];
            };
            let props = schema["properties"].as_object().expect("properties");
            for req in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let req = req.as_str().expect("required name");
                if !obj.contains_key(req) {
                    errors.push(format!("{path}: required {req} missing"));
                }
            }
            for (k, v) in obj {
                match props.get(k) {
                    Some(s) => errors.extend(check(all, s, v, &format!("{path}.{k}"))),
                    None => errors.push(format!("{path}: {k} is not in the schema")),
                }
            }
        }
        _ => {}
    }
    errors
}

/// Asserts that `record` serializes to a value `schemas[schema_name]` accepts.
pub fn assert_matches_in<T: Serialize>(
    all: &serde_json::Map<String, Value>,
    schema_name: &str,
    record: &T,
) {
    let value = serde_json::to_value(record).expect("serializes");
    let schema = serde_json::json!({ "$ref": format!("#/components/schemas/{schema_name}") });
    let errors = check(all, &schema, &value, schema_name);
    assert!(errors.is_empty(), "{schema_name}: {errors:#?}\n{value:#}");
}
