//! Snowline store
