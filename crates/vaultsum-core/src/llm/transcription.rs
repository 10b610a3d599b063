//! The multipart form of `POST /audio/transcriptions`.
//!
//! async-openai's own request type streams the file part without a length or content type;
//! this form sends the bytes with both, as the OpenAI Python client does, which Whisper
//! servers use to detect the audio format.

use async_openai::error::OpenAIError;
use async_openai::traits::AsyncTryFrom;
use bytes::Bytes;
use vaultsum_engine::media::audio::audio_mime;
use vaultsum_engine::media::transcription::text_fields;

/// The fields of a transcription request. Cloning is cheap (`Bytes`), which retries rely on.
#[derive(Debug, Clone)]
pub(crate) struct TranscriptionForm {
    pub(crate) file_name: String,
    pub(crate) bytes: Bytes,
    pub(crate) model: String,
    /// Ask for speaker diarization: `diarize=true` with the `verbose_json` response and the word
    /// and segment timestamps it requires (Fireworks). Servers without diarization ignore the
    /// extra fields and answer as before; `media::diarize` renders either answer.
    pub(crate) diarize: bool,
}

impl AsyncTryFrom<TranscriptionForm> for reqwest::multipart::Form {
    type Error = OpenAIError;

    async fn try_from(form: TranscriptionForm) -> Result<Self, Self::Error> {
        let mime = audio_mime(&form.file_name);
        let part = reqwest::multipart::Part::stream_with_length(
            reqwest::Body::from(form.bytes.clone()),
            form.bytes.len() as u64,
        )
        .file_name(form.file_name)
        .mime_str(mime)
        .map_err(|e| OpenAIError::InvalidArgument(format!("bad audio type {mime}: {e}")))?;
        let mut multipart = reqwest::multipart::Form::new().part("file", part);
        for (name, value) in text_fields(&form.model, form.diarize) {
            multipart = multipart.text(name, value.to_string());
        }
        Ok(multipart)
    }
}
