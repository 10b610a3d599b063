//! Zip containers (DOCX, PPTX, XLSX, ODS) opened under the zip-bomb limits.
//!
//! The central directory's sizes are checked before anything is inflated; reads are then
//! bounded by what is left of the total budget, so an archive that lies about its sizes
//! still cannot inflate past it.

use std::io::{Cursor, Read};

use zip::ZipArchive;

use super::error::DocumentError;
use super::limits::{DocLimits, RATIO_FLOOR};

/// An opened zip-based document whose directory passed [`check_archive`].
pub(super) struct Archive<'a> {
    format: &'static str,
    zip: ZipArchive<Cursor<&'a [u8]>>,
    /// Bytes that reads may still inflate, from `max_unpacked_bytes`.
    budget: u64,
}

impl<'a> Archive<'a> {
    /// Opens `bytes` as a zip and checks its directory against `limits`.
    pub(super) fn open(
        format: &'static str,
        bytes: &'a [u8],
        limits: &DocLimits,
    ) -> Result<Archive<'a>, DocumentError> {
        let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| DocumentError::Corrupt {
            format,
            reason: e.to_string(),
        })?;
        check_directory(format, &mut zip, limits)?;
        Ok(Archive {
            format,
            zip,
            budget: limits.max_unpacked_bytes,
        })
    }

    /// The entry `name` as UTF-8 text, `None` when the archive has no such entry.
    pub(super) fn read_text(&mut self, name: &str) -> Result<Option<String>, DocumentError> {
        let format = self.format;
        let corrupt = |e: &dyn std::fmt::Display| DocumentError::Corrupt {
            format,
            reason: format!("{name}: {e}"),
        };
        let mut entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(corrupt(&e)),
        };
        let mut bytes = Vec::new();
        // One byte past the budget tells "exactly at the limit" from "over it".
        (&mut entry)
            .take(self.budget.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| corrupt(&e))?;
        let read = bytes.len() as u64;
        if read > self.budget {
            return Err(DocumentError::ArchiveLimit {
                format,
                reason: format!("{name} inflates past the unpacked-size limit"),
            });
        }
        self.budget -= read;
        String::from_utf8(bytes).map(Some).map_err(|e| corrupt(&e))
    }
}

/// Checks a zip-based document's directory against the limits without inflating anything: the
/// pre-flight for parsers that open the zip themselves (calamine).
pub(super) fn check_archive(
    format: &'static str,
    bytes: &[u8],
    limits: &DocLimits,
) -> Result<(), DocumentError> {
    Archive::open(format, bytes, limits).map(|_| ())
}

fn check_directory(
    format: &'static str,
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    limits: &DocLimits,
) -> Result<(), DocumentError> {
    let limit = |reason: String| DocumentError::ArchiveLimit { format, reason };
    if zip.len() > limits.max_entries {
        return Err(limit(format!(
            "{} entries is over the limit of {}",
            zip.len(),
            limits.max_entries
        )));
    }
    let mut total = 0u64;
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i).map_err(|e| DocumentError::Corrupt {
            format,
            reason: e.to_string(),
        })?;
        let size = entry.size();
        total = total.saturating_add(size);
        let ratio = size / entry.compressed_size().max(1);
        if size > RATIO_FLOOR && ratio > limits.max_compression_ratio {
            return Err(limit(format!(
                "{} inflates {ratio}× ({size} bytes), over the {}× limit",
                entry.name().unwrap_or_default(),
                limits.max_compression_ratio
            )));
        }
    }
    if total > limits.max_unpacked_bytes {
        return Err(limit(format!(
            "it unpacks to {total} bytes, over the {}-byte limit",
            limits.max_unpacked_bytes
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;

    #[test]
    fn zip_bomb_is_refused_before_inflating() {
        let bytes = fixture_bytes("bomb.docx");
        let err = check_archive("DOCX", &bytes, &DocLimits::default()).unwrap_err();
        assert!(
            err.to_string().contains("word/document.xml inflates"),
            "{err}"
        );
    }

    #[test]
    fn archive_over_the_unpacked_budget_is_refused() {
        let bytes = fixture_bytes("report.docx");
        let limits = DocLimits {
            max_unpacked_bytes: 1000,
            ..DocLimits::default()
        };
        let err = check_archive("DOCX", &bytes, &limits).unwrap_err();
        assert!(
            err.to_string().contains("over the 1000-byte limit"),
            "{err}"
        );
    }

    #[test]
    fn archive_with_too_many_entries_is_refused() {
        let bytes = fixture_bytes("report.docx");
        let limits = DocLimits {
            max_entries: 3,
            ..DocLimits::default()
        };
        let err = check_archive("DOCX", &bytes, &limits).unwrap_err();
        assert!(
            err.to_string().contains("entries is over the limit of 3"),
            "{err}"
        );
    }
}
