//! What kind of file an embed names, from its extension, and what the summary is told of a
//! file nothing read.

use super::policy::{extension_of, is_note_name};

/// The kind of an embedded file, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttachmentKind {
    /// png jpg jpeg gif webp bmp avif svg: described by a vision model.
    Image,
    /// mp3 m4a wav ogg flac webm 3gp: transcribed.
    Audio,
    /// pdf.
    Pdf,
    /// Word, Excel, PowerPoint and OpenDocument files.
    Office,
    /// Obsidian canvas (`.canvas`).
    Canvas,
    /// mp4 mov mkv avi ogv m4v.
    Video,
    /// Anything else that is not a note.
    Other,
}

impl AttachmentKind {
    /// Every kind.
    pub const ALL: [AttachmentKind; 7] = [
        Self::Image,
        Self::Audio,
        Self::Pdf,
        Self::Office,
        Self::Canvas,
        Self::Video,
        Self::Other,
    ];

    /// The kind of a file name, or `None` for notes (`.md`, `.markdown`, `.txt`, or no extension).
    pub fn of(name: &str) -> Option<AttachmentKind> {
        if is_note_name(name) {
            return None;
        }
        let ext = extension_of(name)?;
        Some(match ext.as_str() {
            "png" | "jpg" | "jpeg" | "gif" | "webp" | "bmp" | "avif" | "svg" => Self::Image,
            "mp3" | "m4a" | "wav" | "ogg" | "flac" | "webm" | "3gp" => Self::Audio,
            "pdf" => Self::Pdf,
            "doc" | "docx" | "xls" | "xlsx" | "ppt" | "pptx" | "odt" | "ods" | "odp" | "rtf" => {
                Self::Office
            }
            "canvas" => Self::Canvas,
            "mp4" | "mov" | "mkv" | "avi" | "ogv" | "m4v" => Self::Video,
            _ => Self::Other,
        })
    }

    /// The word used in labels (`[Embedded image: …]`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Audio => "audio",
            Self::Pdf => "pdf",
            Self::Office => "document",
            Self::Canvas => "canvas",
            Self::Video => "video",
            Self::Other => "file",
        }
    }
}

/// What the model is told of an embedded file that was not turned into text (no model for
/// images or audio, a format nothing reads): its name and why, one line.
pub fn unread_placeholder(relative: &str, kind: AttachmentKind) -> String {
    let what = match kind {
        AttachmentKind::Image => {
            "image; no vision model configured (set FIREWORKS_API_KEY to describe it)"
        }
        AttachmentKind::Audio => {
            "audio; no transcription model configured (set FIREWORKS_API_KEY to transcribe it)"
        }
        AttachmentKind::Pdf => "PDF; not readable",
        AttachmentKind::Office => {
            "office document; only DOCX, PPTX, XLSX and ODS are read (save it in one of those)"
        }
        AttachmentKind::Canvas => "canvas",
        AttachmentKind::Video => "video; not read (only its name is given)",
        AttachmentKind::Other => "file; not readable as text",
    };
    format!("[{relative}: {what}]")
}

/// What an image or recording stands for in a count before a paid run (a rollup's dry run,
/// which pays for nothing): named, not read.
pub fn counted_placeholder(relative: &str, kind: AttachmentKind) -> String {
    format!("({} {relative}: not read for a count)", kind.label())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_extension_case_insensitively() {
        assert_eq!(AttachmentKind::of("a/b.PNG"), Some(AttachmentKind::Image));
        assert_eq!(AttachmentKind::of("talk.webm"), Some(AttachmentKind::Audio));
        assert_eq!(AttachmentKind::of("x.docx"), Some(AttachmentKind::Office));
        assert_eq!(
            AttachmentKind::of("board.canvas"),
            Some(AttachmentKind::Canvas)
        );
        assert_eq!(AttachmentKind::of("clip.mp4"), Some(AttachmentKind::Video));
        assert_eq!(AttachmentKind::of("Note.md"), None);
        assert_eq!(AttachmentKind::of("Note"), None);
    }
}
