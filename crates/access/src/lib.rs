//! Placeholder: API keys and usage records (issue #4).
