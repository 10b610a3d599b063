//! The parts of a vault's own Obsidian settings (`.obsidian/*.json`) that say which notes are
//! not ordinary notes: the templates folder (core Templates plugin and Templater) and the
//! "Excluded files" list. Unreadable or malformed settings count as absent, as Obsidian itself
//! falls back to its defaults.

use super::Vault;

pub use vaultsum_engine::vault::obsidian_settings::{
    is_settings_file, ObsidianSettings, SETTINGS_FILES,
};

impl Vault {
    /// Reads the vault's Obsidian settings (confined like every other read).
    pub fn obsidian_settings(&self) -> ObsidianSettings {
        let read = |relative: &str| -> Option<String> {
            let (bytes, _) = self.read_confined(relative).ok()?;
            String::from_utf8(bytes).ok()
        };
        let texts = SETTINGS_FILES.map(read);
        ObsidianSettings::from_texts([
            texts[0].as_deref(),
            texts[1].as_deref(),
            texts[2].as_deref(),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let vault = Vault::open(dir.path()).unwrap();
        (dir, vault)
    }

    #[test]
    fn templates_folders_of_core_plugin_and_templater_and_excluded_files_are_read() {
        let (_dir, vault) = vault_with(&[
            (".obsidian/templates.json", r#"{"folder":"/Templates/"}"#),
            (
                ".obsidian/plugins/templater-obsidian/data.json",
                r#"{"templates_folder":"Meta/Templater"}"#,
            ),
            (
                ".obsidian/app.json",
                r#"{"userIgnoreFilters":["Archive/","/^Inbox/.*draft/"]}"#,
            ),
        ]);
        let settings = vault.obsidian_settings();
        assert_eq!(settings.template_folders, ["Templates", "Meta/Templater"]);
        assert_eq!(settings.excluded_files, ["Archive/", "/^Inbox/.*draft/"]);
        assert!(is_settings_file(".obsidian/app.json"));
        assert!(!is_settings_file("app.json"));
    }

    #[test]
    fn malformed_obsidian_settings_are_ignored() {
        let (_dir, vault) = vault_with(&[
            (".obsidian/app.json", "{broken"),
            (".obsidian/templates.json", r#"{"folder": 3}"#),
        ]);
        assert_eq!(vault.obsidian_settings(), ObsidianSettings::default());
    }
}
