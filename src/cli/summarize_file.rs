//! `vaultsum summarize-file`: append a summary to notes (the `summarize_file` tool).

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use super::app::exit_code_for_batch;
use super::batch::run_batch;
use super::{App, UsageError};
use crate::config::Engine;
use crate::tools::ToolOutput;

/// Arguments of `vaultsum summarize-file`.
#[derive(Debug, clap::Args)]
pub struct SummarizeFileArgs {
    /// Notes (vault-relative, or absolute inside the vault) or folders of notes.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// What the summary should emphasise.
    #[arg(long, value_name = "TEXT")]
    pub focus: Option<String>,
    /// Replace the note's previous `## Summary` section instead of adding a second one.
    #[arg(long)]
    pub replace: bool,
    /// Print the summaries instead of writing them.
    #[arg(long)]
    pub dry_run: bool,
    /// auto (llm with a key, else local), llm, or local.
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// One JSON result per line (the tool's result).
    #[arg(long)]
    pub json: bool,
}

/// Summarizes each note with bounded concurrency and prints one result line per note.
pub fn run(mut app: App, args: SummarizeFileArgs) -> anyhow::Result<ExitCode> {
    if let Some(engine) = args.engine {
        app.config.summarize.engine = engine;
    }
    let registry = app.registry()?;
    let targets = registry
        .context()
        .expand_targets(&args.paths)
        .map_err(|e| UsageError(e.to_string()))?;
    if targets.is_empty() {
        return Err(UsageError("no notes found in the given folders".into()).into());
    }
    // `--dry-run` is the tool's own unadvertised `dry_run` argument: the same reading,
    // summarizing, rendering (`-v`) and concurrency as the real call, minus the write.
    let calls = targets
        .iter()
        .map(|path| {
            let mut call = json!({ "path": path, "focus": args.focus, "replace": args.replace });
            if args.dry_run {
                call["dry_run"] = json!(true);
            }
            call
        })
        .collect();
    let results = app.runtime()?.block_on(run_batch(
        &registry,
        "summarize_file",
        calls,
        app.config.summarize.concurrency,
        app.verbose,
        !app.quiet,
    ));
    if args.dry_run {
        return print_previews(&app, &targets, &results, args.json);
    }
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for output in &results {
        failed |= output.is_error;
        writeln!(out, "{}", output.text)?;
    }
    out.flush()?;
    Ok(exit_code_for_batch(failed))
}

/// `--dry-run` output: each summary under `## Summary` (after a `==> PATH <==` line when there
/// are several notes or with `-v`), or with `--json` one `{"success","path","summary","dry_run"}`
/// line per note. Failures go to stderr (or as `{"success":false,"path","error"}` lines).
fn print_previews(
    app: &App,
    targets: &[String],
    results: &[ToolOutput],
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for (index, (path, output)) in targets.iter().zip(results).enumerate() {
        let details = &output.details;
        if output.is_error {
            failed = true;
            let error = details["error"].as_str().unwrap_or(&output.text);
            if json {
                let line = json!({ "success": false, "path": path, "error": error });
                writeln!(out, "{line}")?;
            } else {
                eprintln!("vaultsum: {path}: {error}");
            }
            continue;
        }
        if json {
            writeln!(out, "{}", output.text)?;
            continue;
        }
        if index > 0 {
            writeln!(out)?;
        }
        if targets.len() > 1 || app.verbose > 0 {
            writeln!(out, "==> {} <==", details["path"].as_str().unwrap_or(path))?;
        }
        let summary = details["summary"].as_str().unwrap_or_default();
        writeln!(out, "## Summary\n\n{summary}")?;
    }
    out.flush()?;
    Ok(exit_code_for_batch(failed))
}
