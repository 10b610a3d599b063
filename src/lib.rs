//! vaultsum: summarize notes in an Obsidian vault.
//!
//! Layers, from the front ends down: `cli`, `mcp`, `watch` → `tools` → `vault`, `media`, `llm`,
//! `kagi`, `compaction` → `config`. Front ends never call the lower layers directly.

pub mod cli;
pub mod compaction;
pub mod config;
pub mod kagi;
pub mod llm;
pub mod mcp;
pub mod media;
pub mod tools;
pub mod vault;
pub mod watch;
