//! Saying what a scan left out (`vault/walk.rs` decides what and why): one line on stderr
//! with the count by reason, `vaultsum: 2 entries left out of the scan (1 outside the vault,
//! 1 symlink loop); -v names each`, and with `-v` a line per entry,
//! `vaultsum: left out Projects/link-out.md (outside the vault)`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::tools::left_out::LeftOut;

/// Prints the count line (unless `quiet`) and, with `verbose`, each entry; nothing when
/// nothing was left out.
pub fn report<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>, verbose: u8, quiet: bool) {
    let entries: Vec<(&str, &str)> = entries.into_iter().collect();
    if entries.is_empty() || quiet {
        return;
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, reason) in &entries {
        *counts.entry(reason).or_insert(0) += 1;
    }
    let by_reason: Vec<String> = counts
        .iter()
        .map(|(reason, count)| format!("{count} {reason}"))
        .collect();
    let count = match entries.len() {
        1 => "1 entry".to_string(),
        n => format!("{n} entries"),
    };
    if verbose > 0 {
        for (path, reason) in &entries {
            eprintln!("vaultsum: left out {path} ({reason})");
        }
        eprintln!(
            "vaultsum: {count} left out of the scan ({})",
            by_reason.join(", ")
        );
    } else {
        eprintln!(
            "vaultsum: {count} left out of the scan ({}); -v names each",
            by_reason.join(", ")
        );
    }
}

/// The entries of a scan's own result.
pub fn of_scan(left_out: &[LeftOut]) -> impl Iterator<Item = (&str, &str)> {
    left_out
        .iter()
        .map(|entry| (entry.path.as_str(), entry.reason.describe()))
}

/// The entries a tool's result carries in `details.left_out_entries`.
pub fn of_details(details: &Value) -> impl Iterator<Item = (&str, &str)> {
    details["left_out_entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|entry| Some((entry["path"].as_str()?, entry["reason"].as_str()?)))
}
