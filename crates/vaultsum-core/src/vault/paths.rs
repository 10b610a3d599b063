//! Vault-relative paths and the rules that keep every read and write inside the vault.

use std::path::{Component, Path, PathBuf};

use super::error::VaultError;

use super::policy::{hidden_part, is_note_name};

/// A file inside the vault: its vault-relative name and where it really is on disk.
///
/// Only [`crate::vault::Vault`] creates these, after checking the path stays inside the vault.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VaultPath {
    pub(crate) relative: String,
    pub(crate) absolute: PathBuf,
}

impl VaultPath {
    /// The vault-relative path with forward slashes, as Obsidian shows it (`Projects/Plan.md`).
    pub fn relative(&self) -> &str {
        &self.relative
    }

    /// The file on disk (symlinks inside the vault already followed, so writes replace the
    /// real file and not the link).
    pub fn absolute(&self) -> &Path {
        &self.absolute
    }

    /// True for `.md`, `.markdown` and `.txt` files (case-insensitive).
    pub fn is_note(&self) -> bool {
        is_note_name(&self.relative)
    }

    /// The hidden folder or file (`.obsidian`, `.git`, `.trash`, …) this path lies in, if any.
    pub fn hidden_part(&self) -> Option<&str> {
        hidden_part(&self.relative)
    }
}

impl std::fmt::Display for VaultPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.relative)
    }
}

/// Lexically normalises a vault-relative path: drops `.` and empty segments, applies `..`.
///
/// Returns `None` when `..` would climb above the vault root. Both `/` and the platform
/// separator are accepted; the result uses `/`.
pub fn normalize_relative(path: &str) -> Option<String> {
    let plain = |part: &str| !matches!(part, "" | "." | "..");
    let one_separator =
        std::path::MAIN_SEPARATOR == '/' || !path.contains(std::path::MAIN_SEPARATOR);
    if one_separator && path.split('/').all(plain) {
        // Already normal, the usual case for links and index paths.
        return Some(path.to_string());
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', std::path::MAIN_SEPARATOR]) {
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

/// Turns an absolute path below `root` into a vault-relative one with forward slashes.
pub(crate) fn relative_below(root: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for component in rest.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?.to_string()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Checks that an existing file, once symlinks are followed, is still inside the vault, and
/// returns its real location. A missing file is returned as it is (`root/relative`) provided its
/// nearest existing ancestor is inside the vault.
pub(crate) fn confine(root: &Path, relative: &str) -> Result<PathBuf, VaultError> {
    let joined = root.join(relative);
    match joined.canonicalize() {
        Ok(real) if real.starts_with(root) => Ok(real),
        Ok(_) => Err(VaultError::Escapes(relative.to_string())),
        Err(_) => {
            // The file does not exist (yet); its folder must not lead out of the vault.
            let mut ancestor = joined.parent();
            while let Some(dir) = ancestor {
                if let Ok(real) = dir.canonicalize() {
                    if !real.starts_with(root) {
                        return Err(VaultError::Escapes(relative.to_string()));
                    }
                    break;
                }
                ancestor = dir.parent();
            }
            Ok(joined)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_applies_dot_dot_inside_the_vault() {
        assert_eq!(
            normalize_relative("a/./b/../c.md").as_deref(),
            Some("a/c.md")
        );
        assert_eq!(normalize_relative("/a//b.md").as_deref(), Some("a/b.md"));
    }

    #[test]
    fn normalize_refuses_climbing_above_the_root() {
        assert_eq!(normalize_relative("../x.md"), None);
        assert_eq!(normalize_relative("a/../../x.md"), None);
    }
}
