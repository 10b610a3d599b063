//! Notes vaultsum writes for itself (a rollup's `save_to`, a web page summarized into the
//! vault): created whole when absent; when present, rewritten only when it is that generated
//! note (its owner property says so), never a person's note of the same name. Rewriting one
//! replaces its `## Summary` (it is the generated note's own, not a person's) and keeps every
//! other byte a person added to it.

use super::error::VaultError;
use super::frontmatter_edit::{property_value, set_property};
use super::paths::VaultPath;
use super::write::{create_with_summary, write_summary, SummaryEdit, WriteOutcome};
use super::Vault;

/// Which generated note a note must be to be rewritten: its `key` property, and the value it
/// must hold (`None`: any value).
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    /// The property that marks the note as generated (`rollup`, `source`).
    pub key: &'a str,
    /// The value it must hold (the URL of a web page's note); `None` accepts any.
    pub value: Option<&'a str>,
}

impl Owner<'_> {
    /// Whether `note`'s text is that generated note.
    pub fn owns(&self, note: &str) -> bool {
        match property_value(note, self.key) {
            Ok(Some(found)) => self.value.is_none_or(|want| want == found),
            _ => false,
        }
    }
}

/// Writes `edit` into the generated note `note`: a new note made of `properties` (the owner's
/// first) and the summary when there is none; the same note again with its properties set and
/// its summary replaced when `owner` says it is that note; else [`VaultError::NotGenerated`]
/// and nothing written.
pub fn save_generated(
    vault: &Vault,
    note: &VaultPath,
    owner: Owner<'_>,
    properties: &[(&str, &str)],
    edit: &SummaryEdit<'_>,
) -> Result<WriteOutcome, VaultError> {
    let relative = note.relative();
    let mut edit = *edit;
    if let Some(section) = edit.section.as_mut() {
        // The generated note's summary is its own: a new one replaces it.
        section.replace = true;
    }
    match vault.read_note_text(relative) {
        Err(VaultError::NotFound(_)) => {
            let mut seed = String::new();
            for (key, value) in properties {
                seed =
                    set_property(&seed, key, value).map_err(|source| VaultError::Frontmatter {
                        path: relative.to_string(),
                        source,
                    })?;
            }
            create_with_summary(vault, note, &seed, &edit)
        }
        Err(error) => Err(error),
        Ok(text) if !owner.owns(&text) => Err(VaultError::NotGenerated {
            path: relative.to_string(),
            key: owner.key.to_string(),
        }),
        Ok(text) => {
            edit.properties = properties;
            write_summary(vault, note, text.as_bytes(), &edit)
        }
    }
}
