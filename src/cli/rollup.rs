//! `vaultsum rollup`: one summary over many notes (the registry's `summarize_notes` tool),
//! printed. `--week`, `--month` and `--last` are shorthands for `--from`/`--to`.

use std::process::ExitCode;

use serde_json::json;
use vaultsum_tools::rollup_selection::{period, today};

use super::cost_line::cost_clause;
use super::left_out;
use super::output::{call_rendered, exit_code, print_output, say_created_folders};
use super::{App, UsageError};
use crate::config::Engine;

/// Arguments of `vaultsum rollup`.
#[derive(Debug, clap::Args)]
pub struct RollupArgs {
    /// Notes and folders to draw from (vault-relative).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    /// Notes with this tag or a tag nested below it (`client` matches `#client/acme`).
    #[arg(long, value_name = "TAG")]
    pub tag: Option<String>,
    /// First day, YYYY-MM-DD.
    #[arg(long, value_name = "DATE")]
    pub from: Option<String>,
    /// Last day, YYYY-MM-DD.
    #[arg(long, value_name = "DATE")]
    pub to: Option<String>,
    /// An ISO week, e.g. 2026-W47 (Monday to Sunday).
    #[arg(long, value_name = "WEEK", conflicts_with_all = ["from", "to", "month", "last"])]
    pub week: Option<String>,
    /// A month, e.g. 2026-11.
    #[arg(long, value_name = "MONTH", conflicts_with_all = ["from", "to", "last"])]
    pub month: Option<String>,
    /// The last N days up to today (UTC), e.g. 7d.
    #[arg(long, value_name = "DAYS", conflicts_with_all = ["from", "to"])]
    pub last: Option<String>,
    /// A hub note: the notes it links to or embeds.
    #[arg(long, value_name = "NOTE")]
    pub links_of: Option<String>,
    /// Link steps followed from --links-of (default 1).
    #[arg(long, value_name = "N")]
    pub depth: Option<usize>,
    /// What to emphasise.
    #[arg(long, value_name = "TEXT")]
    pub focus: Option<String>,
    /// Refuse a selection larger than this (default 100).
    #[arg(long, value_name = "N")]
    pub max_notes: Option<usize>,
    /// List the selection and the paid calls it would make, and make none.
    #[arg(long)]
    pub dry_run: bool,
    /// Write the rollup into this note (created when absent; a note vaultsum did not write for
    /// a rollup is never overwritten; a re-run replaces the rollup vaultsum wrote there, keeps
    /// what a person added around it, and is refused when a person edited the rollup itself).
    #[arg(long, value_name = "NOTE")]
    pub save_to: Option<String>,
    /// With --save-to: section (default), property (an abstract in its summary property) or both.
    #[arg(long, value_name = "WHERE", value_parser = super::summarize_file::parse_into_flag)]
    pub into: Option<crate::config::SummaryInto>,
    /// How to summarize: a preset (default, meeting, paper, journal, brief) or [[Prompts/Name]].
    #[arg(long, value_name = "PROMPT")]
    pub prompt: Option<String>,
    /// The rollup's language: auto (the notes') or a language name.
    #[arg(long, value_name = "LANGUAGE")]
    pub language: Option<String>,
    /// Engine: `llm`, `offline` (built in, extractive, no network; `local` is the same) or `auto` (llm when an API key is set).
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// Print {text, details, is_error} as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Builds the `summarize_notes` call from the flags, runs it and prints the rollup.
pub fn run(mut app: App, args: RollupArgs) -> anyhow::Result<ExitCode> {
    if let Some(engine) = args.engine {
        app.config.summarize.engine = engine;
    }
    let mut call = json!({ "paths": args.paths, "dry_run": args.dry_run });
    let shorthand = [
        ("--week", &args.week),
        ("--month", &args.month),
        ("--last", &args.last),
    ]
    .into_iter()
    .find_map(|(flag, value)| value.as_ref().map(|v| (flag, v)));
    if let Some((flag, value)) = shorthand {
        let (from, to) = period(value, today()).ok_or_else(|| {
            UsageError(format!(
                "{flag} {value}: not a period; write --week 2026-W47, --month 2026-11 or --last 7d"
            ))
        })?;
        call["from"] = json!(from.to_string());
        call["to"] = json!(to.to_string());
    }
    for (key, value) in [
        ("from", &args.from),
        ("to", &args.to),
        ("tag", &args.tag),
        ("links_of", &args.links_of),
        ("focus", &args.focus),
        ("save_to", &args.save_to),
        ("prompt", &args.prompt),
        ("language", &args.language),
    ] {
        if let Some(value) = value {
            call[key] = json!(value);
        }
    }
    if let Some(into) = args.into {
        call["into"] = json!(into);
    }
    if let Some(depth) = args.depth {
        call["depth"] = json!(depth);
    }
    if let Some(max_notes) = args.max_notes {
        call["max_notes"] = json!(max_notes);
    }
    let registry = app.registry()?;
    let output = app.runtime()?.block_on(call_rendered(
        &registry,
        "summarize_notes",
        call,
        app.verbose,
    ));
    if output.details["fell_back_to_local"] == true && !app.quiet {
        eprintln!(
            "vaultsum: {}",
            vaultsum_tools::context::LOCAL_FALLBACK_NOTICE
        );
    }
    print_output(&output, args.json)?;
    say_created_folders(&output, app.quiet);
    left_out::report(
        left_out::of_details(&output.details),
        app.verbose,
        app.quiet,
    );
    if !app.quiet {
        // What the rollup cost, after its result: every request its parts, merges and the
        // media of its notes made.
        let notes = output.details["note_count"].as_u64().unwrap_or(0);
        eprintln!(
            "vaultsum: rollup of {notes} note{}{}",
            if notes == 1 { "" } else { "s" },
            cost_clause(&registry)
        );
    }
    Ok(exit_code(&output))
}
