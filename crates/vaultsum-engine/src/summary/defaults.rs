//! The settings a person gets without changing any, where the app's engine needs them too:
//! vaultsum-core's configuration starts from these, and the plugin's in-app engine uses them,
//! so a summary made in the app is the one the binary makes with no config file.

/// `summarize.max_chars`: characters of a note's expansion the model is given.
pub const MAX_CHARS: usize = 200_000;
/// `summarize.property`: the frontmatter property a summary's abstract goes to.
pub const SUMMARY_PROPERTY: &str = "summary";
/// `read.max_depth`: how deep embeds inside embeds are followed.
pub const MAX_DEPTH: usize = 5;
/// `read.max_expanded_bytes`: bytes of embedded note text allowed in one expansion.
pub const MAX_EXPANDED_BYTES: usize = 2_000_000;
/// `read.max_note_bytes`: the largest note read (10 MiB); a larger one is refused, as an
/// embed too (`too large to read`).
pub const MAX_NOTE_BYTES: u64 = 10 * 1024 * 1024;
/// `summarize.fact_check`: facts not found get one corrective request, then are marked.
pub const FACT_CHECK: &str = "retry";
/// `summarize.cite_sections`: key points do not link the sections they come from.
pub const CITE_SECTIONS: bool = false;
/// `summarize.prompt`: the built-in preset.
pub const PROMPT_PRESET: &str = "default";
/// `summarize.language`: the note's own language.
pub const LANGUAGE: &str = "auto";
/// `llm.base_url`: Fireworks' OpenAI-compatible endpoint.
pub const BASE_URL: &str = "https://api.fireworks.ai/inference/v1";
/// `llm.summarize_model`: a reasoning model that also returns `reasoning_content`.
pub const SUMMARIZE_MODEL: &str = "accounts/fireworks/models/gpt-oss-120b";
/// `llm.max_output_tokens`: a summary plus the default model's reasoning.
pub const MAX_OUTPUT_TOKENS: u32 = 4096;
/// `llm.timeout_secs`: how long one answer may take to come.
pub const TIMEOUT_SECS: u64 = 120;
/// `llm.vision_model`: the model that describes embedded images.
pub const VISION_MODEL: &str = "accounts/fireworks/models/qwen3-vl-30b-a3b-instruct";
/// `llm.whisper_model`: the speech-to-text model that transcribes embedded recordings.
pub const WHISPER_MODEL: &str = "whisper-v3";
/// `media.diarize`: a recording's transcript asks for speaker turns.
pub const DIARIZE: bool = true;
