//! `vaultsum compact [FILE]`: rewrite an OpenAI-format transcript with old tool results as
//! one-line stubs, printed to stdout in the shape it came in.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::App;

/// Arguments of `vaultsum compact`.
#[derive(Debug, clap::Args)]
pub struct CompactArgs {
    /// Transcript JSON file: an array of messages or {"messages": [...]}; stdin when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Tool results kept whole at the end (default: config compaction.keep_last, 3).
    #[arg(long, value_name = "N")]
    pub keep_last: Option<usize>,
}

/// Compacts the transcript through the Registry, so each vaultsum tool's result gets that
/// tool's own stub and other agents' tools the generic ones.
pub fn run(app: App, args: CompactArgs) -> anyhow::Result<ExitCode> {
    let (name, input) = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => (
            path.display().to_string(),
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read transcript {}", path.display()))?,
        ),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the transcript from stdin")?;
            ("stdin".to_string(), text)
        }
    };
    let keep_last = args.keep_last.unwrap_or(app.config.compaction.keep_last);
    let (transcript, stats) = app
        .registry_without_vault()?
        .compact_transcript(&input, keep_last)
        .with_context(|| format!("cannot compact {name}"))?;
    // Serialize fully before writing, so a failure never leaves half a transcript on stdout.
    let mut text = serde_json::to_string_pretty(&transcript)?;
    text.push('\n');
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    if app.verbose > 0 {
        eprintln!(
            "compacted {} of {} tool results ({} errors kept whole, last {keep_last} kept)",
            stats.stubbed, stats.tool_results, stats.errors_kept
        );
    }
    Ok(ExitCode::SUCCESS)
}
