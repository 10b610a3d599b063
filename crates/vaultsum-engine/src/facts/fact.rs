//! What the checker reports: a fact taken from an answer, and why one is not supported.

use std::fmt;
use std::ops::Range;

/// The kinds of fact a reader would act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// A number, with its unit, currency or percent sign when it has one.
    Number,
    /// A calendar date, whole or in part (`3 May 2026`, `May 2026`, `May 3`).
    Date,
    /// A time of day (`15:30`, `3 pm`).
    Time,
    /// A name: a capitalised word or run of words (people, organisations, places, products).
    Name,
    /// A phrase the answer puts in quotation marks.
    Quote,
    /// A wikilink `[[Note#Heading]]`.
    Wikilink,
    /// A web address.
    Url,
    /// A code span.
    Code,
}

impl FactKind {
    /// Whether the kind counts as a named entity for entity precision (Nan et al. 2021 count
    /// the named entities of a summary: people, organisations, places, dates, times, amounts).
    pub fn is_entity(self) -> bool {
        matches!(
            self,
            FactKind::Number | FactKind::Date | FactKind::Time | FactKind::Name
        )
    }

    /// The kind's name as reported (`number`, `date`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            FactKind::Number => "number",
            FactKind::Date => "date",
            FactKind::Time => "time",
            FactKind::Name => "name",
            FactKind::Quote => "quote",
            FactKind::Wikilink => "wikilink",
            FactKind::Url => "url",
            FactKind::Code => "code",
        }
    }
}

impl fmt::Display for FactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One checkable fact of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// What kind of fact it is.
    pub kind: FactKind,
    /// The fact as the answer writes it (`4,200 euros`, `Luis`, `[[Budget]]`).
    pub text: String,
    /// Where it is in the answer (bytes).
    pub span: Range<usize>,
}

/// Why a fact was not found in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The value occurs nowhere in the source, in any of its written forms.
    NotInSource,
    /// The value occurs, but never as a percentage.
    NotAPercentageInSource,
    /// The value occurs, but never with this currency, and the source names no such currency.
    OtherCurrency,
    /// The value occurs, but only with another unit (`3 weeks` where the source says `3 days`).
    OtherUnit,
    /// The date's day, month or year differs from every date of the source.
    NoSuchDate,
    /// The name's words occur, but not together.
    WordsApart,
    /// The note the link names is neither linked nor embedded in the source.
    NotLinkedInSource,
    /// The note is linked, but the heading the link names is not in the source.
    NoSuchHeading,
}

impl Reason {
    /// The reason in words, for people and for the corrective request.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotInSource => "not in the note",
            Reason::NotAPercentageInSource => "the note has this number, but not as a percentage",
            Reason::OtherCurrency => "the note has this amount, but not in this currency",
            Reason::OtherUnit => "the note has this number, but with another unit",
            Reason::NoSuchDate => "no such date in the note",
            Reason::WordsApart => "the note has these words, but not together as one name",
            Reason::NotLinkedInSource => "the note neither links nor embeds this note",
            Reason::NoSuchHeading => "no such heading in the note",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fact of the answer the source does not support, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// The fact.
    pub fact: Fact,
    /// Why it was not found.
    pub reason: Reason,
}
