//! Notes longer than the model's context window: the token estimate, the budget left for the
//! note, the cut into parts at headings (then paragraphs, lines, characters), and the single
//! `### Action Items` list of the merged summary. Pure functions; the summarizer drives them.

/// Tokens a text may take, estimated high on purpose: three bytes of ASCII per token (real
/// tokenizers average about four on prose) and one and a half tokens per other character
/// (accented letters, CJK). An estimate too high costs an extra part; too low, a failed request
/// or a silently cut prompt.
pub fn estimate_tokens(text: &str) -> u64 {
    let mut ascii = 0u64;
    let mut other = 0u64;
    for c in text.chars() {
        if c.is_ascii() {
            ascii += 1;
        } else {
            other += 1;
        }
    }
    ascii.div_ceil(3) + (other * 3).div_ceil(2)
}

/// Tokens a text takes at the least: no tokenizer packs more than eight bytes into a token on
/// real text. A server reporting fewer prompt tokens than this did not read the whole prompt.
pub fn fewest_tokens(text: &str) -> u64 {
    (text.len() as u64) / 8
}

/// How a context window is shared: the answer (and a reasoning model's thinking) gets a part,
/// the prompt the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Tokens the whole prompt (system and user message) may take.
    pub prompt_tokens: u64,
    /// Tokens left for the answer.
    pub answer_tokens: u64,
}

/// The smallest window worked with: below it, a note would need absurdly many parts, and no
/// real model has one.
pub const MIN_WINDOW: u64 = 1024;

/// The budget of a `window`-token context: a quarter for the answer (at most 8192 tokens),
/// and a margin of 64 tokens for the chat template's own tokens.
pub fn budget(window: u64) -> Budget {
    let window = window.max(MIN_WINDOW);
    let answer_tokens = (window / 4).min(8192);
    Budget {
        prompt_tokens: window - answer_tokens - 64,
        answer_tokens,
    }
}

/// `text` cut into parts of at most `max_tokens` estimated tokens each, in order, together
/// exactly `text`: at headings where it can, then at blank lines, then at line ends, and a
/// single line longer than a part at character boundaries.
pub fn split_into_parts(text: &str, max_tokens: u64) -> Vec<String> {
    let max_tokens = max_tokens.max(16);
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut current_tokens = 0;
    for piece in pieces(text, max_tokens) {
        let tokens = estimate_tokens(piece);
        if current_tokens + tokens > max_tokens && !current.is_empty() {
            parts.push(std::mem::take(&mut current));
            current_tokens = 0;
        }
        current.push_str(piece);
        current_tokens += tokens;
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// The pieces parts are packed from: sections starting at headings, each cut further while it
/// is larger than a part.
fn pieces(text: &str, max_tokens: u64) -> Vec<&str> {
    let mut out = Vec::new();
    for section in split_keeping(text, heading_starts(text)) {
        cut_to_fit(section, max_tokens, 0, &mut out);
    }
    out
}

/// Cuts `text` at paragraphs (level 0), lines (1), then characters (2) until every piece fits.
fn cut_to_fit<'a>(text: &'a str, max_tokens: u64, level: u8, out: &mut Vec<&'a str>) {
    if estimate_tokens(text) <= max_tokens {
        out.push(text);
        return;
    }
    let cuts: Vec<usize> = match level {
        0 => text.match_indices("\n\n").map(|(at, _)| at + 2).collect(),
        1 => text.match_indices('\n').map(|(at, _)| at + 1).collect(),
        _ => {
            // A single line longer than a part: cut at character boundaries, each piece sized
            // for the worst case of the estimate (1.5 tokens a character).
            let chars_per_piece = ((max_tokens * 2) / 3).max(1) as usize;
            let mut at = 0;
            let mut count = 0;
            for (index, _) in text.char_indices() {
                if count == chars_per_piece {
                    out.push(&text[at..index]);
                    at = index;
                    count = 0;
                }
                count += 1;
            }
            out.push(&text[at..]);
            return;
        }
    };
    for piece in split_keeping(text, cuts) {
        cut_to_fit(piece, max_tokens, level + 1, out);
    }
}

/// `text` cut at the byte offsets `cuts` (ascending, inside the text), nothing lost.
fn split_keeping(text: &str, cuts: Vec<usize>) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for cut in cuts {
        if cut > start && cut < text.len() {
            out.push(&text[start..cut]);
            start = cut;
        }
    }
    out.push(&text[start..]);
    out
}

/// Byte offsets of the lines that start a Markdown heading (`#` to `######` and a space),
/// outside fenced code.
fn heading_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut in_fence = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        } else if !in_fence {
            let hashes = trimmed.bytes().take_while(|b| *b == b'#').count();
            if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with([' ', '\t']) {
                starts.push(offset);
            }
        }
        offset += line.len();
    }
    starts
}

/// The merged summary with exactly one `### Action Items` list: every `### Action Items`
/// section the model wrote is taken out and one is put at the end, with every open task
/// (`- [ ]`) of the merged summary and of the part summaries, each once (compared without case
/// and spacing), in the order first seen. No open task, no section.
pub fn one_action_items_list(merged: &str, parts: &[String]) -> String {
    let (body, merged_tasks) = take_action_items(merged);
    let mut seen = std::collections::HashSet::new();
    let mut tasks = Vec::new();
    let all = merged_tasks
        .into_iter()
        .chain(parts.iter().flat_map(|part| take_action_items(part).1));
    for task in all {
        let key: String = task
            .trim_start_matches("- [ ]")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if !key.is_empty() && seen.insert(key) {
            tasks.push(task);
        }
    }
    let mut out = body.trim_end().to_string();
    if !tasks.is_empty() {
        out.push_str("\n\n### Action Items\n\n");
        out.push_str(&tasks.join("\n"));
    }
    out
}

/// The text without its `### Action Items` sections (to the next heading of level 1 to 3), and
/// the open tasks found in them.
fn take_action_items(text: &str) -> (String, Vec<String>) {
    let mut body = String::with_capacity(text.len());
    let mut tasks = Vec::new();
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let level = trimmed.bytes().take_while(|b| *b == b'#').count();
        if (1..=3).contains(&level) {
            inside = trimmed[level..].trim().eq_ignore_ascii_case("action items");
            if inside {
                continue;
            }
        }
        if inside {
            if trimmed.starts_with("- [ ]") {
                tasks.push(trimmed.to_string());
            }
            continue;
        }
        body.push_str(line);
    }
    (body, tasks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_estimate_is_high_for_prose_and_for_other_scripts() {
        // "The quick brown fox jumps over the lazy dog." is 10 tokens for common tokenizers.
        assert!(estimate_tokens("The quick brown fox jumps over the lazy dog.") >= 10);
        assert!(estimate_tokens("東京の会議") >= 5);
        assert!(fewest_tokens("The quick brown fox jumps over the lazy dog.") <= 10);
    }

    #[test]
    fn a_budget_leaves_room_for_the_answer() {
        let b = budget(4096);
        assert_eq!(b.answer_tokens, 1024);
        assert_eq!(b.prompt_tokens, 4096 - 1024 - 64);
        assert_eq!(budget(131_072).answer_tokens, 8192);
        assert_eq!(budget(0), budget(MIN_WINDOW));
    }

    #[test]
    fn parts_are_cut_at_headings_first() {
        let a = "# Alpha section\n\nsome words here\n\n";
        let b = "## Beta section\n\nmore words here\n\n";
        let c = "# Gamma section\n\nlast words here\n";
        let parts = split_into_parts(&format!("{a}{b}{c}"), 16);
        assert_eq!(parts, [a, b, c]);
    }

    #[test]
    fn a_heading_inside_code_is_not_a_cut() {
        assert_eq!(heading_starts("```\n# not\n```\n# yes\n"), [14]);
    }

    #[test]
    fn one_action_items_list_with_every_open_task_once() {
        let merged = "### Points\n\n- a\n\n### Action Items\n\n- [ ] Call Ann\n\n### More\n\nx\n\n### Action Items\n- [ ] call  ann\n- [x] done\n";
        let parts = vec![
            "### Action Items\n- [ ] Send the budget\n".to_string(),
            "- just a point\n".to_string(),
        ];
        let out = one_action_items_list(merged, &parts);
        assert_eq!(out.matches("### Action Items").count(), 1);
        assert!(out.ends_with("### Action Items\n\n- [ ] Call Ann\n- [ ] Send the budget"));
        assert!(out.contains("### More\n\nx"));
        assert!(!out.contains("[x]"));
        assert_eq!(one_action_items_list("Only prose.\n", &[]), "Only prose.");
    }

    proptest! {
        #[test]
        fn parts_fit_and_together_are_the_text(text in "(#{0,2} ?[a-zé東 ]{0,30}\n{0,2}){0,40}", max in 16u64..200) {
            let parts = split_into_parts(&text, max);
            prop_assert_eq!(parts.concat(), text);
            for part in &parts {
                prop_assert!(estimate_tokens(part) <= max, "{} > {}", estimate_tokens(part), max);
            }
        }
    }
}
