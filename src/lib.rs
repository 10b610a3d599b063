//! vaultsum's front ends: the command line, the MCP server and the watcher.
//!
//! Layers, from the front ends down: `cli`, `mcp`, `watch` → `vaultsum-tools` (the Registry) →
//! `vaultsum-core` (vault, media, llm, kagi, config). Front ends translate and present; every
//! action is a tool of the Registry, so the three behave the same.

pub mod cli;
pub mod mcp;
pub mod watch;

use vaultsum_tools as tools;
use vaultsum_tools::config;
