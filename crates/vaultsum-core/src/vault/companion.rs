//! Where the summary of a document goes: a companion note beside it.
//!
//! A PDF, an office file, a recording or a canvas cannot carry a `## Summary` itself, so
//! `summarize_file` on one writes into its companion note: `<file name> (summary).md` in the
//! same folder (`Papers/attention.pdf` → `Papers/attention.pdf (summary).md`). The name keeps
//! the document's extension, so `plan.pdf` and `plan.docx` never share a companion, and it
//! cannot be mistaken for the document in a link. A new companion starts with an embed of the
//! document by its full path (`![[Papers/attention.pdf]]`), which is also how an existing note
//! at that name is recognised as the companion: a note there that does not embed the document
//! is someone else's, and is never written.

use super::attachment::AttachmentKind;
use super::markdown::{map_note, EmbedSyntax};
use crate::media::document::DocumentKind;

/// True when `relative` is a file whose summary goes to a companion note: a document vaultsum
/// reads as text (PDF, office files, CSV/TSV, canvases) or a recording.
pub fn has_companion(relative: &str) -> bool {
    DocumentKind::from_file_name(relative).is_some()
        || AttachmentKind::of(relative) == Some(AttachmentKind::Audio)
}

/// The vault-relative path of the companion note of the document at `relative`.
pub fn companion_path(relative: &str) -> String {
    format!("{relative} (summary).md")
}

/// The first content of a new companion note: an embed of the document by its full path.
pub fn companion_seed(relative: &str) -> String {
    format!("![[{relative}]]\n")
}

/// True when the note `text` embeds the document at `relative` (by its full path or, as
/// Obsidian also resolves it, by its file name): the note is that document's companion.
pub fn is_companion_of(text: &str, relative: &str) -> bool {
    let file_name = relative.rsplit('/').next().unwrap_or(relative);
    map_note(text).embeds.iter().any(|embed| {
        let target = match embed.syntax {
            EmbedSyntax::Wiki => embed.target.split(['|', '#']).next().unwrap_or(""),
            EmbedSyntax::Markdown => embed.target.split('#').next().unwrap_or(""),
            _ => "",
        };
        let target = target.trim();
        target == relative || target == file_name
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_recordings_and_canvases_have_companions_notes_and_images_do_not() {
        for path in [
            "a/paper.PDF",
            "deck.pptx",
            "call.m4a",
            "board.canvas",
            "t.tsv",
        ] {
            assert!(has_companion(path), "{path}");
        }
        for path in ["Note.md", "pic.png", "clip.mp4", "x.doc", "README"] {
            assert!(!has_companion(path), "{path}");
        }
    }

    #[test]
    fn the_companion_is_beside_the_document_and_keeps_its_extension() {
        assert_eq!(
            companion_path("Papers/attention.pdf"),
            "Papers/attention.pdf (summary).md"
        );
        assert_ne!(companion_path("plan.pdf"), companion_path("plan.docx"));
    }

    #[test]
    fn a_companion_embeds_its_document_an_unrelated_note_does_not() {
        let seed = companion_seed("Papers/attention.pdf");
        assert!(is_companion_of(&seed, "Papers/attention.pdf"));
        assert!(is_companion_of(
            "Notes\n\n![[attention.pdf#page=2]]\n",
            "Papers/attention.pdf"
        ));
        assert!(!is_companion_of(
            "My own thoughts on attention.pdf, no embed.\n",
            "Papers/attention.pdf"
        ));
        assert!(!is_companion_of("![[other.pdf]]\n", "Papers/attention.pdf"));
    }
}
