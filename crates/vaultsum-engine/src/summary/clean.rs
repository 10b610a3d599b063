//! A model's answer made a summary section's body: trimmed, line ends normalised, a stray
//! `## Summary` heading or Markdown fence dropped, its top headings put below the section's.

/// Trims the model's answer, normalises line ends to `\n` (the write uses the note's own), and
/// drops a leading `# Summary`/`## Summary` heading (the tool adds its own). `None` when nothing
/// is left.
pub fn clean_summary(raw: &str) -> Option<String> {
    // A lone `\r` ends a line too (CommonMark): left in, a `## Heading` after it would pass
    // the demotion below as part of the line before and stand as a heading once written.
    let normalized = raw.replace("\r\n", "\n").replace('\r', "\n");
    let mut text = normalized.trim();
    // Some models wrap the whole answer in a Markdown code fence despite the prompt.
    if let Some(inner) = text
        .strip_prefix("```markdown")
        .or_else(|| text.strip_prefix("```md"))
        .and_then(|t| t.trim_end().strip_suffix("```"))
    {
        text = inner.trim();
    }
    let first_line = text.lines().next().unwrap_or("");
    let heading = first_line.trim_start_matches('#');
    if first_line.starts_with('#')
        && first_line.len() - heading.len() <= 2
        && heading.trim().eq_ignore_ascii_case("summary")
    {
        text = text[first_line.len()..].trim();
    }
    (!text.is_empty()).then(|| demote_parsed_headings(below_summary_heading(text)))
}

/// `text` with every level-1 or level-2 heading a Markdown parser finds made level 3: the
/// line-by-line pass above cannot know every way a fence ends (a fence in a list item ends with
/// the item), so what the parser, as Obsidian's renderer, reads as a heading is demoted too.
fn demote_parsed_headings(mut text: String) -> String {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};
    // Each pass demotes what the last left; a demotion can only make fewer headings.
    for _ in 0..4 {
        let ranges: Vec<std::ops::Range<usize>> =
            Parser::new_ext(&text, crate::vault::markdown::parser_options())
                .into_offset_iter()
                .filter_map(|(event, range)| match event {
                    Event::Start(Tag::Heading {
                        level: HeadingLevel::H1 | HeadingLevel::H2,
                        ..
                    }) => Some(range),
                    _ => None,
                })
                .collect();
        if ranges.is_empty() {
            break;
        }
        for range in ranges.into_iter().rev() {
            let slice = &text[range.clone()];
            let replaced = match slice.trim_start_matches(' ').strip_prefix('#') {
                // ATX: its hashes become three.
                Some(_) => {
                    let lead = slice.len() - slice.trim_start_matches(' ').len();
                    let hashes = slice[lead..].chars().take_while(|c| *c == '#').count();
                    format!("{}###{}", &slice[..lead], &slice[lead + hashes..])
                }
                // Setext: its text on one line after `### `, the underline gone.
                None => {
                    let body = slice.trim_end_matches(['\n', '\r']);
                    let text_part = body.rsplit_once('\n').map_or(body, |(text, _)| text);
                    let joined: Vec<&str> = text_part.lines().map(str::trim).collect();
                    let end = if slice.ends_with('\n') { "\n" } else { "" };
                    format!("### {}{end}", joined.join(" "))
                }
            };
            text.replace_range(range, &replaced);
        }
    }
    text
}

/// `text` with its level-1 and level-2 headings made level 3: under the section's own
/// `## Summary`, a `## Overview` of the model's would end the section for every later reader
/// (a `--replace` would stop there and leave the rest as if the person had written it).
fn below_summary_heading(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(c) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            let rest = &trimmed[run * c.len_utf8()..];
            // As CommonMark reads fences: a backtick fence's info string has no backtick (else
            // the line is text, and a heading after it a heading), a closing fence no info.
            let opens = fence.is_none() && !(c == '`' && rest.contains('`'));
            let closes = fence.is_some_and(|(o, n)| o == c && run >= n && rest.trim().is_empty());
            if run >= 3 && indent < 4 && (opens || closes) {
                fence = if opens { Some((c, run)) } else { None };
                out.push(line.to_string());
                continue;
            }
        }
        if fence.is_some() || indent >= 4 {
            out.push(line.to_string());
            continue;
        }
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        let after = &trimmed[hashes..];
        if (hashes == 1 || hashes == 2) && (after.is_empty() || after.starts_with([' ', '\t'])) {
            out.push(format!("###{after}"));
            continue;
        }
        // A setext underline (`===`, `---`) under a line of text: that line is a heading.
        let underline = trimmed.trim_end();
        let is_underline = !underline.is_empty()
            && (underline.chars().all(|c| c == '=') || underline.chars().all(|c| c == '-'));
        let previous_is_text = out.last().is_some_and(|p| {
            let p = p.trim_start();
            !p.is_empty()
                && !p.starts_with(['#', '>', '|', '-', '*', '+', '`', '~'])
                && !p.starts_with(|c: char| c.is_ascii_digit())
        });
        if is_underline && previous_is_text {
            let heading = out.pop().unwrap_or_default();
            out.push(format!("### {}", heading.trim()));
            continue;
        }
        out.push(line.to_string());
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_heading_after_a_lone_carriage_return_is_put_below_the_section() {
        let cleaned =
            clean_summary("### Key points\n- On Monday.\rAlice leads.\r## Agenda\r- Pay").unwrap();
        assert!(
            !cleaned.lines().any(|line| line.starts_with("## ")),
            "{cleaned:?}"
        );
        assert!(cleaned.contains("### Agenda"), "{cleaned:?}");
        assert!(!cleaned.contains('\r'));
    }

    #[test]
    fn a_fence_in_a_list_item_ends_with_the_item_and_hides_no_heading() {
        let cleaned =
            clean_summary("### Overview\n\n- a point\n  ```\n## Injected\n\ntext\n").unwrap();
        let headings: Vec<_> =
            pulldown_cmark::Parser::new_ext(&cleaned, crate::vault::markdown::parser_options())
                .filter_map(|event| match event {
                    pulldown_cmark::Event::Start(pulldown_cmark::Tag::Heading {
                        level, ..
                    }) => Some(level),
                    _ => None,
                })
                .collect();
        assert!(
            headings
                .iter()
                .all(|level| *level > pulldown_cmark::HeadingLevel::H2),
            "{cleaned:?}: {headings:?}"
        );
    }

    #[test]
    fn a_line_that_only_looks_like_a_fence_hides_no_heading() {
        // "```x`y" is text to CommonMark (a backtick in a backtick fence's info string).
        let cleaned = clean_summary("```x`y\n## Escaped via fence info\n```\n").unwrap();
        assert!(
            cleaned.contains("### Escaped via fence info"),
            "{cleaned:?}"
        );
        // A closing fence takes no info string: "```js" inside a fence does not close it.
        let fenced = clean_summary("```\ncode\n```js\n## Inside\n```\n## Outside").unwrap();
        assert!(
            fenced.contains("## Inside") && fenced.contains("### Outside"),
            "{fenced:?}"
        );
    }

    use super::clean_summary;

    #[test]
    fn clean_summary_drops_a_leading_summary_heading() {
        assert_eq!(
            clean_summary("## Summary\n\n### Key Points\n- a").as_deref(),
            Some("### Key Points\n- a")
        );
        assert_eq!(clean_summary("# summary\nText").as_deref(), Some("Text"));
    }

    #[test]
    fn the_models_top_headings_go_below_the_summary_heading() {
        assert_eq!(
            clean_summary("## Overview\n- a\n\n# Risks\n- b\n\nTitle\n=====\n\n```\n## code\n```")
                .unwrap(),
            "### Overview\n- a\n\n### Risks\n- b\n\n### Title\n\n```\n## code\n```"
        );
        // A thematic break after a list, and `###` headings, stay as they are.
        assert_eq!(
            clean_summary("### Points\n- a\n---\n#### x").unwrap(),
            "### Points\n- a\n---\n#### x"
        );
    }

    #[test]
    fn clean_summary_keeps_other_headings() {
        assert_eq!(
            clean_summary("### Summary of costs\n- a").as_deref(),
            Some("### Summary of costs\n- a")
        );
    }

    #[test]
    fn clean_summary_of_blank_or_heading_only_answer_is_none() {
        assert_eq!(clean_summary("  \n\t "), None);
        assert_eq!(clean_summary("## Summary\n\n"), None);
    }

    #[test]
    fn clean_summary_normalises_crlf_so_its_length_matches_what_is_written() {
        assert_eq!(clean_summary("- a\r\n- b\r\n").as_deref(), Some("- a\n- b"));
    }

    #[test]
    fn clean_summary_unwraps_a_markdown_fence() {
        assert_eq!(
            clean_summary("```markdown\n- one\n- two\n```").as_deref(),
            Some("- one\n- two")
        );
    }
}
