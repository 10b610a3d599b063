//! Language models: the OpenAI-compatible client and the built-in offline engine.

pub mod local;
