//! vaultsum's sans-IO core: the parts of a summary that need no file system, network, clock or
//! thread, so that the same code runs in the native binary and, built for
//! `wasm32-unknown-unknown`, inside Obsidian (issue 45). vaultsum-core re-exports each module
//! at the path it had there (`vaultsum_core::facts`, `vaultsum_core::llm::local`,
//! `vaultsum_core::vault::output_policy`, …), so callers do not change.
//!
//! What lives here: the offline summarizer (`llm::local`), the fact checker (`facts`), the
//! output policy and its verifier (`vault::output_policy`, `vault::inert_check`), the Markdown
//! map they read notes with (`vault::markdown`, `vault::link`), and what a note's text says of
//! itself: its frontmatter, `## Summary` sections and fingerprint, headings and blocks, what it
//! leaves open at its end, which names are notes (`vault::note_facts`, `frontmatter_edit`,
//! `summary_fingerprint`, `fragment`, `note_end`, `policy`).

pub mod facts;
pub mod html;
pub mod media;

/// What a model's answer becomes on its way into a note: cleaned, its facts marked.
pub mod summary {
    pub mod batch_line;
    pub mod clean;
    pub mod defaults;
    pub mod fact_marks;
    pub mod fact_retry;
    pub mod identity;
    pub mod in_app;
    pub mod in_app_llm;
    pub mod in_app_media;
    pub mod in_app_rollup;
    pub mod llm_request;
    pub mod offline;
    pub mod prompt_spec;
    pub mod refresh_plan;
    pub mod rollup;
    pub mod secret_echo;
    pub mod system_prompt;
    pub mod to_write;
}

/// The offline engine (`llm::local`), and what the OpenAI-compatible client sends and reads:
/// the request's wire form, the streamed answer put back together, the reply read leniently,
/// loops and cut ends taken off, its errors (the sending, retries and limits are the host's).
pub mod llm {
    pub mod chat_reply;
    pub mod chat_request;
    pub mod cut_answer;
    pub mod error;
    pub mod error_body;
    pub mod finish_reply;
    pub mod local;
    pub mod repetition;
    pub mod stream;
    pub mod whole_answer;

    pub use chat_reply::ChatReply;
    pub use chat_request::{ChatRequest, UserPart};
    pub use error::LlmError;
}

/// The parts of vaultsum-core's `vault` layer that do no I/O.
pub mod vault {
    pub mod attachment_kind;
    pub mod document_kind;
    pub mod exclusions;
    pub mod expand;
    pub mod fragment;
    pub mod frontmatter_edit;
    pub mod generated_note;
    pub mod index;
    pub mod inert_check;
    pub mod link;
    pub mod markdown;
    pub mod note_end;
    pub mod note_facts;
    pub mod obsidian_settings;
    pub mod output_policy;
    pub mod parsed_note;
    pub mod policy;
    pub mod relative;
    pub mod resolve;
    pub mod summary_edit;
    pub mod summary_fingerprint;
    pub mod summary_section;
}
