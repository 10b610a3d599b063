//! What a summary write puts into a note (a `## Summary` section, the summary property, or
//! both) and the note's new bytes with it, composed and checked with no I/O: the binary's
//! writer (`vaultsum-core`'s `vault/write.rs`) writes them with its guarantees (confined opens,
//! rounds against concurrent edits, atomic swaps), the app's engine hands them to
//! `Vault.process`. A write that would lose a byte a person wrote, or put something live into
//! the note, is refused whole ([`EditRefused`]).

use super::frontmatter_edit::{set_property, FrontmatterError};
use super::generated_note::{check_own, own_section, OwnSection};
use super::inert_check::{live_in_property, Live};
use super::output_policy::DefusedText;
use super::summary_fingerprint::fingerprint_property;
use super::summary_section::{self, compose_verified, SectionRefused};

/// Why an edit was refused; nothing is written. The words are the binary's (`VaultError`).
#[derive(Debug, Clone, thiserror::Error)]
pub enum EditRefused {
    /// The summary property cannot be written: the frontmatter does not parse, or is not a set
    /// of properties.
    #[error("refusing to write the summary property of {path}: {source}; the note was left unchanged (fix the frontmatter, or write the summary as a section with --into section)")]
    Frontmatter {
        /// The vault-relative path.
        path: String,
        /// What is wrong with the frontmatter.
        source: FrontmatterError,
    },
    /// A generated note whose own summary is no longer as vaultsum wrote it.
    #[error("{path}: {what}; it was left unchanged so nothing written there is lost: {todo}")]
    GeneratedEdited {
        /// The vault-relative path.
        path: String,
        /// What is not as vaultsum wrote it.
        what: String,
        /// What the person can do.
        todo: &'static str,
    },
    /// A note vaultsum would generate exists and is not that generated note.
    #[error("{path} exists and is not a note vaultsum wrote for this (it has no `{key}` property saying so); it was left unchanged: choose another name, or delete it first")]
    NotGenerated {
        /// The vault-relative path.
        path: String,
        /// The property that marks the generated note.
        key: String,
    },
    /// The note leaves a block open, or something in the bytes would act.
    #[error(transparent)]
    Refused(#[from] SectionRefused),
}

/// What a summary write puts into a note: a `## Summary` section, the summary property, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SummaryEdit<'a> {
    /// The section appended (see [`compose_with_summary`]).
    pub section: Option<SectionEdit<'a>>,
    /// The summary property set in the frontmatter (see `frontmatter_edit.rs`).
    pub property: Option<PropertyEdit<'a>>,
    /// Other properties set (a generated note's own, see `generated_note.rs`).
    pub properties: &'a [(&'a str, &'a str)],
    /// A generated note's rewrite (`generated_note.rs`): the section replaces only the note's
    /// own marked `## Summary` (appended when it has none), the property is set only over its
    /// own marked value, and a part edited by hand refuses the write whole. The section's
    /// `replace` is not read.
    pub generated: bool,
}

/// A `## Summary` section to append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionEdit<'a> {
    /// The summary, never empty, as the output policy made it (`vault/output_policy/`): a
    /// model's answer is never written as it came.
    pub summary: &'a DefusedText,
    /// The fingerprint comment line put right under the heading.
    pub marker: Option<&'a str>,
    /// Remove the note's `## Summary` sections first.
    pub replace: bool,
}

impl SectionEdit<'_> {
    /// Whether another writer put this very section in the note since it was read (`original`):
    /// its fingerprint marker (the hash of the note as summarized and of this summary) under a
    /// `## Summary` heading now, and not then. Another process that summarized the same note
    /// at the same moment, and shared the one paid answer with this one
    /// (`llm/shared_answer.rs`), wrote it first: it is not written twice. Asked again
    /// afterwards, a note gets its summary appended again, as ever (`replace` to swap it).
    fn written_meanwhile(&self, original: &[u8], current: &[u8]) -> bool {
        current != original && self.holds(current) && !self.holds(original)
    }

    fn holds(&self, current: &[u8]) -> bool {
        let Some(marker) = self.marker else {
            return false;
        };
        let heading_then_marker = |newline: &str| format!("## Summary{newline}{marker}{newline}");
        let text = String::from_utf8_lossy(current);
        text.contains(&heading_then_marker("\n")) || text.contains(&heading_then_marker("\r\n"))
    }
}

/// The summary property to set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyEdit<'a> {
    /// The property (`summarize.property`).
    pub key: &'a str,
    /// The abstract, never empty, plain text by the output policy
    /// ([`super::output_policy::OutputPolicy::property`]).
    pub value: &'a DefusedText,
    /// The fingerprint, set in `{key}_fingerprint`.
    pub fingerprint: Option<&'a str>,
}

impl<'a> SummaryEdit<'a> {
    /// A section alone, without a fingerprint: the write of a summary as it was before
    /// fingerprints.
    pub fn section(summary: &'a DefusedText, replace: bool) -> SummaryEdit<'a> {
        SummaryEdit {
            section: Some(SectionEdit {
                summary,
                marker: None,
                replace,
            }),
            property: None,
            properties: &[],
            generated: false,
        }
    }

    /// Whether nothing written is empty.
    pub fn is_empty(&self) -> bool {
        self.section
            .is_none_or(|s| s.summary.as_str().trim().is_empty())
            && self
                .property
                .is_none_or(|p| p.value.as_str().trim().is_empty())
    }

    /// The note's new content: the property set first (only the frontmatter changes), then the
    /// section appended. A frontmatter that does not parse refuses the whole write.
    pub fn compose(
        &self,
        relative: &str,
        original: &[u8],
        current: &[u8],
    ) -> Result<Vec<u8>, EditRefused> {
        if self.generated {
            // Checked on the bytes as they are now, at every round: an edit made while the
            // summary was being made refuses the write as one made before.
            let text = std::str::from_utf8(current).map_err(|_| not_utf8(relative))?;
            check_own(
                relative,
                text,
                self.section.is_some(),
                self.property.map(|property| property.key),
            )?;
        }
        let mut content = current.to_vec();
        let refused = |source| EditRefused::Frontmatter {
            path: relative.to_string(),
            source,
        };
        if !self.properties.is_empty() {
            let mut text = std::str::from_utf8(&content)
                .map_err(|_| {
                    refused(FrontmatterError::Invalid(
                        "the note is not UTF-8".to_string(),
                    ))
                })?
                .to_string();
            for (key, value) in self.properties {
                text = set_property(&text, key, value).map_err(refused)?;
            }
            content = text.into_bytes();
        }
        if let Some(property) = self.property {
            refuse_live(
                relative,
                live_in_property(property.value.as_str(), property.value.links()),
            )?;
            let text = std::str::from_utf8(&content).map_err(|_| {
                refused(FrontmatterError::Invalid(
                    "the note is not UTF-8".to_string(),
                ))
            })?;
            let mut text =
                set_property(text, property.key, property.value.as_str()).map_err(refused)?;
            if let Some(fingerprint) = property.fingerprint {
                text = set_property(&text, &fingerprint_property(property.key), fingerprint)
                    .map_err(refused)?;
            }
            content = text.into_bytes();
        }
        if let Some(section) = self.section {
            if self.generated {
                // The note's own section is replaced where it stands; what follows it stays.
                let text = std::str::from_utf8(&content).map_err(|_| not_utf8(relative))?;
                let (before, after) = match own_section(text) {
                    OwnSection::Intact(range) => (range.start, range.end),
                    OwnSection::Absent => (content.len(), content.len()),
                    // Checked above, on the same bytes but for the properties.
                    OwnSection::Edited(_) | OwnSection::Unmarked => {
                        check_own(relative, text, true, None)?;
                        (content.len(), content.len())
                    }
                };
                content =
                    section.compose_into(relative, &content[..before], &content[after..], false)?;
            } else if !section.written_meanwhile(original, &content) {
                content = section.compose_into(relative, &content, &[], section.replace)?;
            }
        }
        Ok(content)
    }
}

impl SectionEdit<'_> {
    /// `before`, the section composed after it ([`compose_section`]), then `after`, checked by
    /// the verifier as the bytes will be on disk, the note around them.
    fn compose_into(
        &self,
        relative: &str,
        before: &[u8],
        after: &[u8],
        replace: bool,
    ) -> Result<Vec<u8>, EditRefused> {
        Ok(compose_verified(
            relative,
            before,
            after,
            self.summary,
            self.marker,
            replace,
        )?)
    }
}

/// A note that is not UTF-8 cannot have its frontmatter or a generated section edited.
fn not_utf8(relative: &str) -> EditRefused {
    EditRefused::Frontmatter {
        path: relative.to_string(),
        source: FrontmatterError::Invalid("the note is not UTF-8".to_string()),
    }
}

/// A write the verifier found live constructs in is refused whole.
fn refuse_live(relative: &str, live: Vec<Live>) -> Result<(), EditRefused> {
    Ok(summary_section::refuse_live(relative, live)?)
}
