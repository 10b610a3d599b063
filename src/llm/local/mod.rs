//! The built-in offline extractive summarizer (placeholder: filled in by its own work item).
