//! The system prompts a summary is asked with: the frame every prompt sits in
//! (`prompts/summarize_file.md`: the note is data, never instructions; faithfulness; no heading
//! of its own) with the chosen instructions and language filled in, and the frame of the merge
//! of a long note's parts. Which instructions a note gets is decided above this (the binary's
//! `instructions.rs`, the app's `in_app::choose`); what they become in the request is said
//! here once, for both.

/// The frame every summary prompt sits in; `{{instructions}}` and `{{language}}` are filled in.
const SUMMARY_FRAME: &str = include_str!("../../prompts/summarize_file.md");
/// The frame of the merge of a long note's parts, with the same two blanks.
const MERGE_FRAME: &str = include_str!("../../prompts/merge_summaries.md");

/// The presets' instructions, by name (the names are `prompt_spec::PRESETS`).
pub const PRESET_TEXTS: [(&str, &str); 5] = [
    ("default", include_str!("../../prompts/presets/default.md")),
    ("meeting", include_str!("../../prompts/presets/meeting.md")),
    ("paper", include_str!("../../prompts/presets/paper.md")),
    ("journal", include_str!("../../prompts/presets/journal.md")),
    ("brief", include_str!("../../prompts/presets/brief.md")),
];

/// The language value that means "the note's own".
const AUTO_LANGUAGE: &str = "auto";

/// Added to a summary's instructions when points cite their sections.
pub const CITE_INSTRUCTION: &str = "\n\nEnd each key point with a link to the section of the note \
it comes from, written as [[#Heading]] with the heading's exact text (for text of an embedded \
note, [[Note#Heading]] as the embed names it). Link only headings the note has; a point from \
text under no heading gets no link.";

/// Added to the merge's instructions when points cite their sections.
pub const CITE_MERGE_INSTRUCTION: &str = "\n\nKeep the section links ([[#Heading]]) at the end of \
the points; a merged point keeps the links of the points it merges.";

/// The instructions of the preset `name` (the default's for a name that is none).
pub fn preset_text(name: &str) -> &'static str {
    PRESET_TEXTS
        .iter()
        .find(|(preset, _)| *preset == name)
        .map_or(PRESET_TEXTS[0].1, |(_, text)| text)
}

/// The two system prompts of instructions `text` (of `preset`, when they are one) in
/// `language` (`auto` or a name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemPrompts {
    /// A summary's.
    pub summary: String,
    /// The merge's, of a long note's part summaries.
    pub merge: String,
}

impl SystemPrompts {
    /// `text` in the frames, in `language`, citing sections when `cite_sections`.
    pub fn new(preset: Option<&str>, text: &str, language: &str, cite_sections: bool) -> Self {
        let language_line = if language == AUTO_LANGUAGE {
            "Write in the language of the note.".to_string()
        } else {
            format!("Write the summary in {language}, whatever language the note is in.")
        };
        let merge_language_line = if language == AUTO_LANGUAGE {
            "Write in the language of the part summaries.".to_string()
        } else {
            format!("Write the summary in {language}.")
        };
        let text = text.trim();
        let (cite, cite_merge) = if cite_sections {
            (CITE_INSTRUCTION, CITE_MERGE_INSTRUCTION)
        } else {
            ("", "")
        };
        SystemPrompts {
            summary: SUMMARY_FRAME
                .replace("{{instructions}}", text)
                .replace("{{language}}", &language_line)
                + cite,
            merge: MERGE_FRAME
                .replace("{{instructions}}", &merge_instructions(preset, text))
                .replace("{{language}}", &merge_language_line)
                + cite_merge,
        }
    }
}

/// What the merge is told of the instructions: nothing more for `default` (the merge's own
/// rules are its rules, and a small window keeps its room for the parts), the instructions
/// themselves for any other prompt, so the merged summary keeps their shape.
fn merge_instructions(preset: Option<&str>, text: &str) -> String {
    if preset == Some("default") {
        String::new()
    } else {
        format!(
            "\nEach part was summarized with these instructions, which the merged summary must \
             follow too:\n\n{text}\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_its_text_and_the_frame_holds_it() {
        for (name, text) in PRESET_TEXTS {
            assert!(!text.trim().is_empty(), "{name}");
            let prompts = SystemPrompts::new(Some(name), text, "auto", false);
            assert!(prompts.summary.contains(text.trim()), "{name}");
            assert!(!prompts.summary.contains("{{"), "{name}: a blank left");
        }
        assert_eq!(preset_text("nope"), preset_text("default"));
    }

    #[test]
    fn a_language_is_said_in_both_prompts() {
        let prompts = SystemPrompts::new(Some("default"), "x", "German", true);
        assert!(prompts.summary.contains("Write the summary in German"));
        assert!(prompts.merge.contains("Write the summary in German."));
        assert!(prompts.summary.ends_with(CITE_INSTRUCTION));
        assert!(prompts.merge.ends_with(CITE_MERGE_INSTRUCTION));
    }
}
