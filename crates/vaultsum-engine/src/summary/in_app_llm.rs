//! A note summarized by a model from inside Obsidian (the plugin's in-app backend with an API
//! key): the requests the binary's `summarize_file` sends with no config file, built here, and
//! the answers read here; the host only sends them (Obsidian's `requestUrl`) and hands back
//! each response whole. So the app asks the model what the binary asks, byte for byte, and
//! writes what the binary writes (`scripts/wasm-parity.sh` compares both through a fake
//! OpenAI server).
//!
//! The exchange: [`LlmExchange::start`] gives the summary request; each response goes to
//! [`LlmExchange::answered`], which gives the next request (the fact check's one corrective
//! request, with `summarize.fact_check = retry`) or what is to be written.
//!
//! What the binary does that the app does not (said in the docs): it asks a server about its
//! context window for a large note and summarizes a note too large for it in parts, retries
//! rate limits and server errors with backoff, and shares identical requests between
//! processes. In the app a note is sent in one request; a refusal is shown as the server gave
//! it.

use serde_json::Value;

use super::defaults;
use super::fact_marks::FactCheckRun;
use super::fact_retry::{corrected, correction_request};
use super::in_app::{AppInstructions, InAppError};
use super::llm_request::{instructions_for, summary_request, user_message};
use super::system_prompt::{preset_text, SystemPrompts};
use super::to_write::{to_write, ModelInput, ToWrite};
use crate::facts::FactCheck;
use crate::llm::chat_reply::parse_chat_reply;
use crate::llm::chat_request::CapField;
use crate::llm::finish_reply::finish_reply;
use crate::llm::whole_answer::completion_of;
use crate::llm::{ChatRequest, LlmError};
use crate::vault::output_policy::OutputPolicy;

/// Which model, how much it may answer, how long it may take: the binary's `llm.*` settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmSettings {
    /// `llm.summarize_model`.
    pub model: String,
    /// `llm.max_output_tokens`.
    pub max_output_tokens: u32,
    /// `llm.timeout_secs` (for the words of a timeout).
    pub timeout_secs: u64,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            model: defaults::SUMMARIZE_MODEL.to_string(),
            max_output_tokens: defaults::MAX_OUTPUT_TOKENS,
            timeout_secs: defaults::TIMEOUT_SECS,
        }
    }
}

/// What the host does next.
#[derive(Debug)]
pub enum LlmStep {
    /// Send this body (`POST {base_url}/chat/completions`, JSON) and hand back the response.
    Send(Value),
    /// The model's last answer, and its fact check: for the caller to finish (a note's
    /// summary with [`note_to_write`], a rollup's with its sources).
    Answered { text: String, run: FactCheckRun },
}

/// Where an exchange is.
#[derive(Debug)]
enum Stage {
    /// The summary request is out.
    Summary,
    /// The corrective request is out; the first answer and its check wait for it.
    Retry {
        text: String,
        // Boxed: the check and its index are the bulk, and the stage waits between requests.
        run: Box<FactCheckRun>,
        first: FactCheck,
    },
    /// Finished (or failed): nothing more to send.
    Over,
}

/// One summary by a model (a note's, a rollup's), between its requests.
#[derive(Debug)]
pub struct LlmExchange {
    /// What the model is told the text is (a note's path, `rollup`).
    path: String,
    /// What the model is given.
    content: String,
    settings: LlmSettings,
    stage: Stage,
}

impl LlmExchange {
    /// The exchange for the note at `path` whose expansion is `expanded`, and the body of its
    /// summary request: the preset's prompt in the frame, the focus when given, the note cut
    /// to the default `max_chars`.
    pub fn for_note(
        path: &str,
        expanded: &str,
        focus: Option<&str>,
        instructions: AppInstructions,
        settings: LlmSettings,
    ) -> (LlmExchange, Value) {
        let input = ModelInput::of(expanded, defaults::MAX_CHARS);
        let focus = focus.filter(|focus| !focus.trim().is_empty());
        let truncated_from = input.truncated.then_some(input.total_chars);
        LlmExchange::start(
            path,
            input.content,
            focus,
            truncated_from,
            instructions,
            settings,
        )
    }

    /// The exchange for `content` (what the model is told is `path`), and the body of its
    /// summary request: the preset's prompt in the frame (no abstract: the app writes the
    /// section only, the binary's default `summarize.into`), `focus` as given.
    pub fn start(
        path: &str,
        content: String,
        focus: Option<&str>,
        truncated_from: Option<usize>,
        instructions: AppInstructions,
        settings: LlmSettings,
    ) -> (LlmExchange, Value) {
        let system = SystemPrompts::new(
            Some(instructions.preset),
            preset_text(instructions.preset),
            defaults::LANGUAGE,
            defaults::CITE_SECTIONS,
        )
        .summary;
        let message = user_message(path, &content, focus, truncated_from);
        let request = summary_request(&settings.model, &instructions_for(&system, false), message);
        let exchange = LlmExchange {
            path: path.to_string(),
            content,
            stage: Stage::Summary,
            settings,
        };
        let body = exchange.wire(request);
        (exchange, body)
    }

    /// `request` as sent: with the output cap, streamed (as the native client sends it).
    fn wire(&self, mut request: ChatRequest) -> Value {
        request.max_tokens = Some(
            request
                .max_tokens
                .unwrap_or(self.settings.max_output_tokens),
        );
        request.to_wire(CapField::MaxTokens)
    }

    /// Reads the response to the request out (`url` as it may be shown, `status`,
    /// `content_type`, the whole `body` with the host's key masked) and says what is next.
    pub fn answered(
        &mut self,
        url: &str,
        status: u16,
        content_type: &str,
        body: &[u8],
    ) -> Result<LlmStep, InAppError> {
        let reply = completion_of(url, status, content_type, body)
            .and_then(|completion| parse_chat_reply(&completion))
            .and_then(|reply| {
                finish_reply(
                    reply,
                    self.settings.max_output_tokens,
                    self.settings.timeout_secs,
                )
            })
            .map(|(reply, _)| reply);
        match std::mem::replace(&mut self.stage, Stage::Over) {
            Stage::Summary => {
                let mut text = reply.map_err(llm_error)?.content;
                let (mut run, first) =
                    FactCheckRun::first(defaults::FACT_CHECK, &self.path, &self.content, &mut text);
                if defaults::FACT_CHECK != "retry" || first.is_supported() {
                    return Ok(LlmStep::Answered { text, run });
                }
                run.retried = true;
                let request = correction_request(&self.settings.model, &text, &first, false);
                let body = self.wire(request);
                self.stage = Stage::Retry {
                    text,
                    run: Box::new(run),
                    first,
                };
                Ok(LlmStep::Send(body))
            }
            Stage::Retry {
                mut text,
                mut run,
                first,
            } => {
                match reply {
                    Ok(reply) => {
                        if let Some(kept) = corrected(&run.source, &text, &first, &reply) {
                            text = kept;
                            run.retry_kept = true;
                        }
                    }
                    // The first answer stays, marked: a failed retry costs no summary.
                    Err(error) => run.retry_error = Some(error.to_string()),
                }
                Ok(LlmStep::Answered { text, run: *run })
            }
            Stage::Over => Err(InAppError::Llm(
                "this summary's exchange is over; start another".to_string(),
            )),
        }
    }
}

/// A note's summary by a model as it is written: the answer cleaned, its facts marked, made
/// inert; its links may point where `named` (the note as expanded, without a model's reading
/// of its pictures and recordings: `Expansion::named`) points.
pub fn note_to_write(named: &str, text: &str, run: &FactCheckRun) -> Result<ToWrite, InAppError> {
    Ok(to_write(
        text,
        None,
        Some(run),
        false,
        named,
        &OutputPolicy::default(),
    )?)
}

fn llm_error(error: LlmError) -> InAppError {
    InAppError::Llm(error.to_string())
}
