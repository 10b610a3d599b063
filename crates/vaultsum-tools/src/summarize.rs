//! `summarize`: Kagi's Universal Summarizer on a URL (web page, PDF, video, podcast).

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::defused_line::defused_suffix;
use super::fact_check::{self, KAGI_UNCHECKED};
use super::generated_notes::GeneratedKind;
use super::rollup_selection::today;
use super::stub::{arg_str, ToolSummary};
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};
use super::truncate::truncate_for_model;
use crate::config::{FactCheckMode, SummaryInto};
use crate::kagi::{KagiClient, SummaryEngine, SummaryRequest, SummaryType};
use crate::vault::SourceLinks;

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
- target_language: language code of the summary (e.g. \"EN\", \"DE\", \"JA\"); defaults to the document's language.
- save_to (optional): a vault path (e.g. \"Clippings/Article.md\") to write the summary into as a \
new note with `source` (the URL) and `summarized` (the date) properties. Refused when that note \
exists, unless it is this URL's earlier note (its summary is then replaced).";

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
    /// A vault path to write the summary into, as a note with `source` and `summarized`
    /// properties (refused when the note exists, unless it is this URL's earlier note).
    #[serde(default)]
    pub save_to: Option<String>,
}

/// The `summarize` tool.
pub struct SummarizeTool {
    client: KagiClient,
    /// The vault side of `save_to`; `None` for a tool built without one (`save_to` refused).
    context: Option<Arc<ToolContext>>,
}

impl SummarizeTool {
    /// The tool over the configured Kagi endpoint, reading `KAGI_API_KEY` at call time.
    pub fn new(context: &Arc<ToolContext>) -> SummarizeTool {
        SummarizeTool {
            client: KagiClient::from_config(&context.config.kagi),
            context: Some(Arc::clone(context)),
        }
    }

    /// The tool over a given client (another key source or timeouts).
    pub fn with_client(client: KagiClient) -> SummarizeTool {
        SummarizeTool {
            client,
            context: None,
        }
    }

    /// The vault path of `save_to`, checked before the paid call: writes allowed, a note in an
    /// existing folder, absent or this URL's earlier note.
    async fn check_save_to(&self, save_to: &str, url: &str) -> Result<String, String> {
        let context = self
            .context
            .as_ref()
            .ok_or("save_to needs a vault; this summarize tool has none")?;
        if !context.writes_allowed() {
            return Err(
                "this server is read-only (mcp --read-only): save_to is not available; \
                        call again without it to get the summary"
                    .to_string(),
            );
        }
        let (context, save_to, url) = (Arc::clone(context), save_to.to_string(), url.to_string());
        tokio::task::spawn_blocking(move || {
            let target =
                context.check_generated_target(&save_to, GeneratedKind::WebPage { url: &url })?;
            context.check_generated_rewrite(&target, SummaryInto::Section)?;
            Ok::<_, crate::context::ContextError>(target)
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
    }

    /// Writes the page's summary into `target`, holding the note's turn, made inert by the
    /// output policy first (its links may point only to the page itself, or to the hosts of
    /// `summarize.allow_links`); returns the folders created for it and what the policy changed.
    async fn save(
        &self,
        target: &str,
        url: &str,
        summary: &str,
    ) -> Result<(Vec<String>, Value), String> {
        let context = self.context.as_ref().ok_or("no vault")?;
        let (_turn, _) = context.lock_note(target).await.map_err(|e| e.to_string())?;
        let (context, target, url, summary) = (
            Arc::clone(context),
            target.to_string(),
            url.to_string(),
            summary.to_string(),
        );
        let date = today().to_string();
        tokio::task::spawn_blocking(move || {
            // Said in the note itself, so nobody reads it as checked (`fact_check.rs`).
            let summary = match context.config.summarize.fact_check {
                FactCheckMode::Off => summary,
                _ => fact_check::unchecked(&summary, fact_check::KAGI_UNCHECKED),
            };
            let summary = context
                .output_policy()
                .summary(&summary, &SourceLinks::from_url(&url));
            context
                .save_web_summary(&target, &url, &date, &summary)
                .map(|created| (created, summary.defused().to_json()))
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
    }
}

#[async_trait]
impl TypedTool for SummarizeTool {
    type Args = SummarizeArgs;
    const NAME: &'static str = "summarize";
    const TITLE: &'static str = "Summarize a web page";
    const DESCRIPTION: &'static str = DESCRIPTION;
    // Writes only with `save_to`, a new note or this URL's own; read-only on a server that
    // forbids writes (`mcp --read-only`), where `save_to` is refused.
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::WRITES_OPEN_WORLD;

    fn current_annotations(&self) -> ToolAnnotations {
        match &self.context {
            Some(context) if context.writes_allowed() => Self::ANNOTATIONS,
            _ => ToolAnnotations::READ_ONLY_OPEN_WORLD,
        }
    }

    async fn run(&self, args: SummarizeArgs) -> ToolOutput {
        let url = args.url.trim();
        if !matches!(reqwest::Url::parse(url), Ok(u) if matches!(u.scheme(), "http" | "https")) {
            return ToolOutput::error(
                format!("invalid url {url:?}: give a full http:// or https:// address"),
                json!({ "error": "invalid_arguments", "url": url }),
            );
        }
        let target = match args.save_to.as_deref() {
            Some(save_to) => match self.check_save_to(save_to, url).await {
                Ok(target) => Some(target),
                Err(error) => {
                    return ToolOutput::error(
                        error,
                        json!({ "error": "save_to", "url": url, "save_to": save_to }),
                    )
                }
            },
            None => None,
        };
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
                let whole = target.as_ref().map(|_| summary.output.clone());
                let shown = truncate_for_model(summary.output);
                details["tokens"] = json!(summary.tokens);
                details["api_balance"] = json!(summary.meta.api_balance);
                if let Some(info) = shown.info {
                    details["truncation"] = json!(info);
                }
                if let (Some(target), Some(whole)) = (target, whole) {
                    // The whole summary goes into the note; only the answer is truncated.
                    match self.save(&target, &request.url, &whole).await {
                        Ok((created, defused)) => {
                            details["created_folders"] = json!(created);
                            details["defused"] = defused;
                        }
                        Err(error) => {
                            details["error"] = json!("save_to");
                            return ToolOutput::error(
                                format!("the summary could not be written to {target}: {error}"),
                                details,
                            );
                        }
                    }
                    details["save_to"] = json!(target);
                    if let Some(context) = &self.context {
                        let mode = context.config.summarize.fact_check;
                        details["fact_check"] = json!({
                            "mode": mode.name(),
                            "checked": false,
                            "why": KAGI_UNCHECKED,
                        });
                    }
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
        line.push_str(&defused_suffix(&output.details));
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
