//! Non-note embeds: what kind of file an attachment is, and who turns it into text.

use super::paths::VaultPath;
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

/// Turns an embedded file into text: a description for an image, a transcript for audio.
///
/// The media layer implements this over the vision and transcription models (caching by
/// content hash outside the vault). Errors are short reasons shown inline in the expansion.
#[async_trait::async_trait]
pub trait AttachmentReader: Send + Sync {
    /// Text for one embedded file. Called at most once per file per expansion.
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String>;

    /// Text for one page of an embedded file (`![[paper.pdf#page=3]]`), or the whole file for
    /// `None`. Readers without pages read the whole file.
    async fn read_attachment_page(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
        page: Option<u32>,
    ) -> Result<String, String> {
        let _ = page;
        self.read_attachment(path, kind).await
    }

    /// Whether this reader handles `kind`; other kinds get a "not supported yet" placeholder
    /// without a call. Images and audio by default.
    fn supports(&self, kind: AttachmentKind) -> bool {
        matches!(kind, AttachmentKind::Image | AttachmentKind::Audio)
    }
}

/// The reader used when no model is configured: a short placeholder naming the file.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlaceholderAttachments;

#[async_trait::async_trait]
impl AttachmentReader for PlaceholderAttachments {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        let what = match kind {
            AttachmentKind::Image => "no vision model configured",
            AttachmentKind::Audio => "no transcription model configured",
            _ => "not supported yet",
        };
        Ok(format!("({} {}: {})", kind.label(), path.relative(), what))
    }
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
