//! Paid work done once while it is in flight: inside a process by [`single_flight`], across the
//! processes of one machine by [`lock_file`]. Media (descriptions, transcriptions, document
//! extractions, `media/mod.rs`) and chat requests (`llm/shared_answer.rs`) both go through
//! these two, each with its own idea of where the finished result is found.

pub mod lock_file;
pub mod single_flight;
