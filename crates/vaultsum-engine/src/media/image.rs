//! Images: which files count, their content types, and the vision request (the binary's and
//! the app's: the same bytes sent by both).

use base64::Engine as _;

use crate::llm::{ChatRequest, UserPart};

/// Image extensions described by the vision model (lowercase).
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "bmp", "avif", "svg"];

/// [`IMAGE_EXTENSIONS`] for messages.
pub const SUPPORTED: &str = "png, jpg, jpeg, gif, webp, bmp, avif, svg";

/// Largest image sent (base64 grows it by a third; providers cap request bodies).
pub const MAX_IMAGE_BYTES: usize = 20 * 1024 * 1024;

/// The system prompt; part of the cache key, so editing it refreshes cached descriptions.
pub const PROMPT: &str = include_str!("prompts/describe_image.md");

/// The output cap of a description request.
pub const DESCRIPTION_MAX_TOKENS: u32 = 4096;

/// The MIME type for an image file name, by extension (case-insensitive).
pub fn image_mime_type(file_name: &str) -> Option<&'static str> {
    let ext = super::extension(file_name)?;
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        "avif" => "image/avif",
        "svg" => "image/svg+xml",
        _ => return None,
    })
}

/// The chat request asking `model` to describe the image `file_name` (as the note names it).
/// Its own output cap: a description is short, whatever the summary's cap.
pub fn describe_request(model: &str, file_name: &str, mime: &str, bytes: &[u8]) -> ChatRequest {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    ChatRequest {
        model: model.to_string(),
        system: PROMPT.to_string(),
        user: vec![
            UserPart::Text(format!("Describe the image `{file_name}`.")),
            UserPart::ImageDataUrl(format!("data:{mime};base64,{data}")),
        ],
        max_tokens: Some(DESCRIPTION_MAX_TOKENS),
        temperature: Some(0.2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_extension_has_its_mime_type() {
        let expected = [
            ("a.png", "image/png"),
            ("a.jpg", "image/jpeg"),
            ("a.JPEG", "image/jpeg"),
            ("a.gif", "image/gif"),
            ("a.webp", "image/webp"),
            ("a.bmp", "image/bmp"),
            ("a.avif", "image/avif"),
            ("dir/a.b.svg", "image/svg+xml"),
        ];
        for (name, mime) in expected {
            assert_eq!(image_mime_type(name), Some(mime), "{name}");
        }
        for ext in IMAGE_EXTENSIONS {
            assert!(image_mime_type(&format!("x.{ext}")).is_some(), "{ext}");
        }
    }

    #[test]
    fn other_files_are_not_images() {
        assert_eq!(image_mime_type("notes.md"), None);
        assert_eq!(image_mime_type("png"), None);
        assert_eq!(image_mime_type("a.tiff"), None);
    }
}
