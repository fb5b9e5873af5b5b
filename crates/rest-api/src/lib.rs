//! Placeholder: filled by a later issue. It exports nothing yet.
