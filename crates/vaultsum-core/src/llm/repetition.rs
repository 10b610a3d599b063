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
//! A near-loop is one too: a block of two or more units written [`NEAR_TIMES`] times in a row
//! where one unit of [`MIN_BLOCK_CHARS`] or more comes back exactly each time and the others
//! come back alike (the same but for numbers, or at most a quarter of their characters or words
//! changed). Seen on a real documentation vault: the same sentence and a slightly varied code
//! block, six times over. The exact unit keeps lists of similar items (steps, meetings) from
//! being taken for one; five copies where real summaries were seen with four.
//!
//! The streamed answer is watched with this as it grows (`llm/transport.rs`), so a loop is
//! closed after its copies arrive, not at the output cap; the whole answer is checked again.

/// Appended where the repeats were cut, so a reader of the note knows the summary ends there.
pub const LOOP_MARKER: &str =
    "*(vaultsum: the model began repeating itself here; the repeats were left out.)*";

/// The longest block (in units) looked for. A 135M model was seen copying a whole 30-line
/// note (frontmatter, headings, a table) four times over; three exact copies of a block this
/// long in a row are never a real summary.
const MAX_PERIOD: usize = 64;
/// A block shorter than this (a lone "- None") is not taken for a loop.
const MIN_BLOCK_CHARS: usize = 12;
/// A block written this many times in a row is a loop.
const TIMES: usize = 3;
/// A block written this many times in a row, alike but not the same, is a loop.
const NEAR_TIMES: usize = 5;
/// Alike: at most one change in this many characters (or words).
const CHANGES_IN: usize = 4;
/// Units longer than this are compared word by word, not character by character.
const CHAR_COMPARE_MAX: usize = 240;

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

/// The byte offset of the first repeat of the earliest loop or near-loop in `text`, if any.
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
            let copy = |k: usize| &units[first + k * period..first + (k + 1) * period];
            let repeated = (1..TIMES).all(|k| copy(k).iter().zip(block).all(|(a, b)| a.id == b.id));
            let nearly = || {
                period >= 2
                    && first + NEAR_TIMES * period <= n
                    && (0..period).any(|i| {
                        block[i].key.len() >= MIN_BLOCK_CHARS
                            && (1..NEAR_TIMES).all(|k| copy(k)[i].id == block[i].id)
                    })
                    && (1..NEAR_TIMES).all(|k| copy(k).iter().zip(block).all(|(a, b)| alike(a, b)))
            };
            if repeated || nearly() {
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
    /// Equal keys, equal ids (compared far more often than the keys).
    id: usize,
    /// Equal keys once every run of digits is `0`, equal ids.
    numberless: usize,
}

/// The same, the same but for numbers, or a quarter or less of it changed.
fn alike(a: &Unit, b: &Unit) -> bool {
    if a.id == b.id || a.numberless == b.numberless {
        return true;
    }
    let longer = a.key.len().max(b.key.len());
    if a.key.len().min(b.key.len()) * CHANGES_IN < longer * (CHANGES_IN - 1) {
        return false;
    }
    if longer <= CHAR_COMPARE_MAX {
        let (x, y): (Vec<char>, Vec<char>) = (a.key.chars().collect(), b.key.chars().collect());
        edits(&x, &y) * CHANGES_IN <= x.len().max(y.len())
    } else {
        let (x, y): (Vec<&str>, Vec<&str>) =
            (a.key.split(' ').collect(), b.key.split(' ').collect());
        edits(&x, &y) * CHANGES_IN <= x.len().max(y.len())
    }
}

/// Levenshtein distance.
fn edits<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(x != y))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Splits `text` into units: each line, and within a line each sentence (ended by `.`, `!`
/// or `?` before a space). Blank lines are no unit.
fn units(text: &str) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut ids = std::collections::HashMap::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut start = line_start;
        let bytes = line.as_bytes();
        for (i, byte) in bytes.iter().enumerate() {
            let ends_sentence = matches!(byte, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_some_and(|next| *next == b' ');
            if ends_sentence {
                push_unit(&mut units, &mut ids, text, start, line_start + i + 1);
                start = line_start + i + 1;
            }
        }
        push_unit(&mut units, &mut ids, text, start, line_start + line.len());
        line_start += line.len();
    }
    units
}

fn push_unit(
    units: &mut Vec<Unit>,
    ids: &mut std::collections::HashMap<String, usize>,
    text: &str,
    start: usize,
    end: usize,
) {
    let key = text[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if !key.is_empty() {
        // The unit starts at its first non-blank byte, so a cut there keeps a line's indent
        // out of the kept text's end (it is trimmed anyway).
        let lead = text[start..end].len() - text[start..end].trim_start().len();
        let mut id_of = |key: String| {
            let next = ids.len();
            *ids.entry(key).or_insert(next)
        };
        let numberless = id_of(format!("\0{}", without_numbers(&key)));
        let id = id_of(key.clone());
        units.push(Unit {
            start: start + lead,
            key,
            id,
            numberless,
        });
    }
}

/// `key` with every run of digits made `0`.
fn without_numbers(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut in_number = false;
    for c in key.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('0');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
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
    fn the_same_sentence_and_a_varied_code_block_six_times_is_a_loop() {
        let intro = "## Overview\n\nThe note explains the query syntax.\n\n";
        let copies: String = ["Alpha", "Beta", "Gamma", "Delta", "Omega", "Sigma"]
            .iter()
            .enumerate()
            .map(|(i, filter)| {
                format!(
                    "Here is an example of a tasks query block:\n\n```tasks\npath includes Projects/{filter}\nlimit {}\n```\n\n",
                    i + 5
                )
            })
            .collect();
        let answer = format!("{intro}{copies}");
        let cleaned = without_loop(&answer).expect("a near-loop");
        assert_eq!(
            cleaned,
            format!(
                "{intro}Here is an example of a tasks query block:\n\n```tasks\npath includes Projects/Alpha\nlimit 5\n```\n\n{LOOP_MARKER}"
            )
        );
    }

    #[test]
    fn a_varied_sentence_under_the_same_heading_five_times_is_a_loop() {
        let answer: String = (1..=5)
            .map(|i| {
                format!("### Action Items\n- [ ] Review section {i} of the plugin settings page\n")
            })
            .collect();
        assert_eq!(
            loop_start(&answer),
            Some(
                answer
                    .find("### Action Items\n- [ ] Review section 2")
                    .unwrap()
            )
        );
    }

    #[test]
    fn a_whole_note_copied_three_times_is_a_loop() {
        let copy: String = (1..=30)
            .map(|i| format!("| Milestone {i} | {i} April | Owner {i} |\n"))
            .collect();
        let answer = format!("# Project Alpha\n{copy}{copy}{copy}");
        assert_eq!(
            without_loop(&answer).unwrap(),
            format!("# Project Alpha\n{}\n\n{LOOP_MARKER}", copy.trim_end())
        );
    }

    #[test]
    fn lists_of_similar_items_are_not_near_loops() {
        let summaries = [
            // Steps of one shape, numbered: alike, but no line comes back exactly.
            "- Step 1: Install the package.\n- Step 2: Configure the package.\n- Step 3: Run the package.\n- Step 4: Test the package.\n- Step 5: Ship the package.\n- Step 6: Tag the package.\n",
            // Four meetings with the same attendees: a near-loop needs five copies.
            "- Meeting on Monday\n  - Attendees: Alice, Bob\n- Meeting on Tuesday\n  - Attendees: Alice, Bob\n- Meeting on Wednesday\n  - Attendees: Alice, Bob\n- Meeting on Thursday\n  - Attendees: Alice, Bob\n",
            // Rows of a table.
            "| Query | Meaning |\n| --- | --- |\n| `done` | finished tasks |\n| `not done` | open tasks |\n| `due today` | tasks due today |\n| `due before tomorrow` | overdue and today |\n| `happens today` | any date today |\n",
            // The same label before different content.
            "### Decisions\n- Adopt the new parser for all query blocks in the vault.\n### Decisions\n- Drop the legacy date format from settings next release.\n### Decisions\n- Keep the recurrence rules as they are for another quarter.\n### Decisions\n- Move the documentation site to the new generator by June.\n### Decisions\n- Ask the community about the status symbols before changing them.\n",
        ];
        for summary in summaries {
            assert_eq!(loop_start(summary), None, "{summary}");
        }
    }

    #[test]
    fn edits_counts_insertions_deletions_and_changes() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(edits(&chars("kitten"), &chars("sitting")), 3);
        assert_eq!(edits(&chars(""), &chars("abc")), 3);
        assert_eq!(edits(&chars("same"), &chars("same")), 0);
        assert_eq!(without_numbers("limit 10 of 250"), "limit 0 of 0");
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
