//! A note summarized by the engine inside Obsidian (the plugin's in-app backend, desktop and
//! mobile), offline: the same steps, in the same order, with the same defaults as the binary's
//! `summarize_file --engine offline` with no config file, so both write the same bytes
//! (`scripts/wasm-parity.sh` compares them on every note of both vaults).
//!
//! The host reads the files (the expansion's plan names the notes it needs) and the engine
//! decides everything else, documents included (the host reads them with the document reader's
//! module and gives their text). What the app does not do yet is refused by name rather than
//! done differently: a prompt note (presets are followed, from a call or a note's
//! `summary_prompt`).

use super::defaults;
use super::identity::instructions_identity;
use super::offline::{self, OfflineRequest};
use super::prompt_spec::{PromptSpec, PromptSpecError};
use super::to_write::{to_write, ModelInput, NothingToWrite, ToWrite};
use crate::vault::attachment_kind::{unread_placeholder, AttachmentKind};
use crate::vault::document_kind::DocumentKind;
use crate::vault::expand::{ExpandOptions, PendingAttachment};
use crate::vault::frontmatter_edit::property_value;
use crate::vault::output_policy::{DefusedText, OutputPolicy};
use crate::vault::summary_fingerprint::{freshness, note_hash, Fingerprint, Freshness};
use crate::vault::summary_section::{compose_verified, SectionRefused};

/// The property a note names its own prompt with (vaultsum-tools' `instructions.rs`).
pub const PROMPT_PROPERTY: &str = "summary_prompt";

/// Why the app's engine gives no summary for a note.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InAppError {
    #[error("{0}")]
    NothingToWrite(#[from] NothingToWrite),
    #[error("{}", offline::NOTHING_TO_SUMMARIZE)]
    NothingToSummarize,
    #[error(transparent)]
    Refused(#[from] SectionRefused),
    #[error(
        "the prompt {label} ({from}) is a prompt note, which the app's engine does not follow \
         yet (only the presets: default, meeting, paper, journal, brief); summarize the note \
         with the vaultsum program (desktop)"
    )]
    PromptNote { label: String, from: &'static str },
    /// A prompt value that names nothing, as the binary says it (`{from}: {source}`).
    #[error("{from}: {source}")]
    Spec {
        from: &'static str,
        source: PromptSpecError,
    },
    /// The model's answer could not be had or read (the client's words, the key masked).
    #[error("{0}")]
    Llm(String),
    /// The binary's refusal of a note whose frontmatter does not parse, word for word.
    #[error("the note's frontmatter is not valid YAML, so its {PROMPT_PROPERTY} property cannot be read; fix the frontmatter or remove the property")]
    PropertyUnreadable,
}

/// How a note is expanded for its summary: the default limits, its summaries left out.
pub fn expand_options() -> ExpandOptions {
    ExpandOptions {
        max_depth: defaults::MAX_DEPTH,
        max_total_bytes: defaults::MAX_EXPANDED_BYTES,
        leave_out_summaries: Some(defaults::SUMMARY_PROPERTY.to_string()),
    }
}

/// The attachment kinds the expansion hands to the host (all but video, as the binary's).
pub fn supported_attachments() -> Vec<AttachmentKind> {
    AttachmentKind::ALL
        .into_iter()
        .filter(|kind| *kind != AttachmentKind::Video)
        .collect()
}

/// The text an embedded file neither read as a document nor by the model stands for: offline,
/// images and audio need a model (the binary's placeholder, word for word).
pub fn attachment_text(pending: &PendingAttachment) -> String {
    unread_placeholder(&pending.path, pending.kind)
}

/// Whether the embedded file is a document (PDF, office file, table, canvas: by its extension,
/// as the binary decides), read on the device by the document reader's module, with or
/// without a model.
pub fn is_document(pending: &PendingAttachment) -> bool {
    DocumentKind::from_file_name(&pending.path).is_some()
}

/// Whether a model reads the embedded file (an image described, a recording transcribed).
pub fn is_read_by_model(pending: &PendingAttachment) -> bool {
    matches!(pending.kind, AttachmentKind::Image | AttachmentKind::Audio) && !is_document(pending)
}

/// Key points the offline engine gives for the `brief` preset (its own choice for the others).
pub const BRIEF_SENTENCES: usize = 3;

/// What the app's engine summarizes a note with: a preset, in the note's language, into the
/// summary section (the binary's choice with no config file and no folder rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppInstructions {
    /// The preset's name (`default`, `brief`, …).
    pub preset: &'static str,
}

impl AppInstructions {
    /// Key points the offline engine gives: three for `brief`, else its own choice.
    pub fn offline_sentences(self) -> Option<usize> {
        (self.preset == "brief").then_some(BRIEF_SENTENCES)
    }

    /// What the fingerprint records of them (`preset:NAME`, the language, no citations).
    pub fn identity(self) -> String {
        instructions_identity(
            Some(self.preset),
            "",
            defaults::LANGUAGE,
            defaults::CITE_SECTIONS,
        )
    }
}

/// The instructions for the note whose text is `note_text`, chosen as the binary
/// chooses them with no config file: the call's `prompt` (a setting or a command; given empty,
/// refused as the binary refuses it), else the note's `summary_prompt`, else the built-in
/// default. A preset only: a prompt note is refused
/// by name. A frontmatter that does not parse is refused, as the binary refuses it (it may hide
/// a prompt), and so is a value that names nothing, in the binary's words.
pub fn choose(note_text: &str, call_prompt: Option<&str>) -> Result<AppInstructions, InAppError> {
    let property = match property_value(note_text, PROMPT_PROPERTY) {
        Ok(value) => value.filter(|value| !value.trim().is_empty()),
        Err(_) => return Err(InAppError::PropertyUnreadable),
    };
    // Where it came from, as the binary says it: `prompt` in a value's error, `call` in a label.
    let (value, from, label_from) = match (call_prompt, &property) {
        (Some(value), _) => (value, "prompt", "call"),
        (None, Some(value)) => (
            value.as_str(),
            "note property summary_prompt",
            "note property summary_prompt",
        ),
        (None, None) => {
            return Ok(AppInstructions {
                preset: defaults::PROMPT_PRESET,
            })
        }
    };
    match PromptSpec::parse_in_vault(value).map_err(|source| InAppError::Spec { from, source })? {
        PromptSpec::Preset(preset) => Ok(AppInstructions { preset }),
        spec => Err(InAppError::PromptNote {
            label: spec.label(),
            from: label_from,
        }),
    }
}

/// The offline summary of the note at `path` whose expansion is `expanded`, as it would be
/// written under `## Summary`: cut to the default `max_chars`, the offline engine's key points
/// (`focus` when given), the fact check in its default mode, then the output policy (its links
/// where `named`, the expansion without a model's reading of pictures, points).
pub fn offline_summary(
    path: &str,
    expanded: &str,
    named: &str,
    focus: Option<&str>,
    instructions: AppInstructions,
) -> Result<ToWrite, InAppError> {
    let input = ModelInput::of(expanded, defaults::MAX_CHARS);
    let request = OfflineRequest {
        path: path.to_string(),
        content: input.content,
        sentences: instructions.offline_sentences(),
        focus: focus
            .filter(|focus| !focus.trim().is_empty())
            .map(str::to_string),
        cite_sections: defaults::CITE_SECTIONS,
        with_abstract: false,
        fact_check: Some(defaults::FACT_CHECK),
    };
    let answer = offline::answer(&request).ok_or(InAppError::NothingToSummarize)?;
    let written = to_write(
        &answer.text,
        answer.abstract_text,
        answer.fact_check.as_ref(),
        false,
        named,
        &OutputPolicy::default(),
    )?;
    Ok(written)
}

/// The state of a note's summaries for `instructions`, as `summary_status` gives it: its last
/// `## Summary` section's and its summary property's.
pub fn status(note_text: &str, instructions: AppInstructions) -> Freshness {
    freshness(
        note_text,
        defaults::SUMMARY_PROPERTY,
        &instructions.identity(),
    )
}

/// The note's new bytes with `summary` written as the binary writes it by default: a
/// `## Summary` section appended (or put in place of the note's summary sections with
/// `replace`), its fingerprint marker under the heading (the hash of `original` and of the
/// `instructions`), composed onto `original` (an exact prefix unless `replace`) and
/// checked by the verifier; refused whole when the note leaves a block open or something in
/// the bytes would act. The host writes them only if the note is still `original`.
pub fn compose_write(
    path: &str,
    original: &[u8],
    summary: &DefusedText,
    replace: bool,
    instructions: AppInstructions,
) -> Result<Vec<u8>, InAppError> {
    let identity = instructions.identity();
    let summarized = String::from_utf8_lossy(original);
    let note = note_hash(&summarized, defaults::SUMMARY_PROPERTY, &identity);
    let marker = Fingerprint::new(note, summary.as_str()).marker_line();
    Ok(compose_verified(
        path,
        original,
        &[],
        summary,
        Some(&marker),
        replace,
    )?)
}
