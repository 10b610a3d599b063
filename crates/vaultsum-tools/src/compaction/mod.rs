//! Rule-based compaction (no LLM) of agent transcripts: old tool results become one-line stubs
//! such as `[✓ web_search: "rust" | 10 results | top: https://…]`, so an agent's transcript keeps
//! what was done and found without the bulk.
//!
//! Each vaultsum tool states its own stub next to its code (`Tool::stub`); the Registry asks
//! them first (`Registry::compact_transcript`). What lives here is what belongs to no tool of
//! ours: the stubs for other agents' tools ([`generic_stub`]), the policy for errors
//! ([`compact_result`]) and the rewriting of a whole transcript ([`compact_value`]).

mod agent;
mod fallback;
mod transcript;

use serde_json::Value;

use crate::config::CompactionConfig;
use crate::stub::{Status, ToolSummary};

pub use transcript::{compact_transcript, compact_value, CompactStats, TranscriptError};

/// The stub facts of a tool vaultsum does not have, chosen by its name: the generic agent
/// tools of seed 004 (`bash`, `grep`, another agent's `read_file`, …) and, for any other name,
/// its main argument and the size of its result. So any transcript can be compacted.
pub fn generic_stub(tool: &str, args: &Value, text: &str) -> ToolSummary {
    match tool {
        "read_file" | "read" => agent::read(tool, args, text),
        "execute_bash" | "bash" => agent::bash(tool, args, text),
        "search_files" | "grep" => agent::search_files(tool, args, text),
        _ => fallback::generic(tool, args, text),
    }
}

/// What replaces a result when compacting: the whole text for an error when
/// `config.preserve_errors` is on (errors are what an agent most needs to read again),
/// otherwise the stub, at most `config.max_summary_length` characters.
pub fn compact_result(summary: &ToolSummary, text: &str, config: &CompactionConfig) -> String {
    if summary.status == Status::Error && config.preserve_errors {
        text.to_string()
    } else {
        summary.render(config.max_summary_length)
    }
}
