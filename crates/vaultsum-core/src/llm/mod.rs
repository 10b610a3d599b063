//! Language models: the OpenAI-compatible client and the built-in offline engine.
//!
//! [`ChatClient`] speaks to any OpenAI-compatible API through async-openai. It tolerates what
//! real servers send (unknown `finish_reason`, missing `usage`, `reasoning_content`, error
//! bodies of any shape), retries what is worth retrying, and never shows the API key. All its
//! requests share one [`Limiter`], which finds how many the server takes at once and how fast.

mod aimd;
mod client;
pub mod context_window;
mod limiter;
mod local_server;
mod models;
mod quota;
#[cfg(test)]
mod rate_limited_batches;
mod redact;
mod retry;
pub mod shared_answer;
mod transcription;
mod transport;
pub mod usage;

// What is sent and read, with no I/O: the sans-IO core's, at the paths they had here.
pub use vaultsum_engine::llm::{
    chat_reply, chat_request, cut_answer, error, error_body, finish_reply, local, repetition,
    stream,
};

pub use chat_reply::ChatReply;
pub use chat_request::{ChatRequest, UserPart};
pub use client::ChatClient;
pub use error::LlmError;
pub use limiter::{Answer, Limiter, LimiterSnapshot, Permit};
pub use usage::{metered, Usage};
