//! What a note's text says about summarizing it: an existing `## Summary`, a frontmatter
//! opt-out (`summarize: false`), and how much body it has.

/// Splits a note into its YAML frontmatter (without the `---` fences) and its body. A note
/// without a closed frontmatter block is all body.
pub fn split_frontmatter(text: &str) -> (Option<&str>, &str) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return (None, text);
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == "---" || trimmed == "..." {
            return (Some(&rest[..offset]), &rest[offset + line.len()..]);
        }
        offset += line.len();
    }
    (None, text)
}

/// Characters of body text, frontmatter excluded and surrounding whitespace ignored.
pub fn body_chars(text: &str) -> usize {
    split_frontmatter(text).1.trim().chars().count()
}

/// True when the frontmatter opts the note out: a top-level `summarize:` key set to
/// `false`, `no` or `off` (quoted or not, any case).
pub fn opted_out(text: &str) -> bool {
    let Some(frontmatter) = split_frontmatter(text).0 else {
        return false;
    };
    frontmatter.lines().any(|line| {
        let Some(value) = line.strip_prefix("summarize:") else {
            return false;
        };
        let value = value.split('#').next().unwrap_or("").trim();
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        matches!(value.to_ascii_lowercase().as_str(), "false" | "no" | "off")
    })
}

/// True when the note already has a `## Summary` heading outside code blocks (any case,
/// trailing spaces or `#`s allowed), whoever wrote it.
pub fn has_summary(text: &str) -> bool {
    let mut fence: Option<&str> = None;
    for line in split_frontmatter(text).1.lines() {
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some("```");
            continue;
        }
        if trimmed.starts_with("~~~") {
            fence = Some("~~~");
            continue;
        }
        // A heading is at most three spaces in; four is an indented code block.
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        if let Some(title) = trimmed.strip_prefix("## ") {
            let title = title.trim().trim_end_matches('#').trim();
            if title.eq_ignore_ascii_case("summary") {
                return true;
            }
        }
    }
    false
}

/// True when the note embeds something (`![[…]]` or a Markdown image/file embed), so its
/// expanded text may be much longer than its own body.
pub fn has_embeds(text: &str) -> bool {
    text.contains("![")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_is_not_counted_as_body() {
        let note = "---\ntags: [a, b]\ntitle: A rather long title here\n---\nHello";
        assert_eq!(body_chars(note), 5);
        assert_eq!(body_chars("Hello\n\n"), 5);
    }

    #[test]
    fn unclosed_frontmatter_is_body() {
        let note = "---\nnot closed\nstill text";
        assert_eq!(split_frontmatter(note).0, None);
        assert_eq!(body_chars(note), note.chars().count());
    }

    #[test]
    fn body_counts_characters_not_bytes() {
        assert_eq!(body_chars("日本語のメモ"), 6);
    }

    #[test]
    fn summarize_false_in_frontmatter_opts_out() {
        assert!(opted_out("---\nsummarize: false\n---\nbody"));
        assert!(opted_out("---\r\nsummarize: \"no\"\r\n---\r\nbody"));
        assert!(opted_out(
            "---\ntags: x\nsummarize: Off  # not this one\n---\n"
        ));
        assert!(!opted_out("---\nsummarize: true\n---\nbody"));
        assert!(!opted_out("---\nsettings:\n  summarize: false\n---\n"));
        assert!(!opted_out("summarize: false\n\nnot frontmatter"));
    }

    #[test]
    fn summary_heading_is_found_in_any_case_outside_code() {
        assert!(has_summary("# Meeting\n\ntext\n\n## Summary\n\n- a\n"));
        assert!(has_summary("text\n## summary ##\n"));
        assert!(!has_summary("text\n### Summary\n"));
        assert!(!has_summary("text\n## Summary of costs\n"));
        assert!(!has_summary("```md\n## Summary\n```\n"));
        assert!(!has_summary("    ## Summary\n"));
        assert!(!has_summary("---\ntitle: x\n---\nA summary is coming"));
    }

    #[test]
    fn embeds_are_recognised() {
        assert!(has_embeds("![[Recording 2024.m4a]]"));
        assert!(has_embeds("![scan](scan%201.png)"));
        assert!(!has_embeds(
            "just [[a link]] and [a site](https://example.com)"
        ));
    }
}
