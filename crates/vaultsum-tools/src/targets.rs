//! Turning the paths a person types into the notes a batch command works on: a folder stands
//! for every note below it (hidden folders, `.obsidian/` and `.trash/` left out).

use walkdir::WalkDir;

use super::context::{ContextError, ToolContext};

/// Note extensions a batch over a folder picks up.
const NOTE_EXTENSIONS: [&str; 3] = ["md", "markdown", "txt"];

impl ToolContext {
    /// Expands each input: a file stays as it is (checked later by the tool), a folder becomes
    /// its notes in path order. Order of inputs is kept; duplicates are dropped.
    pub fn expand_targets(&self, inputs: &[String]) -> Result<Vec<String>, ContextError> {
        let vault = self.vault()?;
        let mut out: Vec<String> = Vec::new();
        for input in inputs {
            let path = vault.resolve_input(input)?;
            if !path.absolute().is_dir() {
                push_unique(&mut out, input.clone());
                continue;
            }
            let mut notes: Vec<String> = WalkDir::new(path.absolute())
                .follow_links(false)
                .into_iter()
                .filter_entry(|e| {
                    e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.')
                })
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .filter(|e| {
                    e.path()
                        .extension()
                        .and_then(|x| x.to_str())
                        .is_some_and(|x| NOTE_EXTENSIONS.contains(&x.to_ascii_lowercase().as_str()))
                })
                .filter_map(|e| {
                    e.path()
                        .strip_prefix(vault.root())
                        .ok()
                        .map(|p| p.to_string_lossy().replace('\\', "/"))
                })
                .collect();
            notes.sort();
            for note in notes {
                push_unique(&mut out, note);
            }
        }
        Ok(out)
    }
}

fn push_unique(out: &mut Vec<String>, item: String) {
    if !out.contains(&item) {
        out.push(item);
    }
}
