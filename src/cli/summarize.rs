//! `vaultsum summarize URL`: the `summarize` tool (Kagi Universal Summarizer) from the shell.

use std::process::ExitCode;

use serde_json::json;

use super::{output, App};

/// Arguments of `vaultsum summarize`.
#[derive(Debug, clap::Args)]
pub struct SummarizeArgs {
    /// The URL to summarize (web page, PDF, video, podcast).
    #[arg(value_name = "URL")]
    pub url: String,
    /// Prose paragraphs or a bulleted list of key points.
    #[arg(long = "type", value_name = "TYPE", default_value = "summary",
          value_parser = ["summary", "takeaway"])]
    pub summary_type: String,
    /// cecil: fast, general; agnes: formal, technical.
    #[arg(long, default_value = "cecil", value_parser = ["cecil", "agnes"])]
    pub engine: String,
    /// Language code of the summary (EN, DE, JA, …); the document's language by default.
    #[arg(long = "lang", value_name = "CODE")]
    pub target_language: Option<String>,
    /// Print `{"text","details","is_error"}` as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Write the summary into this vault note, with `source` (the URL) and `summarized` (the
    /// date) properties; refused when it exists, unless it is this URL's earlier note.
    #[arg(long, value_name = "NOTE")]
    pub save_to: Option<String>,
}

pub fn run(app: App, args: SummarizeArgs) -> anyhow::Result<ExitCode> {
    let mut tool_args = json!({
        "url": args.url,
        "summary_type": args.summary_type,
        "engine": args.engine,
    });
    if let Some(save_to) = args.save_to {
        tool_args["save_to"] = json!(save_to);
    }
    if let Some(lang) = args.target_language {
        tool_args["target_language"] = json!(lang);
    }
    output::run_tool(&app, "summarize", tool_args, args.json)
}
