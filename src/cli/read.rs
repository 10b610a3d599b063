//! `vaultsum read`: print notes with their embeds expanded (the `read_file` tool).

use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::json;

use super::app::exit_code_for_batch;
use super::batch_in_order::run_batch_in_order;
use super::left_out;
use super::{App, UsageError};
use crate::tools::ToolOutput;

/// Arguments of `vaultsum read`.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Notes (vault-relative, or absolute inside the vault) or folders.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Character offset to start from.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Characters to print (default: config read.default_length, 30000).
    #[arg(long)]
    pub length: Option<usize>,
    /// One JSON object per path per line: {"path","text","details"}.
    #[arg(long)]
    pub json: bool,
}

/// Reads each note through the registry and prints it (`==> PATH <==` headers for several).
pub fn run(app: App, args: ReadArgs) -> anyhow::Result<ExitCode> {
    let registry = Arc::new(app.registry()?);
    // Every task of this command is a read: each note's file work is done where its call
    // runs, and the calls are spread over the runtime's workers (see run_batch_in_order).
    registry.context().read_files_on_caller();
    // One command, one reading of each note: a note embedded by several others is looked at
    // on disk once, not once per embed.
    registry.context().keep_notes_as_first_read();
    registry.context().index_vault_in_background(&args.paths);
    let targets = registry
        .context()
        .expand_targets(&args.paths)
        .map_err(|e| UsageError(e.to_string()))?;
    left_out::report(left_out::of_scan(&targets.left_out), app.verbose, app.quiet);
    let targets = targets.notes;
    let runtime = app.runtime()?;
    let several = targets.len() > 1;
    let calls: Vec<_> = targets
        .iter()
        .map(|path| {
            let mut call = json!({ "path": path, "offset": args.offset });
            if let Some(length) = args.length {
                call["length"] = json!(length);
            }
            call
        })
        .collect();
    // Buffered: stdout's own line buffering would make a write call per line of every note.
    let printer = Arc::new(Mutex::new(Printer {
        out: std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout()),
        failed: false,
        written: Ok(()),
    }));
    let json_lines = args.json;
    let shared = Arc::clone(&printer);
    // Each note is printed as soon as its turn comes, so the notes read are not all held in
    // memory until the last one is in. The first write error (stdout closed) ends the printing.
    runtime.block_on(run_batch_in_order(
        &registry,
        "read_file",
        calls,
        app.config.summarize.concurrency,
        app.verbose,
        move |index, output| {
            let mut printer = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let printer = &mut *printer;
            printer.failed |= output.is_error;
            if printer.written.is_ok() {
                // Flushed note by note, so what is read is seen at once (a write call per
                // note, not per line).
                printer.written = print_one(
                    &mut printer.out,
                    &targets[index],
                    &output,
                    index,
                    several,
                    json_lines,
                )
                .and_then(|()| printer.out.flush());
            }
        },
    ));
    let mut printer = printer.lock().unwrap_or_else(PoisonError::into_inner);
    std::mem::replace(&mut printer.written, Ok(()))?;
    printer.out.flush()?;
    let failed = printer.failed;
    drop(printer);
    // The process ends here: freeing the index and every cached note one by one would cost
    // about 4% of a large read for nothing the operating system does not do at once. Nothing
    // in it is left to finish (every call has returned, no write is pending).
    std::mem::forget(registry);
    Ok(exit_code_for_batch(failed))
}

/// Where `read` prints, and how printing went so far.
struct Printer {
    out: std::io::BufWriter<std::io::Stdout>,
    /// Whether any note failed to be read.
    failed: bool,
    /// The first write error, after which nothing more is printed.
    written: std::io::Result<()>,
}

/// Prints one note's result: a JSON line with `--json`, else the text under a `==> PATH <==`
/// header when several are read; an error goes to stderr after what was printed before it.
fn print_one(
    out: &mut impl Write,
    path: &str,
    output: &ToolOutput,
    index: usize,
    several: bool,
    json_lines: bool,
) -> std::io::Result<()> {
    if json_lines {
        let line = json!({ "path": path, "text": output.text, "details": output.details, "is_error": output.is_error });
        return writeln!(out, "{line}");
    }
    if output.is_error {
        out.flush()?;
        eprintln!("vaultsum: {path}: {}", output.text);
        return Ok(());
    }
    if several {
        if index > 0 {
            writeln!(out)?;
        }
        writeln!(out, "==> {path} <==")?;
    }
    write!(out, "{}", output.text)?;
    if !output.text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}
