//! Media embedded in notes, made readable as text: images described by a vision model, audio
//! transcribed by a speech-to-text model. Results are cached by content hash outside the vault.
//!
//! Later: PDF and office documents (they are placeholders in `read_file` until then).

mod audio;
mod cache;
mod error;
mod image;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::LlmConfig;
use crate::llm::ChatClient;

pub use audio::{is_audio, AUDIO_EXTENSIONS, MAX_AUDIO_BYTES};
pub use cache::MediaCache;
pub use error::MediaError;
pub use image::{image_mime_type, IMAGE_EXTENSIONS, MAX_IMAGE_BYTES};

/// Describes images and transcribes audio through the configured LLM, with a cache.
///
/// Without a client every call that misses the cache is [`MediaError::NotConfigured`]; the
/// caller writes a placeholder naming the file. A cached result is served even then, since it
/// needs no model.
#[derive(Debug, Clone)]
pub struct MediaDescriber {
    client: Option<Arc<ChatClient>>,
    vision_model: String,
    whisper_model: String,
    cache: MediaCache,
}

impl MediaDescriber {
    /// A describer using `cfg`'s vision and whisper models, caching under
    /// [`MediaCache::default_root`] (the per-user cache folder).
    pub fn new(client: Option<Arc<ChatClient>>, cfg: &LlmConfig) -> MediaDescriber {
        MediaDescriber::with_cache_root(client, cfg, MediaCache::default_root())
    }

    /// Like [`MediaDescriber::new`], caching under `cache_root` instead (tests, portable setups).
    pub fn with_cache_root(
        client: Option<Arc<ChatClient>>,
        cfg: &LlmConfig,
        cache_root: impl Into<PathBuf>,
    ) -> MediaDescriber {
        MediaDescriber {
            client,
            vision_model: cfg.vision_model.clone(),
            whisper_model: cfg.whisper_model.clone(),
            cache: MediaCache::new(cache_root),
        }
    }

    /// Whether a model is available (an API key was configured).
    pub fn is_configured(&self) -> bool {
        self.client.is_some()
    }

    /// Where cached results are kept.
    pub fn cache_root(&self) -> &Path {
        self.cache.root()
    }

    /// A markdown description of the image (text in it transcribed), from the cache when this
    /// exact image was described before with the same model and prompt.
    pub async fn describe_image(
        &self,
        file_name: &str,
        bytes: &[u8],
    ) -> Result<String, MediaError> {
        const ACTION: &str = "describe";
        let mime = image_mime_type(file_name).ok_or_else(|| MediaError::Unsupported {
            file_name: file_name.to_string(),
            action: ACTION,
            supported: image::SUPPORTED,
        })?;
        check_size(file_name, ACTION, bytes, MAX_IMAGE_BYTES)?;
        let key = MediaCache::key("image", &self.vision_model, image::PROMPT, bytes);
        if let Some(hit) = self.cache.get(&key) {
            tracing::debug!(file = file_name, "image description from cache");
            return Ok(hit);
        }
        let client = self.client(file_name, ACTION)?;
        let request = image::describe_request(&self.vision_model, file_name, mime, bytes);
        let reply = client
            .chat(&request)
            .await
            .map_err(|source| MediaError::Llm {
                file_name: file_name.to_string(),
                action: ACTION,
                source,
            })?;
        let text = reply.content.trim().to_string();
        self.store(&key, &text);
        Ok(text)
    }

    /// The transcript of the audio file, from the cache when this exact file was transcribed
    /// before with the same model. A recording without speech gives an empty transcript.
    pub async fn transcribe_audio(
        &self,
        file_name: &str,
        bytes: &[u8],
    ) -> Result<String, MediaError> {
        const ACTION: &str = "transcribe";
        if !is_audio(file_name) {
            return Err(MediaError::Unsupported {
                file_name: file_name.to_string(),
                action: ACTION,
                supported: audio::SUPPORTED,
            });
        }
        check_size(file_name, ACTION, bytes, MAX_AUDIO_BYTES)?;
        let key = MediaCache::key("audio", &self.whisper_model, "", bytes);
        if let Some(hit) = self.cache.get(&key) {
            tracing::debug!(file = file_name, "transcript from cache");
            return Ok(hit);
        }
        let client = self.client(file_name, ACTION)?;
        let text = client
            .transcribe(base_name(file_name), bytes.to_vec(), &self.whisper_model)
            .await
            .map_err(|source| MediaError::Llm {
                file_name: file_name.to_string(),
                action: ACTION,
                source,
            })?;
        self.store(&key, &text);
        Ok(text)
    }

    fn client(&self, file_name: &str, action: &'static str) -> Result<&ChatClient, MediaError> {
        self.client
            .as_deref()
            .ok_or_else(|| MediaError::NotConfigured {
                file_name: file_name.to_string(),
                action,
            })
    }

    /// A cache that cannot be written costs a repeat call later, not this result.
    fn store(&self, key: &str, text: &str) {
        if let Err(e) = self.cache.put(key, text) {
            tracing::warn!(cache = %self.cache.root().display(), error = %e, "cannot write the media cache");
        }
    }
}

fn check_size(
    file_name: &str,
    action: &'static str,
    bytes: &[u8],
    limit: usize,
) -> Result<(), MediaError> {
    if bytes.is_empty() {
        return Err(MediaError::EmptyFile {
            file_name: file_name.to_string(),
            action,
        });
    }
    if bytes.len() > limit {
        return Err(MediaError::TooLarge {
            file_name: file_name.to_string(),
            action,
            size: bytes.len(),
            limit,
        });
    }
    Ok(())
}

/// The lowercase extension of a file name, if it has one.
fn extension(file_name: &str) -> Option<String> {
    let name = base_name(file_name);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// The last path component: the server only needs the file's own name.
fn base_name(file_name: &str) -> &str {
    file_name.rsplit(['/', '\\']).next().unwrap_or(file_name)
}
