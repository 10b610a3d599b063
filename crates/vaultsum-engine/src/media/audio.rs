//! Audio: which files are transcribed, and the content type each is sent with.

/// Audio extensions sent to the speech-to-text model (lowercase).
pub const AUDIO_EXTENSIONS: &[&str] = &["mp3", "m4a", "wav", "ogg", "flac", "webm", "3gp"];

/// [`AUDIO_EXTENSIONS`] for messages.
pub const SUPPORTED: &str = "mp3, m4a, wav, ogg, flac, webm, 3gp";

/// Largest audio file sent; Fireworks and OpenAI refuse far smaller uploads anyway.
pub const MAX_AUDIO_BYTES: usize = 200 * 1024 * 1024;

/// Whether the file name has an audio extension (case-insensitive).
pub fn is_audio(file_name: &str) -> bool {
    super::extension(file_name).is_some_and(|ext| AUDIO_EXTENSIONS.contains(&ext.as_str()))
}

/// The audio content type for a file name, by extension: Whisper servers use it to detect the
/// format.
pub fn audio_mime(file_name: &str) -> &'static str {
    match super::extension(file_name).as_deref() {
        Some("mp3") => "audio/mpeg",
        Some("m4a" | "mp4") => "audio/mp4",
        Some("wav") => "audio/wav",
        Some("ogg" | "oga" | "opus") => "audio/ogg",
        Some("flac") => "audio/flac",
        Some("webm") => "audio/webm",
        Some("3gp") => "audio/3gpp",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_extensions_are_recognised_case_insensitively() {
        for name in [
            "a.mp3", "a.M4A", "a.wav", "a.ogg", "a.flac", "a.webm", "rec.3gp",
        ] {
            assert!(is_audio(name), "{name}");
        }
        assert!(!is_audio("a.mp4"));
        assert!(!is_audio("mp3"));
    }
}
