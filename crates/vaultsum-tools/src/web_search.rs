//! `web_search`: one to ten Kagi searches run at once, merged into one numbered list.

use std::sync::{Arc, LazyLock};

use async_trait::async_trait;
use futures::future::join_all;
use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::stub::{arg_str, ToolSummary};
use super::tool::{schema_for, ToolAnnotations, ToolOutput, TypedTool};
use super::truncate::truncate_for_model;
use crate::kagi::{KagiClient, KagiError, SearchResponse};

/// Most queries one call may run.
pub const MAX_QUERIES: usize = 10;

const DESCRIPTION: &str = "\
Search the web for current information with one or more queries. Returns ranked results with \
title, URL and snippet, numbered across all queries.

Use it to:
- look up documentation, APIs, libraries or error messages you are unsure about;
- answer questions about recent events, releases or data newer than your training;
- check assumptions or current best practice.

Writing good queries:
- short and keyword-focused; add the year for anything time-sensitive;
- several queries (up to 10, run in parallel) to cover different angles of a broad question;
- specific technical terms rather than natural-language questions when looking for code or docs.

Parameters:
- queries (required): 1 to 10 search queries.
- limit: most results per query.

When you use the results in an answer, end with a \"Sources\" section listing the URLs you \
relied on as markdown links, e.g. - [Page Title](https://example.com).";

/// Arguments of `web_search`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WebSearchArgs {
    /// One to ten search queries, run concurrently.
    #[schemars(length(min = 1, max = 10))]
    pub queries: Vec<String>,
    /// Most results per query.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub limit: Option<u32>,
}

/// The `web_search` tool.
pub struct WebSearchTool {
    client: KagiClient,
}

impl WebSearchTool {
    /// The tool over the configured Kagi endpoint, reading `KAGI_API_KEY` at call time.
    pub fn new(context: &Arc<ToolContext>) -> WebSearchTool {
        WebSearchTool::with_client(KagiClient::from_config(&context.config.kagi))
    }

    /// The tool over a given client (another key source or timeouts).
    pub fn with_client(client: KagiClient) -> WebSearchTool {
        WebSearchTool { client }
    }
}

fn invalid(message: String) -> ToolOutput {
    ToolOutput::error(message, json!({ "error": "invalid_arguments" }))
}

/// The record `web_search` answers with (MCP `structuredContent`), beside the numbered text:
/// the same results, numbered the same, and the same notes for a query that failed or found
/// nothing. When the text is cut (see `truncate.rs`), the record holds the results the text
/// shows and says where the whole list went.
#[derive(JsonSchema)]
#[allow(dead_code)] // describes the JSON the tool builds; never built as a value
struct WebSearchRecord {
    /// True when at least one query answered; false when every query failed.
    success: bool,
    /// The results, numbered on across the queries as in the text.
    results: Option<Vec<WebSearchResultRecord>>,
    /// Queries that answered with no result.
    no_results: Option<Vec<String>>,
    /// Queries that failed, each with its error.
    failed: Option<Vec<WebSearchFailureRecord>>,
    /// Set when the list was cut to fit: the file holding the whole text, and how many results
    /// there were in all.
    truncated: Option<WebSearchTruncationRecord>,
    /// Why every query failed, and what to do about it.
    error: Option<String>,
}

/// One search result.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct WebSearchResultRecord {
    /// The result's number in the list (1, 2, …, across queries).
    n: u64,
    /// The query that found it.
    query: String,
    /// The page's title.
    title: String,
    /// The page's address.
    url: String,
    /// An excerpt of the page, when the search gave one.
    snippet: Option<String>,
}

/// A query that failed.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct WebSearchFailureRecord {
    /// The query.
    query: String,
    /// What went wrong.
    error: String,
}

/// Where the whole list went when the text was cut.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct WebSearchTruncationRecord {
    /// How many results there were before the cut.
    total_results: u64,
    /// The temporary file holding the whole text, when it could be written.
    full_output_path: Option<String>,
}

/// The record of the merged list (see [`WebSearchRecord`]), the first `shown` results only.
fn record_of(outcomes: &[(&str, &Result<SearchResponse, KagiError>)], shown: usize) -> Value {
    let mut results = Vec::new();
    let mut no_results = Vec::new();
    let mut failed = Vec::new();
    for (query, outcome) in outcomes {
        match outcome {
            Ok(response) if response.results.is_empty() => no_results.push(json!(query)),
            Ok(response) => {
                for result in &response.results {
                    let n = results.len() + 1;
                    let mut entry = json!({
                        "n": n, "query": query, "title": result.title, "url": result.url,
                    });
                    if let Some(snippet) = &result.snippet {
                        entry["snippet"] = json!(snippet);
                    }
                    results.push(entry);
                }
            }
            Err(error) => failed.push(json!({ "query": query, "error": error.to_string() })),
        }
    }
    results.truncate(shown);
    json!({
        "success": true,
        "results": results,
        "no_results": no_results,
        "failed": failed,
    })
}

/// The merged list: each query's results in Kagi's order, numbered on across queries; a failed
/// or empty query leaves a bracketed note in its place.
fn format_results(outcomes: &[(&str, &Result<SearchResponse, KagiError>)]) -> (String, usize) {
    let mut blocks: Vec<String> = Vec::new();
    let mut n = 0;
    for (query, outcome) in outcomes {
        match outcome {
            Ok(response) if response.results.is_empty() => {
                blocks.push(format!("[No results for {query:?}]"));
            }
            Ok(response) => {
                for result in &response.results {
                    n += 1;
                    let mut block = format!("{n}. {}\n   {}", result.title, result.url);
                    if let Some(snippet) = &result.snippet {
                        block.push_str("\n   ");
                        block.push_str(snippet);
                    }
                    blocks.push(block);
                }
            }
            Err(error) => blocks.push(format!("[Search failed for {query:?}: {error}]")),
        }
    }
    (blocks.join("\n\n"), n)
}

#[async_trait]
impl TypedTool for WebSearchTool {
    type Args = WebSearchArgs;
    const NAME: &'static str = "web_search";
    const TITLE: &'static str = "Search the web";
    const DESCRIPTION: &'static str = DESCRIPTION;
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY_OPEN_WORLD;

    fn output_schema(&self) -> Option<Value> {
        Some(schema_for::<WebSearchRecord>())
    }

    async fn run(&self, args: WebSearchArgs) -> ToolOutput {
        let queries: Vec<String> = args.queries.iter().map(|q| q.trim().to_string()).collect();
        if queries.is_empty() || queries.len() > MAX_QUERIES {
            return invalid(format!(
                "web_search takes 1 to {MAX_QUERIES} queries, got {}",
                queries.len()
            ));
        }
        if queries.iter().any(String::is_empty) {
            return invalid("web_search queries must not be empty".to_string());
        }
        if args.limit == Some(0) {
            return invalid("web_search limit must be at least 1".to_string());
        }

        let outcomes = join_all(queries.iter().map(|q| self.client.search(q, args.limit))).await;
        let paired: Vec<(&str, &Result<SearchResponse, KagiError>)> = queries
            .iter()
            .map(String::as_str)
            .zip(outcomes.iter())
            .collect();

        let failed: Vec<Value> = paired
            .iter()
            .filter_map(|(query, outcome)| {
                let error = outcome.as_ref().err()?;
                Some(json!({ "query": query, "error": error.to_string(), "kind": error.kind() }))
            })
            .collect();
        let results: Vec<Value> = paired
            .iter()
            .filter_map(|(query, outcome)| Some((query, outcome.as_ref().ok()?)))
            .flat_map(|(query, response)| {
                response.results.iter().map(move |r| {
                    json!({ "query": query, "title": r.title, "url": r.url, "published": r.published })
                })
            })
            .collect();
        let mut related: Vec<&str> = Vec::new();
        for response in outcomes.iter().filter_map(|o| o.as_ref().ok()) {
            for r in &response.related {
                if !related.contains(&r.as_str()) {
                    related.push(r);
                }
            }
        }
        let mut details = json!({
            "queries": queries,
            "limit": args.limit,
            "result_count": results.len(),
            "results": results,
            "failed": failed,
            "related": related,
        });

        if failed.len() == queries.len() {
            // Nothing to show: one clear message (the same for every query, typically a
            // missing key or a bad credit balance) rather than ten copies of it.
            let mut messages: Vec<String> = Vec::new();
            for error in outcomes.iter().filter_map(|o| o.as_ref().err()) {
                let text = error.to_string();
                if !messages.contains(&text) {
                    messages.push(text);
                }
            }
            let text = if messages.len() == 1 {
                messages.remove(0)
            } else {
                format_results(&paired).0
            };
            details["error"] = json!(outcomes
                .iter()
                .find_map(|o| o.as_ref().err())
                .map(KagiError::kind));
            return ToolOutput::error(text, details);
        }

        let (text, total) = format_results(&paired);
        let shown = truncate_for_model(text);
        // The record holds what the text shows: a cut list, cut at the same result.
        let shown_results = match shown.info {
            Some(_) => results_in_text(&shown.text).0.min(total),
            None => total,
        };
        let mut record = record_of(&paired, shown_results);
        if let Some(info) = shown.info {
            record["truncated"] = json!({ "total_results": total });
            if let Some(path) = &info.full_output_path {
                record["truncated"]["full_output_path"] = json!(path.display().to_string());
            }
            details["truncation"] = json!(info);
        }
        ToolOutput::ok(shown.text, details).with_record(record)
    }

    /// `web_search "q1", "q2"`, with ` (limit N)` when a limit is given.
    fn render_call(&self, args: &WebSearchArgs) -> String {
        let queries: Vec<String> = args.queries.iter().map(|q| format!("{q:?}")).collect();
        let mut line = format!("web_search {}", queries.join(", "));
        if let Some(limit) = args.limit {
            line.push_str(&format!(" (limit {limit})"));
        }
        line
    }

    /// Collapsed: `12 results for 2 queries, 1 failed`; expanded: the numbered list.
    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        if output.is_error {
            let first = output.text.lines().next().unwrap_or("");
            return if expanded {
                format!("error: {}", output.text)
            } else {
                format!("error: {first}")
            };
        }
        if expanded {
            return output.text.clone();
        }
        let count = output.details["result_count"].as_u64().unwrap_or(0);
        let queries = output.details["queries"].as_array().map_or(0, Vec::len);
        let mut line = match count {
            1 => "1 result".to_string(),
            n => format!("{n} results"),
        };
        if queries > 1 {
            line.push_str(&format!(" for {queries} queries"));
        }
        let failed = output.details["failed"].as_array().map_or(0, Vec::len);
        if failed > 0 {
            line.push_str(&format!(", {failed} failed"));
        }
        if output.details.get("truncation").is_some() {
            line.push_str(" (truncated)");
        }
        line
    }

    /// `[✓ web_search: "q1", "q2" | 14 results | top: url, url, url]`. Counts and URLs come
    /// from `details` when the result has them, else from the numbered text (a transcript only
    /// has the text); other agents' single `query` argument is understood too.
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let text = &output.text;
        let queries: Vec<String> = match args.get("queries") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(|q| format!("{q:?}"))
                .collect(),
            Some(Value::String(q)) => vec![format!("{q:?}")],
            _ => arg_str(args, &["query", "q"])
                .map(|q| vec![format!("{q:?}")])
                .unwrap_or_default(),
        };
        let from_details = (|| {
            let d = &output.details;
            let count = d.get("result_count")?.as_u64()? as usize;
            let urls = d
                .get("results")?
                .as_array()?
                .iter()
                .filter_map(|r| r.get("url")?.as_str().map(str::to_string))
                .take(TOP_URLS)
                .collect::<Vec<_>>();
            Some((count, urls))
        })();
        let (count, urls) = from_details.unwrap_or_else(|| results_in_text(text));
        let mut facts = vec![if queries.is_empty() {
            "no query".to_string()
        } else {
            queries.join(", ")
        }];
        facts.push(match count {
            1 => "1 result".to_string(),
            n => format!("{n} results"),
        });
        let failed = text
            .lines()
            .filter(|l| l.starts_with("[Search failed for "))
            .count();
        if failed > 0 {
            facts.push(format!("{failed} failed"));
        }
        if !urls.is_empty() {
            facts.push(format!("top: {}", urls.join(", ")));
        }
        ToolSummary::success(Self::NAME, facts)
    }
}

/// How many result URLs a stub names.
const TOP_URLS: usize = 3;

static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d+\. ").expect("valid numbered-line pattern"));

/// Numbered entries in a result's text, and the URL line under each of the first few.
fn results_in_text(text: &str) -> (usize, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut count = 0;
    let mut urls = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if NUMBERED.is_match(line) {
            count += 1;
            if urls.len() < TOP_URLS {
                if let Some(url) = lines.get(i + 1).map(|l| l.trim()) {
                    if url.starts_with("http") {
                        urls.push(url.to_string());
                    }
                }
            }
        }
    }
    (count, urls)
}
