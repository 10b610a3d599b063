//! `vaultsum status`: renders, for each note, whether it has a summary and whether that
//! summary is current, stale, edited by hand or unmarked (`vaultsum_tools::freshness` decides;
//! this file only prints), then a count line.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use crate::tools::freshness::StatusReport;

use super::left_out;
use super::{App, UsageError};
use crate::tools::left_out::count_by_reason;

/// Arguments of `vaultsum status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// A note or a folder (default: the whole vault).
    #[arg(value_name = "PATH")]
    pub path: Option<String>,
    /// One JSON object per note per line, then one with the counts.
    #[arg(long)]
    pub json: bool,
}

/// The states in the order the count line gives them.
const STATES: [&str; 5] = ["current", "stale", "edited", "unmarked", "missing"];

/// Prints the table (or JSON lines) and the counts, then what the scan left out (on stderr;
/// never a failure); exit 1 when a note's instructions could not be chosen.
pub fn run(app: App, args: StatusArgs) -> anyhow::Result<ExitCode> {
    let registry = app.registry()?;
    let report = registry
        .context()
        .summary_status(args.path.as_deref())
        .map_err(|e| UsageError(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        for note in &report.notes {
            writeln!(out, "{}", serde_json::to_string(note)?)?;
        }
        let mut counts = json!({ "notes": report.notes.len() });
        for state in STATES {
            counts[state] = json!(report.count(state));
        }
        counts["left_out"] = json!(count_by_reason(&report.left_out));
        writeln!(out, "{}", json!({ "counts": counts }))?;
    } else {
        out.write_all(render(&report).as_bytes())?;
    }
    out.flush()?;
    left_out::report(left_out::of_scan(&report.left_out), app.verbose, app.quiet);
    for (path, error) in &report.unreadable {
        eprintln!("vaultsum: {path}: {error}");
    }
    Ok(if report.unreadable.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `STATE  SECTION  PROPERTY  NOTE` rows, then
/// `12 notes: 3 current, 1 stale, 0 edited, 2 unmarked, 6 missing`.
fn render(report: &StatusReport) -> String {
    let mut text = String::new();
    if !report.notes.is_empty() {
        text.push_str(&format!(
            "{:<9} {:<9} {:<9} NOTE\n",
            "STATE", "SECTION", "PROPERTY"
        ));
    }
    for note in &report.notes {
        text.push_str(&format!(
            "{:<9} {:<9} {:<9} {}\n",
            note.state, note.section, note.property, note.path
        ));
    }
    let counts: Vec<String> = STATES
        .iter()
        .map(|state| format!("{} {state}", report.count(state)))
        .collect();
    let total = report.notes.len();
    text.push_str(&format!(
        "{total} note{}: {}\n",
        if total == 1 { "" } else { "s" },
        counts.join(", ")
    ));
    text
}
