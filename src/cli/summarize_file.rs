//! `vaultsum summarize-file`: append a summary to notes (the `summarize_file` tool).

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use super::app::exit_code_for_batch;
use super::batch::run_batch;
use super::{App, UsageError};
use crate::config::Engine;
use crate::tools::summarize_file::{SummarizeFileArgs as ToolArgs, SummarizeFileTool};

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
    let runtime = app.runtime()?;
    if args.dry_run {
        return runtime.block_on(dry_run(&app, &registry, &targets, &args));
    }
    let calls = targets
        .iter()
        .map(|path| json!({ "path": path, "focus": args.focus, "replace": args.replace }))
        .collect();
    let results = runtime.block_on(run_batch(
        &registry,
        "summarize_file",
        calls,
        app.config.summarize.concurrency,
        app.verbose,
        !app.quiet,
    ));
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for output in &results {
        failed |= output.is_error;
        writeln!(out, "{}", output.text)?;
    }
    out.flush()?;
    Ok(exit_code_for_batch(failed))
}

/// `--dry-run`: generate each summary and print it under a `==> PATH <==` header; write nothing.
async fn dry_run(
    app: &App,
    registry: &crate::tools::Registry,
    targets: &[String],
    args: &SummarizeFileArgs,
) -> anyhow::Result<ExitCode> {
    let tool = SummarizeFileTool::new(registry.context().clone());
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for (index, path) in targets.iter().enumerate() {
        let tool_args = ToolArgs {
            path: path.clone(),
            focus: args.focus.clone(),
            replace: args.replace,
        };
        match tool.prepare(&tool_args).await {
            Ok(prepared) if args.json => {
                let line = json!({ "success": true, "path": prepared.path, "summary": prepared.summary, "dry_run": true });
                writeln!(out, "{line}")?;
            }
            Ok(prepared) => {
                if index > 0 {
                    writeln!(out)?;
                }
                if targets.len() > 1 || app.verbose > 0 {
                    writeln!(out, "==> {} <==", prepared.path)?;
                }
                writeln!(out, "## Summary\n\n{}", prepared.summary)?;
            }
            Err(error) => {
                failed = true;
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({ "success": false, "path": path, "error": error })
                    )?;
                } else {
                    eprintln!("vaultsum: {path}: {error}");
                }
            }
        }
    }
    Ok(exit_code_for_batch(failed))
}
