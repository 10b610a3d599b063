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
//! A passage written twice in a row is one too: a block of two or more units, each of
//! [`LONG_UNIT_CHARS`] or more (prose, not table rows), or of three or more units and
//! [`LONG_PASSAGE_CHARS`] or more in all, copied back to back. Seen on a 135M model: two
//! sentences about a plugin written as a pair, then the pair again; a 20-line example copied
//! twice more before the model stopped. A summary may say one thing twice; it does not write
//! the same long passage again right after it.
//!
//! A near-loop is one too: a block of two or more units written [`NEAR_TIMES`] times in a row
//! where one unit of [`MIN_BLOCK_CHARS`] or more comes back exactly each time and the others
//! come back alike (the same but for numbers, or at most a quarter of their characters or words
//! changed). Seen on a real documentation vault: the same sentence and a slightly varied code
//! block, six times over. The exact unit keeps lists of similar items (steps, meetings) from
//! being taken for one; five copies where real summaries were seen with four.
//!
//! A long line written [`NUMBERED_TIMES`] times in a row, the same but for its numbers and its
//! links' targets, is one too (a list counting up to the cap).
//!
//! A recurring line is one too: a unit of [`LONG_UNIT_CHARS`] or more, its list, quote or
//! heading marks aside, written a fourth time with at most [`MAX_PERIOD`] units between one
//! copy and the next (a third time for one of [`VERY_LONG_UNIT_CHARS`] or more). Seen on a
//! 135M model: the same long sentence under headings that change by one word or number
//! ("## Action 3", "**Edit buttons**"), or between steps that vary, so no block of units
//! repeats and the rules above never fire. Where the line's links point is not compared
//! (seen: the same sentence under 30 release headings, its link's release tag changed each
//! time, until the timeout). A summary says a long sentence once, or twice across sections;
//! four times close together it is the model going round. Short lines
//! ("- None", "Owner: Dana"), table rows and HTML comments are too common to count. The cut
//! is before the second copy, moved up over the heading and lead-in lines just above it, so
//! the copy's heading goes with it.
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
/// A long line written this many times in a row, the same but for its numbers and where its
/// links point, is a loop. Seen: 45 list items "- 2024-17: Tasks Plugin in Action by …", the
/// number counting up, until the timeout. Not fewer: a rollup of daily notes may list ten
/// days the same but for the date ("- 2024-03-04: Daily standup, no blockers reported").
const NUMBERED_TIMES: usize = 12;
/// A passage of three or more units and this many characters copied right after itself is a
/// loop (seen: a 20-line example note in a code block, and a 10-line code block, each written
/// again at once by a 135M model).
const LONG_PASSAGE_CHARS: usize = 160;
/// A block written this many times in a row, alike but not the same, is a loop.
const NEAR_TIMES: usize = 5;
/// Alike: at most one change in this many characters (or words).
const CHANGES_IN: usize = 4;
/// A unit this long (without its marks) written a fourth time close by is a loop.
const LONG_UNIT_CHARS: usize = 40;
/// ...the fourth time: the first copy is kept.
const RECURRING_TIMES: usize = 4;
/// A unit this long is a loop written a third time: a 135M model wrote a 105-character
/// sentence three times between lines that varied, and a summary never says so much twice.
const VERY_LONG_UNIT_CHARS: usize = 100;
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
    [
        block_loop_start(&units),
        recurring_line_start(text, &units),
        repeated_section_start(text, &units),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// Where the second copy of a section begins, once a section with the same headings above it
/// (the same heading path) has been written a third time, each copy holding the same line of
/// [`MIN_BLOCK_CHARS`] or more, all within [`MAX_PERIOD`] units. Seen on a 135M model: three
/// sections `### Other Plugin:` under the same heading, each listing mostly the same items,
/// and a short answer. A summary does not write the same section three times over; sections
/// of the same name under different headings (`## Monday` / `### Decisions`, `## Tuesday` /
/// `### Decisions`) are different sections.
fn repeated_section_start(text: &str, units: &[Unit]) -> Option<usize> {
    let mut path: Vec<(usize, usize)> = Vec::new(); // (level, heading id)
    let mut paths: std::collections::HashMap<Vec<(usize, usize)>, usize> =
        std::collections::HashMap::new();
    let mut path_id = 0;
    let mut section = 0usize; // which section (a new one at each heading)
    let mut section_start = 0usize; // where it begins
    let mut seen: std::collections::HashMap<(usize, usize), Vec<SectionCopy>> =
        std::collections::HashMap::new();
    let mut in_code = false;
    let mut last_line = usize::MAX;
    let mut found: Option<usize> = None;
    for (at, unit) in units.iter().enumerate() {
        let first_of_line = unit.line.start != last_line;
        last_line = unit.line.start;
        let line = text[unit.line.clone()].trim();
        if first_of_line && (line.starts_with("```") || line.starts_with("~~~")) {
            in_code = !in_code;
            continue;
        }
        if !in_code && first_of_line {
            if let Some(level) = heading_level(line) {
                while path.last().is_some_and(|(l, _)| *l >= level) {
                    path.pop();
                }
                path.push((level, unit.id));
                let next = paths.len();
                path_id = *paths.entry(path.clone()).or_insert(next);
                section += 1;
                section_start = unit.start;
                continue;
            }
        }
        if path.is_empty() || unit.key.len() < MIN_BLOCK_CHARS {
            continue;
        }
        let copies = seen.entry((path_id, unit.id)).or_default();
        if copies.last().is_some_and(|copy| copy.section == section) {
            continue;
        }
        copies.retain(|copy| at - copy.unit <= MAX_PERIOD);
        copies.push(SectionCopy {
            section,
            start: section_start,
            unit: at,
        });
        if copies.len() >= TIMES {
            let cut = copies[copies.len() - TIMES + 1].start;
            found = Some(found.map_or(cut, |earlier| earlier.min(cut)));
        }
    }
    found
}

/// A line seen in a section (for [`repeated_section_start`]): which section (a new one at
/// each heading), where that section begins, and the line's unit.
struct SectionCopy {
    section: usize,
    start: usize,
    unit: usize,
}

/// The level of an ATX heading line (`## Title` -> 2), if it is one.
fn heading_level(line: &str) -> Option<usize> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    ((1..=6).contains(&level) && line[level..].starts_with(' ')).then_some(level)
}

/// Where a long unit's second copy (with its heading and lead-in) begins, once the unit has
/// been written [`RECURRING_TIMES`] times with at most [`MAX_PERIOD`] units between copies.
/// One pass with a table of the last copies seen: cheap enough to run on every streamed line.
fn recurring_line_start(text: &str, units: &[Unit]) -> Option<usize> {
    let mut copies: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    let mut found: Option<usize> = None;
    for (at, unit) in units.iter().enumerate() {
        let Some(bare) = unit.long_bare else {
            continue;
        };
        // The more a unit says, the fewer copies make a loop.
        let times = if unit.key.len() >= VERY_LONG_UNIT_CHARS {
            RECURRING_TIMES - 1
        } else {
            RECURRING_TIMES
        };
        let seen = copies.entry(bare).or_default();
        if seen.last().is_some_and(|last| at - last > MAX_PERIOD + 1) {
            seen.clear();
        }
        seen.push(at);
        if seen.len() >= times {
            let first = seen[seen.len() - times];
            let second = seen[seen.len() - times + 1];
            let cut = with_lead_in(text, units, first, second);
            found = Some(found.map_or(cut, |earlier| earlier.min(cut)));
            seen.remove(0);
        }
    }
    found
}

/// The start of `units[copy]` or of the headings and lead-in lines ("...:", a callout's first
/// line) right above it, never reaching back to `units[previous]`.
fn with_lead_in(text: &str, units: &[Unit], previous: usize, copy: usize) -> usize {
    let mut start = copy;
    while start > previous + 1 && is_lead_in(text[units[start - 1].line.clone()].trim()) {
        start -= 1;
    }
    units[start].start
}

fn is_lead_in(line: &str) -> bool {
    line.starts_with('#') || line.ends_with(':') || line.starts_with("> [!")
}

/// The earliest exact or near block loop (see the module text).
fn block_loop_start(units: &[Unit]) -> Option<usize> {
    let n = units.len();
    for first in 0..n {
        for period in 1..=MAX_PERIOD {
            if first + 2 * period > n {
                break;
            }
            let block = &units[first..first + period];
            let chars: usize = block.iter().map(|u| u.key.len()).sum();
            if chars < MIN_BLOCK_CHARS {
                continue;
            }
            let copy = |k: usize| &units[first + k * period..first + (k + 1) * period];
            let repeated = first + TIMES * period <= n
                && (1..TIMES).all(|k| copy(k).iter().zip(block).all(|(a, b)| a.id == b.id));
            let long_passage_twice = || {
                period >= 2
                    && (block.iter().all(|u| u.long_bare.is_some())
                        || (period >= 3 && chars >= LONG_PASSAGE_CHARS))
                    && copy(1).iter().zip(block).all(|(a, b)| a.id == b.id)
            };
            let nearly = || {
                period >= 2
                    && first + NEAR_TIMES * period <= n
                    && (0..period).any(|i| {
                        block[i].key.len() >= MIN_BLOCK_CHARS
                            && (1..NEAR_TIMES).all(|k| copy(k)[i].id == block[i].id)
                    })
                    && (1..NEAR_TIMES).all(|k| copy(k).iter().zip(block).all(|(a, b)| alike(a, b)))
            };
            // One long line again and again, only its numbers (and links) changing.
            let counted = || {
                period == 1
                    && block[0].key.len() >= LONG_UNIT_CHARS
                    && first + NUMBERED_TIMES <= n
                    && units[first + 1..first + NUMBERED_TIMES]
                        .iter()
                        .all(|u| u.numberless == block[0].numberless)
            };
            if repeated || long_passage_twice() || nearly() || counted() {
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
    /// Equal keys once every run of digits is `0` and link targets are left out, equal ids.
    numberless: usize,
    /// For a unit of [`LONG_UNIT_CHARS`] or more once its leading marks (`#`, `>`, `-`, `*`,
    /// `+`) are taken off: equal such keys, equal ids. A line quoted once and written plain
    /// after is the same line.
    long_bare: Option<usize>,
    /// The line the unit is in (a heading above a copy is taken with it).
    line: std::ops::Range<usize>,
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
                let whole = line_start..line_start + line.len();
                push_unit(&mut units, &mut ids, text, whole, start, line_start + i + 1);
                start = line_start + i + 1;
            }
        }
        let whole = line_start..line_start + line.len();
        push_unit(
            &mut units,
            &mut ids,
            text,
            whole,
            start,
            line_start + line.len(),
        );
        line_start += line.len();
    }
    units
}

fn push_unit(
    units: &mut Vec<Unit>,
    ids: &mut std::collections::HashMap<String, usize>,
    text: &str,
    line: std::ops::Range<usize>,
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
        // Where a link points is left out of the looser keys: a model going round rewrites the
        // same line with the link's address changed each time (a release tag, a path).
        let linkless = without_link_targets(&key);
        let numberless = id_of(format!("\0{}", without_numbers(&linkless)));
        let bare = linkless.trim_start_matches(['#', '>', '-', '*', '+', ' ']);
        // Table rows and HTML (comments, tags) are markup a note repeats on purpose (a
        // separator row under each table, an include marker after each include); a copied
        // table or block is left to the block rule above.
        let prose = !bare.starts_with('|') && !bare.starts_with('<');
        let long_bare =
            (prose && bare.len() >= LONG_UNIT_CHARS).then(|| id_of(format!("\u{1}{bare}")));
        let id = id_of(key.clone());
        units.push(Unit {
            start: start + lead,
            key,
            id,
            numberless,
            long_bare,
            line,
        });
    }
}

/// `text` with the target of each Markdown link (`[text](target)` -> `[text]`) and each bare
/// `http(s)://` address left out.
fn without_link_targets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("](") {
            out.push(']');
            rest = after.find(')').map_or("", |end| &after[end + 1..]);
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            rest = rest
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .map_or("", |end| &rest[end..]);
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
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

    /// Trimmed from a real summary of `Meetings/2024-03-04 Weekly sync.md` by SmolLM2-135M:
    /// each copy's heading number and callout kind change, so no block repeats.
    #[test]
    fn a_long_line_under_headings_that_change_is_cut_with_its_heading() {
        let budget = "> > The budget covers four developers until the end of June. If the vendor SDK slips beyond April, we either drop automatic meter readings from the pilot or ask for six more weeks of funding.\n";
        let cancelled = "Priya reminded everyone that a meeting was cancelled due to a technical error:\n\n> [!warning] Technical Error\n> > The meeting was cancelled due to a technical error.\n";
        let action = |n: u32, kind: &str| {
            format!("## Action {n}\n\nPriya reminded everyone about the budget constraint:\n\n> [!{kind}] Budget\n{budget}\n")
        };
        let kept = format!("{}## Action 2\n\n{cancelled}", action(1, "warning"));
        let answer = format!(
            "{kept}\n{}{}## Action 5\n\n{cancelled}\n{}",
            action(3, "notice"),
            action(4, "notice"),
            action(6, "notimode")
        );
        assert_eq!(
            without_loop(&answer).expect("a loop"),
            format!("{}\n\n{LOOP_MARKER}", kept.trim_end())
        );
    }

    /// Trimmed from a real summary of `How To/About How Tos.md`: four copies of a block whose
    /// heading changes by one word.
    #[test]
    fn a_block_whose_heading_changes_by_one_word_is_a_loop() {
        let block = |heading: &str, what: &str| {
            format!(
                "- **{heading}**\n  - You can edit any of the {what} listed above.\n  - If you have multiple actions that are all the same, you can choose one and add it as an action.\n  - The action will be executed when you click on the task.\n"
            )
        };
        let first = block("Edit actions", "actions");
        let answer = format!(
            "### Actions\n\n{first}{}{}{}",
            block("Edit buttons", "buttons"),
            block("Edit actions", "actions"),
            block("Edit tasks", "tasks")
        );
        assert_eq!(
            loop_start(&answer),
            Some(answer.find("  - If you have multiple actions").unwrap() + first.len() + 2)
        );
    }

    /// Trimmed from a real summary of `How To/Make a query user interface.md`: the same long
    /// line after each of a list of steps that vary.
    #[test]
    fn a_long_line_written_a_fourth_time_between_varying_steps_is_a_loop() {
        let line = "This is just one of many ways to create custom User Interfaces, but this is one that I'm using in my own plugins.";
        let answer = format!(
            "## How to set it up\n### 1. Install and enable the Meta Bind Plugin\n{line}\n## How to set it up\n### 2. Copy the Markdown code-block into a note in your own plugin\n{line}\n### 3. Create a custom User Interface for other plugins.\nI have created a custom User Interface for search results.\n## How to set it up\n### 4. Use the Meta Bind Plugin to create a custom User Interface\n{line}\n### 5. Use the Meta Bind Plugin for other plugins\n{line}\n"
        );
        assert_eq!(
            loop_start(&answer),
            Some(answer.find("## How to set it up\n### 2.").unwrap())
        );
    }

    /// Trimmed from a real summary of `How To/Set up custom statuses.md`: a sentence of over a
    /// hundred characters, quoted once and written plain twice, between lines that vary.
    #[test]
    fn a_very_long_sentence_written_a_third_time_is_a_loop() {
        let sentence = "This note provides a detailed and structured overview of how to set up custom statuses in your Tasks vault.";
        let answer = format!(
            "The following is a summary of the note:\n\n> [!postscript]\n>\n> {sentence}\n\nThe following is the original text:\n\n<!-- endInclude -->\n\n{sentence}\n\nThe following is the original text:\n\n<!-- endInclude -->\n\n{sentence}\n\nThe following is the original text:\n\n<![endscript]-->\n"
        );
        let cleaned = without_loop(&answer).expect("a loop");
        assert_eq!(
            cleaned,
            format!(
                "The following is a summary of the note:\n\n> [!postscript]\n>\n> {sentence}\n\nThe following is the original text:\n\n<!-- endInclude -->\n\n{LOOP_MARKER}"
            )
        );
    }

    /// Trimmed from a real summary of `How To/How to get tasks in current file.md` (obsidian-tasks'
    /// docs) by SmolLM2-135M: a pair of long sentences, then the pair again.
    #[test]
    fn a_pair_of_long_sentences_written_again_right_after_is_a_loop() {
        let opening = "This page documents ways of setting up and using the Dataview plugin to generate tasks blocks in a note.\n\n";
        let pair = "The code is designed to allow you to write out your own custom task instructions.\n\nThis page provides examples of how to use the Dataview plugin to generate tasks blocks.\n\n";
        let answer = format!("{opening}{pair}{pair}");
        assert_eq!(
            without_loop(&answer).expect("a loop"),
            format!("{opening}{}\n\n{LOOP_MARKER}", pair.trim_end())
        );
    }

    /// Trimmed from a real summary of `Scripting/Query Properties.md` by SmolLM2-135M: a code
    /// block written again at once (and twice more later, between varying imports).
    #[test]
    fn a_long_code_block_written_again_right_after_is_a_loop() {
        let head =
            "## Example\n\n```javascript\nimport { getTasksByName } from \"tsc/tasks-group\"\n";
        let block = "import * as taskscripts = {\n  \"taskscripts.js\": [\n    {\n      name: \"TasksFile\",\n      type: \"scripting/template_file.json\",\n      description: \"The task file is a template that can be used to create the task list.\",\n    },\n  ],\n}\n";
        let answer = format!(
            "{head}{block}{block}import {{ getActionsPerItem }} from \"tsc/tasks-group.js\"\n"
        );
        assert_eq!(loop_start(&answer), Some(head.len() + block.len()));
    }

    /// Trimmed from a real summary of `Other Plugins/About Other Plugins.md` by SmolLM2-135M:
    /// the same section three times, each listing mostly the same items.
    #[test]
    fn the_same_section_written_three_times_is_a_loop() {
        let section = |first: &str| {
            format!("### Other Plugin:\n\n- {first}\n- ExcelPillow for spreadsheets\n- MongoDB Plugins\n\n")
        };
        let kept = format!(
            "## About Other Plugins\n\nThis section lists other plugins.\n\n{}",
            section("Kanban Plugin")
        );
        let answer = format!("{kept}{}{}", section("QuickAdd"), section("Notifications"));
        assert_eq!(
            without_loop(&answer).expect("a loop"),
            format!("{}\n\n{LOOP_MARKER}", kept.trim_end())
        );
        // Sections of one name under different headings are different sections.
        let week: String = ["Monday", "Tuesday", "Wednesday", "Thursday"]
            .iter()
            .map(|day| format!("## {day}\n\n### Decisions\n\n- No decisions were recorded.\n\n"))
            .collect();
        assert_eq!(loop_start(&week), None);
    }

    #[test]
    fn one_long_sentence_twice_or_a_short_pair_twice_is_not_a_loop() {
        let summaries = [
            // One long sentence said again right after (a single unit is not a passage).
            "- The budget covers four developers until the end of June this year.\n- The budget covers four developers until the end of June this year.\n- Alice owns it.\n",
            // A pair with a short line, twice.
            "### Decisions\n- The vendor ships the SDK in May, not in April as planned.\n### Decisions\n- The vendor ships the SDK in May, not in April as planned.\n",
            // Two long lines, then two other long lines.
            "The team reviewed the quarterly figures and agreed the backlog grew too fast.\nTwo customers asked for the export feature again, with screenshots.\nThe team reviewed the quarterly figures and agreed to hire two people.\nTwo customers asked for the import feature again, with screenshots.\n",
        ];
        for summary in summaries {
            assert_eq!(loop_start(summary), None, "{summary}");
        }
    }

    /// Trimmed from a real summary of `Other Plugins/Kanban Plugin.md` by SmolLM2-135M, which
    /// went on until the timeout: the same sentence under release headings, its link's release
    /// tag and the heading's numbers changed each time.
    #[test]
    fn the_same_sentence_with_its_link_changed_each_time_is_a_loop() {
        let copy = |release: &str| {
            format!("### {release} - Kanban v2 (beta) ([notes](https://github.com/mgmeyers/obsidian-kanban/releases/tag/{release}))\n\nThe [Kanban](https://github.com/mgmeyers/obsidian-kanban/releases/tag/{release}) plugin shows markdown-backed Kanban boards.\n\n")
        };
        let first = copy("2.0.43");
        let answer = format!(
            "{first}{}{}{}",
            copy("1.9.8"),
            copy("4.8.6"),
            copy("10.0.9")
        );
        assert_eq!(
            without_loop(&answer).expect("a loop"),
            format!("{}\n\n{LOOP_MARKER}", first.trim_end())
        );
    }

    /// The same sub-heading and a long line under it in each section of a rollup: a week of
    /// meetings that decided nothing is not a loop, so a heading above a long line does not
    /// make its third copy one (a real summary seen with such a pattern, three near copies of
    /// a section that then ended, is left as written).
    #[test]
    fn the_same_subheading_and_line_in_each_section_is_not_a_loop() {
        let answer: String = ["Monday", "Tuesday", "Wednesday"]
            .iter()
            .map(|day| {
                format!(
                    "## {day}\n\n### Decisions\n\n- No decisions were made at this meeting.\n\n"
                )
            })
            .collect();
        assert_eq!(loop_start(&answer), None);
    }

    /// Trimmed from a real summary of `Support and Help/Useful Links.md` (obsidian-tasks' docs)
    /// by SmolLM2-135M, which counted up until the timeout.
    #[test]
    fn a_line_counting_up_twelve_times_is_a_loop_and_ten_days_of_standups_are_not() {
        let item = |n: usize| {
            format!("- 2024-{n}: Tasks Plugin in Action [video](https://github.com/x/{n}) by Danny Hatcher\n")
        };
        let head = "### Videos\n\n";
        let answer: String = std::iter::once(head.to_string())
            .chain((13..40).map(item))
            .collect();
        assert_eq!(
            without_loop(&answer).unwrap(),
            format!("{head}{}\n{LOOP_MARKER}", item(13))
        );
        let standups: String = (4..14)
            .map(|day| format!("- 2024-03-{day:02}: Daily standup, no blockers reported\n"))
            .collect();
        assert_eq!(loop_start(&standups), None);
    }

    #[test]
    fn long_lines_said_a_few_times_tables_and_action_items_are_not_loops() {
        let summaries = [
            // A long line said once per section, three times (under a hundred characters).
            "### Monday\n- No decisions were made at this meeting; it was a status update.\n### Tuesday\n- Alice owns the rollout.\n### Wednesday\n- No decisions were made at this meeting; it was a status update.\n### Thursday\n- Bob drafts the memo.\n### Friday\n- No decisions were made at this meeting; it was a status update.\n",
            // Action items of one shape, each different.
            "### Action items\n- [ ] Dana: review the clickable prototype with the technicians by 15 March\n- [ ] Marco: get offline storage and sync working end to end by 12 April\n- [ ] Priya: run the pilot with twelve technicians in the north region by 6 May\n- [ ] Sam: prepare the go/no-go decision for the national rollout by 14 June\n- [ ] Dana: ask the vendor for the meter reading Bluetooth module release date\n",
            // Steps that start alike.
            "1. Open the settings page of the Tasks plugin in Obsidian.\n2. Open the settings page of the Tasks plugin and pick Statuses.\n3. Open the settings page of the Tasks plugin and add a status.\n4. Open the settings page of the Tasks plugin and save the change.\n",
            // Four tables, each with its header separator row.
            "| Milestone | Target date | Owner of the milestone |\n| ----------------------------- | ------------ | ------ |\n| Prototype | 15 March | Dana |\n\n| Risk | Likelihood | Owner of the mitigation |\n| ----------------------------- | ------------ | ------ |\n| Sync conflicts | High | Marco |\n\n| Cost | Amount | Owner of the budget line |\n| ----------------------------- | ------------ | ------ |\n| Developers | 4 | Priya |\n\n| Decision | Date | Owner of the decision |\n| ----------------------------- | ------------ | ------ |\n| Go | 14 June | Steering group |\n",
        ];
        for summary in summaries {
            assert_eq!(loop_start(summary), None, "{summary}");
        }
    }

    #[test]
    fn copies_of_a_long_line_far_apart_are_not_a_loop() {
        let line = "- Remember that the budget only covers four developers until June.\n";
        let filler: String = (1..=MAX_PERIOD + 1)
            .map(|i| format!("- Point {i} of the plan.\n"))
            .collect();
        let answer = format!("{line}{filler}{line}{filler}{line}{filler}{line}");
        assert_eq!(loop_start(&answer), None);
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
