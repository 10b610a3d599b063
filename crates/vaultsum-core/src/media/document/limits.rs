//! The bounds on an extraction that need the platform: the file's size from its metadata,
//! before any byte is read, and the time limit, off the async runtime. The others (zip
//! inflation, output size, panics) are vaultsum-documents' `limits.rs`.

use std::path::Path;

use super::{extract, DocLimits, DocumentError, DocumentFileError, DocumentKind, DocumentText};

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
        use std::time::Duration;

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
