//! `vaultsum summarize-text`: summarize stdin. No vault needed.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Engine;
use crate::tools::summarize_text::{summarize_text, SummarizeTextRequest};

use super::{App, UsageError};

/// Arguments of `vaultsum summarize-text`.
#[derive(Debug, clap::Args)]
pub struct SummarizeTextArgs {
    /// Engine: `llm`, `local` (offline, extractive) or `auto` (llm when an API key is set).
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// Number of key points (local engine); by default it scales with the text.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub sentences: Option<u16>,
    /// What to emphasise, e.g. "budget" or "technical decisions".
    #[arg(long, value_name = "TEXT")]
    pub focus: Option<String>,
}

/// Reads stdin, summarizes it and prints the summary. Empty stdin is a usage error (exit 2):
/// nothing was given to work on.
pub fn run(app: App, args: SummarizeTextArgs) -> anyhow::Result<ExitCode> {
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
    let request = SummarizeTextRequest {
        engine: args.engine,
        sentences: args.sentences.map(usize::from),
        focus: args.focus.filter(|f| !f.trim().is_empty()),
    };
    let result = app
        .runtime()?
        .block_on(summarize_text(&app.config, &text, &request))?;
    if result.fell_back_to_local && !app.quiet {
        eprintln!("vaultsum: no API key configured (FIREWORKS_API_KEY); using the built-in local summarizer");
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", result.summary)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
