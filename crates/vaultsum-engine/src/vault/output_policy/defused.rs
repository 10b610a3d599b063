//! What the output policy changed in one text, counted by kind: `details.defused`.

use serde::Serialize;

/// Counts of what the output policy made inert, by kind. Serialised with the kinds that
/// occurred only (`{"remote_images": 1, "links": 2}`; `{}` when nothing was changed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Defused {
    /// Images from outside the vault (they load by themselves): a marker or a plain link now.
    #[serde(skip_serializing_if = "is_zero")]
    pub remote_images: usize,
    /// Raw HTML (blocks and inline tags), escaped so it shows as text.
    #[serde(skip_serializing_if = "is_zero")]
    pub html: usize,
    /// Links whose URL occurs nowhere in the source, or that act when clicked
    /// (`obsidian:`, `javascript:`, …): text or a code span now.
    #[serde(skip_serializing_if = "is_zero")]
    pub links: usize,
    /// Fenced code blocks outside the display languages, re-tagged `text`.
    #[serde(skip_serializing_if = "is_zero")]
    pub code_blocks: usize,
    /// Inline code a Dataview query would run (`= …`, `$= …`), written as text.
    #[serde(skip_serializing_if = "is_zero")]
    pub inline_code: usize,
    /// Templater tags (`<%`), broken.
    #[serde(skip_serializing_if = "is_zero")]
    pub templater: usize,
    /// Invisible characters removed (Unicode tags, zero-width, bidi controls, control
    /// characters).
    #[serde(skip_serializing_if = "is_zero")]
    pub invisible: usize,
    /// A leading `---` block that would have become a note's frontmatter, dropped.
    #[serde(skip_serializing_if = "is_zero")]
    pub frontmatter: usize,
    /// Markup dropped from the summary property (it is plain text).
    #[serde(skip_serializing_if = "is_zero")]
    pub property_markup: usize,
    /// Embeds (`![[…]]`), written as links: a summary shows no file by itself.
    #[serde(skip_serializing_if = "is_zero")]
    pub embeds: usize,
    /// `$` escaped because the summary held a command that is not typesetting (`\href`, …).
    #[serde(skip_serializing_if = "is_zero")]
    pub math: usize,
    /// Link reference definitions (`[x]: url`), written as text.
    #[serde(skip_serializing_if = "is_zero")]
    pub definitions: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Defused {
    /// Whether nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// How many changes of every kind.
    pub fn total(&self) -> usize {
        self.remote_images
            + self.html
            + self.links
            + self.code_blocks
            + self.inline_code
            + self.templater
            + self.invisible
            + self.frontmatter
            + self.property_markup
            + self.embeds
            + self.math
            + self.definitions
    }

    /// The counts of `self` and `other` together (a section and a property written at once).
    pub fn plus(self, other: Defused) -> Defused {
        Defused {
            remote_images: self.remote_images + other.remote_images,
            html: self.html + other.html,
            links: self.links + other.links,
            code_blocks: self.code_blocks + other.code_blocks,
            inline_code: self.inline_code + other.inline_code,
            templater: self.templater + other.templater,
            invisible: self.invisible + other.invisible,
            frontmatter: self.frontmatter + other.frontmatter,
            property_markup: self.property_markup + other.property_markup,
            embeds: self.embeds + other.embeds,
            math: self.math + other.math,
            definitions: self.definitions + other.definitions,
        }
    }

    /// The report as `details.defused` carries it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|_| serde_json::json!({}))
    }
}
