//! A throwaway vault in a temp folder: write notes, open it as a `Vault`, expand and read back.

use std::path::{Path, PathBuf};

use vaultsum_core::vault::{
    expand_note, ExpandOptions, Expansion, PlaceholderAttachments, Vault, VaultPath,
};

/// The real vault the tests read: the Obsidian Tasks plugin's documentation (MIT, its
/// `LICENSE` beside the notes), vendored in the repository so the suite needs nothing beside
/// the checkout. Read-only: tests that write use `TempVault::real()`. Missing, the test fails.
pub fn real_vault_source() -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/obsidian-tasks-docs");
    assert!(
        source.join("LICENSE").is_file(),
        "the vendored real vault is missing: {}",
        source.display()
    );
    source
}

/// A vault in a temp folder, deleted on drop. The folder also has a sibling `outside/` folder
/// (not part of the vault) for escape tests.
pub struct TempVault {
    dir: tempfile::TempDir,
}

impl TempVault {
    /// An empty vault.
    pub fn new() -> TempVault {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("vault")).expect("vault dir");
        std::fs::create_dir_all(dir.path().join("outside")).expect("outside dir");
        TempVault { dir }
    }

    /// A vault with these `(relative path, content)` files.
    pub fn with(files: &[(&str, &str)]) -> TempVault {
        let vault = TempVault::new();
        for (path, content) in files {
            vault.write(path, content);
        }
        vault
    }

    /// A copy of an existing folder (for read-only real vaults that tests must not touch).
    pub fn copy_of(source: &Path) -> TempVault {
        let vault = TempVault::new();
        for entry in walkdir::WalkDir::new(source)
            .into_iter()
            .filter_map(Result::ok)
        {
            let relative = entry.path().strip_prefix(source).expect("below source");
            let target = vault.root().join(relative);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).expect("copy dir");
            } else if entry.file_type().is_file() {
                std::fs::copy(entry.path(), &target).expect("copy file");
                let mut perms = std::fs::metadata(&target).expect("meta").permissions();
                #[allow(clippy::permissions_set_readonly_false)]
                perms.set_readonly(false);
                std::fs::set_permissions(&target, perms).expect("writable copy");
            }
        }
        vault
    }

    /// A writable copy of the real vault the repository carries (the Obsidian Tasks
    /// documentation, MIT, vendored under `tests/data/`; see `real_vault_source`).
    pub fn real() -> TempVault {
        TempVault::copy_of(&real_vault_source())
    }

    /// The vault root.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("vault")
    }

    /// A folder next to the vault, outside it.
    pub fn outside(&self) -> PathBuf {
        self.dir.path().join("outside")
    }

    /// Writes a file (bytes or text) at a vault-relative path, creating folders.
    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) {
        let path = self.root().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
        std::fs::write(path, content).expect("write file");
    }

    /// Reads a file's bytes back.
    pub fn read(&self, relative: &str) -> Vec<u8> {
        std::fs::read(self.root().join(relative)).expect("read file")
    }

    /// Every file and folder in the vault, hidden ones included, as vault-relative paths (a
    /// folder ends with `/`): what a test compares before and after to see that nothing
    /// appeared or vanished, temp files included.
    pub fn entries(&self) -> std::collections::BTreeSet<String> {
        let root = self.root();
        walkdir::WalkDir::new(&root)
            .min_depth(1)
            .into_iter()
            .map(|entry| {
                let entry = entry.expect("walk the vault");
                let relative = entry.path().strip_prefix(&root).expect("below the root");
                let mut name = relative.to_string_lossy().replace('\\', "/");
                if entry.file_type().is_dir() {
                    name.push('/');
                }
                name
            })
            .collect()
    }

    /// Opens it as a `Vault` (indexes it now), shared as the tools share it.
    pub fn open(&self) -> std::sync::Arc<Vault> {
        std::sync::Arc::new(Vault::open(&self.root()).expect("open vault"))
    }

    /// Expands one note with default options and placeholder attachments.
    pub async fn expand(&self, relative: &str) -> Expansion {
        self.expand_with(relative, ExpandOptions::default()).await
    }

    /// Expands one note with the given options and placeholder attachments.
    pub async fn expand_with(&self, relative: &str, opts: ExpandOptions) -> Expansion {
        let vault = self.open();
        let note: VaultPath = vault.resolve_input(relative).expect("note path");
        expand_note(&vault, &note, &opts, &PlaceholderAttachments)
            .await
            .expect("expand")
    }
}

impl TempVault {
    /// A FIFO (named pipe) at `relative`, with no writer: opening it for reading the ordinary
    /// way blocks forever.
    #[cfg(unix)]
    pub fn fifo(&self, relative: &str) {
        let path = self.root().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", path.display());
    }

    /// A sparse file of `len` bytes at `relative` (all NULs, no disk used).
    pub fn sparse(&self, relative: &str, len: u64) {
        let path = self.root().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        let file = std::fs::File::create(&path).expect("create sparse file");
        file.set_len(len).expect("set_len");
    }
}
