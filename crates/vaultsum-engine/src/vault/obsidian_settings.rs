//! The parts of a vault's own Obsidian settings (`.obsidian/*.json`) that say which notes are
//! not ordinary notes: the templates folder (core Templates plugin and Templater) and the
//! "Excluded files" list, read from the files' texts (the host reads them). Unreadable or
//! malformed settings count as absent, as Obsidian itself falls back to its defaults.

use serde_json::Value;

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

impl ObsidianSettings {
    /// From the texts of the [`SETTINGS_FILES`], in their order (`None`: absent or unreadable).
    pub fn from_texts(texts: [Option<&str>; 3]) -> ObsidianSettings {
        let read_json =
            |index: usize| -> Option<Value> { serde_json::from_str(texts[index]?).ok() };
        let mut template_folders = Vec::new();
        for (file, key) in [(1, "folder"), (2, "templates_folder")] {
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
        let excluded_files = read_json(0)
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
