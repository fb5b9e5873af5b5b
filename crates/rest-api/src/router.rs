//! Routes by method and path template, as the spec writes paths:
//! `/v1/chains/{chainId}/addresses/{address}/balances:listErc721`.
//!
//! A template segment is a literal, a `{param}`, or a `{param}:action`. Matching runs on
//! percent-decoded segments; at each segment a literal wins over a `{param}:action`,
//! which wins over a plain `{param}`, with backtracking when the preferred branch
//! leads nowhere. Parameters never match an empty segment.

use crate::blocking::ReadPool;
use crate::error::{ApiError, RestError};
use crate::reply::Reply;
use crate::request::Request;
use crate::route::{Handler, RouteMeta, handler};
use crate::weight::Weight;
use hyper::Method;
use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// One registered route.
pub(crate) struct Route {
    pub(crate) method: Method,
    pub(crate) meta: RouteMeta,
    pub(crate) handler: Handler,
    param_names: Vec<Arc<str>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Seg {
    Literal(String),
    Param(Arc<str>),
    ParamAction(Arc<str>, String),
}

#[derive(Default)]
struct Node {
    literals: HashMap<String, Node>,
    /// `{param}:action` children, keyed by the action.
    actions: Vec<(String, Node)>,
    param: Option<Box<Node>>,
    /// Indices into `Router::routes` of the routes ending here.
    routes: Vec<usize>,
}

/// The outcome of looking a request up.
pub(crate) enum Match<'a> {
    /// A route and its path parameters by name.
    Found(&'a Route, Vec<(Arc<str>, String)>),
    /// The path exists, under these other methods; the first route names its template.
    MethodNotAllowed(&'a Route, Vec<Method>),
    /// No route has this path.
    NotFound,
}

/// The route table: register handlers with [`Router::get`] / [`Router::post`] (and
/// [`Router::get_blocking`] for handlers that block).
///
/// Template errors do not panic: they are collected and reported by
/// [`Router::validate`], which [`crate::Server::bind`] calls.
pub struct Router {
    routes: Vec<Route>,
    root: Node,
    errors: Vec<RestError>,
    request_type: Option<Arc<str>>,
    /// The threads blocking routes run on, started with the first of them.
    blocking: Option<ReadPool>,
}

impl Default for Router {
    fn default() -> Self {
        Self::new()
    }
}

impl Router {
    /// An empty router; routes added to it have request type `data`, and as many blocking
    /// handlers run at once as the machine has cores.
    pub fn new() -> Self {
        Self {
            routes: Vec::new(),
            root: Node::default(),
            errors: Vec::new(),
            request_type: None,
            blocking: None,
        }
    }

    /// Sets the usage-metering request type of the routes added after this call.
    pub fn request_type(mut self, request_type: &str) -> Self {
        self.request_type = Some(Arc::from(request_type));
        self
    }

    /// Adds a `GET` route.
    pub fn get<F, Fut>(self, template: &str, weight: Weight, f: F) -> Self
    where
        F: Fn(Request) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Reply, ApiError>> + Send + 'static,
    {
        self.route(Method::GET, template, weight, handler(f))
    }

    /// Adds a `GET` route whose handler blocks (reads the index): it runs on tokio's blocking
    /// pool, so a slow page (a scan of thousands of rows) never stalls the other connections
    /// served by the same async worker. It runs on a fixed set of threads, two per core, fed
    /// from one queue: the reads are CPU-bound, and two per core keep every core busy across
    /// the hand-offs where more would only contend (`docs/benchmarks.md`). A request waiting
    /// for a thread holds none. The request timeout still answers on time; a read already
    /// running runs to its end.
    pub fn get_blocking<F>(self, template: &str, weight: Weight, f: F) -> Self
    where
        F: Fn(&Request) -> Result<Reply, ApiError> + Send + Sync + 'static,
    {
        self.blocking(Method::GET, template, weight, f)
    }

    /// Adds a `POST` route whose handler blocks (reads the index), run as
    /// [`Router::get_blocking`]'s are.
    pub fn post_blocking<F>(self, template: &str, weight: Weight, f: F) -> Self
    where
        F: Fn(&Request) -> Result<Reply, ApiError> + Send + Sync + 'static,
    {
        self.blocking(Method::POST, template, weight, f)
    }

    fn blocking<F>(mut self, method: Method, template: &str, weight: Weight, f: F) -> Self
    where
        F: Fn(&Request) -> Result<Reply, ApiError> + Send + Sync + 'static,
    {
        let pool = self
            .blocking
            .get_or_insert_with(|| {
                ReadPool::new(2 * std::thread::available_parallelism().map_or(1, usize::from))
            })
            .clone();
        let f = Arc::new(f);
        let h = handler(move |req: Request| {
            let (f, pool) = (Arc::clone(&f), pool.clone());
            async move { pool.run(f, req).await }
        });
        self.route(method, template, weight, h)
    }

    /// Adds a `POST` route.
    pub fn post<F, Fut>(self, template: &str, weight: Weight, f: F) -> Self
    where
        F: Fn(Request) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Reply, ApiError>> + Send + 'static,
    {
        self.route(Method::POST, template, weight, handler(f))
    }

    /// Adds a route for any method with an already boxed handler.
    ///
    /// The chain parameter defaults to `chainId` or `blockchainId` when the template
    /// has one; override it with [`Router::chain_param`].
    pub fn route(mut self, method: Method, template: &str, weight: Weight, h: Handler) -> Self {
        let segs = match parse_template(template) {
            Ok(s) => s,
            Err(reason) => {
                self.errors.push(RestError::Template {
                    template: template.to_owned(),
                    reason,
                });
                return self;
            }
        };
        let mut param_names = Vec::new();
        let mut node = &mut self.root;
        for seg in segs {
            node = match seg {
                Seg::Literal(l) => node.literals.entry(l).or_default(),
                Seg::Param(name) => {
                    param_names.push(name);
                    node.param.get_or_insert_with(Box::default)
                }
                Seg::ParamAction(name, action) => {
                    param_names.push(name);
                    let pos = match node.actions.iter().position(|(a, _)| *a == action) {
                        Some(p) => p,
                        None => {
                            node.actions.push((action.clone(), Node::default()));
                            // Longest action first, so `x:a:b` tries `:a:b` before `:b`.
                            node.actions.sort_by_key(|x| std::cmp::Reverse(x.0.len()));
                            node.actions
                                .iter()
                                .position(|(a, _)| *a == action)
                                .unwrap_or(0)
                        }
                    };
                    &mut node.actions[pos].1
                }
            };
        }
        if node
            .routes
            .iter()
            .any(|&i| self.routes.get(i).is_some_and(|r| r.method == method))
        {
            self.errors.push(RestError::DuplicateRoute {
                method: method.to_string(),
                template: template.to_owned(),
            });
            return self;
        }
        node.routes.push(self.routes.len());
        let chain_param = param_names
            .iter()
            .find(|n| matches!(&***n, "chainId" | "blockchainId"))
            .cloned();
        let request_type = self
            .request_type
            .clone()
            .unwrap_or_else(|| Arc::from("data"));
        self.routes.push(Route {
            method,
            meta: RouteMeta {
                template: Arc::from(template),
                weight,
                request_type,
                chain_param,
            },
            handler: h,
            param_names,
        });
        self
    }

    /// Names the path parameter holding the chain id of the route added last
    /// (metering records its value).
    pub fn chain_param(mut self, name: &str) -> Self {
        if let Some(r) = self.routes.last_mut() {
            if r.param_names.iter().any(|n| &**n == name) {
                r.meta.chain_param = Some(Arc::from(name));
            } else {
                self.errors.push(RestError::Template {
                    template: r.meta.template.to_string(),
                    reason: format!("chain parameter {name:?} is not a parameter of the template"),
                });
            }
        }
        self
    }

    /// Reports the first template error, if any route failed to register.
    pub fn validate(&self) -> Result<(), RestError> {
        match self.errors.first() {
            None => Ok(()),
            Some(RestError::Template { template, reason }) => Err(RestError::Template {
                template: template.clone(),
                reason: reason.clone(),
            }),
            Some(RestError::DuplicateRoute { method, template }) => {
                Err(RestError::DuplicateRoute {
                    method: method.clone(),
                    template: template.clone(),
                })
            }
            Some(other) => Err(RestError::Template {
                template: String::new(),
                reason: other.to_string(),
            }),
        }
    }

    /// The metadata of every route, in registration order.
    pub fn routes(&self) -> impl Iterator<Item = (&Method, &RouteMeta)> {
        self.routes.iter().map(|r| (&r.method, &r.meta))
    }

    /// Looks up decoded path segments under `method`.
    pub(crate) fn lookup(&self, method: &Method, segs: &[Cow<'_, str>]) -> Match<'_> {
        let has_method = |n: &Node| {
            n.routes
                .iter()
                .any(|&i| self.routes.get(i).is_some_and(|r| r.method == method))
        };
        let mut values = Vec::new();
        if let Some(node) = find(&self.root, segs, &mut values, &has_method) {
            let route = node
                .routes
                .iter()
                .filter_map(|&i| self.routes.get(i))
                .find(|r| r.method == method);
            if let Some(r) = route {
                let params = r.param_names.iter().cloned().zip(values).collect();
                return Match::Found(r, params);
            }
        }
        // No route of this method: does the path exist under another one?
        values.clear();
        let Some(node) = find(&self.root, segs, &mut values, &|n| !n.routes.is_empty()) else {
            return Match::NotFound;
        };
        let routes: Vec<&Route> = node
            .routes
            .iter()
            .filter_map(|&i| self.routes.get(i))
            .collect();
        match routes.first() {
            Some(first) => {
                Match::MethodNotAllowed(first, routes.iter().map(|r| r.method.clone()).collect())
            }
            None => Match::NotFound,
        }
    }
}

/// Depth-first search in preference order for a node that `accept`s; `values`
/// collects the parameter values along the way.
fn find<'n>(
    node: &'n Node,
    segs: &[Cow<'_, str>],
    values: &mut Vec<String>,
    accept: &dyn Fn(&Node) -> bool,
) -> Option<&'n Node> {
    let Some((seg, rest)) = segs.split_first() else {
        return accept(node).then_some(node);
    };
    if let Some(child) = node.literals.get(&**seg) {
        if let Some(found) = find(child, rest, values, accept) {
            return Some(found);
        }
    }
    for (action, child) in &node.actions {
        let Some(value) = seg
            .strip_suffix(action.as_str())
            .and_then(|s| s.strip_suffix(':'))
        else {
            continue;
        };
        if value.is_empty() {
            continue;
        }
        values.push(value.to_owned());
        if let Some(found) = find(child, rest, values, accept) {
            return Some(found);
        }
        values.pop();
    }
    if let Some(child) = &node.param {
        if !seg.is_empty() {
            values.push(seg.to_string());
            if let Some(found) = find(child, rest, values, accept) {
                return Some(found);
            }
            values.pop();
        }
    }
    None
}

fn parse_template(template: &str) -> Result<Vec<Seg>, String> {
    let Some(rest) = template.strip_prefix('/') else {
        return Err("a template starts with '/'".to_owned());
    };
    let mut names: Vec<Arc<str>> = Vec::new();
    let mut out = Vec::new();
    for raw in rest.split('/') {
        let seg = parse_segment(raw)?;
        if let Seg::Param(n) | Seg::ParamAction(n, _) = &seg {
            if names.contains(n) {
                return Err(format!("parameter {{{n}}} appears twice"));
            }
            names.push(n.clone());
        }
        out.push(seg);
    }
    Ok(out)
}

fn parse_segment(raw: &str) -> Result<Seg, String> {
    if raw.is_empty() {
        return Err("empty segment".to_owned());
    }
    let Some(inner) = raw.strip_prefix('{') else {
        if raw.contains(['{', '}']) {
            return Err(format!("segment {raw:?} mixes a literal and a parameter"));
        }
        return Ok(Seg::Literal(raw.to_owned()));
    };
    let Some((name, after)) = inner.split_once('}') else {
        return Err(format!("segment {raw:?} has no closing '}}'"));
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("parameter name {name:?} is not an identifier"));
    }
    let name: Arc<str> = Arc::from(name);
    if after.is_empty() {
        return Ok(Seg::Param(name));
    }
    match after.strip_prefix(':') {
        Some(action) if !action.is_empty() && !action.contains(['{', '}']) => {
            Ok(Seg::ParamAction(name, action.to_owned()))
        }
        _ => Err(format!(
            "segment {raw:?}: a parameter may only be followed by ':action'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::decode_segments;

    fn ok(_: Request) -> std::future::Ready<Result<Reply, ApiError>> {
        std::future::ready(Ok(Reply::bytes(hyper::StatusCode::OK, "")))
    }

    fn table() -> Router {
        Router::new()
            .get("/v1/networks/{network}/rewards", Weight::MEDIUM, ok)
            .get(
                "/v1/networks/{network}/rewards:listPending",
                Weight::MEDIUM,
                ok,
            )
            .get(
                "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight",
                Weight::XL,
                ok,
            )
            .get(
                "/v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}",
                Weight::SMALL,
                ok,
            )
            .get(
                "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
                Weight::MEDIUM,
                ok,
            )
            .post(
                "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex",
                Weight::XXL,
                ok,
            )
            .get("/v1/chains/{chainId}", Weight::FREE, ok)
            .get("/v1/chains/{chainId}/blocks/{blockId}", Weight::SMALL, ok)
            .get("/v1/chains/latest", Weight::FREE, ok)
    }

    fn hit(r: &Router, method: Method, path: &str) -> Option<(String, Vec<(String, String)>)> {
        let segs = decode_segments(path).ok()?;
        match r.lookup(&method, &segs) {
            Match::Found(route, params) => Some((
                route.meta.template.to_string(),
                params
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )),
            _ => None,
        }
    }

    fn p(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn literal_wins_over_param_and_actions_split_off() {
        let r = table();
        assert_eq!(
            hit(&r, Method::GET, "/v1/networks/mainnet/rewards:listPending")
                .unwrap()
                .0,
            "/v1/networks/{network}/rewards:listPending"
        );
        assert_eq!(
            hit(&r, Method::GET, "/v1/networks/mainnet/rewards")
                .unwrap()
                .0,
            "/v1/networks/{network}/rewards"
        );
        assert_eq!(
            hit(&r, Method::GET, "/v1/chains/latest").unwrap().0,
            "/v1/chains/latest"
        );
        assert_eq!(
            hit(&r, Method::GET, "/v1/chains/43114").unwrap(),
            (
                "/v1/chains/{chainId}".to_owned(),
                p(&[("chainId", "43114")])
            )
        );
        assert_eq!(
            hit(
                &r,
                Method::POST,
                "/v1/chains/1/nfts/collections/0xab/tokens/7:reindex"
            )
            .unwrap(),
            (
                "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex"
                    .to_owned(),
                p(&[("chainId", "1"), ("address", "0xab"), ("tokenId", "7")])
            )
        );
        assert_eq!(
            hit(
                &r,
                Method::GET,
                "/v1/chains/1/addresses/0xab/balances%3AlistErc721"
            )
            .unwrap()
            .0,
            "/v1/chains/{chainId}/addresses/{address}/balances:listErc721"
        );
        assert_eq!(
            hit(
                &r,
                Method::GET,
                "/v1/networks/fuji/blockchains/X/vertices:listByHeight"
            )
            .unwrap()
            .1,
            p(&[("network", "fuji"), ("blockchainId", "X")])
        );
    }

    #[test]
    fn backtracks_from_a_literal_dead_end() {
        // `latest` is a literal under /v1/chains, but /v1/chains/latest/blocks/5 only
        // exists through {chainId}.
        let r = table();
        assert_eq!(
            hit(&r, Method::GET, "/v1/chains/latest/blocks/5")
                .unwrap()
                .1,
            p(&[("chainId", "latest"), ("blockId", "5")])
        );
    }

    #[test]
    fn empty_params_missing_actions_and_extra_segments_do_not_match() {
        let r = table();
        for path in [
            "/v1/chains/",
            "/v1/chains/1/nfts/collections/0xab/tokens/:reindex",
            "/v1/chains/1/nfts/collections/0xab/tokens/7",
            "/v1/chains/1/extra/segments",
            "/v1",
        ] {
            assert!(
                hit(&r, Method::POST, path).is_none() && hit(&r, Method::GET, path).is_none(),
                "{path}"
            );
        }
    }

    #[test]
    fn wrong_method_lists_the_allowed_ones() {
        let r = table().post("/v1/chains/{chainId}", Weight::FREE, ok);
        let segs = decode_segments("/v1/chains/1/nfts/collections/a/tokens/1:reindex").unwrap();
        match r.lookup(&Method::GET, &segs) {
            Match::MethodNotAllowed(_, m) => assert_eq!(m, vec![Method::POST]),
            _ => panic!("expected 405"),
        }
        let segs = decode_segments("/v1/chains/1").unwrap();
        assert!(
            matches!(r.lookup(&Method::PUT, &segs), Match::MethodNotAllowed(_, m) if m.len() == 2)
        );
    }

    #[test]
    fn a_literal_of_another_method_does_not_hide_a_param_route() {
        let r = table().post("/v1/chains/{chainId}", Weight::FREE, ok);
        assert_eq!(
            hit(&r, Method::POST, "/v1/chains/latest").unwrap(),
            (
                "/v1/chains/{chainId}".to_owned(),
                p(&[("chainId", "latest")])
            )
        );
        assert_eq!(
            hit(&r, Method::GET, "/v1/chains/latest").unwrap().0,
            "/v1/chains/latest"
        );
    }

    proptest::proptest! {
        /// Any non-empty values, percent-encoded into a path, come back out exactly.
        #[test]
        fn encoded_values_round_trip(
            chain in ".{1,10}",
            address in ".{1,10}",
            token in ".{1,10}",
        ) {
            let enc = |v: &str| percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC).to_string();
            let path = format!(
                "/v1/chains/{}/nfts/collections/{}/tokens/{}:reindex",
                enc(&chain), enc(&address), enc(&token)
            );
            let (template, params) = hit(&table(), Method::POST, &path).unwrap();
            proptest::prop_assert_eq!(template, "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex");
            proptest::prop_assert_eq!(params, p(&[("chainId", &chain), ("address", &address), ("tokenId", &token)]));
        }
    }

    #[test]
    fn chain_param_defaults_and_overrides() {
        let r = table()
            .get("/v1/x/{evmChainId}", Weight::FREE, ok)
            .chain_param("evmChainId");
        let metas: Vec<_> = r
            .routes()
            .map(|(_, m)| (m.template.to_string(), m.chain_param.clone()))
            .collect();
        assert!(
            metas
                .iter()
                .any(|(t, c)| t.contains("vertices:list") && c.as_deref() == Some("blockchainId"))
        );
        assert!(
            metas
                .iter()
                .any(|(t, c)| t == "/v1/chains/{chainId}" && c.as_deref() == Some("chainId"))
        );
        assert!(
            metas
                .iter()
                .any(|(t, c)| t == "/v1/x/{evmChainId}" && c.as_deref() == Some("evmChainId"))
        );
        assert!(
            metas
                .iter()
                .any(|(t, c)| t == "/v1/chains/latest" && c.is_none())
        );
        assert!(r.validate().is_ok());
    }

    #[test]
    fn bad_templates_and_duplicates_are_reported() {
        for t in [
            "v1/x",
            "/v1//x",
            "/v1/{a",
            "/v1/{a}b",
            "/v1/x{a}",
            "/v1/{}",
            "/v1/{a}:",
            "/v1/{a}/{a}",
        ] {
            let r = Router::new().get(t, Weight::FREE, ok);
            assert!(
                matches!(r.validate(), Err(RestError::Template { .. })),
                "{t}"
            );
        }
        let r = table().get("/v1/chains/{chainId}", Weight::FREE, ok);
        assert!(matches!(
            r.validate(),
            Err(RestError::DuplicateRoute { .. })
        ));
        let r = table().chain_param("nope");
        assert!(r.validate().is_err());
    }
}
