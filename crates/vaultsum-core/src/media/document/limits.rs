//! The bounds every extraction runs under: size before reading, zip inflation, output size,
//! time, and panics in third-party parsers.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

use super::error::{DocumentError, DocumentFileError};
use super::{extract, DocumentKind, DocumentText};

/// Limits for one extraction. [`DocLimits::default`] suits a vault: office files of tens of
/// megabytes pass, a zip bomb or a 2 GB video under a `.pdf` name does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocLimits {
    /// The largest document read, in bytes; check with [`check_file_size`] before reading.
    pub max_bytes: u64,
    /// The most bytes all entries of a zip-based document may inflate to, together.
    pub max_unpacked_bytes: u64,
    /// The most entries a zip-based document may have.
    pub max_entries: usize,
    /// The largest inflated/compressed ratio of one zip entry (past [`RATIO_FLOOR`] bytes).
    pub max_compression_ratio: u64,
    /// The most rows shown per table (sheet, CSV); a marker says how many were left out.
    pub max_rows: usize,
    /// The most characters of text returned; the rest is cut with a note.
    pub max_chars: usize,
    /// How long one extraction may run before it is abandoned.
    pub timeout: Duration,
}

/// Entries smaller than this are not ratio-checked: small XML parts legitimately compress
/// 50–100× and cannot do harm.
pub const RATIO_FLOOR: u64 = 1024 * 1024;

impl Default for DocLimits {
    fn default() -> DocLimits {
        DocLimits {
            max_bytes: 50 * 1024 * 1024,
            max_unpacked_bytes: 256 * 1024 * 1024,
            max_entries: 10_000,
            max_compression_ratio: 100,
            max_rows: 200,
            max_chars: 2_000_000,
            timeout: Duration::from_secs(30),
        }
    }
}

/// The size of the file at `path` from its metadata, refusing it before any byte is read when it
/// is over `limits.max_bytes` or not a regular file (a FIFO would block the read forever).
pub fn check_file_size(path: &Path, limits: &DocLimits) -> Result<u64, DocumentFileError> {
    let meta = std::fs::metadata(path).map_err(|source| DocumentFileError::Stat {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_file() {
        return Err(DocumentFileError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    if meta.len() > limits.max_bytes {
        return Err(DocumentFileError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            limit: limits.max_bytes,
        });
    }
    Ok(meta.len())
}

/// Refuses empty and oversized input; every extractor calls it first.
pub(super) fn check_bytes(
    format: &'static str,
    bytes: &[u8],
    limits: &DocLimits,
) -> Result<(), DocumentError> {
    if bytes.is_empty() {
        return Err(DocumentError::Empty { format });
    }
    let size = bytes.len() as u64;
    if size > limits.max_bytes {
        return Err(DocumentError::TooLarge {
            size,
            limit: limits.max_bytes,
        });
    }
    Ok(())
}

/// Runs `f`, turning a panic inside it (a third-party parser bug) into
/// [`DocumentError::Panicked`] instead of unwinding into the caller.
pub(super) fn contain_panic<T>(
    format: &'static str,
    f: impl FnOnce() -> Result<T, DocumentError>,
) -> Result<T, DocumentError> {
    // The parsers hold no state of ours across the call, so nothing is left half-updated.
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(DocumentError::Panicked {
            format,
            message: panic_message(payload.as_ref()),
        })
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "no message".to_string()
    }
}

/// [`extract`] off the async runtime: on a blocking thread, panics contained, abandoned after
/// `limits.timeout`. The error names `file_name`.
///
/// A timed-out parser cannot be killed; its thread finishes (or spins) in the background and its
/// result is dropped. Tokio's blocking pool is large, so a few stuck threads do not starve others.
pub async fn extract_blocking(
    file_name: &str,
    kind: DocumentKind,
    bytes: Vec<u8>,
    page: Option<u32>,
    limits: DocLimits,
) -> Result<DocumentText, DocumentFileError> {
    let timeout = limits.timeout;
    let task = tokio::task::spawn_blocking(move || extract(kind, &bytes, page, &limits));
    let result = match tokio::time::timeout(timeout, task).await {
        Ok(Ok(result)) => result,
        // `extract` contains panics itself; a join error means the runtime is shutting down
        // or the panic escaped anyway: the same answer either way.
        Ok(Err(join)) => Err(DocumentError::Panicked {
            format: kind.name(),
            message: join.to_string(),
        }),
        Err(_) => Err(DocumentError::TimedOut {
            seconds: timeout.as_secs(),
        }),
    };
    result.map_err(|source| DocumentFileError::Extract {
        file_name: file_name.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_in_parser_becomes_an_error() {
        let err = contain_panic::<()>("PDF", || panic!("index out of bounds")).unwrap_err();
        assert!(
            matches!(&err, DocumentError::Panicked { message, .. } if message.contains("index out of bounds")),
            "{err}"
        );
    }

    #[test]
    fn oversized_file_is_refused_from_its_metadata() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.pdf");
        std::fs::write(&path, vec![0u8; 2048]).unwrap();
        let limits = DocLimits {
            max_bytes: 1024,
            ..DocLimits::default()
        };
        let err = check_file_size(&path, &limits).unwrap_err();
        assert!(
            err.to_string()
                .contains("2048 bytes is over the 1024-byte limit"),
            "{err}"
        );
        assert_eq!(check_file_size(&path, &DocLimits::default()).unwrap(), 2048);
    }

    #[test]
    fn folder_is_not_read_as_a_document() {
        let dir = tempfile::tempdir().unwrap();
        let err = check_file_size(dir.path(), &DocLimits::default()).unwrap_err();
        assert!(matches!(err, DocumentFileError::NotAFile { .. }), "{err}");
    }

    #[test]
    fn empty_document_is_an_error() {
        let err = check_bytes("DOCX", b"", &DocLimits::default()).unwrap_err();
        assert_eq!(err.to_string(), "the DOCX file is empty");
    }

    #[tokio::test]
    async fn blocking_extraction_names_the_file_in_its_error() {
        let err = extract_blocking(
            "notes/broken.docx",
            DocumentKind::Docx,
            b"not a zip".to_vec(),
            None,
            DocLimits::default(),
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string().starts_with(
                "cannot read notes/broken.docx as a document: not a readable DOCX file"
            ),
            "{err}"
        );
    }

    #[tokio::test]
    async fn blocking_extraction_gives_up_after_the_time_limit() {
        // A zero limit elapses before any blocking thread can report back.
        let limits = DocLimits {
            timeout: Duration::ZERO,
            ..DocLimits::default()
        };
        let bytes = std::fs::read(super::super::tests::fixture("bench.pdf")).unwrap();
        let err = extract_blocking("bench.pdf", DocumentKind::Pdf, bytes, None, limits)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                DocumentFileError::Extract {
                    source: DocumentError::TimedOut { .. },
                    ..
                }
            ),
            "{err}"
        );
    }
}
