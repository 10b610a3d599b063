//! Kagi v0 API client: web search and the Universal Summarizer.
//!
//! One [`KagiClient`] serves both endpoints. The API key is looked up when a request is made,
//! never when the client is built, so a key exported after start-up is picked up and a missing
//! key only matters to the tools that need it.

mod client;
mod envelope;
mod error;
mod ping;
mod search;
mod summarize;

pub use client::{KagiClient, KeySource, KAGI_API_KEY_VAR};
pub use envelope::Meta;
pub use error::{KagiError, Operation};
pub use ping::KagiReach;
pub use search::{SearchResponse, SearchResult, Thumbnail};
pub use summarize::{Summary, SummaryEngine, SummaryRequest, SummaryType};
