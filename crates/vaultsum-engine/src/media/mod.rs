//! Embedded images and recordings as a model reads them: which files count, the requests that
//! describe or transcribe them, how an answer is read, and why a file is refused (empty, too
//! large, not a supported type). Built here for the binary (vaultsum-core's `media`, which
//! sends, retries and caches) and for the app (`summary::in_app_media`, whose host sends), so
//! both ask a model the same thing in the same words.

pub mod audio;
pub mod diarize;
pub mod image;
pub mod refusal;
pub mod transcription;
pub mod work;

/// The lowercase extension of a file name, if it has one.
pub fn extension(file_name: &str) -> Option<String> {
    let name = base_name(file_name);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// The last path component: a server only needs the file's own name.
pub fn base_name(file_name: &str) -> &str {
    file_name.rsplit(['/', '\\']).next().unwrap_or(file_name)
}

/// The hex SHA-256 key of one piece of media work: `kind` (`image`, `audio`), the model, any
/// extra input that shapes the result (a prompt), and the file's bytes. The binary's media
/// cache and the app's kept descriptions are keyed by it.
pub fn work_key(kind: &str, model: &str, extra: &str, bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for field in [kind, model, extra] {
        hasher.update((field.len() as u64).to_le_bytes());
        hasher.update(field.as_bytes());
    }
    hasher.update(bytes);
    hex::encode(hasher.finalize())
}
