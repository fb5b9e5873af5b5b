//! What the services' integration tests share and no production code uses (a dev-dependency
//! only): starting a service binary on port 0 and talking HTTP to it, a headless Chromium over
//! the DevTools protocol, and the checks every service's `/docs` page must pass.

pub mod browser;
pub mod docs_page;
pub mod http;
pub mod service;
