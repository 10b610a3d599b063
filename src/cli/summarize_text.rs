//! `vaultsum summarize-text`: summarize stdin (the Registry's command-line `summarize_text`
//! tool). No vault needed.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;

use super::output::{call_rendered, exit_code, print_output};
use super::{App, UsageError};
use crate::config::Engine;

/// Arguments of `vaultsum summarize-text`.
#[derive(Debug, clap::Args)]
pub struct SummarizeTextArgs {
    /// Engine: `llm`, `offline` (built in, extractive, no network; `local` is the same) or `auto` (llm when an API key is set).
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// Number of key points (offline engine); by default it scales with the text.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub sentences: Option<u16>,
    /// What to emphasise, e.g. "budget" or "technical decisions".
    #[arg(long, value_name = "TEXT")]
    pub focus: Option<String>,
}

/// Reads stdin, summarizes it and prints the summary. Empty stdin is a usage error (exit 2):
/// nothing was given to work on.
pub fn run(mut app: App, args: SummarizeTextArgs) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("cannot read stdin")?;
    let text = String::from_utf8(bytes)
        .map_err(|_| UsageError("stdin is not UTF-8 text: pipe a note or plain text".into()))?;
    if text.trim().is_empty() {
        return Err(UsageError(
            "no text on stdin: pipe the text to summarize, e.g. `vaultsum summarize-text < note.md`".into(),
        )
        .into());
    }
    if let Some(engine) = args.engine {
        app.config.summarize.engine = engine;
    }
    let mut call = json!({ "text": text });
    if let Some(focus) = args.focus.filter(|f| !f.trim().is_empty()) {
        call["focus"] = json!(focus);
    }
    if let Some(sentences) = args.sentences {
        call["sentences"] = json!(sentences);
    }
    let registry = app.registry_without_vault()?;
    let output = app.runtime()?.block_on(call_rendered(
        &registry,
        "summarize_text",
        call,
        app.verbose,
    ));
    if output.details["fell_back_to_local"] == true && !app.quiet {
        eprintln!(
            "vaultsum: {}",
            vaultsum_tools::context::LOCAL_FALLBACK_NOTICE
        );
    }
    print_output(&output, false)?;
    Ok(exit_code(&output))
}
