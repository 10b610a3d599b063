//! Transcripts with speakers: a transcription response (`verbose_json` with `speaker_id` on
//! segments or words, as Fireworks answers `diarize=true`) rendered as speaker turns.
//!
//! ```text
//! **Speaker 1** (0:00 - 0:07)
//! Welcome, everyone.
//!
//! **Speaker 2** (0:07 - 0:12)
//! Thanks.
//! ```
//!
//! Speakers are numbered by first appearance, so the first voice is always `Speaker 1` whatever
//! id the server gave it (`0`, `SPEAKER_01`, …). A response without speakers (a server that
//! ignores `diarize`, or plain `{"text": …}`) gives the plain transcript.

use serde::Deserialize;
use serde_json::Value;

/// A transcription response, as much of it as turns need.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct VerboseTranscript {
    /// The whole transcript without speakers.
    #[serde(default)]
    pub text: String,
    /// Timed segments, each possibly with a speaker.
    #[serde(default)]
    pub segments: Vec<TimedText>,
    /// Timed words, each possibly with a speaker (used when segments carry none).
    #[serde(default)]
    pub words: Vec<TimedWord>,
}

/// A segment of a verbose transcription.
#[derive(Debug, Clone, Deserialize)]
pub struct TimedText {
    /// Start, in seconds.
    #[serde(default)]
    pub start: f64,
    /// End, in seconds.
    #[serde(default)]
    pub end: f64,
    /// The segment's text.
    #[serde(default)]
    pub text: String,
    /// The speaker, as a number or a label; absent without diarization.
    #[serde(default)]
    pub speaker_id: Option<Value>,
}

/// A word of a verbose transcription.
#[derive(Debug, Clone, Deserialize)]
pub struct TimedWord {
    /// Start, in seconds.
    #[serde(default)]
    pub start: f64,
    /// End, in seconds.
    #[serde(default)]
    pub end: f64,
    /// The word (with its punctuation).
    #[serde(default)]
    pub word: String,
    /// The speaker, as a number or a label; absent without diarization.
    #[serde(default)]
    pub speaker_id: Option<Value>,
}

/// One speaker's uninterrupted turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The speaker's number (1-based, by first appearance); `None` when the server gave none.
    pub speaker: Option<usize>,
    /// Start, in seconds.
    pub start: f64,
    /// End, in seconds.
    pub end: f64,
    /// What was said.
    pub text: String,
}

/// A transcription response body as Markdown: speaker turns when the response has speakers,
/// else its plain `text`. A body that is not JSON is returned as it is (a `text` response format).
pub fn transcript_markdown(body: &str) -> String {
    match serde_json::from_str::<VerboseTranscript>(body) {
        Ok(transcript) => transcript.to_markdown(),
        Err(_) => body.trim().to_string(),
    }
}

/// A parsed transcription reply as Markdown: speaker turns when it has speakers, else its plain
/// `text` (a server that ignored the diarization request).
pub fn transcript_from_value(reply: serde_json::Value) -> String {
    let plain = reply
        .get("text")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .trim()
        .to_string();
    match serde_json::from_value::<VerboseTranscript>(reply) {
        Ok(transcript) => transcript.to_markdown(),
        Err(_) => plain,
    }
}

impl VerboseTranscript {
    /// Turns when any segment or word has a speaker, else the plain text.
    pub fn to_markdown(&self) -> String {
        let turns = self.turns();
        if turns.is_empty() {
            return self.text.trim().to_string();
        }
        render_turns(&turns)
    }

    /// Consecutive segments (or, when segments carry no speaker, words) of one speaker merged
    /// into turns. Empty when the response has no speakers at all.
    pub fn turns(&self) -> Vec<Turn> {
        let mut numbering = Numbering::default();
        if self.segments.iter().any(|s| s.speaker_id.is_some()) {
            let pieces = self.segments.iter().map(|s| {
                let speaker = s.speaker_id.as_ref().and_then(|id| numbering.number(id));
                (speaker, s.start, s.end, s.text.as_str())
            });
            merge(pieces.collect())
        } else if self.words.iter().any(|w| w.speaker_id.is_some()) {
            let pieces = self.words.iter().map(|w| {
                let speaker = w.speaker_id.as_ref().and_then(|id| numbering.number(id));
                (speaker, w.start, w.end, w.word.as_str())
            });
            merge(pieces.collect())
        } else {
            Vec::new()
        }
    }
}

/// Speaker numbers by first appearance of each raw id.
#[derive(Default)]
struct Numbering {
    seen: Vec<String>,
}

impl Numbering {
    fn number(&mut self, id: &Value) -> Option<usize> {
        let key = match id {
            Value::Null => return None,
            Value::String(s) if s.trim().is_empty() => return None,
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        };
        let index = match self.seen.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.seen.push(key);
                self.seen.len() - 1
            }
        };
        Some(index + 1)
    }
}

fn merge(pieces: Vec<(Option<usize>, f64, f64, &str)>) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for (speaker, start, end, text) in pieces {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some(turn) if turn.speaker == speaker => {
                turn.end = turn.end.max(end);
                turn.text.push(' ');
                turn.text.push_str(text);
            }
            _ => turns.push(Turn {
                speaker,
                start,
                end,
                text: text.to_string(),
            }),
        }
    }
    turns
}

/// Turns as `**Speaker N** (start - end)` then the text, separated by blank lines.
pub fn render_turns(turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|t| {
            let who = match t.speaker {
                Some(n) => format!("Speaker {n}"),
                None => "Unknown speaker".to_string(),
            };
            format!(
                "**{who}** ({} - {})\n{}",
                timestamp(t.start),
                timestamp(t.end),
                t.text
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `M:SS` under an hour, `H:MM:SS` from an hour on; negative or non-finite times are `0:00`.
pub fn timestamp(seconds: f64) -> String {
    let total = if seconds.is_finite() && seconds > 0.0 {
        seconds.floor() as u64
    } else {
        0
    };
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FIREWORKS: &str = r#"{
        "task": "transcribe", "language": "en", "duration": 12.5,
        "text": "Welcome everyone. Let's start. Thanks. Over to you.",
        "segments": [
            {"id": 0, "start": 0.0, "end": 3.2, "text": " Welcome everyone.", "speaker_id": "SPEAKER_01"},
            {"id": 1, "start": 3.2, "end": 7.9, "text": " Let's start.", "speaker_id": "SPEAKER_01"},
            {"id": 2, "start": 7.9, "end": 9.0, "text": " Thanks.", "speaker_id": "SPEAKER_00"},
            {"id": 3, "start": 9.0, "end": 12.5, "text": " Over to you.", "speaker_id": "SPEAKER_01"}
        ],
        "words": [
            {"word": "Welcome", "start": 0.0, "end": 0.5, "speaker_id": "SPEAKER_01"}
        ]
    }"#;

    #[test]
    fn consecutive_segments_of_one_speaker_merge_into_one_turn() {
        assert_eq!(
            transcript_markdown(FIREWORKS),
            "**Speaker 1** (0:00 - 0:07)\nWelcome everyone. Let's start.\n\n\
             **Speaker 2** (0:07 - 0:09)\nThanks.\n\n\
             **Speaker 1** (0:09 - 0:12)\nOver to you."
        );
    }

    #[test]
    fn words_give_turns_when_segments_have_no_speaker() {
        let body = r#"{"text": "hi there yes", "segments": [{"start": 0, "end": 2, "text": "hi there yes"}],
            "words": [{"word": "hi", "start": 0, "end": 0.4, "speaker_id": 0},
                      {"word": "there", "start": 0.4, "end": 0.9, "speaker_id": 0},
                      {"word": "yes", "start": 1.0, "end": 2.0, "speaker_id": 1}]}"#;
        assert_eq!(
            transcript_markdown(body),
            "**Speaker 1** (0:00 - 0:00)\nhi there\n\n**Speaker 2** (0:01 - 0:02)\nyes"
        );
    }

    #[test]
    fn segment_without_speaker_is_an_unknown_speaker() {
        let body = r#"{"text": "a b", "segments": [
            {"start": 0, "end": 1, "text": "a", "speaker_id": 3},
            {"start": 1, "end": 2, "text": "b"}]}"#;
        assert_eq!(
            transcript_markdown(body),
            "**Speaker 1** (0:00 - 0:01)\na\n\n**Unknown speaker** (0:01 - 0:02)\nb"
        );
    }

    #[test]
    fn times_past_an_hour_show_hours() {
        assert_eq!(timestamp(7.9), "0:07");
        assert_eq!(timestamp(599.0), "9:59");
        assert_eq!(timestamp(3599.9), "59:59");
        assert_eq!(timestamp(3600.0), "1:00:00");
        assert_eq!(timestamp(3725.0), "1:02:05");
        assert_eq!(timestamp(-1.0), "0:00");
        assert_eq!(timestamp(f64::NAN), "0:00");
    }

    #[test]
    fn plain_text_response_gives_the_plain_transcript() {
        assert_eq!(
            transcript_markdown(r#"{"text": " Just words. "}"#),
            "Just words."
        );
        let undiarized = r#"{"text": "No speakers here.", "segments": [{"start": 0, "end": 1, "text": "No speakers here."}]}"#;
        assert_eq!(transcript_markdown(undiarized), "No speakers here.");
        assert_eq!(transcript_markdown("plain text body\n"), "plain text body");
    }

    proptest! {
        #[test]
        fn transcript_never_panics_on_arbitrary_input(body in ".{0,400}") {
            let _ = transcript_markdown(&body);
        }
    }
}
