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
