//! Vault-relative paths as text: normalised, and their folder. No file is looked at.

/// Lexically normalises a vault-relative path: drops `.` and empty segments, applies `..`.
///
/// Returns `None` when `..` would climb above the vault root. Both `/` and `\` separate
/// folders on every system (Obsidian allows neither in a name, so a vault written on Windows
/// reads the same on Linux); the result uses `/`.
pub fn normalize_relative(path: &str) -> Option<String> {
    if is_already_normal(path) {
        // The usual case for links and index paths.
        return Some(path.to_string());
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// The folder part of a vault-relative path (`""` for the root).
pub fn parent_of(relative: &str) -> &str {
    relative.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// True when `path` is a vault-relative path with nothing to normalize: `/` separators only,
/// no empty, `.` or `..` segment.
pub fn is_already_normal(path: &str) -> bool {
    !path.contains('\\') && path.split('/').all(|part| !matches!(part, "" | "." | ".."))
}
