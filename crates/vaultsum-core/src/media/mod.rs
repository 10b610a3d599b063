//! Media embedded in notes, made readable as text: images described by a vision model, audio
//! transcribed by a speech-to-text model. Results are cached by content hash outside the vault.
//! What is asked and why a file is refused are the engine's (`vaultsum_engine::media`, the
//! app's too); the sending, retries, caching and single flight are here.
//!
//! Documents (PDF, office files, spreadsheets, CSV/TSV, canvases) become text in `document/`;
//! diarized transcripts are rendered in `diarize.rs`.

mod cache;
pub use vaultsum_engine::media::diarize;
pub mod document;
mod error;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::LlmConfig;
use crate::llm::{ChatClient, LlmError};

use crate::flight::lock_file::{self, Claim};
use crate::flight::single_flight::{Shared, SingleFlight};
pub use cache::{Keep, MediaCache};
use document::{DocLimits, DocumentKind};
pub use vaultsum_engine::media::audio::{self, is_audio, AUDIO_EXTENSIONS, MAX_AUDIO_BYTES};
use vaultsum_engine::media::work::{MediaModels, MediaWork};
use vaultsum_engine::media::{base_name, image};
use vaultsum_engine::vault::attachment_kind::AttachmentKind;

/// Names the extractors in the document cache key, so a new version of vaultsum (new or fixed
/// extractors) extracts again instead of serving an older version's text.
const DOCUMENT_EXTRACTOR: &str = concat!("vaultsum-", env!("CARGO_PKG_VERSION"));

/// Size under which a document's text is not cached: extracting a file this small (a few
/// milliseconds, most of it a fresh process's first call into the parser) costs no more than
/// the cache's own work, a lock, a synced file and its synced folder (about 1.1 ms per file
/// on pypdf's test PDFs, where these files take 2.5 ms to 6 ms in all). Paid work (image
/// descriptions, transcripts) is always cached.
pub const UNCACHED_DOCUMENT_BELOW: usize = 32 * 1024;
pub use error::MediaError;
pub use vaultsum_engine::media::image::{image_mime_type, IMAGE_EXTENSIONS, MAX_IMAGE_BYTES};
pub use vaultsum_engine::media::refusal::{read_limit, MediaRefusal};

/// Describes images and transcribes audio through the configured LLM, with a cache.
///
/// Without a client every call that misses the cache is [`MediaError::NotConfigured`]; the
/// caller writes a placeholder naming the file. A cached result is served even then, since it
/// needs no model.
#[derive(Debug, Clone)]
pub struct MediaDescriber {
    client: Option<Arc<ChatClient>>,
    /// The vision and transcription models, and whether speaker turns are asked for.
    models: MediaModels,
    cache: MediaCache,
    /// One call per cache key in flight (shared by every clone of this describer).
    flights: SingleFlight<Result<String, String>>,
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
            models: MediaModels {
                vision: cfg.vision_model.clone(),
                whisper: cfg.whisper_model.clone(),
                diarize: false,
            },
            cache: MediaCache::new(cache_root),
            flights: SingleFlight::default(),
        }
    }

    /// The same describer, asking the transcription endpoint for speaker diarization when
    /// `diarize` (`media.diarize`).
    pub fn with_diarize(mut self, diarize: bool) -> MediaDescriber {
        self.models.diarize = diarize;
        self
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
        let work = MediaWork::of(file_name, AttachmentKind::Image, bytes, &self.models)?;
        let request = image::describe_request(&work.model, file_name, work.mime, bytes);
        self.cached(&work, |client| async move {
            let reply = client.chat(&request).await?;
            Ok(reply.content.trim().to_string())
        })
        .await
    }

    /// The transcript of the audio file, from the cache when this exact file was transcribed
    /// before with the same model. A recording without speech gives an empty transcript.
    pub async fn transcribe_audio(
        &self,
        file_name: &str,
        bytes: &[u8],
    ) -> Result<String, MediaError> {
        let work = MediaWork::of(file_name, AttachmentKind::Audio, bytes, &self.models)?;
        let model = &work.model;
        if !self.models.diarize {
            return self
                .cached(&work, |client| {
                    client.transcribe(base_name(file_name), bytes.to_vec(), model)
                })
                .await;
        }
        self.cached(&work, |client| async move {
            let reply = client
                .transcribe_diarized(base_name(file_name), bytes.to_vec(), model)
                .await?;
            Ok(diarize::transcript_from_value(reply))
        })
        .await
    }

    /// The one pipeline every kind of media goes through: the cached text when this exact work
    /// was done before, else `call` on the model, its answer stored for next time. A cache hit
    /// needs no client, so cached media still reads without an API key.
    async fn cached<'a, F, Fut>(&'a self, work: &MediaWork, call: F) -> Result<String, MediaError>
    where
        F: FnOnce(&'a ChatClient) -> Fut,
        Fut: Future<Output = Result<String, LlmError>>,
    {
        if let Some(hit) = self.cache_get(&work.key, Keep::Synced).await {
            tracing::debug!(
                file = work.path,
                action = work.action(),
                "media text from cache"
            );
            return Ok(hit);
        }
        let client = self.client(&work.path, work.action())?;
        self.once_per_key(&work.key, Keep::Synced, &work.path, || async move {
            let answered = call(client).await;
            if answered.is_ok() {
                client.record_media_call();
            }
            answered.map_err(|source| MediaError::Llm {
                file_name: work.path.clone(),
                action: work.action(),
                source,
            })
        })
        .await
    }

    /// `work` done once for `key`, its text stored for next time: callers asking for the same
    /// work at the same moment share one call, in this process by the single flight and with
    /// other processes by the cache lock (a process that finds the entry stored meanwhile takes
    /// it instead).
    async fn once_per_key<F, Fut>(
        &self,
        key: &str,
        keep: Keep,
        file_name: &str,
        work: F,
    ) -> Result<String, MediaError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<String, MediaError>>,
    {
        let work = || async move {
            let lock = self.cache.lock_path(key);
            let stored = |_: &[String]| self.cache.get(key, keep);
            let _lock = match lock_file::claim(&lock, file_name, stored).await {
                Claim::Done(text) => return Ok(text),
                Claim::Held(guard) => Some(guard),
                Claim::Unlocked => None,
            };
            let text = work().await?;
            self.store(key, &text, keep).await;
            Ok(text)
        };
        let share = |result: &Result<String, MediaError>| match result {
            Ok(text) => Ok(text.clone()),
            Err(error) => Err(error.to_string()),
        };
        shared_result(self.flights.run(key, work, share).await)
    }

    /// The text of a document (a PDF, or one page of it; an office file; CSV or TSV), from the
    /// cache when this exact file (and page) was extracted before by this version of vaultsum.
    /// The extraction runs on the blocking pool under the limits' time limit, with parser
    /// panics turned into errors (see `document::extract_blocking`). A file under
    /// [`UNCACHED_DOCUMENT_BELOW`] is extracted each time.
    pub async fn extract_document(
        &self,
        file_name: &str,
        kind: DocumentKind,
        bytes: Vec<u8>,
        page: Option<u32>,
        limits: DocLimits,
    ) -> Result<String, MediaError> {
        if bytes.len() < UNCACHED_DOCUMENT_BELOW {
            let text = document::extract_blocking(file_name, kind, bytes, page, limits).await?;
            return Ok(text.to_markdown());
        }
        let extra = page.map(|p| format!("page={p}")).unwrap_or_default();
        // Hashing tens of megabytes is CPU work and the cache is files: both on the blocking
        // pool, in one trip there.
        let cache = self.cache.clone();
        let (key, bytes, hit) = tokio::task::spawn_blocking(move || {
            let key = MediaCache::key("document", DOCUMENT_EXTRACTOR, &extra, &bytes);
            let hit = cache.get(&key, Keep::Checked);
            (key, bytes, hit)
        })
        .await
        .map_err(|e| MediaError::Interrupted(e.to_string()))?;
        if let Some(hit) = hit {
            tracing::debug!(file = file_name, "document text from cache");
            return Ok(hit);
        }
        self.once_per_key(&key, Keep::Checked, file_name, || async {
            let text = document::extract_blocking(file_name, kind, bytes, page, limits).await?;
            Ok(text.to_markdown())
        })
        .await
    }

    /// The cached text under `key`; cache files are read on the blocking pool.
    async fn cache_get(&self, key: &str, keep: Keep) -> Option<String> {
        let (cache, key) = (self.cache.clone(), key.to_string());
        tokio::task::spawn_blocking(move || cache.get(&key, keep))
            .await
            .ok()
            .flatten()
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
    async fn store(&self, key: &str, text: &str, keep: Keep) {
        let (cache, key, text) = (self.cache.clone(), key.to_string(), text.to_string());
        let stored = tokio::task::spawn_blocking(move || cache.put(&key, &text, keep)).await;
        if let Ok(Err(e)) = stored {
            tracing::warn!(cache = %self.cache.root().display(), error = %e, "cannot write the media cache");
        }
    }
}

/// The caller's own result, or the result of the same work another caller did meanwhile.
fn shared_result(
    shared: Shared<Result<String, MediaError>, Result<String, String>>,
) -> Result<String, MediaError> {
    match shared {
        Shared::Led(result) => result,
        Shared::Waited(Ok(text)) => Ok(text),
        Shared::Waited(Err(message)) => Err(MediaError::SharedFailure(message)),
    }
}
