//! Stubs for the Kagi tools, `web_search` and `summarize`.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{arg_str, ToolSummary};

const TOP_URLS: usize = 3;

static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d+\. ").expect("valid numbered-line pattern"));

/// `[✓ web_search: "q1", "q2" | 14 results | top: url, url, url]`.
///
/// Counts and URLs come from `details` when given, else from the numbered text (a transcript
/// only has the text).
pub fn web_search(args: &Value, text: &str, details: Option<&Value>) -> ToolSummary {
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
    let from_details = details.and_then(|d| {
        let count = d.get("result_count")?.as_u64()? as usize;
        let urls = d
            .get("results")?
            .as_array()?
            .iter()
            .filter_map(|r| r.get("url")?.as_str().map(str::to_string))
            .take(TOP_URLS)
            .collect::<Vec<_>>();
        Some((count, urls))
    });
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
    ToolSummary::success("web_search", facts)
}

/// Numbered entries, and the URL line under each of the first few.
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

/// `[✓ summarize: https://… | takeaway | 1234 tokens]` (words when the token count is unknown).
pub fn summarize(args: &Value, text: &str, details: Option<&Value>) -> ToolSummary {
    let url = arg_str(args, &["url"]).unwrap_or("?");
    let kind = arg_str(args, &["summary_type"]).unwrap_or("summary");
    let mut facts = vec![url.to_string(), kind.to_string()];
    if let Some(engine) = arg_str(args, &["engine"]).filter(|e| *e != "cecil") {
        facts.push(engine.to_string());
    }
    match details
        .and_then(|d| d.get("tokens"))
        .and_then(Value::as_u64)
    {
        Some(tokens) => facts.push(format!("{tokens} tokens")),
        None => facts.push(format!("{} words", text.split_whitespace().count())),
    }
    ToolSummary::success("summarize", facts)
}
