//! Reading a vault file as a tool sees it: notes with embeds expanded, media files described.
//! Shared by `read_file` and `summarize_file` so both see exactly the same text.

use std::sync::Arc;

use serde_json::{json, Value};

use super::context::{ContextError, ToolContext};
use crate::media::document::DocumentKind;
use crate::vault::companion::{companion_path, has_companion, is_companion_of};
use crate::vault::embed::{expand_note, expand_source, AttachmentKind, ExpandOptions};
use crate::vault::write::check_writable;
use crate::vault::{human_bytes, regular_file_size, AttachmentReader, VaultError, VaultPath};

/// A file read for a tool: its vault-relative path, the expanded text and expansion metadata.
#[derive(Debug, Clone)]
pub struct ExpandedNote {
    pub path: String,
    pub text: String,
    /// What the file itself names, without a model's reading of its images and recordings
    /// (`Expansion::named`): what a summary's links may point at.
    pub named: String,
    pub details: Value,
}

/// A note about to be summarized: the expanded text plus the exact bytes it was read from.
#[derive(Debug, Clone)]
pub struct NoteForWriting {
    pub expanded: ExpandedNote,
    pub original: Vec<u8>,
    /// Where the summary goes: the note itself, or a document's companion note.
    pub target: SummaryTarget,
}

/// Where a summary is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SummaryTarget {
    /// Appended to the note that was read.
    Note,
    /// The companion note of `document`, the file that was read (see `vault::companion`), at
    /// `path`; `exists` is false when it is still to be created.
    Companion {
        path: String,
        document: String,
        exists: bool,
    },
}

impl ToolContext {
    /// The vault-relative path a `summarize_file` call on `input` writes to: the note itself,
    /// or, for a document, recording or canvas, its companion note. Calls lock this path.
    pub fn summary_note_path(&self, input: &str) -> Result<String, ContextError> {
        let relative = self.vault()?.resolve_input(input)?.relative().to_string();
        Ok(if has_companion(&relative) {
            companion_path(&relative)
        } else {
            relative
        })
    }
}

impl ToolContext {
    /// Reads a vault file: a note with its embeds expanded, or an image or audio file turned into
    /// its description or transcript.
    pub async fn read_expanded(&self, input: &str) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        self.expand_path(&path, &self.expand_options()).await
    }

    /// Reads a note for a summarizer that does not write into it (a rollup): expanded as
    /// [`ToolContext::read_expanded`], without its summaries and those of the notes it embeds.
    pub async fn read_for_summary(&self, input: &str) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        self.expand_path(&path, &self.summary_expand_options())
            .await
    }

    /// Reads a note that a summary will be appended to. Refuses, before any LLM work, paths that
    /// may not be written (not a note, inside `.obsidian/`, …).
    pub async fn read_note_for_writing(&self, input: &str) -> Result<NoteForWriting, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        if has_companion(path.relative()) {
            return self.read_document_for_companion(&path).await;
        }
        check_writable(vault, &path)?;
        // Expand exactly the bytes that will later be compared with the file, so an edit made
        // while the summarizer works is always detected (`details.stale`).
        let original = {
            let (vault, path) = (Arc::clone(vault), path.clone());
            tokio::task::spawn_blocking(move || vault.read_bytes(&path))
                .await
                .map_err(|e| ContextError::Interrupted(e.to_string()))??
        };
        let source = String::from_utf8_lossy(&original);
        // What the summarizer reads leaves out the summaries already written.
        let expansion = expand_source(
            vault,
            &path,
            &source,
            &self.summary_expand_options(),
            self.attachments(),
        )
        .await;
        let expanded = ExpandedNote {
            path: path.relative().to_string(),
            text: expansion.text,
            named: expansion.named,
            details: expansion.details,
        };
        Ok(NoteForWriting {
            expanded,
            original,
            target: SummaryTarget::Note,
        })
    }

    /// Reads a document (PDF, office file, recording, canvas) whose summary goes to its
    /// companion note, and that note's current bytes when it exists. Refuses, before any LLM
    /// work, a companion that may not be written or that is someone else's note.
    async fn read_document_for_companion(
        &self,
        document: &VaultPath,
    ) -> Result<NoteForWriting, ContextError> {
        let vault = self.vault()?;
        let companion = vault.path(&companion_path(document.relative()))?;
        check_writable(vault, &companion)?;
        let existing = {
            let (vault, companion) = (Arc::clone(vault), companion.clone());
            tokio::task::spawn_blocking(move || match vault.read_bytes(&companion) {
                Ok(bytes) => Ok(Some(bytes)),
                Err(VaultError::NotFound(_)) => Ok(None),
                Err(e) => Err(e),
            })
            .await
            .map_err(|e| ContextError::Interrupted(e.to_string()))??
        };
        if let Some(bytes) = &existing {
            if !is_companion_of(&String::from_utf8_lossy(bytes), document.relative()) {
                return Err(VaultError::NotACompanion {
                    path: companion.relative().to_string(),
                    document: document.relative().to_string(),
                }
                .into());
            }
        }
        let expanded = self
            .expand_path(document, &self.summary_expand_options())
            .await?;
        Ok(NoteForWriting {
            expanded,
            target: SummaryTarget::Companion {
                path: companion.relative().to_string(),
                document: document.relative().to_string(),
                exists: existing.is_some(),
            },
            original: existing.unwrap_or_default(),
        })
    }

    async fn expand_path(
        &self,
        path: &VaultPath,
        opts: &ExpandOptions,
    ) -> Result<ExpandedNote, ContextError> {
        self.expand_path_with(path, opts, self.attachments()).await
    }

    /// Reads a note as [`read_for_summary`](Self::read_for_summary) does, its embedded files
    /// through `attachments` (a count's [`UnpaidReads`](crate::unpaid_reads::UnpaidReads)).
    pub async fn read_for_summary_with(
        &self,
        input: &str,
        attachments: &dyn AttachmentReader,
    ) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        self.expand_path_with(&path, &self.summary_expand_options(), attachments)
            .await
    }

    async fn expand_path_with(
        &self,
        path: &VaultPath,
        opts: &ExpandOptions,
        attachments: &dyn AttachmentReader,
    ) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        match AttachmentKind::of(path.relative()) {
            // A canvas reads like a note: its cards as text, its file cards expanded.
            None | Some(AttachmentKind::Canvas) => {
                let expansion = expand_note(vault, path, opts, attachments).await?;
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    text: expansion.text,
                    named: expansion.named,
                    details: expansion.details,
                })
            }
            Some(kind) if is_read_as_text(path.relative(), kind) => {
                // Images described, audio transcribed, documents extracted (all sized first).
                let size = regular_file_size(path)?;
                let text = attachments
                    .read_attachment(path, kind)
                    .await
                    .unwrap_or_else(|reason| format!("[{}: {reason}]", path.relative()));
                // A description or transcript is a model's reading: the file is named, its
                // reading not (a document's text is the file's own words).
                let named = if matches!(kind, AttachmentKind::Image | AttachmentKind::Audio) {
                    format!("![[{}]]", path.relative())
                } else {
                    text.clone()
                };
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    text,
                    named,
                    details: json!({ "kind": kind, "bytes": size, "read": true }),
                })
            }
            Some(kind) => {
                // Video and unknown files are never read as Markdown (nor read at all): a
                // placeholder names the file, its kind and size.
                let size = regular_file_size(path)?;
                let text = not_read_placeholder(path.relative(), kind, size);
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    named: text.clone(),
                    text,
                    details: json!({ "kind": kind, "bytes": size, "read": false }),
                })
            }
        }
    }
}

/// Whether a non-note file is turned into text: images, audio, and the document formats.
fn is_read_as_text(relative: &str, kind: AttachmentKind) -> bool {
    matches!(kind, AttachmentKind::Image | AttachmentKind::Audio)
        || DocumentKind::from_file_name(relative).is_some()
}

/// The text `read_file` gives for a file it does not read (video, unknown kinds).
fn not_read_placeholder(relative: &str, kind: AttachmentKind, size: u64) -> String {
    let what = match kind {
        AttachmentKind::Other => "file of unknown kind".to_string(),
        kind => format!("{} file", kind.label()),
    };
    format!(
        "[{relative}: {what}, {}; not read: only notes, canvases, images, audio, PDF, DOCX, \
         PPTX, XLSX, ODS, CSV and TSV are read as text]",
        human_bytes(size)
    )
}
