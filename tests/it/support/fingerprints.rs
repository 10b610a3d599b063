//! The fingerprint lines a summary carries (`<!-- vaultsum: note=… summary=… -->` under
//! `## Summary`), for tests that check the rest of a written note byte for byte.

/// `text` without its fingerprint comment lines (each with its line end).
pub fn without_fingerprints(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|line| !is_fingerprint_line(line))
        .collect()
}

/// Whether `line` is a summary's fingerprint comment.
pub fn is_fingerprint_line(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("<!-- vaultsum: note=") && line.ends_with("-->")
}

/// How many summaries in `text` carry a fingerprint line.
pub fn fingerprint_count(text: &str) -> usize {
    text.lines()
        .filter(|line| is_fingerprint_line(line))
        .count()
}

/// The first fingerprint line of `text`, if it has one: it changes with every summary written
/// of a different note body, so a test can tell a new summary from an old one with equal text.
pub fn first_fingerprint(text: &str) -> Option<&str> {
    text.lines().find(|line| is_fingerprint_line(line))
}
