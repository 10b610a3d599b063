//! Reading a vault file as a tool sees it: notes with embeds expanded, media files described.
//! Shared by `read_file` and `summarize_file` so both see exactly the same text.

use std::sync::Arc;

use serde_json::{json, Value};

use super::context::{ContextError, ToolContext};
use crate::vault::embed::{expand_note, expand_source, AttachmentKind};
use crate::vault::write::check_writable;
use crate::vault::{human_bytes, regular_file_size, VaultPath};

/// A file read for a tool: its vault-relative path, the expanded text and expansion metadata.
#[derive(Debug, Clone)]
pub struct ExpandedNote {
    pub path: String,
    pub text: String,
    pub details: Value,
}

/// A note about to be summarized: the expanded text plus the exact bytes it was read from.
#[derive(Debug, Clone)]
pub struct NoteForWriting {
    pub expanded: ExpandedNote,
    pub original: Vec<u8>,
}

impl ToolContext {
    /// Reads a vault file: a note with its embeds expanded, or an image or audio file turned into
    /// its description or transcript.
    pub async fn read_expanded(&self, input: &str) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        self.expand_path(&path).await
    }

    /// Reads a note that a summary will be appended to. Refuses, before any LLM work, paths that
    /// may not be written (not a note, inside `.obsidian/`, …).
    pub async fn read_note_for_writing(&self, input: &str) -> Result<NoteForWriting, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
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
        let expansion = expand_source(
            vault,
            &path,
            &source,
            &self.expand_options(),
            self.attachments(),
        )
        .await;
        let expanded = ExpandedNote {
            path: path.relative().to_string(),
            text: expansion.text,
            details: expansion.details,
        };
        Ok(NoteForWriting { expanded, original })
    }

    async fn expand_path(&self, path: &VaultPath) -> Result<ExpandedNote, ContextError> {
        let vault = self.vault()?;
        match AttachmentKind::of(path.relative()) {
            Some(kind @ (AttachmentKind::Image | AttachmentKind::Audio)) => {
                let text = self
                    .attachments()
                    .read_attachment(path, kind)
                    .await
                    .unwrap_or_else(|reason| format!("[{}: {reason}]", path.relative()));
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    text,
                    details: json!({ "kind": format!("{kind:?}").to_lowercase() }),
                })
            }
            Some(kind) => {
                // Video, PDF, office documents, canvases and unknown files are never read as
                // Markdown (nor read at all): a placeholder names the file, its kind and size.
                // The document extractors (media/document/) are not wired in yet.
                let size = regular_file_size(path)?;
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    text: not_read_placeholder(path.relative(), kind, size),
                    details: json!({ "kind": kind, "bytes": size, "read": false }),
                })
            }
            None => {
                let expansion =
                    expand_note(vault, path, &self.expand_options(), self.attachments()).await?;
                Ok(ExpandedNote {
                    path: path.relative().to_string(),
                    text: expansion.text,
                    details: expansion.details,
                })
            }
        }
    }
}

/// The text `read_file` gives for a file that is neither a note nor an image or audio file.
fn not_read_placeholder(relative: &str, kind: AttachmentKind, size: u64) -> String {
    let what = match kind {
        AttachmentKind::Other => "file of unknown kind".to_string(),
        kind => format!("{} file", kind.label()),
    };
    format!(
        "[{relative}: {what}, {}; not read: only notes, images and audio can be read as text \
         yet]",
        human_bytes(size)
    )
}
