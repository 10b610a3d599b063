//! Notes the tools write for themselves: a rollup's `save_to` note, a web page's summary saved
//! into the vault. Where such a note may go
//! and how it is written is the vault layer's (`vault/generated_note.rs`: created whole, or
//! rewritten only when it is that generated note, and then only where its summary is as
//! vaultsum wrote it); this file names each kind's owner property and checks a target before
//! any paid call.

use crate::config::SummaryInto;
use crate::vault::generated_note::{check_own, save_generated, Owner};
use crate::vault::new_folders::{create_missing_folders, missing_folders};
use crate::vault::policy::is_note_name;
use crate::vault::write::{check_writable, PropertyEdit, SectionEdit, SummaryEdit};
use crate::vault::{DefusedText, VaultError};

use super::context::{ContextError, ToolContext};

pub use crate::summary::rollup::selection::{is_rollup_note, ROLLUP_OWNER};
/// The property that marks a web page's note: the page's URL.
pub const WEB_OWNER: &str = "source";
/// The property of a web page's note that says when it was summarized (`YYYY-MM-DD`).
pub const WEB_DATE: &str = "summarized";

/// Which generated note a `save_to` must be, when it exists.
#[derive(Debug, Clone, Copy)]
pub enum GeneratedKind<'a> {
    /// Any rollup's note (a `rollup` property).
    Rollup,
    /// The note of this web page (a `source` property holding its URL).
    WebPage { url: &'a str },
}

impl<'a> GeneratedKind<'a> {
    fn owner(&self) -> Owner<'a> {
        match self {
            GeneratedKind::Rollup => Owner {
                key: ROLLUP_OWNER,
                value: None,
            },
            GeneratedKind::WebPage { url } => Owner {
                key: WEB_OWNER,
                value: Some(*url),
            },
        }
    }
}

impl ToolContext {
    /// The vault path of a note to generate (`save_to`), refused before any paid call when it
    /// is outside the vault, not a note name, in a hidden folder, in a missing folder that may
    /// not be created (through a symlink, hidden), read-only, or an existing note that is not
    /// that `kind` of generated note. Reads the disk.
    pub fn check_generated_target(
        &self,
        input: &str,
        kind: GeneratedKind<'_>,
    ) -> Result<String, ContextError> {
        let vault = self.vault()?;
        let path = vault.resolve_input(input)?;
        let relative = path.relative().to_string();
        if !is_note_name(&relative) {
            return Err(VaultError::NotANote(relative).into());
        }
        // A missing folder is created at the write, when it may be (`vault/new_folders.rs`).
        missing_folders(vault, folder_of(&relative))?;
        match vault.read_note_text(&relative) {
            Ok(text) => {
                check_writable(vault, &path)?;
                let owner = kind.owner();
                if !owner.owns(&text) {
                    return Err(VaultError::NotGenerated {
                        path: relative,
                        key: owner.key.to_string(),
                    }
                    .into());
                }
            }
            Err(VaultError::NotFound(_)) => {}
            Err(error) => return Err(error.into()),
        }
        Ok(relative)
    }

    /// Refuses, before any paid call, a rewrite of the generated note `target` (when it exists)
    /// that would replace a part a person edited: its `## Summary` when `into` writes the
    /// section, its summary property when `into` writes the property (see
    /// `vault/generated_note.rs: check_own`). The write checks again. Reads the disk.
    pub fn check_generated_rewrite(
        &self,
        target: &str,
        into: SummaryInto,
    ) -> Result<(), ContextError> {
        let Some(text) = self.note_text(target)? else {
            return Ok(());
        };
        let property = into
            .property()
            .then_some(self.config.summarize.property.as_str());
        check_own(target, &text, into.section(), property).map_err(VaultError::from)?;
        Ok(())
    }

    /// Writes a rollup into its `save_to` note `target`: `rollup` as its `## Summary` and/or
    /// `abstract_text` as its summary property, with `rollup: "<what>"` marking it as the
    /// rollup's. Returns the folders created for it (outermost first). Reads and writes the
    /// disk.
    pub fn save_rollup(
        &self,
        target: &str,
        what: &str,
        rollup: &DefusedText,
        abstract_text: Option<&DefusedText>,
        into: SummaryInto,
    ) -> Result<Vec<String>, ContextError> {
        let vault = self.vault()?;
        let note = vault.resolve_input(target)?;
        let created = create_missing_folders(vault, folder_of(note.relative()))?;
        let property = &self.config.summarize.property;
        let none = self.output_policy().property("", &Default::default());
        let abstract_text = abstract_text.unwrap_or(&none);
        let properties = [(ROLLUP_OWNER, what)];
        let edit = SummaryEdit {
            // The marks that show what vaultsum wrote are added by `save_generated`.
            section: into.section().then_some(SectionEdit {
                summary: rollup,
                marker: None,
                replace: false,
            }),
            property: into.property().then_some(PropertyEdit {
                key: property,
                value: abstract_text,
                fingerprint: None,
            }),
            properties: &[],
            generated: true,
        };
        save_generated(
            vault,
            &note,
            GeneratedKind::Rollup.owner(),
            &properties,
            &edit,
        )?;
        Ok(created)
    }

    /// Writes a web page's summary into its note `target`: `source: <url>`, `summarized:
    /// <date>` and the summary under `## Summary`; the same page's earlier note has its own
    /// summary replaced (refused when a person edited it). Returns the folders created for it (outermost first). Reads and writes the
    /// disk.
    pub fn save_web_summary(
        &self,
        target: &str,
        url: &str,
        date: &str,
        summary: &DefusedText,
    ) -> Result<Vec<String>, ContextError> {
        let vault = self.vault()?;
        let note = vault.resolve_input(target)?;
        let created = create_missing_folders(vault, folder_of(note.relative()))?;
        let properties = [(WEB_OWNER, url), (WEB_DATE, date)];
        let edit = SummaryEdit::section(summary, false);
        let owner = GeneratedKind::WebPage { url }.owner();
        save_generated(vault, &note, owner, &properties, &edit)?;
        Ok(created)
    }
}

/// The vault-relative folder of a note (`""` at the root).
fn folder_of(relative: &str) -> &str {
    relative.rsplit_once('/').map_or("", |(folder, _)| folder)
}
