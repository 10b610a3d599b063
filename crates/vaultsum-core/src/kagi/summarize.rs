//! The Universal Summarizer: request body and answer.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::envelope::Meta;

/// Prose paragraphs or a bulleted list of key points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SummaryType {
    /// Paragraph prose.
    #[default]
    Summary,
    /// A bulleted list of key points.
    Takeaway,
}

impl SummaryType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryType::Summary => "summary",
            SummaryType::Takeaway => "takeaway",
        }
    }
}

/// Kagi's summarization engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SummaryEngine {
    /// Fast, general-purpose.
    #[default]
    Cecil,
    /// Formal, technical, analytical.
    Agnes,
}

impl SummaryEngine {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryEngine::Cecil => "cecil",
            SummaryEngine::Agnes => "agnes",
        }
    }
}

/// The JSON body of `POST /summarize`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryRequest {
    pub url: String,
    pub summary_type: SummaryType,
    pub engine: SummaryEngine,
    /// Output language code (`EN`, `DE`, …); the document's language when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_language: Option<String>,
    /// Whether Kagi may answer from its cache; sent as a JSON boolean, omitted when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<bool>,
}

impl SummaryRequest {
    /// A request with the default type and engine.
    pub fn new(url: impl Into<String>) -> SummaryRequest {
        SummaryRequest {
            url: url.into(),
            summary_type: SummaryType::default(),
            engine: SummaryEngine::default(),
            target_language: None,
            cache: None,
        }
    }
}

/// The summarizer's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The summary text, exactly as Kagi wrote it.
    pub output: String,
    /// Tokens Kagi billed for.
    pub tokens: Option<u64>,
    pub meta: Meta,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_body_uses_wire_names_and_real_booleans() {
        let mut req = SummaryRequest::new("https://example.com");
        req.summary_type = SummaryType::Takeaway;
        req.engine = SummaryEngine::Agnes;
        req.cache = Some(false);
        assert_eq!(
            serde_json::to_value(&req).unwrap(),
            serde_json::json!({"url":"https://example.com","summary_type":"takeaway","engine":"agnes","cache":false})
        );
    }
}
