//! Vault-relative paths and the rules that keep every read and write inside the vault.

use std::path::{Component, Path, PathBuf};
pub use vaultsum_engine::vault::relative::{is_already_normal, normalize_relative, parent_of};

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

    /// Which file this is on disk, whatever name reached it: names that differ in case or
    /// Unicode form on a file system that ignores both (NTFS, APFS), or hard links, give the
    /// same identity. `None` when the file cannot be looked at (missing, say).
    pub fn identity(&self) -> Option<file_id::FileId> {
        identity_of(&self.absolute)
    }

    /// Whether this is a folder, and [`VaultPath::identity`]: on Unix from one `stat`, where
    /// asking both apart took two for every note a batch is given by name.
    pub fn folder_and_identity(&self) -> (bool, Option<file_id::FileId>) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match std::fs::metadata(&self.absolute) {
                Ok(metadata) => (
                    metadata.is_dir(),
                    Some(file_id::FileId::new_inode(metadata.dev(), metadata.ino())),
                ),
                Err(_) => (false, None),
            }
        }
        #[cfg(not(unix))]
        {
            (self.absolute.is_dir(), self.identity())
        }
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

/// Which file `path` leads to: (device, inode) on Unix, (volume, file index) on Windows.
pub(crate) fn identity_of(path: &Path) -> Option<file_id::FileId> {
    file_id::get_file_id(path).ok()
}

/// True for the forms Windows reads as a place outside the current folder, whatever system
/// this is: a drive (`C:\\x`, `C:/x`, or `C:x`, relative to that drive's folder), a UNC share
/// (`\\\\server\\share`), a device or verbatim path (`\\\\?\\`, `\\\\.\\`), or a path from the
/// root (`\\x`, `/x`). None of them is vault-relative, so each meets the escape rules of an
/// absolute path.
pub fn is_rooted_form(input: &str) -> bool {
    let bytes = input.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    drive || input.starts_with(['/', '\\'])
}

/// Why Windows would not read or write `relative` by that name, if it would not: a segment
/// that is a device name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`, with any
/// extension, in any case), or that ends in a dot or a space (Windows drops them, so `Plan.`
/// would open `Plan`). Checked on Windows before any file is opened; elsewhere such names are
/// ordinary files.
pub fn not_portable(relative: &str) -> Option<String> {
    for segment in relative.split(['/', '\\']) {
        if segment.is_empty() || segment == "." || segment == ".." {
            continue;
        }
        if segment.ends_with('.') || segment.ends_with(' ') {
            return Some(format!("the name {segment:?} ends in a dot or a space"));
        }
        let stem = segment.split('.').next().unwrap_or(segment).trim_end();
        let upper = stem.to_ascii_uppercase();
        let numbered = |prefix: &str| {
            upper.strip_prefix(prefix).is_some_and(|n| {
                matches!(
                    n,
                    "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³"
                )
            })
        };
        if matches!(
            upper.as_str(),
            "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
        ) || numbered("COM")
            || numbered("LPT")
        {
            return Some(format!("{segment:?} is a reserved device name on Windows"));
        }
    }
    None
}

/// Turns an absolute path below `root` into a vault-relative one with forward slashes.
pub(crate) fn relative_below(root: &Path, path: &Path) -> Option<String> {
    // The common case, every file of a walk: `root/a/b/c.md` with nothing to normalize, so it
    // is taken as bytes rather than split into components, compared and joined again (that
    // was 6 % of the instructions of a `vaultsum read` of 1,000 notes). A `\` may be a
    // separator (Windows) and goes the long way, like anything else unusual.
    let tail = path
        .as_os_str()
        .as_encoded_bytes()
        .strip_prefix(root.as_os_str().as_encoded_bytes())
        .and_then(|tail| tail.strip_prefix(b"/"))
        .and_then(|tail| std::str::from_utf8(tail).ok());
    if let Some(text) = tail.filter(|text| is_already_normal(text)) {
        return Some(text.to_string());
    }
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
/// nearest existing ancestor is inside the vault. On Windows, a name Windows would read as
/// something else ([`not_portable`]) is refused before anything is opened.
pub(crate) fn confine(root: &Path, relative: &str) -> Result<PathBuf, VaultError> {
    #[cfg(windows)]
    if let Some(reason) = not_portable(relative) {
        return Err(VaultError::NotPortable {
            path: relative.to_string(),
            reason,
        });
    }
    let joined = root.join(relative);
    match dunce::canonicalize(&joined) {
        Ok(real) if real.starts_with(root) => Ok(real),
        Ok(_) => Err(VaultError::Escapes(relative.to_string())),
        Err(_) => {
            // The file does not exist (yet); its folder must not lead out of the vault.
            let mut ancestor = joined.parent();
            while let Some(dir) = ancestor {
                if let Ok(real) = dunce::canonicalize(dir) {
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
    fn relative_below_gives_forward_slashes_and_refuses_what_leaves_the_root() {
        let root = Path::new("/vault");
        let below = |path: &str| relative_below(root, Path::new(path));
        assert_eq!(
            below("/vault/a/b c/Note.md").as_deref(),
            Some("a/b c/Note.md")
        );
        assert_eq!(
            below("/vault/a/./b/Note.md").as_deref(),
            Some("a/b/Note.md")
        );
        assert_eq!(below("/vault/a//b/Note.md").as_deref(), Some("a/b/Note.md"));
        assert_eq!(below("/vault/a/../b.md"), None);
        assert_eq!(below("/elsewhere/b.md"), None);
        assert_eq!(below("/vault").as_deref(), Some(""));
        #[cfg(windows)]
        assert_eq!(
            relative_below(Path::new(r"C:\vault"), Path::new(r"C:\vault\a\b.md")).as_deref(),
            Some("a/b.md")
        );
    }

    #[test]
    fn normalize_applies_dot_dot_inside_the_vault() {
        assert_eq!(
            normalize_relative("a/./b/../c.md").as_deref(),
            Some("a/c.md")
        );
        assert_eq!(normalize_relative("/a//b.md").as_deref(), Some("a/b.md"));
    }

    #[test]
    fn backslashes_separate_folders_on_every_system() {
        assert_eq!(
            normalize_relative("Projects\\Apollo\\Plan.md").as_deref(),
            Some("Projects/Apollo/Plan.md")
        );
        assert_eq!(
            normalize_relative("a\\..\\b/c.md").as_deref(),
            Some("b/c.md")
        );
        assert_eq!(normalize_relative("..\\..\\x.md"), None);
    }

    #[test]
    fn windows_absolute_forms_are_rooted_on_every_system() {
        for rooted in [
            "C:\\Windows\\win.ini",
            "c:/Windows/win.ini",
            "C:relative.md",
            "\\\\server\\share\\x.md",
            "\\\\?\\C:\\x.md",
            "\\\\.\\PhysicalDrive0",
            "\\Windows\\win.ini",
            "/etc/passwd",
        ] {
            assert!(is_rooted_form(rooted), "{rooted}");
        }
        for relative in [
            "Projects/Plan.md",
            "Projects\\Plan.md",
            "C",
            "Café.md",
            "a.b:c.md",
        ] {
            assert!(!is_rooted_form(relative), "{relative}");
        }
    }

    #[test]
    fn device_names_and_trailing_dots_are_not_portable() {
        for bad in [
            "CON",
            "con.md",
            "Folder/NUL.txt",
            "aux.tar.md",
            "COM1.md",
            "lpt9",
            "Plan.",
            "Plan ",
            "Folder./x.md",
            "Notes\\PRN.md",
        ] {
            assert!(not_portable(bad).is_some(), "{bad}");
        }
        for good in [
            "Console.md",
            "CON2.md",
            "COM10.md",
            "Null.md",
            "a.b.md",
            ".obsidian/x.md",
            "Plan.md",
        ] {
            assert_eq!(not_portable(good), None, "{good}");
        }
    }

    #[test]
    fn normalize_refuses_climbing_above_the_root() {
        assert_eq!(normalize_relative("../x.md"), None);
        assert_eq!(normalize_relative("a/../../x.md"), None);
    }
}
