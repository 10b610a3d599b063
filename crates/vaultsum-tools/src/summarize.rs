//! `summarize`: Kagi's Universal Summarizer on a URL (web page, PDF, video, podcast).

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::stub::{arg_str, ToolSummary};
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};
use super::truncate::truncate_for_model;
use crate::kagi::{KagiClient, SummaryEngine, SummaryRequest, SummaryType};

const DESCRIPTION: &str = "\
Summarize what a URL points to: web pages, PDFs, videos, podcasts and other documents. \
Returns a short summary instead of the whole document, so long sources cost little context.

Use it to:
- digest long documentation pages, release notes or changelogs;
- get the key points of a video or podcast;
- summarize a PDF or a technical paper;
- understand a long discussion thread or blog post.

Parameters:
- url (required): the URL to summarize (http or https).
- summary_type: \"summary\" for prose paragraphs (default) or \"takeaway\" for a bulleted list of key points.
- engine: \"cecil\" (default), fast and general-purpose; \"agnes\", formal, technical and analytical: \
prefer it for technical documentation, papers and specifications.
- target_language: language code of the summary (e.g. \"EN\", \"DE\", \"JA\"); defaults to the document's language.";

/// Arguments of `summarize`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SummarizeArgs {
    /// The URL to summarize (http or https).
    pub url: String,
    /// `summary` (prose, default) or `takeaway` (bulleted key points).
    #[serde(default)]
    pub summary_type: SummaryType,
    /// `cecil` (default, general) or `agnes` (formal, technical).
    #[serde(default)]
    pub engine: SummaryEngine,
    /// Output language code such as EN, DE, JA; defaults to the document's language.
    #[serde(default)]
    pub target_language: Option<String>,
}

/// The `summarize` tool.
pub struct SummarizeTool {
    client: KagiClient,
}

impl SummarizeTool {
    /// The tool over the configured Kagi endpoint, reading `KAGI_API_KEY` at call time.
    pub fn new(context: &Arc<ToolContext>) -> SummarizeTool {
        SummarizeTool::with_client(KagiClient::from_config(&context.config.kagi))
    }

    /// The tool over a given client (another key source or timeouts).
    pub fn with_client(client: KagiClient) -> SummarizeTool {
        SummarizeTool { client }
    }
}

#[async_trait]
impl TypedTool for SummarizeTool {
    type Args = SummarizeArgs;
    const NAME: &'static str = "summarize";
    const TITLE: &'static str = "Summarize a web page";
    const DESCRIPTION: &'static str = DESCRIPTION;
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY_OPEN_WORLD;

    async fn run(&self, args: SummarizeArgs) -> ToolOutput {
        let url = args.url.trim();
        if !matches!(reqwest::Url::parse(url), Ok(u) if matches!(u.scheme(), "http" | "https")) {
            return ToolOutput::error(
                format!("invalid url {url:?}: give a full http:// or https:// address"),
                json!({ "error": "invalid_arguments", "url": url }),
            );
        }
        let request = SummaryRequest {
            url: url.to_string(),
            summary_type: args.summary_type,
            engine: args.engine,
            target_language: args
                .target_language
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty()),
            cache: None,
        };
        let mut details = json!({
            "url": request.url,
            "summary_type": request.summary_type.as_str(),
            "engine": request.engine.as_str(),
            "target_language": request.target_language,
        });
        match self.client.summarize(&request).await {
            Ok(summary) => {
                let shown = truncate_for_model(summary.output);
                details["tokens"] = json!(summary.tokens);
                details["api_balance"] = json!(summary.meta.api_balance);
                if let Some(info) = shown.info {
                    details["truncation"] = json!(info);
                }
                ToolOutput::ok(shown.text, details)
            }
            Err(error) => {
                details["error"] = json!(error.kind());
                ToolOutput::error(error.to_string(), details)
            }
        }
    }

    /// `summarize "https://…"`, plus the non-default type, engine and language in parentheses.
    fn render_call(&self, args: &SummarizeArgs) -> String {
        let url = &args.url;
        let mut options: Vec<&str> = Vec::new();
        if args.summary_type != SummaryType::default() {
            options.push(args.summary_type.as_str());
        }
        if args.engine != SummaryEngine::default() {
            options.push(args.engine.as_str());
        }
        if let Some(lang) = args.target_language.as_deref() {
            if !lang.trim().is_empty() {
                options.push(lang);
            }
        }
        if options.is_empty() {
            format!("summarize {url:?}")
        } else {
            format!("summarize {url:?} ({})", options.join(", "))
        }
    }

    /// Collapsed: `takeaway, 1234 tokens`; expanded: the summary itself.
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
        let kind = output
            .details
            .get("summary_type")
            .and_then(Value::as_str)
            .unwrap_or("summary");
        let mut line = match output.details.get("tokens").and_then(Value::as_u64) {
            Some(tokens) => format!("{kind}, {tokens} tokens"),
            None => kind.to_string(),
        };
        if output.details.get("truncation").is_some() {
            line.push_str(" (truncated)");
        }
        line
    }

    /// `[✓ summarize: https://… | takeaway | 1234 tokens]`; words when the token count is
    /// unknown (a transcript has no details).
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let url = arg_str(args, &["url"]).unwrap_or("?");
        let kind = arg_str(args, &["summary_type"]).unwrap_or("summary");
        let mut facts = vec![url.to_string(), kind.to_string()];
        if let Some(engine) = arg_str(args, &["engine"]).filter(|e| *e != "cecil") {
            facts.push(engine.to_string());
        }
        match output.details.get("tokens").and_then(Value::as_u64) {
            Some(tokens) => facts.push(format!("{tokens} tokens")),
            None => facts.push(format!("{} words", output.text.split_whitespace().count())),
        }
        ToolSummary::success(Self::NAME, facts)
    }
}
