//! Shared helpers for the integration tests: fake servers speaking real wire formats on
//! 127.0.0.1, and temporary vaults. Each test binary uses a different subset of them.
#![allow(dead_code)]
pub mod watcher;
