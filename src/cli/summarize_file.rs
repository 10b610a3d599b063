//! `vaultsum summarize-file`: write a summary into notes (the `summarize_file` tool).

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use super::app::exit_code_for_batch;
use super::batch::{stream_batch, BatchEnd, BatchEvent, BatchOptions};
use super::cost_line::cost_clause;
use super::interrupt::Interrupts;
use super::left_out;
use super::{App, UsageError};
use crate::config::{Engine, SummaryInto};
use crate::tools::batch_line::{closing_line, plural, BatchCounts};
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
    /// Replace the note's previous `## Summary` section instead of adding a second one (with
    /// several notes: every note is summarized again, current summaries too).
    #[arg(long)]
    pub replace: bool,
    /// Where the summary goes: section, property (a short abstract in the frontmatter), or
    /// both (default: config summarize.into, else section).
    #[arg(long, value_name = "WHERE", value_parser = parse_into_flag)]
    pub into: Option<SummaryInto>,
    /// How to summarize: a preset (default, meeting, paper, journal, brief) or a prompt note,
    /// [[Prompts/Name]] (default: the note's summary_prompt property, the config's rules,
    /// summarize.prompt).
    #[arg(long, value_name = "PROMPT")]
    pub prompt: Option<String>,
    /// The summary's language: auto (the note's own) or a language name, e.g. English.
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Option<String>,
    /// Replace stale summaries (their note changed since) and add missing ones; current
    /// summaries and summaries edited by hand are left.
    #[arg(long)]
    pub refresh: bool,
    /// With or without --refresh: also replace summaries written before fingerprints.
    #[arg(long)]
    pub refresh_unmarked: bool,
    /// Print the summaries instead of writing them.
    #[arg(long)]
    pub dry_run: bool,
    /// auto (llm with a key, else offline), llm, or offline (built in, no network; `local` is
    /// the same).
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// One JSON result per line (the tool's result).
    #[arg(long)]
    pub json: bool,
}

/// Summarizes each note with bounded concurrency and prints its result as soon as it is done.
/// Ctrl-C or SIGTERM stop the batch: what was done is said on stderr and the exit code is 130
/// (Ctrl-C) or 143 (SIGTERM).
pub fn run(mut app: App, args: SummarizeFileArgs) -> anyhow::Result<ExitCode> {
    if let Some(engine) = args.engine {
        app.config.summarize.engine = engine;
    }
    let registry = app.registry()?;
    // A misspelt preset or language is refused before any note is read or any call paid for.
    registry
        .context()
        .check_call_choice(args.prompt.as_deref(), args.language.as_deref())
        .map_err(|e| UsageError(e.to_string()))?;
    let targets = registry
        .context()
        .expand_targets(&args.paths)
        .map_err(|e| UsageError(e.to_string()))?;
    left_out::report(left_out::of_scan(&targets.left_out), app.verbose, app.quiet);
    let left_out = targets.left_out.len();
    let targets = targets.notes;
    if targets.is_empty() {
        return Err(UsageError("no notes found in the given folders".into()).into());
    }
    // Several notes (or a folder): current summaries are left alone, unless `--replace` asks
    // for every note again. A single note named explicitly is summarized as asked.
    let skip_current = !args.replace
        && registry
            .context()
            .names_several_notes(&args.paths, &targets);
    // `--dry-run` is the tool's own unadvertised `dry_run` argument: the same reading,
    // summarizing, rendering (`-v`) and concurrency as the real call, minus the write.
    let calls = targets
        .iter()
        .map(|path| {
            let mut call = json!({
                "path": path,
                "focus": args.focus,
                "replace": args.replace,
                "refresh": args.refresh,
                "refresh_unmarked": args.refresh_unmarked,
                "skip_current": skip_current,
            });
            if let Some(into) = args.into {
                call["into"] = json!(into);
            }
            if let Some(prompt) = &args.prompt {
                call["prompt"] = json!(prompt);
            }
            if let Some(language) = &args.language {
                call["language"] = json!(language);
            }
            if args.dry_run {
                call["dry_run"] = json!(true);
            }
            call
        })
        .collect();
    let options = BatchOptions {
        concurrency: app.config.summarize.concurrency,
        verbose: app.verbose,
        progress: !app.quiet,
    };
    let mut printer = Printer {
        targets: &targets,
        dry_run: args.dry_run,
        json: args.json,
        headers: targets.len() > 1 || app.verbose > 0,
        quiet: app.quiet,
        previews: 0,
        succeeded: 0,
        skipped: 0,
        failed: 0,
        left_out,
        write_error: None,
    };
    let runtime = app.runtime()?;
    let end = runtime.block_on(async {
        // Listening before the first call: from here on Ctrl-C and SIGTERM stop the batch
        // instead of killing the process, so what was done is printed and said.
        let mut interrupts = Interrupts::listen()?;
        let end = stream_batch(
            &registry,
            "summarize_file",
            calls,
            options,
            &mut interrupts,
            |event| printer.event(event),
        )
        .await;
        anyhow::Ok(end)
    })?;
    match end {
        BatchEnd::Completed => {
            if !app.quiet {
                eprintln!("{}", printer.closing(&cost_clause(&registry)));
            }
            if let Some(error) = printer.write_error.take() {
                return Err(error.into());
            }
            Ok(exit_code_for_batch(printer.failed > 0))
        }
        BatchEnd::Interrupted {
            not_started,
            cancelled,
            by,
        } => {
            if cancelled > 0 {
                // A second signal: the person asked to stop now, so nothing is waited for. A
                // dropped call may have handed its write to the blocking pool already; the
                // exit cannot cut it in half, because an append is one `write` to a regular
                // file (the kernel finishes it before the thread dies) and a replace is one
                // atomic exchange, so the note ends with its whole summary or without it.
                runtime.shutdown_background();
            } else {
                // Every call in flight finished; only stray background work can be left.
                runtime.shutdown_timeout(WRITE_GRACE);
            }
            eprintln!(
                "{}{}",
                printer.interrupted(not_started, cancelled),
                cost_clause(&registry)
            );
            Ok(ExitCode::from(by.batch_exit_code()))
        }
    }
}

/// How long a batch stopped by one signal waits, at most, for stray blocking work before the
/// process exits.
const WRITE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Prints each note's result the moment it is done, and counts them for the closing line.
///
/// Each result is one stdout line carrying its path: the tool's JSON result, or for a failure
/// `{"success":false,"path","error"}`. `--dry-run` prints `## Summary` and the summary for
/// each note (after a `==> PATH <==` line when there are several notes or with `-v`), failures
/// on stderr; with `--json` one `{"success","path","summary","dry_run"}` line per note.
struct Printer<'a> {
    targets: &'a [String],
    dry_run: bool,
    json: bool,
    headers: bool,
    quiet: bool,
    /// Dry-run previews printed so far (a blank line separates them).
    previews: usize,
    succeeded: usize,
    /// Of the succeeded, those left as they were (their summary is current).
    skipped: usize,
    failed: usize,
    /// Entries of the folders the walk left out (said before the batch, counted at its end).
    left_out: usize,
    /// The first failure to write stdout (`| head` closed it); the batch goes on unprinted and
    /// the error is returned at the end, where a broken pipe counts as success.
    write_error: Option<std::io::Error>,
}

impl Printer<'_> {
    fn event(&mut self, event: BatchEvent) {
        match event {
            BatchEvent::Finished { index, output } => {
                if output.is_error {
                    self.failed += 1;
                } else {
                    self.succeeded += 1;
                    if output.details["skipped"].is_string() {
                        self.skipped += 1;
                    }
                }
                let targets = self.targets;
                if self.write_error.is_none() {
                    if let Err(error) = self.print(&targets[index], &output) {
                        self.write_error = Some(error);
                    }
                }
            }
            BatchEvent::Stopping { in_flight } => {
                if !self.quiet {
                    eprintln!(
                        "vaultsum: stopping; waiting for {} in progress (Ctrl-C again to stop at once)",
                        plural(in_flight, "note")
                    );
                }
            }
        }
    }

    fn print(&mut self, path: &str, output: &ToolOutput) -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        let details = &output.details;
        if output.is_error {
            let error = details["error"].as_str().unwrap_or(&output.text);
            if self.dry_run && !self.json {
                eprintln!("vaultsum: {path}: {error}");
                return Ok(());
            }
            writeln!(
                out,
                "{}",
                json!({ "success": false, "path": path, "error": error })
            )?;
        } else if !self.dry_run || self.json {
            writeln!(out, "{}", with_fact_check(&output.text, details))?;
        } else {
            if self.previews > 0 {
                writeln!(out)?;
            }
            if self.headers {
                writeln!(out, "==> {} <==", details["path"].as_str().unwrap_or(path))?;
            }
            if let Some(why) = details["skipped"].as_str() {
                writeln!(
                    out,
                    "{}: skipped ({why})",
                    details["path"].as_str().unwrap_or(path)
                )?;
                return out.flush();
            }
            if !self.quiet {
                // Which instructions made it, on stderr: stdout stays the summary itself.
                eprintln!(
                    "{}: prompt {} ({}), language {}",
                    details["path"].as_str().unwrap_or(path),
                    details["prompt"].as_str().unwrap_or("?"),
                    details["prompt_from"].as_str().unwrap_or("?"),
                    details["language"].as_str().unwrap_or("?"),
                );
            }
            if let Some(abstract_text) = details["abstract"].as_str() {
                writeln!(out, "abstract: {abstract_text}")?;
            }
            if details["into"].as_str() != Some("property") {
                let summary = details["summary"].as_str().unwrap_or_default();
                writeln!(out, "## Summary\n\n{summary}")?;
            }
            self.previews += 1;
        }
        out.flush()
    }

    /// The closing line of a batch that ran to its end, on stderr: what was done and what it
    /// cost, `vaultsum: 3 notes: 2 summarized, 1 skipped; 2 requests, 1,240 prompt + 300
    /// completion tokens, 0 media calls` (`skipped`, `failed`, `left out` only when there are
    /// any; the cost
    /// as `cost_line.rs` says it: `vaultsum: 2 notes: 2 summarized, offline`).
    fn closing(&self, cost: &str) -> String {
        let counts = BatchCounts {
            notes: self.targets.len(),
            summarized: self.succeeded - self.skipped,
            skipped: self.skipped,
            failed: self.failed,
            left_out: self.left_out,
        };
        format!("vaultsum: {}", closing_line(&counts, self.dry_run, cost))
    }

    /// The closing line after a signal, on stderr:
    /// `vaultsum: interrupted; N of M notes summarized, K not started`, then `, F failed` and
    /// `, C cancelled` when there are any ("previewed" with `--dry-run`).
    fn interrupted(&self, not_started: usize, cancelled: usize) -> String {
        let verb = if self.dry_run {
            "previewed"
        } else {
            "summarized"
        };
        let mut line = format!(
            "vaultsum: interrupted; {} of {} notes {verb}, {not_started} not started",
            self.succeeded,
            self.targets.len()
        );
        if self.failed > 0 {
            line.push_str(&format!(", {} failed", self.failed));
        }
        if cancelled > 0 {
            line.push_str(&format!(", {cancelled} cancelled"));
        }
        line
    }
}

/// `--into`: section, property or both.
pub(super) fn parse_into_flag(value: &str) -> Result<SummaryInto, String> {
    SummaryInto::parse("--into", value).map_err(|e| e.to_string())
}

/// The result line, with `details.fact_check` and `details.unsupported` when the fact check
/// retried or found something (docs/fact-check.md): the facts an agent reading `--json` must
/// see. Other lines keep their shape.
fn with_fact_check(text: &str, details: &serde_json::Value) -> String {
    let check = &details["fact_check"];
    let noteworthy =
        check["retried"].as_bool() == Some(true) || check["not_found"].as_u64().unwrap_or(0) > 0;
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(mut line) if noteworthy && line.is_object() => {
            line["details"] = json!({
                "fact_check": check,
                "unsupported": details["unsupported"],
            });
            line.to_string()
        }
        _ => text.to_string(),
    }
}
