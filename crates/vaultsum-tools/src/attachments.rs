//! Embedded media for the embed expander: images described by the vision model and audio
//! transcribed, documents (PDF, DOCX, PPTX, XLSX, ODS, CSV, TSV) extracted to text, all cached
//! by content hash; a placeholder naming the file when no LLM is configured or the kind is not read.

use std::sync::Arc;

use async_trait::async_trait;

use crate::config::Config;
use crate::llm::ChatClient;
use crate::media::document::{DocLimits, DocumentKind};
use crate::media::{read_limit, MediaDescriber, MediaError};

use crate::vault::attachment::unread_placeholder;
use crate::vault::embed::{AttachmentKind, AttachmentReader};
use crate::vault::{read_capped, ReadLimit, VaultPath};

/// The [`AttachmentReader`] the tools use, backed by [`MediaDescriber`].
pub struct MediaAttachments {
    media: MediaDescriber,
}

impl MediaAttachments {
    /// Builds the reader; without a client every image and audio file becomes a placeholder.
    pub fn new(config: &Config, chat: Option<Arc<ChatClient>>) -> MediaAttachments {
        MediaAttachments {
            media: MediaDescriber::with_cache_root(
                chat,
                &config.llm,
                config.cache_dir.join("media"),
            )
            .with_diarize(config.media.diarize),
        }
    }
}

/// The engine's placeholder for a file not turned into text (one text, native and in the app).
fn placeholder(path: &VaultPath, kind: AttachmentKind) -> String {
    unread_placeholder(path.relative(), kind)
}

#[async_trait]
impl AttachmentReader for MediaAttachments {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        self.read_attachment_page(path, kind, None).await
    }

    async fn read_attachment_page(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
        page: Option<u32>,
    ) -> Result<String, String> {
        if let Some(document) = DocumentKind::from_file_name(path.relative()) {
            crate::progress::step(format!("extracting {}", path.relative()));
            return self.read_document(path, document, page).await;
        }
        if !matches!(kind, AttachmentKind::Image | AttachmentKind::Audio) {
            return Ok(placeholder(path, kind));
        }
        // A model call that can take a while: the caller's progress says which file it is on.
        let verb = if kind == AttachmentKind::Image {
            "describing"
        } else {
            "transcribing"
        };
        crate::progress::step(format!("{verb} {}", path.relative()));
        // Sized and checked to be a regular file before a byte is read (a FIFO named `.png`
        // or a 3 GB "image" is refused at once), off the async worker threads.
        let (max_bytes, what) = read_limit(kind);
        let limit = ReadLimit::media(max_bytes, what);
        let bytes = read_off_runtime(path, limit).await?;
        let name = path.relative();
        let result = match kind {
            AttachmentKind::Image => self.media.describe_image(name, &bytes).await,
            _ => self.media.transcribe_audio(name, &bytes).await,
        };
        match result {
            Ok(text) => Ok(text),
            Err(MediaError::NotConfigured { .. }) => Ok(placeholder(path, kind)),
            Err(error) => Err(error.to_string()),
        }
    }

    /// Images, audio and every document format; video and unknown files get a placeholder.
    fn supports(&self, kind: AttachmentKind) -> bool {
        !matches!(kind, AttachmentKind::Video)
    }

    /// Images and recordings, when a model reads them.
    fn may_pay_for(&self, kind: AttachmentKind) -> bool {
        self.media.is_configured() && matches!(kind, AttachmentKind::Image | AttachmentKind::Audio)
    }
}

impl MediaAttachments {
    /// A document's text: sized against the document limit before it is read, extracted on the
    /// blocking pool with a time limit, cached by content hash outside the vault.
    async fn read_document(
        &self,
        path: &VaultPath,
        kind: DocumentKind,
        page: Option<u32>,
    ) -> Result<String, String> {
        let limits = DocLimits::default();
        let bytes = read_off_runtime(path, ReadLimit::media(limits.max_bytes, "document")).await?;
        self.media
            .extract_document(path.relative(), kind, bytes, page, limits)
            .await
            .map_err(|error| error.to_string())
    }
}

/// Reads `path` within `limit` on the blocking pool.
async fn read_off_runtime(path: &VaultPath, limit: ReadLimit) -> Result<Vec<u8>, String> {
    let owned = path.clone();
    tokio::task::spawn_blocking(move || read_capped(&owned, limit))
        .await
        .map_err(|e| format!("cannot read {}: {e}", path.relative()))?
        .map_err(|e| e.to_string())
}
