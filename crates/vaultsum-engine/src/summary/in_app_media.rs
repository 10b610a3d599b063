//! Embedded images and recordings read by a model from inside Obsidian: the requests the
//! binary's `summarize_file` sends for them with no config file (the default vision and
//! transcription models), built here, and their answers read here, so the app puts the
//! description or transcript the binary would put where the note embeds the file. The host
//! reads the file's bytes, sends what this gives, and hands back the response whole.
//!
//! What the binary does that the app does not (said in the docs): it keeps descriptions on
//! disk between runs (the app keeps them in memory while Obsidian runs: [`KeptMedia`]) and
//! retries rate limits with backoff.

use serde_json::Value;

use super::defaults;
use crate::llm::chat_reply::parse_chat_reply;
use crate::llm::chat_request::CapField;
use crate::llm::finish_reply::finish_reply;
use crate::llm::whole_answer::completion_of;
use crate::llm::LlmError;
use crate::media::image::{self, DESCRIPTION_MAX_TOKENS};
use crate::media::refusal::MediaRefusal;
use crate::media::transcription::{transcript_of, upload, Upload};
use crate::media::work::{MediaModels, MediaWork};
use crate::vault::attachment_kind::AttachmentKind;

/// What the host sends for a file.
#[derive(Debug, Clone, PartialEq)]
pub enum MediaRequest {
    /// `POST {base_url}/chat/completions`, this JSON body (an image to describe).
    Chat(Value),
    /// `POST {base_url}/audio/transcriptions`, this form (a recording to transcribe).
    Upload(Upload),
}

/// The work and the request for the file at `path` (of `kind`) whose bytes are `bytes`, or why
/// it is not sent (the binary's words): not a type the model takes, empty, over the limit.
/// `boundary`: the host's random multipart boundary, for a recording.
pub fn media_request(
    path: &str,
    kind: AttachmentKind,
    bytes: &[u8],
    boundary: &str,
) -> Result<(MediaWork, MediaRequest), MediaRefusal> {
    let work = MediaWork::of(path, kind, bytes, &MediaModels::default())?;
    let request = if work.kind == AttachmentKind::Image {
        let request = image::describe_request(&work.model, path, work.mime, bytes);
        // As the native client sends it: streamed, its own cap.
        MediaRequest::Chat(request.to_wire(CapField::MaxTokens))
    } else {
        MediaRequest::Upload(upload(path, bytes, &work.model, work.diarize, boundary))
    };
    Ok((work, request))
}

/// Why an image or recording has no text from the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFailure {
    /// The binary's words (`cannot describe X: …`), for an `[Embed failed]` line.
    pub reason: String,
    /// Whether asking again later may succeed (a rate limit, a server error), as the binary's
    /// retries judge it: asked again for the next note, where a refusal is not.
    pub retryable: bool,
}

/// The text the response to `work`'s request stands for (a description, a transcript), or
/// why there is none. `url` as it may be shown, the HTTP `status`, its `content_type`, the
/// whole `body` with the host's key masked.
pub fn media_answered(
    work: &MediaWork,
    url: &str,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> Result<String, MediaFailure> {
    let read = match work.kind {
        AttachmentKind::Image => completion_of(url, status, content_type, body)
            .and_then(|completion| parse_chat_reply(&completion))
            .and_then(|reply| finish_reply(reply, DESCRIPTION_MAX_TOKENS, defaults::TIMEOUT_SECS))
            .map(|(reply, _)| reply.content.trim().to_string()),
        _ => transcript_of(url, status, body, work.diarize),
    };
    read.map_err(|error: LlmError| MediaFailure {
        reason: format!("cannot {} {}: {error}", work.action(), work.path),
        retryable: error.is_retryable(),
    })
}

/// Descriptions and transcripts made while Obsidian runs, by [`MediaWork::key`]: an image two
/// notes embed is described once. The fewest kept: the last [`KeptMedia::CAPACITY`].
#[derive(Debug, Default)]
pub struct KeptMedia {
    entries: Vec<(String, String)>,
}

impl KeptMedia {
    /// How many answers are kept (each a few hundred bytes of text).
    pub const CAPACITY: usize = 256;

    /// The text kept for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(kept, _)| kept == key)
            .map(|(_, text)| text.as_str())
    }

    /// Keeps `text` under `key`, the oldest dropped past the capacity.
    pub fn put(&mut self, key: String, text: String) {
        self.entries.retain(|(kept, _)| *kept != key);
        if self.entries.len() >= Self::CAPACITY {
            self.entries.remove(0);
        }
        self.entries.push((key, text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "http://127.0.0.1:9/v1/chat/completions";

    #[test]
    fn an_image_is_asked_of_the_vision_model_streamed() {
        let (work, request) = media_request(
            "Attachments/board.png",
            AttachmentKind::Image,
            b"\x89PNG",
            "b",
        )
        .unwrap();
        let MediaRequest::Chat(body) = request else {
            panic!("an image is a chat request");
        };
        assert_eq!(body["model"], defaults::VISION_MODEL);
        assert_eq!(body["stream"], true);
        assert_eq!(body["max_tokens"], DESCRIPTION_MAX_TOKENS);
        let parts = body["messages"][1]["content"].as_array().unwrap();
        assert_eq!(
            parts[0]["text"],
            "Describe the image `Attachments/board.png`."
        );
        assert_eq!(
            parts[1]["image_url"]["url"],
            "data:image/png;base64,iVBORw=="
        );
        assert_eq!(
            work.key,
            crate::media::work_key("image", defaults::VISION_MODEL, image::PROMPT, b"\x89PNG")
        );
    }

    #[test]
    fn a_recording_is_a_form_for_the_transcription_model() {
        let (work, request) =
            media_request("memo.m4a", AttachmentKind::Audio, b"abc", "xyz").unwrap();
        let MediaRequest::Upload(form) = request else {
            panic!("a recording is an upload");
        };
        assert_eq!(form.content_type, "multipart/form-data; boundary=xyz");
        let body = String::from_utf8(form.body).unwrap();
        assert!(
            body.contains("Content-Type: audio/mp4\r\n\r\nabc\r\n"),
            "{body}"
        );
        assert!(
            body.contains(&format!(
                "name=\"model\"\r\n\r\n{}\r\n",
                defaults::WHISPER_MODEL
            )),
            "{body}"
        );
        // Speaker turns asked for, as the binary asks with no config file (`media.diarize`).
        assert!(body.contains("name=\"diarize\"\r\n\r\ntrue\r\n"), "{body}");
        assert!(work.diarize);
        assert_eq!(work.kind, AttachmentKind::Audio);
    }

    #[test]
    fn refusals_are_the_binarys_words() {
        let empty = media_request("a.png", AttachmentKind::Image, b"", "b").unwrap_err();
        assert_eq!(
            empty.to_string(),
            "cannot describe a.png: the file is empty"
        );
        let large = vec![0u8; image::MAX_IMAGE_BYTES + 1];
        let over = media_request("a.gif", AttachmentKind::Image, &large, "b").unwrap_err();
        assert!(
            over.to_string().contains("over the 20971520-byte limit"),
            "{over}"
        );
        let video = media_request("clip.mp4", AttachmentKind::Audio, b"x", "b").unwrap_err();
        assert!(
            video
                .to_string()
                .starts_with("cannot transcribe clip.mp4: unsupported file type"),
            "{video}"
        );
    }

    #[test]
    fn an_answer_is_the_description_trimmed_and_an_error_names_the_file() {
        let (work, _) = media_request("a.png", AttachmentKind::Image, b"x", "b").unwrap();
        let sse = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" A chart. \"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        assert_eq!(
            media_answered(&work, URL, 200, "text/event-stream", sse).unwrap(),
            "A chart."
        );
        let refused = media_answered(
            &work,
            URL,
            429,
            "application/json",
            br#"{"error":{"message":"slow down"}}"#,
        )
        .unwrap_err();
        assert!(
            refused.reason.starts_with("cannot describe a.png: "),
            "{refused:?}"
        );
        assert!(refused.reason.contains("slow down"), "{refused:?}");
        assert!(refused.retryable);
        let policy = media_answered(
            &work,
            URL,
            400,
            "application/json",
            br#"{"error":{"message":"content policy"}}"#,
        )
        .unwrap_err();
        assert!(!policy.retryable, "a refusal is not asked again");
    }

    #[test]
    fn kept_answers_are_found_by_key_and_the_oldest_goes_first() {
        let mut kept = KeptMedia::default();
        for i in 0..=KeptMedia::CAPACITY {
            kept.put(format!("k{i}"), format!("t{i}"));
        }
        assert_eq!(kept.get("k0"), None);
        assert_eq!(kept.get("k1"), Some("t1"));
        assert_eq!(
            kept.get(&format!("k{}", KeptMedia::CAPACITY)),
            Some(&*format!("t{}", KeptMedia::CAPACITY))
        );
    }
}
