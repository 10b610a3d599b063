//! The parts of a vault's own Obsidian settings (`.obsidian/*.json`) that say which notes are
//! not ordinary notes: the templates folder (core Templates plugin and Templater) and the
//! "Excluded files" list. Unreadable or malformed settings count as absent, as Obsidian itself
//! falls back to its defaults.

use serde_json::Value;

use super::Vault;

/// The settings files read here, vault-relative: a change to one of them means re-reading.
pub const SETTINGS_FILES: [&str; 3] = [
    ".obsidian/app.json",
    ".obsidian/templates.json",
    ".obsidian/plugins/templater-obsidian/data.json",
];

/// What the vault's Obsidian settings say about its notes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObsidianSettings {
    /// Vault-relative template folders, without leading or trailing `/`.
    pub template_folders: Vec<String>,
    /// The "Excluded files" entries (`userIgnoreFilters`) as written: a `/regex/` or a path prefix.
    pub excluded_files: Vec<String>,
}

/// True for one of the [`SETTINGS_FILES`].
pub fn is_settings_file(relative: &str) -> bool {
    SETTINGS_FILES.contains(&relative)
}

impl Vault {
    /// Reads the vault's Obsidian settings (confined like every other read).
    pub fn obsidian_settings(&self) -> ObsidianSettings {
        let read_json = |relative: &str| -> Option<Value> {
            let (bytes, _) = self.read_confined(relative).ok()?;
            serde_json::from_slice(&bytes).ok()
        };
        let mut template_folders = Vec::new();
        for (file, key) in [
            (SETTINGS_FILES[1], "folder"),
            (SETTINGS_FILES[2], "templates_folder"),
        ] {
            if let Some(folder) = read_json(file)
                .as_ref()
                .and_then(|v| v.get(key))
                .and_then(Value::as_str)
            {
                let folder = folder.trim().trim_matches('/');
                if !folder.is_empty() {
                    template_folders.push(folder.to_string());
                }
            }
        }
        let excluded_files = read_json(SETTINGS_FILES[0])
            .as_ref()
            .and_then(|v| v.get("userIgnoreFilters"))
            .and_then(Value::as_array)
            .map(|filters| {
                filters
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        ObsidianSettings {
            template_folders,
            excluded_files,
        }
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
