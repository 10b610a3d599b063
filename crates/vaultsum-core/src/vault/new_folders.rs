//! Folders vaultsum creates for a note it generates (a rollup's or a web page's `save_to`),
//! where a person naming the new note's place expects it to land, folder and all: only inside
//! the vault's own folders, never through a symlink (an existing folder on the way that is a
//! symlink refuses the creation, wherever it leads), never a hidden folder (`.obsidian/`,
//! `.trash/`, …). On Linux each folder is made with `mkdirat` in its parent opened beneath
//! the root with no symlink allowed (`openat2`), so nothing swapped in between a check and
//! the creation can send it elsewhere; elsewhere the check is made again just before each
//! folder is created.

use std::path::Path;

use super::error::VaultError;
use super::policy::hidden_part;
use super::Vault;

/// The folders of the vault-relative, normalised `folder` that do not exist yet, outermost
/// first (`["Reviews", "Reviews/2026"]`), after checking that they may be created: no hidden
/// part, every existing folder on the way a real folder (not a symlink, not a file). Empty
/// when `folder` exists (whatever leads there: no folder is made).
pub fn missing_folders(vault: &Vault, folder: &str) -> Result<Vec<String>, VaultError> {
    let folder = folder.trim_matches('/');
    if folder.is_empty() {
        return Ok(Vec::new());
    }
    let mut so_far = String::new();
    let mut symlink_on_the_way: Option<String> = None;
    let mut missing = Vec::new();
    for part in folder.split('/') {
        if !so_far.is_empty() {
            so_far.push('/');
        }
        so_far.push_str(part);
        if !missing.is_empty() {
            missing.push(so_far.clone());
            continue;
        }
        match std::fs::symlink_metadata(vault.root().join(&so_far)) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                if std::fs::metadata(vault.root().join(&so_far)).is_ok_and(|m| m.is_dir()) {
                    symlink_on_the_way.get_or_insert_with(|| so_far.clone());
                } else {
                    return Err(VaultError::NotAFolder(so_far));
                }
            }
            Ok(metadata) if metadata.is_dir() => {}
            Ok(_) => return Err(VaultError::NotAFolder(so_far)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                missing.push(so_far.clone())
            }
            Err(error) => return Err(VaultError::io("look at", &so_far, error)),
        }
    }
    if missing.is_empty() {
        return Ok(missing);
    }
    if let Some(dir) = hidden_part(folder) {
        return Err(VaultError::ForbiddenFolder {
            dir: dir.to_string(),
            path: format!("{folder}/"),
        });
    }
    if let Some(link) = symlink_on_the_way {
        return Err(VaultError::FolderThroughSymlink {
            folder: folder.to_string(),
            link,
        });
    }
    Ok(missing)
}

/// Creates the missing folders of `folder` (see [`missing_folders`], checked again here) and
/// returns them, outermost first. A folder another program creates meanwhile is taken as it
/// is, if it is a real folder.
pub fn create_missing_folders(vault: &Vault, folder: &str) -> Result<Vec<String>, VaultError> {
    let missing = missing_folders(vault, folder)?;
    for relative in &missing {
        create_one(vault, relative)?;
    }
    Ok(missing)
}

/// Makes the folder `relative` in its parent, which exists and is a real folder.
fn create_one(vault: &Vault, relative: &str) -> Result<(), VaultError> {
    let (parent, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    let made = |result: std::io::Result<()>| match result {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            let metadata = std::fs::symlink_metadata(vault.root().join(relative))
                .map_err(|e| VaultError::io("create the folder", relative, e))?;
            if metadata.is_dir() {
                Ok(())
            } else {
                Err(VaultError::NotAFolder(relative.to_string()))
            }
        }
        Err(error) => Err(VaultError::io("create the folder", relative, error)),
    };
    #[cfg(target_os = "linux")]
    if let Some(folder) = vault.confined.folder_beneath(parent) {
        let folder = folder.map_err(|e| VaultError::io("open the folder", parent, e))?;
        let mode = rustix::fs::Mode::from_raw_mode(0o755);
        return made(rustix::fs::mkdirat(&folder, name, mode).map_err(std::io::Error::from));
    }
    let _ = (parent, name);
    // Without `openat2`: the path is checked again just before, and made by path.
    if missing_folders(vault, relative)?.last().map(String::as_str) != Some(relative) {
        return Ok(());
    }
    made(std::fs::create_dir(vault.root().join(Path::new(relative))))
}
