//! `vaultsum read`: print notes with their embeds expanded (the `read_file` tool).

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use super::app::exit_code_for_batch;
use super::batch::{run_batch, BatchOptions};
use super::{App, UsageError};

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
    let registry = app.registry()?;
    let targets = registry
        .context()
        .expand_targets(&args.paths)
        .map_err(|e| UsageError(e.to_string()))?;
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
    let options = BatchOptions {
        concurrency: app.config.summarize.concurrency,
        verbose: app.verbose,
        progress: false,
    };
    let results = runtime.block_on(run_batch(&registry, "read_file", calls, options));
    // Buffered: stdout's own line buffering would make a write call per line of every note.
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut failed = false;
    for (index, (path, output)) in targets.iter().zip(&results).enumerate() {
        failed |= output.is_error;
        if args.json {
            let line = json!({ "path": path, "text": output.text, "details": output.details, "is_error": output.is_error });
            writeln!(out, "{line}")?;
            continue;
        }
        if output.is_error {
            // What was printed before the error shows before it.
            out.flush()?;
            eprintln!("vaultsum: {path}: {}", output.text);
            continue;
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
    }
    out.flush()?;
    Ok(exit_code_for_batch(failed))
}
