//! A transcription request as the app sends it (`POST {base}/audio/transcriptions`, a
//! multipart form with the file and the model), and its answer read. The binary builds the
//! same form with reqwest (vaultsum-core's `llm/transcription.rs`); this writes it out byte for
//! byte as reqwest does, since a host such as Obsidian's `requestUrl` takes a body, not a form.

use serde_json::Value;

use super::audio::audio_mime;
use super::base_name;
use super::diarize::transcript_from_value;
use crate::llm::error_body::error_excerpt;
use crate::llm::whole_answer::{check_status, json_of};
use crate::llm::LlmError;

/// A multipart body and the content type that names its boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// `multipart/form-data; boundary=…`.
    pub content_type: String,
    /// The form.
    pub body: Vec<u8>,
}

/// The form transcribing `bytes` (the file `file_name`, only its own name sent) with `model`,
/// speaker turns asked for when `diarize` (`diarize=true` with the `verbose_json` response and
/// the word and segment timestamps it requires, as Fireworks takes it), parts separated by
/// `boundary` (the host's randomness: the engine has none; it must not occur in the bytes,
/// which a 32-hex-digit random boundary does not in practice).
pub fn upload(file_name: &str, bytes: &[u8], model: &str, diarize: bool, boundary: &str) -> Upload {
    let mut body = Vec::with_capacity(bytes.len() + 512);
    // reqwest's quoting of a file name (RFC 7578 takes no `filename*=`).
    let quoted = base_name(file_name)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\r', "\\\r")
        .replace('\n', "\\\n");
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{quoted}\"\r\nContent-Type: {}\r\n\r\n",
            audio_mime(file_name)
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n");
    for (name, value) in text_fields(model, diarize) {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Upload {
        content_type: format!("multipart/form-data; boundary={boundary}"),
        body,
    }
}

/// The form's text fields after the file, in order: the model, and with `diarize` what asks
/// for speaker turns. The binary's reqwest form is built from these too.
pub fn text_fields(model: &str, diarize: bool) -> Vec<(&'static str, &str)> {
    let mut fields = vec![("model", model)];
    if diarize {
        fields.extend([
            ("diarize", "true"),
            ("response_format", "verbose_json"),
            ("timestamp_granularities[]", "word"),
            ("timestamp_granularities[]", "segment"),
        ]);
    }
    fields
}

/// The transcript in the response to a transcription request sent to `url`, as the binary
/// reads it: with `diarize`, speaker turns when the server gave them (else the plain text);
/// without, its `text` trimmed. An error status or a reply without `text` in the binary's words.
pub fn transcript_of(
    url: &str,
    status: u16,
    body: &[u8],
    diarize: bool,
) -> Result<String, LlmError> {
    check_status(status, body)?;
    let value = json_of(url, body)?;
    let text = transcript_in(&value)?.trim().to_string();
    if diarize {
        return Ok(transcript_from_value(value));
    }
    Ok(text)
}

/// The `text` of a transcription reply (the binary's and the app's check): a reply without
/// one is an error showing what came instead.
pub fn transcript_in(reply: &Value) -> Result<&str, LlmError> {
    reply.get("text").and_then(Value::as_str).ok_or_else(|| {
        LlmError::Malformed(format!(
            "the transcription reply has no \"text\": {}",
            error_excerpt(reply.to_string().as_bytes(), None)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_is_what_reqwest_sends() {
        let sent = upload(
            "Meetings/memo \"1\".wav",
            b"RIFF",
            "whisper-v3",
            false,
            "b0",
        );
        assert_eq!(sent.content_type, "multipart/form-data; boundary=b0");
        assert_eq!(
            String::from_utf8(sent.body).unwrap(),
            "--b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"memo \\\"1\\\".wav\"\r\n\
             Content-Type: audio/wav\r\n\r\nRIFF\r\n\
             --b0\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-v3\r\n--b0--\r\n"
        );
    }

    #[test]
    fn speaker_turns_are_asked_for_as_reqwest_sends_them() {
        let sent = upload("memo.wav", b"RIFF", "whisper-v3", true, "b0");
        let body = String::from_utf8(sent.body).unwrap();
        assert!(
            body.ends_with(
                "--b0\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-v3\r\n\
                 --b0\r\nContent-Disposition: form-data; name=\"diarize\"\r\n\r\ntrue\r\n\
                 --b0\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\nverbose_json\r\n\
                 --b0\r\nContent-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\nword\r\n\
                 --b0\r\nContent-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\nsegment\r\n\
                 --b0--\r\n"
            ),
            "{body}"
        );
    }

    #[test]
    fn the_transcript_is_the_text_trimmed() {
        let url = "http://127.0.0.1:1/v1/audio/transcriptions";
        assert_eq!(
            transcript_of(url, 200, br#"{"text": " We ship Friday. "}"#, false).unwrap(),
            "We ship Friday."
        );
        let missing = transcript_of(url, 200, br#"{"words": []}"#, true).unwrap_err();
        assert!(missing.to_string().contains("no \"text\""), "{missing}");
        let refused =
            transcript_of(url, 413, br#"{"error": {"message": "too big"}}"#, true).unwrap_err();
        assert!(refused.to_string().contains("413"), "{refused}");
        assert!(refused.to_string().contains("too big"), "{refused}");
    }
}
