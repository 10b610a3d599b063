//! Notes the tools write for themselves: a rollup's `save_to` note. Where such a note may go
//! and how it is written is the vault layer's (`vault/generated_note.rs`: created whole, or
//! rewritten only when it is that generated note); this file names each kind's owner property
//! and checks a target before any paid call.

use crate::config::SummaryInto;
use crate::vault::generated_note::{save_generated, Owner};
use crate::vault::policy::is_note_name;
use crate::vault::write::{check_writable, PropertyEdit, SectionEdit, SummaryEdit};
use crate::vault::VaultError;

use super::context::{ContextError, ToolContext};

/// The property that marks a rollup's note; its value says what the rollup covers.
pub const ROLLUP_OWNER: &str = "rollup";

impl ToolContext {
    /// The vault path of a note to generate (`save_to`), refused before any paid call when it
    /// is outside the vault, not a note name, in a hidden folder or read-only, or an existing
    /// note that is not a rollup's. Reads the disk.
    pub fn check_generated_target(&self, input: &str) -> Result<String, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        let relative = path.relative().to_string();
        if !is_note_name(&relative) {
            return Err(VaultError::NotANote(relative).into());
        }
        // vaultsum never makes folders in a vault: the person chooses where notes live.
        if let Some((folder, _)) = relative.rsplit_once('/') {
            if !vault.resolve_input(folder)?.absolute().is_dir() {
                return Err(VaultError::NoFolder(folder.to_string()).into());
            }
        }
        match vault.read_note_text(&relative) {
            Ok(text) => {
                check_writable(vault, &path)?;
                let owner = Owner {
                    key: ROLLUP_OWNER,
                    value: None,
                };
                if !owner.owns(&text) {
                    return Err(VaultError::NotGenerated {
                        path: relative,
                        key: ROLLUP_OWNER.to_string(),
                    }
                    .into());
                }
            }
            Err(VaultError::NotFound(_)) => {}
            Err(error) => return Err(error.into()),
        }
        Ok(relative)
    }

    /// Writes a rollup into its `save_to` note `target`: `rollup` as its `## Summary` and/or
    /// `abstract_text` as its summary property, with `rollup: "<what>"` marking it as the
    /// rollup's. Reads and writes the disk.
    pub fn save_rollup(
        &self,
        target: &str,
        what: &str,
        rollup: &str,
        abstract_text: Option<&str>,
        into: SummaryInto,
    ) -> Result<(), ContextError> {
        let vault = self.vault()?;
        let note = vault.resolve_input(target)?;
        let property = &self.config.summarize.property;
        let abstract_text = abstract_text.unwrap_or_default();
        let properties = [(ROLLUP_OWNER, what)];
        let edit = SummaryEdit {
            section: into.section().then_some(SectionEdit {
                summary: rollup,
                marker: None,
                replace: true,
            }),
            property: into.property().then_some(PropertyEdit {
                key: property,
                value: abstract_text,
                fingerprint: None,
            }),
            properties: &[],
        };
        let owner = Owner {
            key: ROLLUP_OWNER,
            value: None,
        };
        save_generated(vault, &note, owner, &properties, &edit)?;
        Ok(())
    }
}
