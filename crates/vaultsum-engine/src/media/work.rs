//! One image or recording to read, checked before anything is sent: the models that read it,
//! why a file is refused (its type, empty, over the limit), and the key its answer is kept
//! under. The binary's media cache and the app's kept answers use the same key.

use super::audio::{self, is_audio, MAX_AUDIO_BYTES};
use super::image::{self, image_mime_type, MAX_IMAGE_BYTES};
use super::refusal::{check_size, unsupported, MediaRefusal};
use super::work_key;
use crate::summary::defaults;
use crate::vault::attachment_kind::AttachmentKind;

/// Which models read media (`llm.vision_model`, `llm.whisper_model`) and whether speaker turns
/// are asked for (`media.diarize`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaModels {
    pub vision: String,
    pub whisper: String,
    pub diarize: bool,
}

impl Default for MediaModels {
    fn default() -> Self {
        MediaModels {
            vision: defaults::VISION_MODEL.to_string(),
            whisper: defaults::WHISPER_MODEL.to_string(),
            diarize: defaults::DIARIZE,
        }
    }
}

/// An image or recording that may be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaWork {
    /// The file as the note names it (vault-relative).
    pub path: String,
    /// [`AttachmentKind::Image`] or [`AttachmentKind::Audio`].
    pub kind: AttachmentKind,
    /// The model asked.
    pub model: String,
    /// The image's content type (empty for a recording).
    pub mime: &'static str,
    /// The key its answer is kept under ([`work_key`]).
    pub key: String,
    /// A recording's speaker turns are asked for.
    pub diarize: bool,
}

impl MediaWork {
    /// Checks `bytes`, the file at `path`, for `kind`'s model (an image, else a recording).
    pub fn of(
        path: &str,
        kind: AttachmentKind,
        bytes: &[u8],
        models: &MediaModels,
    ) -> Result<MediaWork, MediaRefusal> {
        if kind == AttachmentKind::Image {
            let mime = image_mime_type(path)
                .ok_or_else(|| unsupported(path, "describe", image::SUPPORTED))?;
            check_size(path, "describe", bytes, MAX_IMAGE_BYTES)?;
            return Ok(MediaWork {
                path: path.to_string(),
                kind,
                model: models.vision.clone(),
                mime,
                key: work_key("image", &models.vision, image::PROMPT, bytes),
                diarize: false,
            });
        }
        if !is_audio(path) {
            return Err(unsupported(path, "transcribe", audio::SUPPORTED));
        }
        check_size(path, "transcribe", bytes, MAX_AUDIO_BYTES)?;
        // Turns and plain text are different answers: the key keeps them apart.
        let extra = if models.diarize { "diarize" } else { "" };
        Ok(MediaWork {
            path: path.to_string(),
            kind: AttachmentKind::Audio,
            model: models.whisper.clone(),
            mime: "",
            key: work_key("audio", &models.whisper, extra, bytes),
            diarize: models.diarize,
        })
    }

    /// `describe` or `transcribe`, for messages.
    pub fn action(&self) -> &'static str {
        if self.kind == AttachmentKind::Image {
            "describe"
        } else {
            "transcribe"
        }
    }
}
