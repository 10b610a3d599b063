//! What a note leaves open at its end: a fenced code block or an HTML block that runs to the end
//! of the file, an Obsidian `%%` comment, a `$$` math block. Left open, each would take in the
//! `## Summary` section: as code, as raw HTML (where a backslash escapes nothing), hidden, or as
//! TeX.
//!
//! What only displays is closed before the section (a fence of a display language, `<pre>`,
//! `$$`); the closing line goes after the note's bytes, which stay a prefix. What runs or hides
//! (a `dataviewjs` fence, `<script>`, `<style>`, `<!--`, `%%`, …) is not closed for the note:
//! closing it would make the note's own text act or hide differently, so the write is refused
//! with the reason, and the person closes it as they mean it.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use super::markdown::parser_options;
use super::output_policy::is_display_language;

/// What a note leaves open at its end that vaultsum does not close for it (the reason a write
/// is refused), e.g. "a ```dataviewjs block".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOpen(pub String);

/// The lines that close what `note` leaves open, each followed by `newline`; empty when it
/// leaves nothing open; [`LeftOpen`] when what is open runs or hides.
pub fn closing_lines(note: &str, newline: &str) -> Result<String, LeftOpen> {
    let mut out = String::new();
    let probe = format!("{note}\n\n## Summary\n");
    let mut open_block: Option<String> = None;
    let mut depth_code: Option<(usize, String, String)> = None;
    // Inside a list item or a quote, the container's end (the heading, at column 0) closes a
    // block: only blocks at the top level are closed here.
    let mut containers = 0usize;
    for (event, range) in Parser::new_ext(&probe, parser_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Item | Tag::BlockQuote(_) | Tag::FootnoteDefinition(_)) => {
                containers += 1
            }
            Event::End(TagEnd::Item | TagEnd::BlockQuote(_) | TagEnd::FootnoteDefinition) => {
                containers = containers.saturating_sub(1)
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if containers == 0 => {
                let line = probe[range.start..].lines().next().unwrap_or_default();
                let trimmed = line.trim_start_matches([' ', '>', '\t']);
                let fence_char = trimmed.chars().next().unwrap_or('`');
                let fence: String = trimmed.chars().take_while(|c| *c == fence_char).collect();
                depth_code = Some((range.end, fence, info.to_string()));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((end, fence, info)) = depth_code.take() {
                    if end > note.len() {
                        if !is_display_language(&info) {
                            return Err(LeftOpen(format!("a {fence}{info} block")));
                        }
                        open_block = Some(fence);
                    }
                }
            }
            Event::Start(Tag::HtmlBlock) if containers == 0 && range.end > note.len() => {
                let first = probe[range.start..]
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start()
                    .to_ascii_lowercase();
                match html_closer(&first) {
                    Some("</pre>") => open_block = Some("</pre>".to_string()),
                    Some(_) => {
                        let opener: String = first.chars().take(12).collect();
                        return Err(LeftOpen(format!("an HTML block ({opener}…)")));
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }
    if let Some(closer) = open_block {
        out.push_str(&closer);
        out.push_str(newline);
    }
    let outside_code = text_outside_code(note);
    if outside_code.matches("$$").count() % 2 == 1 {
        out.push_str("$$");
        out.push_str(newline);
    }
    if outside_code.matches("%%").count() % 2 == 1 {
        return Err(LeftOpen("a %% comment".to_string()));
    }
    Ok(out)
}

/// The end tag of an HTML block that only its end tag closes (CommonMark's kinds 1 to 5).
fn html_closer(first_line: &str) -> Option<&'static str> {
    for tag in ["pre", "script", "style", "textarea"] {
        if first_line.starts_with(&format!("<{tag}")) {
            return Some(match tag {
                "pre" => "</pre>",
                "script" => "</script>",
                "style" => "</style>",
                _ => "</textarea>",
            });
        }
    }
    if first_line.starts_with("<!--") {
        Some("-->")
    } else if first_line.starts_with("<?") {
        Some("?>")
    } else if first_line.starts_with("<![cdata[") {
        Some("]]>")
    } else if first_line.starts_with("<!") {
        Some(">")
    } else {
        None
    }
}

/// `note` with its code (spans and blocks) left out, for counting Obsidian's delimiters.
fn text_outside_code(note: &str) -> String {
    let mut out = String::with_capacity(note.len());
    let mut copied = 0;
    for (event, range) in Parser::new_ext(note, parser_options()).into_offset_iter() {
        if matches!(event, Event::Code(_) | Event::Start(Tag::CodeBlock(_)))
            && range.start >= copied
        {
            out.push_str(&note[copied..range.start]);
            out.push('\n');
            copied = range.end;
        }
    }
    out.push_str(&note[copied.min(note.len())..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{closing_lines, LeftOpen};

    #[test]
    fn what_only_displays_gets_its_closing_line() {
        let closed = |note: &str, newline: &str| closing_lines(note, newline).unwrap();
        assert_eq!(closed("Text\n\n```js\nlet a;\n", "\n"), "```\n");
        assert_eq!(closed("Text\n\n~~~~\ncode", "\n"), "~~~~\n");
        assert_eq!(closed("<pre>\nraw", "\r\n"), "</pre>\r\n");
        assert_eq!(closed("$$\n\\frac{a}{b}", "\n"), "$$\n");
        assert_eq!(closed("Closed.\n```\na\n```\n`%%` and $$x$$", "\n"), "");
        assert_eq!(closed("- item\n  ```\n  code\n", "\n"), "");
    }

    #[test]
    fn what_runs_or_hides_is_left_to_the_person() {
        let open = |note: &str| closing_lines(note, "\n").unwrap_err();
        assert_eq!(
            open("Text\n\n```dataviewjs\n"),
            LeftOpen("a ```dataviewjs block".into())
        );
        assert_eq!(open("Text %% hidden"), LeftOpen("a %% comment".into()));
        assert!(open("<!-- note").0.starts_with("an HTML block (<!--"));
        assert!(open("<script>\nx").0.starts_with("an HTML block (<script>"));
    }
}
