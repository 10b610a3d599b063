//! A note's text with its Markdown map, parsed once and shared by every embed of it.

use super::markdown::{map_note, NoteMap};

/// A note's text and its spans.
#[derive(Debug)]
pub struct ParsedNote {
    /// The text (invalid UTF-8 replaced).
    pub source: String,
    /// Its spans.
    pub map: NoteMap,
}

impl ParsedNote {
    /// Parses a note's text.
    pub fn new(source: String) -> ParsedNote {
        ParsedNote {
            map: map_note(&source),
            source,
        }
    }
}
