//! Tools: the one place where everything an agent or a person can do is defined. The CLI, the
//! MCP server and the watcher are thin adapters over [`Registry`].
//!
//! This crate is the only door to the layers below (`vaultsum-core`): the front ends depend on
//! it and on nothing under it, so the compiler keeps them from deciding anything about notes.

pub use vaultsum_core::config;
// The lower layers, reachable inside this crate as `crate::vault` etc. and never re-exported.
use vaultsum_core::{kagi, llm, media, summary, summary_prompt, vault};

pub mod attachments;
pub mod batch_line;
pub mod compaction;
pub mod context;
pub mod defused_line;
pub mod doctor;
pub mod fact_check;
pub(crate) mod failure;
pub mod freshness;
pub mod generated_notes;
pub mod instructions;
pub mod left_out;
pub mod long_note;
pub mod note_locks;
pub mod note_reader;
pub mod previews;
pub mod progress;
pub mod read_file;
pub mod registry;
pub mod rollup_selection;
pub mod schema;
pub mod stub;
pub mod summarize;
pub mod summarize_file;
pub mod summarize_folder;
pub mod summarize_notes;
pub mod summarize_text;
pub mod summarizer;
pub mod summary_status;
pub mod targets;
pub mod text;
pub mod tool;
pub mod truncate;
pub mod unpaid_reads;
pub mod vault_view;
pub mod web_search;
pub mod windowed;

use std::sync::Arc;

pub use context::{ContextError, ToolContext};
pub use progress::{with_progress, ProgressSink, ProgressUpdate};
pub use registry::Registry;
pub use stub::ToolSummary;
pub use tool::{RetryHint, Tool, ToolAnnotations, ToolOutput, TypedTool};
pub use vaultsum_core::llm::Usage;

/// Every tool vaultsum offers to agents and lists, in the order they are listed.
pub(crate) fn advertised_tools(context: &Arc<ToolContext>) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(read_file::ReadFileTool::new(context.clone())),
        Arc::new(summarize_file::SummarizeFileTool::new(context.clone())),
        Arc::new(summarize::SummarizeTool::new(context)),
        Arc::new(web_search::WebSearchTool::new(context)),
        Arc::new(summarize_notes::SummarizeNotesTool::new(context.clone())),
        Arc::new(summarize_folder::SummarizeFolderTool::new(context.clone())),
        Arc::new(summary_status::SummaryStatusTool::new(context.clone())),
    ]
}

/// The command-line tools: in the Registry so the CLI does nothing of its own, but never listed
/// or offered to agents (see [`Registry`]).
pub(crate) fn cli_tools(context: &Arc<ToolContext>) -> Vec<Arc<dyn Tool>> {
    vec![Arc::new(summarize_text::SummarizeTextTool::new(
        context.clone(),
    ))]
}
