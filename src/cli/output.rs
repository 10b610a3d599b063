//! Printing tool results: the text (or JSON with `--json`) to stdout, rendered lines to stderr.
//!
//! Shared by every subcommand that runs a tool: `-v` shows the rendered call (`→ …`) and the
//! collapsed result (`← …`) on stderr, `-vv` the expanded result. With `--json` stdout gets one
//! line `{"text": …, "details": {…}, "is_error": bool}` per result, errors included; without
//! it an error's text goes to stderr, so stdout only ever holds results.

use std::io::Write;
use std::process::ExitCode;

use serde_json::Value;

use super::App;
use crate::tools::{Registry, ToolOutput};

/// Builds the Registry, runs one tool with rendered lines as `app.verbose` asks, prints the
/// result, and returns exit code 0, or 1 when the tool reported an error.
pub fn run_tool(app: &App, name: &str, args: Value, json: bool) -> anyhow::Result<ExitCode> {
    let registry = app.registry()?;
    let output = app
        .runtime()?
        .block_on(call_rendered(&registry, name, args, app.verbose));
    print_output(&output, json)?;
    say_created_folders(&output, app.quiet);
    Ok(exit_code(&output))
}

/// `vaultsum: created the folder Reviews/ for Reviews/2026-W47.md`, on stderr, for each
/// folder a tool created for a note it wrote (`details.created_folders`).
pub fn say_created_folders(output: &ToolOutput, quiet: bool) {
    if quiet {
        return;
    }
    let note = output.details["save_to"].as_str().unwrap_or("the note");
    for folder in output.details["created_folders"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        eprintln!("vaultsum: created the folder {folder}/ for {note}");
    }
}

/// Calls a tool through the Registry (advertised or command-line), rendering the call before
/// and the result after on stderr when `verbose` is set (expanded from `-vv`).
pub async fn call_rendered(
    registry: &Registry,
    name: &str,
    args: Value,
    verbose: u8,
) -> ToolOutput {
    if verbose > 0 {
        if let Some(tool) = registry.get_for_cli(name) {
            eprintln!("→ {}", tool.render_call(&args));
        }
    }
    let output = registry.call_for_cli(name, args).await;
    if verbose > 0 {
        if let Some(tool) = registry.get_for_cli(name) {
            eprintln!("← {}", tool.render_result(&output, verbose > 1));
        }
    }
    output
}

/// Prints one result: JSON on one stdout line, else the text to stdout (stderr for errors).
pub fn print_output(output: &ToolOutput, json: bool) -> std::io::Result<()> {
    if json {
        return print_json_line(&serde_json::to_value(output).unwrap_or(Value::Null));
    }
    if output.is_error {
        eprintln!("vaultsum: {}", output.text);
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(output.text.as_bytes())?;
    if !output.text.ends_with('\n') {
        stdout.write_all(b"\n")?;
    }
    stdout.flush()
}

/// Writes a JSON value as one line on stdout (`--json` output of any subcommand).
pub fn print_json_line(value: &Value) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, value)?;
    stdout.write_all(b"\n")?;
    stdout.flush()
}

/// 0 for success, 1 when the tool reported an error.
pub fn exit_code(output: &ToolOutput) -> ExitCode {
    if output.is_error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
