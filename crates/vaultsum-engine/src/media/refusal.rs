//! Why an image or a recording is not sent to a model before anything is sent: its type, an
//! empty file, a file over the provider's limit. One set of words for the binary and the app.

use super::audio::MAX_AUDIO_BYTES;
use super::image::MAX_IMAGE_BYTES;
use crate::vault::attachment_kind::AttachmentKind;

/// A file refused before any request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaRefusal {
    /// The extension is not an image (or audio) type the model is sent.
    #[error("cannot {action} {file_name}: unsupported file type (supported: {supported})")]
    Unsupported {
        /// The file as the note names it.
        file_name: String,
        /// `describe` or `transcribe`.
        action: &'static str,
        /// The supported extensions, comma-separated.
        supported: &'static str,
    },

    /// The file has no bytes.
    #[error("cannot {action} {file_name}: the file is empty")]
    EmptyFile {
        /// The file as the note names it.
        file_name: String,
        /// `describe` or `transcribe`.
        action: &'static str,
    },

    /// The file is larger than the provider accepts.
    #[error("cannot {action} {file_name}: {size} bytes is over the {limit}-byte limit")]
    TooLarge {
        /// The file as the note names it.
        file_name: String,
        /// `describe` or `transcribe`.
        action: &'static str,
        /// The file's size.
        size: usize,
        /// The largest size sent.
        limit: usize,
    },
}

/// Refuses `bytes` when empty or over `limit`.
pub fn check_size(
    file_name: &str,
    action: &'static str,
    bytes: &[u8],
    limit: usize,
) -> Result<(), MediaRefusal> {
    if bytes.is_empty() {
        return Err(MediaRefusal::EmptyFile {
            file_name: file_name.to_string(),
            action,
        });
    }
    if bytes.len() > limit {
        return Err(MediaRefusal::TooLarge {
            file_name: file_name.to_string(),
            action,
            size: bytes.len(),
            limit,
        });
    }
    Ok(())
}

/// The refusal of a file whose type `action` does not take.
pub fn unsupported(file_name: &str, action: &'static str, supported: &'static str) -> MediaRefusal {
    MediaRefusal::Unsupported {
        file_name: file_name.to_string(),
        action,
        supported,
    }
}

/// The largest image or recording read, and what it is called in messages (`image`,
/// `audio file`): a larger file is refused before a byte is read.
pub fn read_limit(kind: AttachmentKind) -> (u64, &'static str) {
    match kind {
        AttachmentKind::Image => (MAX_IMAGE_BYTES as u64, "image"),
        _ => (MAX_AUDIO_BYTES as u64, "audio file"),
    }
}

/// Why a file over its [`read_limit`] is not read, in the binary's words (vaultsum-core's
/// `VaultError::TooLarge` for a media limit).
pub fn too_large_to_read(path: &str, size: u64, kind: AttachmentKind) -> String {
    let (max, what) = read_limit(kind);
    too_large_for(path, size, max, what)
}

/// Why a file of `size` bytes over `max`, a fixed limit for `what` (`image`, `document`), is
/// not read, in the binary's words (vaultsum-core's `VaultError::TooLarge`).
pub fn too_large_for(path: &str, size: u64, max: u64, what: &str) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!(
        "too large to read: {path} is {}, over the {} limit for {article} {what}",
        human_bytes(size),
        human_bytes(max)
    )
}

/// A size as people read it: `512 bytes`, `1.5 KB`, `20.0 MB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_or_oversized_file_is_refused_by_name() {
        assert_eq!(
            check_size("a.png", "describe", b"", 10)
                .unwrap_err()
                .to_string(),
            "cannot describe a.png: the file is empty"
        );
        assert_eq!(
            check_size("r.wav", "transcribe", &[0; 11], 10)
                .unwrap_err()
                .to_string(),
            "cannot transcribe r.wav: 11 bytes is over the 10-byte limit"
        );
        assert!(check_size("a.png", "describe", &[0; 10], 10).is_ok());
    }

    #[test]
    fn a_file_over_its_read_limit_is_named_with_its_size() {
        assert_eq!(
            too_large_to_read("A/big.png", 25 << 20, AttachmentKind::Image),
            "too large to read: A/big.png is 25.0 MB, over the 20.0 MB limit for an image"
        );
        assert_eq!(
            too_large_to_read("memo.wav", 300 << 20, AttachmentKind::Audio),
            "too large to read: memo.wav is 300.0 MB, over the 200.0 MB limit for an audio file"
        );
    }
}
