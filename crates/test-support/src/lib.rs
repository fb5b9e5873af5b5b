//! What the services' integration tests share and no production code uses (a dev-dependency
//! only): starting a service binary on port 0 and talking HTTP to it, a headless Chromium over
//! the DevTools protocol, the checks every service's `/docs` page must pass, and `nats-server`
//! with JetStream for the fleet.

pub mod browser;
pub mod docs_page;
pub mod http;
pub mod nats;
pub mod service;
