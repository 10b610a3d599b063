//! Looking at what a run left on disk (cache entries, locks).

use std::path::{Path, PathBuf};

/// Every file under `dir`, at any depth (none when `dir` does not exist).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// `text` through the output policy with an empty source, the only way a test (like any
/// caller) gets text the vault's summary writes accept.
pub fn defused(text: &str) -> vaultsum_core::vault::DefusedText {
    vaultsum_core::vault::OutputPolicy::default()
        .summary(text, &vaultsum_core::vault::SourceLinks::none())
}
