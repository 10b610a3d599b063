//! `vaultsum search QUERY...`: the `web_search` tool (Kagi Search) from the shell.

use std::process::ExitCode;

use serde_json::json;

use super::{output, App};

/// Arguments of `vaultsum search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// One to ten queries, run at once; results are numbered across them.
    #[arg(value_name = "QUERY", required = true, num_args = 1..=10)]
    pub queries: Vec<String>,
    /// Most results per query.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: Option<u32>,
    /// Print `{"text","details","is_error"}` as one JSON line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(app: App, args: SearchArgs) -> anyhow::Result<ExitCode> {
    let mut tool_args = json!({ "queries": args.queries });
    if let Some(limit) = args.limit {
        tool_args["limit"] = json!(limit);
    }
    output::run_tool(&app, "web_search", tool_args, args.json)
}
