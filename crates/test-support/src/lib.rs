//! What the services' integration tests share and no production code uses (a dev-dependency
//! only): a headless Chromium over the DevTools protocol, the checks every service's `/docs`
//! page must pass, and `nats-server` with JetStream for the fleet.

pub mod browser;
pub mod docs_page;
pub mod nats;
