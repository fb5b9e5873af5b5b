//! The application: a [`Router`] plus the cross-cutting parts (profile, API keys, rate
//! limits, metering, readiness, metrics registry), assembled before serving.

use crate::auth::{KeyResolver, NoKeys};
use crate::docs_site::{DOCS_ROUTES, DocsSite};
use crate::error::{ApiError, Profile, RestError};
use crate::health::{self, AlwaysReady, Readiness};
use crate::metering::UsageSink;
use crate::metrics::HttpMetrics;
use crate::openapi::{ApiDescription, SNOWLINE_EXTENSION};
use crate::ratelimit::{Limiter, RateLimits};
use crate::router::Router;
use crate::weight::Weight;
use hyper::Method;
use prometheus_client::registry::Registry;
use std::sync::Arc;

/// Everything a [`crate::Server`] serves, built with chained setters.
///
/// Defaults: `spec` profile; no keys (every presented key is a 401); the default
/// [`RateLimits`]; metering off (no sink); always ready; the server's metrics only.
pub struct App {
    router: Router,
    profile: Profile,
    message_arrays: bool,
    keys: Arc<dyn KeyResolver>,
    limits: RateLimits,
    limiter: Option<Arc<Limiter>>,
    sink: Option<Arc<dyn UsageSink>>,
    metering: bool,
    readiness: Arc<dyn Readiness>,
    registry: Registry,
    description: Option<ApiDescription>,
}

impl App {
    /// An application serving `router` with the defaults above.
    pub fn new(router: Router) -> Self {
        Self {
            router,
            profile: Profile::Spec,
            message_arrays: false,
            keys: Arc::new(NoKeys),
            limits: RateLimits::default(),
            limiter: None,
            sink: None,
            metering: true,
            readiness: Arc::new(AlwaysReady),
            registry: Registry::default(),
            description: None,
        }
    }

    /// Serves `GET /openapi.json`, the document `description` gives for the routes of this
    /// app (its router's, the built-in ones, these two), and `GET /docs`, a page rendering it.
    pub fn describe(mut self, description: ApiDescription) -> Self {
        self.description = Some(description);
        self
    }

    /// Sets the compatibility profile (error message shape).
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Makes every error's `message` an array of one string, whatever the status and profile:
    /// the metrics service's spec has it so.
    pub fn message_arrays(mut self, on: bool) -> Self {
        self.message_arrays = on;
        self
    }

    /// Sets the API-key resolver.
    pub fn keys(mut self, keys: Arc<dyn KeyResolver>) -> Self {
        self.keys = keys;
        self
    }

    /// Sets the rate limits ([`RateLimits::disabled`] switches them off).
    pub fn rate_limits(mut self, limits: RateLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Checks requests with `limiter` (built by the caller from its [`RateLimits`], which then
    /// replace [`rate_limits`](Self::rate_limits)): the caller may charge it with what callers
    /// spent elsewhere ([`Limiter::charge`], a fleet's other nodes).
    pub fn limiter(mut self, limiter: Arc<Limiter>) -> Self {
        self.limiter = Some(limiter);
        self
    }

    /// Sends usage events to `sink` (metering is on while a sink is set).
    pub fn usage_sink(mut self, sink: Arc<dyn UsageSink>) -> Self {
        self.sink = Some(sink);
        self
    }

    /// Switches metering off (`false`) or back on, keeping the sink.
    pub fn metering(mut self, on: bool) -> Self {
        self.metering = on;
        self
    }

    /// Sets what `/readyz`, `/v1/health-check` and `/v1/live-check` ask.
    pub fn readiness(mut self, readiness: Arc<dyn Readiness>) -> Self {
        self.readiness = readiness;
        self
    }

    /// Lets the application register its own metrics (ingest lag, ...) in the registry
    /// `/metrics` exposes.
    pub fn metrics(mut self, register: impl FnOnce(&mut Registry)) -> Self {
        register(&mut self.registry);
        self
    }

    /// Adds the built-in `/v1/` routes, checks the routes and builds the limiters.
    pub(crate) fn build(self) -> Result<Built, RestError> {
        let Self {
            router,
            profile,
            message_arrays,
            keys,
            limits,
            limiter,
            sink,
            metering,
            readiness,
            mut registry,
            description,
        } = self;
        let live = Arc::clone(&readiness);
        let ready = Arc::clone(&readiness);
        let router = router
            .get("/v1/health-check", Weight::FREE, move |_| {
                let checks = ready.check();
                async move { health::health_check(&checks) }
            })
            .get("/v1/live-check", Weight::FREE, move |_| {
                let checks = live.check_reads();
                async move { health::health_check(&checks) }
            });
        router.validate()?;
        let docs = match description {
            None => None,
            Some(d) => {
                let document = d.document(&served_routes(&router, true))?;
                for (path, item) in document["paths"].as_object().into_iter().flatten() {
                    for (method, op) in item.as_object().into_iter().flatten() {
                        if op[SNOWLINE_EXTENSION] == "undocumented" {
                            tracing::warn!(%method, %path, "a served route has no description");
                        }
                    }
                }
                Some(DocsSite::new(&document)?)
            }
        };
        let limiter = match limiter {
            Some(l) => l,
            None => Arc::new(Limiter::new(&limits)?),
        };
        let metrics = HttpMetrics::register(&mut registry);
        Ok(Built {
            router,
            profile,
            message_arrays,
            keys,
            limiter,
            sink: sink.filter(|_| metering),
            readiness,
            registry,
            metrics,
            docs,
        })
    }
}

/// The routes the edge answers itself, before keys, limits and metering.
pub(crate) const BUILTIN_ROUTES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Every route `router` and the edge serve, as (method, template): the router's in
/// registration order, then the built-in ones (with the document and its page when
/// `described`).
pub(crate) fn served_routes(router: &Router, described: bool) -> Vec<(Method, String)> {
    let docs: &[&str] = if described { &DOCS_ROUTES } else { &[] };
    router
        .routes()
        .map(|(m, meta)| (m.clone(), meta.template.to_string()))
        .chain(
            BUILTIN_ROUTES
                .iter()
                .chain(docs)
                .map(|p| (Method::GET, (*p).to_owned())),
        )
        .collect()
}

/// An [`App`] ready to serve.
pub(crate) struct Built {
    pub(crate) router: Router,
    pub(crate) profile: Profile,
    pub(crate) message_arrays: bool,
    pub(crate) keys: Arc<dyn KeyResolver>,
    pub(crate) limiter: Arc<Limiter>,
    pub(crate) sink: Option<Arc<dyn UsageSink>>,
    pub(crate) readiness: Arc<dyn Readiness>,
    pub(crate) registry: Registry,
    pub(crate) metrics: HttpMetrics,
    /// `/openapi.json` and `/docs`, when the app is described.
    pub(crate) docs: Option<DocsSite>,
}

impl Built {
    /// `e`'s body under the app's profile and message shape.
    pub(crate) fn error_body(&self, e: &ApiError) -> bytes::Bytes {
        e.body_shaped(self.profile, self.message_arrays)
    }
}
