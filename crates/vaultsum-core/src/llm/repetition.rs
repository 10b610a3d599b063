//! An answer caught in a repetition loop: small local models (a 135M model on llama.cpp, seen
//! running to 3,500-6,800 tokens) sometimes write the same lines over and over until the output
//! cap stops them. Such an answer is never written as it is: the loop is found here and the
//! answer is cut before its first repeat, so what is kept is the model's whole items up to the
//! point where it started going round, followed by [`LOOP_MARKER`].
//!
//! What counts as a loop: a block of one to [`MAX_PERIOD`] units (lines, or sentences within a
//! long line) with at least [`MIN_BLOCK_CHARS`] characters, written three times in a row. Twice
//! in a row happens in real summaries (two sections that both say "- No decisions were made.");
//! three identical blocks in a row do not. Units are compared with their whitespace collapsed.
//!
//! Why after the answer and not while it streams: the cap (`llm.max_output_tokens`) already
//! bounds what a loop costs, and llama-cpp-python's server ends a streamed answer early (with
//! `[DONE]` and no `finish_reason`) as soon as another request waits for its one slot
//! (`interrupt_requests`, on by default), which would cut every answer of a batch short.

/// Appended where the repeats were cut, so a reader of the note knows the summary ends there.
pub const LOOP_MARKER: &str =
    "*(vaultsum: the model began repeating itself here; the repeats were left out.)*";

/// The longest block (in units) looked for.
const MAX_PERIOD: usize = 16;
/// A block shorter than this (a lone "- None") is not taken for a loop.
const MIN_BLOCK_CHARS: usize = 12;
/// A block written this many times in a row is a loop.
const TIMES: usize = 3;

/// `text` cut before its first repeat, with [`LOOP_MARKER`], when it holds a loop.
pub fn without_loop(text: &str) -> Option<String> {
    let cut = loop_start(text)?;
    let kept = text[..cut].trim_end();
    Some(if kept.is_empty() {
        LOOP_MARKER.to_string()
    } else {
        format!("{kept}\n\n{LOOP_MARKER}")
    })
}

/// The byte offset of the first repeat of the earliest loop in `text`, if any.
pub fn loop_start(text: &str) -> Option<usize> {
    let units = units(text);
    let n = units.len();
    for first in 0..n {
        for period in 1..=MAX_PERIOD {
            if first + TIMES * period > n {
                break;
            }
            let block = &units[first..first + period];
            let chars: usize = block.iter().map(|u| u.key.len()).sum();
            if chars < MIN_BLOCK_CHARS {
                continue;
            }
            let repeated = (1..TIMES).all(|k| {
                let again = &units[first + k * period..first + (k + 1) * period];
                again.iter().zip(block).all(|(a, b)| a.key == b.key)
            });
            if repeated {
                return Some(units[first + period].start);
            }
        }
    }
    None
}

/// A line, or a sentence of a line, with its whitespace collapsed.
struct Unit {
    start: usize,
    key: String,
}

/// Splits `text` into units: each line, and within a line each sentence (ended by `.`, `!`
/// or `?` before a space). Blank lines are no unit.
fn units(text: &str) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut start = line_start;
        let bytes = line.as_bytes();
        for (i, byte) in bytes.iter().enumerate() {
            let ends_sentence = matches!(byte, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_some_and(|next| *next == b' ');
            if ends_sentence {
                push_unit(&mut units, text, start, line_start + i + 1);
                start = line_start + i + 1;
            }
        }
        push_unit(&mut units, text, start, line_start + line.len());
        line_start += line.len();
    }
    units
}

fn push_unit(units: &mut Vec<Unit>, text: &str, start: usize, end: usize) {
    let key = text[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if !key.is_empty() {
        // The unit starts at its first non-blank byte, so a cut there keeps a line's indent
        // out of the kept text's end (it is trimmed anyway).
        let lead = text[start..end].len() - text[start..end].trim_start().len();
        units.push(Unit {
            start: start + lead,
            key,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_of_lines_written_three_times_is_cut_before_its_first_repeat() {
        let answer = "## Key points\n\n- The vendor ships in May.\n- Prices rise 4%.\n\
                      - The vendor ships in May.\n- Prices rise 4%.\n\
                      - The vendor ships in May.\n- Prices rise 4%.\n\
                      - The vendor ships in";
        let cleaned = without_loop(answer).expect("a loop");
        assert_eq!(
            cleaned,
            format!(
                "## Key points\n\n- The vendor ships in May.\n- Prices rise 4%.\n\n{LOOP_MARKER}"
            )
        );
    }

    #[test]
    fn a_sentence_repeated_within_one_line_is_a_loop_too() {
        let answer = "The team met on Monday. They agreed on the plan. They agreed on the plan. \
                      They agreed on the plan. They agreed on the plan. They agreed";
        let cleaned = without_loop(answer).expect("a loop");
        assert_eq!(
            cleaned,
            format!("The team met on Monday. They agreed on the plan.\n\n{LOOP_MARKER}")
        );
    }

    #[test]
    fn whitespace_differences_do_not_hide_a_loop() {
        let answer =
            "- Ship the release notes\n-  Ship the release notes \n- Ship the  release notes\n";
        assert_eq!(loop_start(answer), Some(answer.find("\n-").unwrap() + 1));
    }

    #[test]
    fn real_summaries_with_twice_repeated_or_short_lines_are_left_alone() {
        let summaries = [
            "## Summary\n\n- Budget approved.\n\n### Decisions\n\n- None\n\n### Action items\n\n- None\n\n### Risks\n\n- None\n",
            "- No decisions were made.\n- No decisions were made.\n- Alice owns the rollout.\n",
            "| a | b |\n| - | - |\n| 1 | 2 |\n| 1 | 2 |\n| 3 | 4 |\n",
            "",
            "One sentence only.",
        ];
        for summary in summaries {
            assert_eq!(loop_start(summary), None, "{summary:?}");
            assert_eq!(without_loop(summary), None);
        }
    }

    #[test]
    fn a_loop_from_the_very_first_line_keeps_one_copy() {
        let answer = "Summarize the note in bullet points.\n".repeat(40);
        assert_eq!(
            without_loop(&answer).unwrap(),
            format!("Summarize the note in bullet points.\n\n{LOOP_MARKER}")
        );
    }

    #[test]
    fn multibyte_text_is_cut_on_a_character_boundary() {
        let answer = "Résumé : l'équipe a validé. ".repeat(5) + "Fin";
        let cleaned = without_loop(&answer).unwrap();
        assert!(
            cleaned.starts_with("Résumé : l'équipe a validé.\n\n"),
            "{cleaned}"
        );
    }
}
