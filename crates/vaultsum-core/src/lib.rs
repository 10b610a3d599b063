//! vaultsum's lower layers: everything below the tool registry.
//!
//! `config` (layered configuration), `vault` (safe paths, the note index, link resolution, embed
//! expansion, safe writes), `flight` (paid work done once while in flight, in a process and
//! across processes), `media` (images and audio made text), `llm` (the OpenAI-compatible
//! client and the offline engine), `kagi` (the Kagi v0 client), `facts` (which facts of a
//! model's answer its source does not hold) and `html` (HTML made plain text, for Kagi snippets
//! and provider error pages). Only `vaultsum-tools` depends
//! on this crate; the front ends cannot, so every action goes through the Registry.

pub mod atomic_file;
pub mod config;
pub use vaultsum_engine::facts;
pub mod flight;
pub use vaultsum_engine::html;
pub mod kagi;
pub mod llm;
pub mod media;
pub use vaultsum_engine::summary;
pub mod summary_prompt;
pub mod vault;
