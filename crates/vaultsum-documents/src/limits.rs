//! The bounds every extraction runs under: size, zip inflation, output size, time (kept by the
//! host: vaultsum-core), and panics in third-party parsers.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use super::error::DocumentError;

/// Limits for one extraction. [`DocLimits::default`] suits a vault: office files of tens of
/// megabytes pass, a zip bomb or a 2 GB video under a `.pdf` name does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocLimits {
    /// The largest document read, in bytes: refused by every extractor, and by the native host
    /// from the file's metadata before it is read (vaultsum-core's `check_file_size`).
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
    /// How long one extraction may run before it is abandoned. Kept by a host with a clock and
    /// threads (vaultsum-core's `extract_blocking`, and its PDF pages not started past it); this
    /// crate has no clock, so [`crate::extract`] alone, as in WebAssembly, runs to the end.
    pub timeout: Duration,
}

/// Entries smaller than this are not ratio-checked: small XML parts legitimately compress
/// 50–100× and cannot do harm.
pub const RATIO_FLOOR: u64 = 1024 * 1024;

impl Default for DocLimits {
    fn default() -> DocLimits {
        DocLimits {
            max_bytes: vaultsum_engine::vault::document_kind::MAX_DOCUMENT_BYTES,
            max_unpacked_bytes: 256 * 1024 * 1024,
            max_entries: 10_000,
            max_compression_ratio: 100,
            max_rows: 200,
            max_chars: 2_000_000,
            timeout: Duration::from_secs(30),
        }
    }
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
///
/// Only where panics unwind: in WebAssembly (`panic = "abort"`, the only strategy
/// wasm32-unknown-unknown has) a panic ends the module before anything can catch it, and the
/// host sees a trap (vaultsum-wasm's `document.rs` says what it does then).
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
    fn empty_document_is_an_error() {
        let err = check_bytes("DOCX", b"", &DocLimits::default()).unwrap_err();
        assert_eq!(err.to_string(), "the DOCX file is empty");
    }

    #[test]
    fn bytes_over_the_size_limit_are_refused_before_parsing() {
        let limits = DocLimits {
            max_bytes: 4,
            ..DocLimits::default()
        };
        let err = check_bytes("PDF", b"%PDF-", &limits).unwrap_err();
        assert_eq!(
            err.to_string(),
            "5 bytes is over the 4-byte limit for documents"
        );
        assert!(check_bytes("PDF", b"%PDF", &limits).is_ok());
    }
}
