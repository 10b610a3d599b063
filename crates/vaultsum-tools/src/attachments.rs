//! Embedded media for the embed expander: images described by the vision model and audio
//! transcribed, both cached; a placeholder naming the file when no LLM is configured.

use std::sync::Arc;

use async_trait::async_trait;

use crate::config::Config;
use crate::llm::ChatClient;
use crate::media::{MediaDescriber, MediaError, MAX_AUDIO_BYTES, MAX_IMAGE_BYTES};
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
            ),
        }
    }
}

fn placeholder(path: &VaultPath, kind: AttachmentKind) -> String {
    let what = match kind {
        AttachmentKind::Image => {
            "image; no vision model configured (set FIREWORKS_API_KEY to describe it)"
        }
        AttachmentKind::Audio => {
            "audio; no transcription model configured (set FIREWORKS_API_KEY to transcribe it)"
        }
        AttachmentKind::Pdf => "PDF; not read yet",
        AttachmentKind::Office => "office document; not read yet",
        AttachmentKind::Canvas => "canvas; not read yet",
        AttachmentKind::Video => "video; not read yet",
        AttachmentKind::Other => "file; not readable as text",
    };
    format!("[{}: {what}]", path.relative())
}

#[async_trait]
impl AttachmentReader for MediaAttachments {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        if !matches!(kind, AttachmentKind::Image | AttachmentKind::Audio) {
            return Ok(placeholder(path, kind));
        }
        // Sized and checked to be a regular file before a byte is read (a FIFO named `.png`
        // or a 3 GB "image" is refused at once), off the async worker threads.
        let limit = match kind {
            AttachmentKind::Image => ReadLimit::media(MAX_IMAGE_BYTES as u64, "image"),
            _ => ReadLimit::media(MAX_AUDIO_BYTES as u64, "audio file"),
        };
        let owned = path.clone();
        let bytes = tokio::task::spawn_blocking(move || read_capped(&owned, limit))
            .await
            .map_err(|e| format!("cannot read {}: {e}", path.relative()))?
            .map_err(|e| e.to_string())?;
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
}
