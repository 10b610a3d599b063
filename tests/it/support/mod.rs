//! Shared helpers for the integration tests: fake servers speaking real wire formats on
//! 127.0.0.1, and temporary vaults. Each test module uses a different subset of them.
#![allow(dead_code)]

pub mod alone;
pub mod cli;
pub mod doc_pages;
pub mod fake_kagi;
pub mod fake_openai;
pub mod fake_server;
pub mod files;
pub mod fingerprints;
pub mod fixture_tools;
pub mod mcp_http_child;
pub mod mcp_http_client;
pub mod poll;
pub mod python_mcp;
pub mod running;
pub mod signals;
pub mod temp_vault;
pub mod watch_binary;
pub mod watcher;
