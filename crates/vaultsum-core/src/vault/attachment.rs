//! Non-note embeds: what kind of file an attachment is, and who turns it into text.

use super::paths::VaultPath;
pub use vaultsum_engine::vault::attachment_kind::{
    counted_placeholder, unread_placeholder, AttachmentKind,
};

/// Turns an embedded file into text: a description for an image, a transcript for audio.
///
/// The media layer implements this over the vision and transcription models (caching by
/// content hash outside the vault). Errors are short reasons shown inline in the expansion.
#[async_trait::async_trait]
pub trait AttachmentReader: Send + Sync {
    /// Text for one embedded file. Called at most once per file per expansion.
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String>;

    /// Text for one page of an embedded file (`![[paper.pdf#page=3]]`), or the whole file for
    /// `None`. Readers without pages read the whole file.
    async fn read_attachment_page(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
        page: Option<u32>,
    ) -> Result<String, String> {
        let _ = page;
        self.read_attachment(path, kind).await
    }

    /// Whether this reader handles `kind`; other kinds get a "not supported yet" placeholder
    /// without a call. Images and audio by default.
    fn supports(&self, kind: AttachmentKind) -> bool {
        matches!(kind, AttachmentKind::Image | AttachmentKind::Audio)
    }

    /// Whether reading a file of `kind` may be a paid call (an image described, a recording
    /// transcribed by a model). None by default.
    fn may_pay_for(&self, kind: AttachmentKind) -> bool {
        let _ = kind;
        false
    }
}

/// The reader used when no model is configured: a short placeholder naming the file.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlaceholderAttachments;

#[async_trait::async_trait]
impl AttachmentReader for PlaceholderAttachments {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        let what = match kind {
            AttachmentKind::Image => "no vision model configured",
            AttachmentKind::Audio => "no transcription model configured",
            _ => "not supported yet",
        };
        Ok(format!("({} {}: {})", kind.label(), path.relative(), what))
    }
}
