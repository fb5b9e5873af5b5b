//! The OpenAPI document a server serves at `/openapi.json`, generated at start-up from the
//! routes it registered: each route's operation is taken from the first reference document
//! (the real service's, embedded by the application) that has it, else from the application's
//! own additions, else it is listed as undocumented; only the components those operations
//! reach are kept. The document cannot drift from the router: it is computed from it.

use crate::error::RestError;
use hyper::Method;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The extension that marks what this server adds to the reference documents; its value says
/// how: `addition`, `alias` (a reference operation served under another path) or
/// `undocumented` (a route nothing describes, which a test should catch).
pub const SNOWLINE_EXTENSION: &str = "x-snowline";

/// The tag of every operation the reference documents do not have.
pub const SNOWLINE_TAG: &str = "Snowline";

/// The edge's own routes (`/healthz`, `/readyz`, `/metrics`, `/openapi.json`, `/docs`, and the
/// `/v1/` health checks for a service whose reference lacks them).
const EDGE_ADDITIONS: &str = include_str!("../openapi/edge-additions.json");

/// The methods an OpenAPI path item may hold, lowercase.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// A last change to the generated document (a served network in an enum, a profile's status).
pub type Edit = Box<dyn Fn(&mut Value) + Send + Sync>;

/// What a service's document is made of, set up by the application and turned into the
/// served document by [`ApiDescription::document`] with the server's route table.
pub struct ApiDescription {
    title: String,
    version: String,
    description: String,
    references: Vec<(String, Value)>,
    additions: Vec<Value>,
    edits: Vec<Edit>,
    /// Embedded documents that did not parse, reported by [`ApiDescription::document`].
    errors: Vec<String>,
}

/// Whose components resolve a served operation's `$ref`s: reference document `i`, or
/// additions document `j` (its own components, then the first reference's).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Reference(usize),
    Addition(usize),
}

impl ApiDescription {
    /// A description titled `title` (the `info` of the document), at `version`, with a
    /// `description` in CommonMark.
    pub fn new(title: &str, version: &str, description: &str) -> Self {
        Self {
            title: title.to_owned(),
            version: version.to_owned(),
            description: description.to_owned(),
            references: Vec::new(),
            additions: Vec::new(),
            edits: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Adds a reference document (JSON text, usually `include_str!`), named `label` in the
    /// served document; earlier references win where two have the same operation.
    pub fn reference(mut self, label: &str, json: &str) -> Self {
        match serde_json::from_str::<Value>(json) {
            Ok(doc) if doc.get("paths").is_some_and(Value::is_object) => {
                self.references.push((label.to_owned(), doc));
            }
            Ok(_) => self.errors.push(format!("{label} has no `paths` object")),
            Err(e) => self.errors.push(format!("{label} is not JSON: {e}")),
        }
        self
    }

    /// Adds the service's own operations: a JSON object with a `paths` object as OpenAPI
    /// writes them. An operation with `x-snowline-alias-of: PATH` is the reference's operation
    /// of the same method at `PATH`, with the addition's other members laid over it.
    pub fn additions(mut self, json: &str) -> Self {
        match serde_json::from_str::<Value>(json) {
            Ok(doc) if doc.get("paths").is_some_and(Value::is_object) => self.additions.push(doc),
            Ok(_) => self
                .errors
                .push("additions have no `paths` object".to_owned()),
            Err(e) => self.errors.push(format!("additions are not JSON: {e}")),
        }
        self
    }

    /// Adds a change made to the document once it is generated.
    pub fn edit(mut self, f: impl Fn(&mut Value) + Send + Sync + 'static) -> Self {
        self.edits.push(Box::new(f));
        self
    }

    /// The document of `routes` (method and template, as the router holds them).
    pub fn document(&self, routes: &[(Method, String)]) -> Result<Value, RestError> {
        if let Some(e) = self.errors.first() {
            return Err(RestError::OpenApi(e.clone()));
        }
        let edge: Value = serde_json::from_str(EDGE_ADDITIONS)
            .map_err(|e| RestError::OpenApi(format!("the edge's additions: {e}")))?;
        let mut additions: Vec<&Value> = self.additions.iter().collect();
        additions.push(&edge);
        let by_shape = |docs: &mut dyn Iterator<Item = (usize, &Value)>| {
            let mut index: HashMap<(String, String), (usize, String)> = HashMap::new();
            for (i, doc) in docs {
                for (path, item) in doc["paths"].as_object().into_iter().flatten() {
                    for m in METHODS.iter().filter(|m| item.get(**m).is_some()) {
                        index
                            .entry(((*m).to_owned(), shape(path)))
                            .or_insert((i, path.clone()));
                    }
                }
            }
            index
        };
        let refs = by_shape(&mut self.references.iter().map(|(_, d)| d).enumerate());
        let adds = by_shape(&mut additions.iter().copied().enumerate());

        // Each route's operation, where it comes from, and the path it is served under.
        let mut ops: Vec<(String, String, Value, Owner)> = Vec::new();
        for (method, template) in routes {
            let m = method.as_str().to_ascii_lowercase();
            let key = (m.clone(), shape(template));
            let (path, op, owner) = if let Some((i, path)) = refs.get(&key) {
                let item = &self.references[*i].1["paths"][path];
                (path.clone(), operation(item, &m), Owner::Reference(*i))
            } else if let Some((j, path)) = adds.get(&key) {
                let item = &additions[*j]["paths"][path];
                let (op, owner) = self.addition(item, *j, &m, template)?;
                (path.clone(), op, owner)
            } else {
                let op = undocumented(method, template);
                (template.clone(), op, Owner::Addition(additions.len()))
            };
            ops.push((path, m, op, owner));
        }

        // The components of each source, references first: an additions document's own
        // over the first reference's.
        let first = self.references.first().map(|(_, d)| &d["components"]);
        let mut sources: Vec<(&str, Owner, Cow<'_, Value>)> = self
            .references
            .iter()
            .enumerate()
            .map(|(i, (label, d))| (label.as_str(), Owner::Reference(i), Cow::Borrowed(d)))
            .collect();
        for (j, add) in additions.iter().enumerate() {
            let mut merged = first.cloned().unwrap_or_else(|| json!({}));
            for (kind, defs) in add["components"].as_object().into_iter().flatten() {
                for (name, def) in defs.as_object().into_iter().flatten() {
                    merged[kind.as_str()][name.as_str()] = def.clone();
                }
            }
            let doc = json!({ "components": merged });
            sources.push(("snowline", Owner::Addition(j), Cow::Owned(doc)));
        }
        let mut components: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        for (label, owner, doc) in &sources {
            let owned: Vec<&mut Value> = ops
                .iter_mut()
                .filter(|o| o.3 == *owner)
                .map(|o| &mut o.2)
                .collect();
            take_components(label, doc, owned, &mut components);
        }

        let mut paths = Map::new();
        let mut used_tags: BTreeSet<String> = BTreeSet::new();
        for (path, m, op, _) in ops {
            for t in op["tags"].as_array().into_iter().flatten() {
                if let Some(t) = t.as_str() {
                    used_tags.insert(t.to_owned());
                }
            }
            if let Some(item) = paths
                .entry(path)
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
            {
                item.insert(m, op);
            }
        }

        let mut doc = Map::new();
        doc.insert("openapi".into(), json!("3.1.0"));
        doc.insert("info".into(), self.info());
        doc.insert(
            "servers".into(),
            json!([{ "url": "/", "description": "This server" }]),
        );
        doc.insert("tags".into(), Value::Array(self.tags(&used_tags)));
        doc.insert("paths".into(), Value::Object(paths));
        let (schemes, security) = self.security();
        let mut comps: Map<String, Value> = components
            .into_iter()
            .map(|(kind, m)| (kind, Value::Object(m)))
            .collect();
        comps.insert("securitySchemes".into(), schemes);
        doc.insert("components".into(), Value::Object(comps));
        doc.insert("security".into(), security);
        let sources: Vec<Value> = self
            .references
            .iter()
            .map(|(label, d)| {
                json!({ "document": label, "title": d["info"]["title"], "version": d["info"]["version"] })
            })
            .collect();
        doc.insert(SNOWLINE_EXTENSION.into(), json!({ "references": sources }));
        let mut doc = Value::Object(doc);
        for edit in &self.edits {
            edit(&mut doc);
        }
        Ok(doc)
    }

    /// The operation `m` of an additions path item: marked, tagged, and resolved if an alias.
    fn addition(
        &self,
        item: &Value,
        j: usize,
        m: &str,
        template: &str,
    ) -> Result<(Value, Owner), RestError> {
        let add = operation(item, m);
        let (mut op, owner, kind) = match add.get("x-snowline-alias-of").and_then(Value::as_str) {
            Some(target) => {
                let found = self.references.iter().enumerate().find_map(|(i, (_, d))| {
                    let paths = d["paths"].as_object()?;
                    let (_, item) = paths.iter().find(|(p, _)| shape(p) == shape(target))?;
                    item.get(m).map(|_| (operation(item, m), i))
                });
                let Some((mut base, i)) = found else {
                    return Err(RestError::OpenApi(format!(
                        "{} {template} is an alias of {target}, which no reference document has",
                        m.to_ascii_uppercase()
                    )));
                };
                if let (Some(base), Some(over)) = (base.as_object_mut(), add.as_object()) {
                    for (k, v) in over {
                        base.insert(k.clone(), v.clone());
                    }
                }
                (base, Owner::Reference(i), "alias")
            }
            None => (add, Owner::Addition(j), "addition"),
        };
        if let Some(o) = op.as_object_mut() {
            o.insert(SNOWLINE_EXTENSION.into(), json!(kind));
            o.insert("tags".into(), json!([SNOWLINE_TAG]));
        }
        Ok((op, owner))
    }

    fn info(&self) -> Value {
        let mut description = self.description.clone();
        if !self.references.is_empty() {
            description.push_str(
                "\n\nThe operations, parameters and shapes are those of the reference documents \
                 below, kept to the routes this build serves; what this server adds is tagged `",
            );
            description.push_str(SNOWLINE_TAG);
            description.push_str("` and marked `x-snowline`.\n");
            for (label, d) in &self.references {
                let title = d["info"]["title"].as_str().unwrap_or("?");
                let version = d["info"]["version"].as_str().unwrap_or("?");
                description.push_str(&format!("\n- `{label}`: {title} {version}"));
            }
        }
        json!({ "title": self.title, "version": self.version, "description": description })
    }

    /// The tag definitions of the used tags, in the references' order, then any others, then
    /// this server's own.
    fn tags(&self, used: &BTreeSet<String>) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for (_, d) in &self.references {
            for t in d["tags"].as_array().into_iter().flatten() {
                if let Some(name) = t["name"].as_str()
                    && used.contains(name)
                    && seen.insert(name.to_owned())
                {
                    out.push(t.clone());
                }
            }
        }
        for name in used {
            if name != SNOWLINE_TAG && seen.insert(name.clone()) {
                out.push(json!({ "name": name }));
            }
        }
        if used.contains(SNOWLINE_TAG) {
            out.push(json!({
                "name": SNOWLINE_TAG,
                "description": "Routes this server adds to the reference documents: health, \
                                readiness, metrics, this description, and aliases.",
            }));
        }
        out
    }

    /// The security schemes of the references (first definition wins) and the first
    /// top-level `security`; without any, the API-key header this edge reads, optional.
    fn security(&self) -> (Value, Value) {
        let mut schemes = Map::new();
        for (_, d) in &self.references {
            for (k, v) in d["components"]["securitySchemes"]
                .as_object()
                .into_iter()
                .flatten()
            {
                schemes.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let security = self
            .references
            .iter()
            .find_map(|(_, d)| d.get("security").cloned());
        match security {
            Some(s) if !schemes.is_empty() => (Value::Object(schemes), s),
            _ => {
                schemes.insert(
                    "apiKey".into(),
                    json!({
                        "type": "apiKey",
                        "in": "header",
                        "name": crate::auth::DATA_API_KEY_HEADER,
                        "description": "An API key (`data-api keys create`) raises the caller's \
                                        rate limits to its tier's; without one the caller is \
                                        anonymous.",
                        SNOWLINE_EXTENSION: "addition",
                    }),
                );
                (Value::Object(schemes), json!([{ "apiKey": [] }, {}]))
            }
        }
    }
}

/// Copies into `out` the components of `doc` that `ops` reach, renaming those whose name
/// an earlier source took for another definition (`Name_<label>`), and rewrites the `$ref`s
/// of `ops` to match.
fn take_components(
    label: &str,
    doc: &Value,
    mut ops: Vec<&mut Value>,
    out: &mut BTreeMap<String, Map<String, Value>>,
) {
    let lookup = |r: &str| -> Option<&Value> {
        let (kind, name) = component_of(r)?;
        doc["components"][kind].get(name)
    };
    // Everything reachable from the operations, through the components themselves.
    let mut reached: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = Vec::new();
    for op in &ops {
        collect_refs(op, &mut todo);
    }
    while let Some(r) = todo.pop() {
        if let Some(v) = lookup(&r)
            && reached.insert(r)
        {
            collect_refs(v, &mut todo);
        }
    }
    // Renamed: those whose name holds another definition already, then those that reach
    // a renamed one (their text changes), until nothing more changes.
    let taken =
        |r: &str| component_of(r).and_then(|(kind, name)| out.get(kind).and_then(|m| m.get(name)));
    let mut renamed: BTreeSet<String> = reached
        .iter()
        .filter(|r| taken(r).is_some_and(|v| Some(v) != lookup(r)))
        .cloned()
        .collect();
    loop {
        let more: Vec<String> = reached
            .iter()
            .filter(|r| !renamed.contains(*r))
            .filter(|r| {
                let mut refs = Vec::new();
                if let Some(v) = lookup(r) {
                    collect_refs(v, &mut refs);
                }
                refs.iter().any(|x| renamed.contains(x)) && taken(r).is_some()
            })
            .cloned()
            .collect();
        if more.is_empty() {
            break;
        }
        renamed.extend(more);
    }
    let suffix: String = label
        .trim_end_matches(".json")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let map: HashMap<String, String> = renamed
        .iter()
        .map(|r| (r.clone(), format!("{r}_{suffix}")))
        .collect();
    for op in &mut ops {
        rewrite_refs(op, &map);
    }
    for r in &reached {
        let (Some((kind, _)), Some(v)) = (component_of(r), lookup(r)) else {
            continue;
        };
        let target = map.get(r).unwrap_or(r);
        let Some((_, name)) = component_of(target) else {
            continue;
        };
        let mut v = v.clone();
        rewrite_refs(&mut v, &map);
        out.entry(kind.to_owned())
            .or_default()
            .entry(name.to_owned())
            .or_insert(v);
    }
}

/// What is wrong with a served document, one line each: a route nothing describes, an
/// operation said to be the reference's that no reference (JSON texts) has under that method
/// and path with the same `operationId`, an addition not marked or tagged as one, a `$ref`
/// that names no component. Empty for a sound document; tests assert it.
pub fn audit(doc: &Value, references: &[&str]) -> Vec<String> {
    let refs: Vec<Value> = references
        .iter()
        .filter_map(|r| serde_json::from_str(r).ok())
        .collect();
    let mut problems = Vec::new();
    if refs.len() != references.len() {
        problems.push("a reference document is not JSON".to_owned());
    }
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (m, op) in item.as_object().into_iter().flatten() {
            let name = format!("{} {path}", m.to_ascii_uppercase());
            match op.get(SNOWLINE_EXTENSION).and_then(Value::as_str) {
                Some("undocumented") => problems.push(format!("{name} is described nowhere")),
                Some(_) if op["tags"] != json!([SNOWLINE_TAG]) => {
                    problems.push(format!("{name} is an addition not tagged {SNOWLINE_TAG}"));
                }
                Some(_) => {}
                None => {
                    let in_reference = refs.iter().any(|r| {
                        r["paths"].as_object().into_iter().flatten().any(|(p, i)| {
                            shape(p) == shape(path)
                                && i.get(m)
                                    .is_some_and(|o| o["operationId"] == op["operationId"])
                        })
                    });
                    if !in_reference {
                        problems.push(format!("{name} is unmarked but in no reference document"));
                    }
                }
            }
        }
    }
    let mut all = Vec::new();
    collect_refs(doc, &mut all);
    for r in all {
        let resolves = component_of(&r)
            .is_some_and(|(kind, name)| doc["components"][kind].get(name).is_some());
        if !resolves {
            problems.push(format!("{r} names no component"));
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

/// The operation `m` of a path item, with the item's own parameters added where the operation
/// does not override them.
fn operation(item: &Value, m: &str) -> Value {
    let mut op = item.get(m).cloned().unwrap_or_else(|| json!({}));
    if let Some(shared) = item.get("parameters").and_then(Value::as_array)
        && let Some(o) = op.as_object_mut()
    {
        let mut params = o
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for p in shared {
            let same = |q: &Value| q.get("name") == p.get("name") && q.get("in") == p.get("in");
            if !params.iter().any(same) {
                params.push(p.clone());
            }
        }
        o.insert("parameters".into(), Value::Array(params));
    }
    op
}

/// A served route nothing describes: its path parameters, any answer.
fn undocumented(method: &Method, template: &str) -> Value {
    let params: Vec<Value> = template
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{')?.split_once('}').map(|(n, _)| n))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect();
    json!({
        "summary": format!("{method} {template}"),
        "description": "Served, but described neither by the reference documents nor by this \
                        server's additions.",
        "tags": [SNOWLINE_TAG],
        "parameters": params,
        "responses": { "default": { "description": "The answer." } },
        SNOWLINE_EXTENSION: "undocumented",
    })
}

/// A path with every parameter name erased, so `/v1/avg_tps/{chain}` and
/// `/v1/avg_tps/{chainId}` are the same route.
pub fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            c if !in_param => out.push(c),
            _ => {}
        }
    }
    out
}

/// `(kind, name)` of a local component reference `#/components/KIND/NAME`.
fn component_of(r: &str) -> Option<(&str, &str)> {
    r.strip_prefix("#/components/")?.split_once('/')
}

/// Every local component `$ref` under `v`.
fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) if r.starts_with("#/components/") => {
                        out.push(r.clone());
                    }
                    _ => collect_refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

/// Replaces the `$ref`s under `v` that `map` renames.
fn rewrite_refs(v: &mut Value, map: &HashMap<String, String>) {
    if map.is_empty() {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(r) if k == "$ref" => {
                        if let Some(to) = map.get(r.as_str()) {
                            *r = to.clone();
                        }
                    }
                    _ => rewrite_refs(x, map),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite_refs(x, map)),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
