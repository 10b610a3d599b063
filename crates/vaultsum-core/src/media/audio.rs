//! Audio: which files are transcribed.

/// Audio extensions sent to the speech-to-text model (lowercase).
pub const AUDIO_EXTENSIONS: &[&str] = &["mp3", "m4a", "wav", "ogg", "flac", "webm", "3gp"];

/// [`AUDIO_EXTENSIONS`] for messages.
pub(crate) const SUPPORTED: &str = "mp3, m4a, wav, ogg, flac, webm, 3gp";

/// Largest audio file sent; Fireworks and OpenAI refuse far smaller uploads anyway.
pub const MAX_AUDIO_BYTES: usize = 200 * 1024 * 1024;

/// Whether the file name has an audio extension (case-insensitive).
pub fn is_audio(file_name: &str) -> bool {
    super::extension(file_name).is_some_and(|ext| AUDIO_EXTENSIONS.contains(&ext.as_str()))
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
