//! The note index built from the disk: [`build`] walks the vault and fills the engine's
//! [`NoteIndex`] (its lookup and resolution rules live in `vaultsum_engine::vault::index`).

use std::path::Path;

pub use vaultsum_engine::vault::index::{lookup_key, NoteIndex};

use super::walk::{count_by_reason, scan_files, Listing};

/// Walks the vault once (see [`super::walk`]: hidden folders skipped as Obsidian does,
/// symlinked folders not followed, so the walk cannot leave the vault). Every name is
/// indexed, a FIFO or a symlink out of the vault too, so a link to one resolves and the
/// read says why it is refused; what cannot be named (not UTF-8) or listed (a folder it may
/// not open) is left out, its count by reason logged (shown with `-v`; each entry with
/// `-vv`: the scans a command makes name them at `-v` already).
pub fn build(root: &Path) -> NoteIndex {
    let mut index = NoteIndex::default();
    let scan = scan_files(root, root, Listing::Names, |_| true);
    for file in scan.files {
        index.insert(&file.relative);
    }
    if !scan.left_out.is_empty() {
        let counts: Vec<String> = count_by_reason(&scan.left_out)
            .into_iter()
            .map(|(reason, count)| format!("{count} {reason}"))
            .collect();
        tracing::info!(
            "note index: {} left out ({})",
            scan.left_out.len(),
            counts.join(", ")
        );
    }
    for entry in &scan.left_out {
        tracing::debug!("left out of the note index: {}", entry.describe());
    }
    index
}
