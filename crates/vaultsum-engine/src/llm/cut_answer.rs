//! An answer the output cap cut off (`finish_reason: length`) without a loop: a small local
//! model that rambles on, or a note whose summary needs more than `llm.max_output_tokens`.
//! It is never written as it is (its last line stops mid-word and it would look whole): it is
//! kept up to its last whole item and ends with [`CAP_MARKER`], so a reader sees where it
//! stops. An answer with nothing whole in it stays an error ([`crate::llm::LlmError::CutOff`]).
//!
//! "Whole item": every line but the unfinished last one (the cap can land anywhere in it), or,
//! in an answer of one line, every finished sentence. Headings left with nothing under them
//! and a code fence left open (it would swallow what follows the summary in the note) go too.

/// Appended where the cap cut the answer, so a reader of the note knows the summary ends early.
pub const CAP_MARKER: &str =
    "*(vaultsum: the answer reached the output cap (llm.max_output_tokens) here; the rest was left out.)*";

/// Appended where the request timeout cut a streamed answer that was still coming
/// (`llm/stream.rs`).
pub const TIMEOUT_MARKER: &str =
    "*(vaultsum: the answer was still coming at the request timeout (llm.timeout_secs) here; the rest was left out.)*";

/// `text` kept up to its last whole item, with [`CAP_MARKER`]; `None` when nothing whole is
/// left (or the cap came inside a `<think>` block that never closed: all of it is reasoning).
pub fn to_last_whole_item(text: &str) -> Option<String> {
    to_last_whole_item_with(text, CAP_MARKER)
}

/// [`to_last_whole_item`] with `marker` saying what cut the answer.
pub fn to_last_whole_item_with(text: &str, marker: &str) -> Option<String> {
    if text.trim_start().starts_with("<think>") {
        return None;
    }
    let mut kept = finished_part(text).trim_end();
    loop {
        let before = kept.len();
        kept = without_trailing_headings(kept);
        kept = without_open_fence(kept);
        if kept.len() == before {
            break;
        }
    }
    (!kept.is_empty()).then(|| format!("{kept}\n\n{marker}"))
}

/// Every line but an unfinished last one; in a one-line answer, its finished sentences.
fn finished_part(text: &str) -> &str {
    if text.ends_with('\n') {
        return text;
    }
    if let Some(end) = text.rfind('\n') {
        return &text[..end];
    }
    let sentence_end = text
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            matches!(c, '.' | '!' | '?') && text[i + 1..].starts_with(char::is_whitespace)
        })
        .map(|(i, _)| i + 1);
    sentence_end.map_or("", |end| &text[..end])
}

/// `text` (trimmed at its end) without the headings at its end: headings whose items were cut.
fn without_trailing_headings(mut text: &str) -> &str {
    loop {
        let last_line_start = text.rfind('\n').map_or(0, |i| i + 1);
        if !text[last_line_start..].trim_start().starts_with('#') {
            return text;
        }
        text = text[..last_line_start].trim_end();
    }
}

/// `text` cut before its last code fence when that fence is left open.
fn without_open_fence(text: &str) -> &str {
    let mut open_at = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            open_at = match open_at {
                Some(_) => None,
                None => Some(offset),
            };
        }
        offset += line.len();
    }
    match open_at {
        Some(start) => text[..start].trim_end(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Option<String> {
        to_last_whole_item(text).map(|t| t.strip_suffix(CAP_MARKER).unwrap().trim_end().to_string())
    }

    #[test]
    fn the_unfinished_last_line_is_dropped_and_the_marker_added() {
        let answer = "## Key points\n\n- The vendor ships in May.\n- Prices rise 4%.\n- The contr";
        assert_eq!(
            to_last_whole_item(answer).unwrap(),
            format!(
                "## Key points\n\n- The vendor ships in May.\n- Prices rise 4%.\n\n{CAP_MARKER}"
            )
        );
    }

    #[test]
    fn a_cap_landing_just_after_a_line_end_keeps_that_line() {
        assert_eq!(
            kept("- one item\n- two items\n").as_deref(),
            Some("- one item\n- two items")
        );
    }

    #[test]
    fn headings_left_empty_by_the_cut_go_too() {
        let answer = "### Overview\n- Budget approved.\n\n### Decisions\n\n#### Open\n- Hire tw";
        assert_eq!(
            kept(answer).as_deref(),
            Some("### Overview\n- Budget approved.")
        );
    }

    #[test]
    fn an_open_code_fence_is_not_left_behind() {
        let answer = "- Run the script:\n\n```bash\ncargo run --release\ncargo te";
        assert_eq!(kept(answer).as_deref(), Some("- Run the script:"));
        let closed = "```\nx\n```\n- after\n- cut he";
        assert_eq!(kept(closed).as_deref(), Some("```\nx\n```\n- after"));
    }

    #[test]
    fn a_one_line_answer_keeps_its_finished_sentences() {
        let answer = "The team met on Monday. They agreed on the plan. Then they start";
        assert_eq!(
            kept(answer).as_deref(),
            Some("The team met on Monday. They agreed on the plan.")
        );
    }

    #[test]
    fn nothing_whole_or_only_unclosed_reasoning_is_no_answer() {
        assert_eq!(to_last_whole_item("The team met on Mon"), None);
        assert_eq!(
            to_last_whole_item("### Overview\n- The team met on Mon"),
            None
        );
        assert_eq!(
            to_last_whole_item("<think>\nFirst, the note says.\nThen"),
            None
        );
        assert_eq!(to_last_whole_item("\n\n"), None);
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let answer = "- Café à Zürich. Décidé.\n- Ünïcödé ça";
        assert_eq!(kept(answer).as_deref(), Some("- Café à Zürich. Décidé."));
        assert_eq!(kept("Éé. Ça va? Oui").as_deref(), Some("Éé. Ça va?"));
    }
}
