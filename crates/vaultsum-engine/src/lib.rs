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

/// The offline engine (`llm::local`), at the path vaultsum-core gives it.
pub mod llm {
    pub mod local;
}

/// The parts of vaultsum-core's `vault` layer that do no I/O.
pub mod vault {
    pub mod fragment;
    pub mod frontmatter_edit;
    pub mod inert_check;
    pub mod link;
    pub mod markdown;
    pub mod note_end;
    pub mod note_facts;
    pub mod output_policy;
    pub mod policy;
    pub mod summary_fingerprint;
}
