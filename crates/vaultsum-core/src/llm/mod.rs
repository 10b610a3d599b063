//! Language models: the OpenAI-compatible client and the built-in offline engine.
//!
//! [`ChatClient`] speaks to any OpenAI-compatible API through async-openai. It tolerates what
//! real servers send (unknown `finish_reason`, missing `usage`, `reasoning_content`, error
//! bodies of any shape), retries what is worth retrying, and never shows the API key. All its
//! requests share one [`Limiter`], which finds how many the server takes at once and how fast.

mod aimd;
mod chat_reply;
mod chat_request;
mod client;
pub mod context_window;
pub mod cut_answer;
mod error;
mod error_body;
mod limiter;
mod local_server;
mod models;
mod quota;
#[cfg(test)]
mod rate_limited_batches;
mod redact;
pub mod repetition;
mod retry;
pub mod shared_answer;
pub mod stream;
mod transcription;
mod transport;
pub mod usage;

pub use vaultsum_engine::llm::local;

pub use chat_reply::ChatReply;
pub use chat_request::{ChatRequest, UserPart};
pub use client::ChatClient;
pub use error::LlmError;
pub use limiter::{Answer, Limiter, LimiterSnapshot, Permit};
pub use usage::{metered, Usage};
