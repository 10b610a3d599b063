//! `read_file`: a vault note with its embeds expanded, paged by characters.

use std::sync::{Arc, LazyLock};

use async_trait::async_trait;
use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::stub::{arg_str, file_read_facts, source_code_facts, ToolSummary, PATH_KEYS};
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};

const DESCRIPTION: &str = "\
Read a note from the Obsidian vault with everything it embeds expanded in place: other notes \
(![[Note]]), heading sections (![[Note#Heading]]) and blocks (![[Note#^id]]), images described by \
a vision model and audio transcribed. Each expansion is a labelled `> [Embedded: …]` block; an \
embed that cannot be expanded shows an inline marker with the reason.

When to use:
- Before answering questions about a note, to see it as the person sees it in Obsidian
- To read a note that is mostly embeds (dashboards, MOCs, daily notes)

Parameters:
- path (required): vault-relative path, e.g. \"Meetings/2026-03-02 Standup.md\"
- offset (optional): character offset to start from (default 0)
- length (optional): characters to return (default 30000). Long notes end with a marker \
telling the offset to continue from.

To summarize a note into the note itself, use summarize_file instead.";

/// Arguments of `read_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFileArgs {
    /// Vault-relative path of the note (the CLI also accepts an absolute path inside the vault).
    pub path: String,
    /// Character offset into the expanded text to start from.
    #[serde(default)]
    pub offset: usize,
    /// Number of characters to return (default 30000).
    pub length: Option<usize>,
}

/// The `read_file` tool.
pub struct ReadFileTool {
    context: Arc<ToolContext>,
}

impl ReadFileTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> ReadFileTool {
        ReadFileTool { context }
    }

    async fn read(&self, args: ReadFileArgs) -> Result<ToolOutput, String> {
        let expanded = self
            .context
            .read_expanded(&args.path)
            .await
            .map_err(|e| e.to_string())?;
        let length = args
            .length
            .unwrap_or(self.context.config.read.default_length);
        let (lines, bytes) = (line_count(&expanded.text), expanded.text.len());
        let page = page_by_chars(expanded.text, args.offset, length)?;
        let mut details = json!({
            "path": expanded.path,
            "total_chars": page.total,
            "offset": page.start,
            "end": page.end,
            "lines": lines,
            "bytes": bytes,
            "truncated": page.end < page.total,
        });
        // Moved in, not written into `json!`, which would copy it by serializing it again.
        details["expansion"] = expanded.details;
        Ok(ToolOutput::ok(page.text, details))
    }
}

/// One page of a longer text, with the paging markers `read_file` promises in its description.
#[derive(Debug, PartialEq)]
pub struct Page {
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub total: usize,
}

/// How many lines `text` has, as `str::lines` counts them (a final line break ends the last
/// line, it does not start another), found with a SIMD byte count.
fn line_count(text: &str) -> usize {
    let breaks = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    breaks + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// Cuts `[offset, offset+length)` out of `text`, counted in characters, and adds
/// `[Continuing from char X of N]` before and `[... truncated at char E of N. Use offset=E to
/// read more.]` after when the page does not start at 0 or does not reach the end. A page that
/// is the whole text is the text itself, not a copy.
pub fn page_by_chars(text: String, offset: usize, length: usize) -> Result<Page, String> {
    let total = text.chars().count();
    if offset > total || (offset == total && total > 0) {
        return Err(format!(
            "offset {offset} is past the end of the note ({total} characters); use an offset below {total}"
        ));
    }
    if length == 0 {
        return Err("length must be at least 1".to_string());
    }
    let end = offset.saturating_add(length).min(total);
    if offset == 0 && end == total {
        return Ok(Page {
            text,
            start: 0,
            end,
            total,
        });
    }
    // The page is sliced by byte positions found once, not rebuilt char by char: a whole note
    // is one copy.
    let body = &text[byte_at_char(&text, offset)..byte_at_char(&text, end)];
    let mut out = String::with_capacity(body.len() + 120);
    if offset > 0 {
        out.push_str(&format!("[Continuing from char {offset} of {total}]\n\n"));
    }
    out.push_str(body);
    if end < total {
        out.push_str(&format!(
            "\n\n[... truncated at char {end} of {total}. Use offset={end} to read more.]"
        ));
    }
    Ok(Page {
        text: out,
        start: offset,
        end,
        total,
    })
}

/// Byte position of the `chars`-th character (the text's length at or past its end).
fn byte_at_char(text: &str, chars: usize) -> usize {
    if text.is_ascii() {
        return chars.min(text.len());
    }
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(at, _)| at)
}

static PAGE_CUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[\.\.\. truncated at char (\d+) of (\d+)\.").expect("valid paging pattern")
});

#[async_trait]
impl TypedTool for ReadFileTool {
    type Args = ReadFileArgs;
    const NAME: &'static str = "read_file";
    const TITLE: &'static str = "Read a vault file";
    const DESCRIPTION: &'static str = DESCRIPTION;
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY;

    async fn run(&self, args: ReadFileArgs) -> ToolOutput {
        let path = args.path.clone();
        match self.read(args).await {
            Ok(output) => output,
            Err(message) => ToolOutput::error(message, json!({ "path": path })),
        }
    }

    fn render_call(&self, args: &ReadFileArgs) -> String {
        let path = &args.path;
        match args.offset {
            0 => format!("read_file {path:?}"),
            offset => format!("read_file {path:?} (from char {offset})"),
        }
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        if output.is_error {
            return format!("✗ {}", output.text);
        }
        if expanded {
            return output.text.clone();
        }
        let d = &output.details;
        let embeds = d
            .pointer("/expansion/embeds")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        format!(
            "✓ {} chars {}..{} of {}, {} embeds",
            d["path"].as_str().unwrap_or("?"),
            d["offset"],
            d["end"],
            d["total_chars"],
            embeds
        )
    }

    /// `[✓ read_file: Notes/a.md | 42 lines | 3.1KB]`; for a paged read also which part was
    /// shown. Other agents call their file readers `read_file` too, so the path is looked for
    /// under their argument names as well, and source code gets its language (seed 004).
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let text = &output.text;
        let path = arg_str(args, PATH_KEYS).unwrap_or("?");
        let mut facts = file_read_facts(path, text);
        if let Some(cut) = PAGE_CUT.captures(text) {
            facts.push(format!("partial: to char {} of {}", &cut[1], &cut[2]));
        }
        facts.extend(source_code_facts(path, text));
        ToolSummary::success(Self::NAME, facts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_as_str_lines_counts_them() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\n",
            "a\n\nb\n",
        ] {
            assert_eq!(line_count(text), text.lines().count(), "{text:?}");
        }
    }

    #[test]
    fn whole_text_has_no_markers() {
        let page = page_by_chars("hello".to_string(), 0, 100).unwrap();
        assert_eq!(page.text, "hello");
        assert_eq!((page.start, page.end, page.total), (0, 5, 5));
    }

    #[test]
    fn first_page_ends_with_truncation_marker_naming_next_offset() {
        let page = page_by_chars("abcdefghij".to_string(), 0, 4).unwrap();
        assert_eq!(
            page.text,
            "abcd\n\n[... truncated at char 4 of 10. Use offset=4 to read more.]"
        );
    }

    #[test]
    fn later_page_starts_with_continuation_marker() {
        let page = page_by_chars("abcdefghij".to_string(), 4, 100).unwrap();
        assert_eq!(page.text, "[Continuing from char 4 of 10]\n\nefghij");
    }

    #[test]
    fn paging_counts_characters_not_bytes() {
        let page = page_by_chars("ééééé".to_string(), 2, 2).unwrap();
        assert!(page.text.contains("\n\néé\n\n"), "{}", page.text);
        assert_eq!(page.end, 4);
    }

    #[test]
    fn offset_past_end_is_an_error_naming_the_size() {
        let err = page_by_chars("abc".to_string(), 3, 10).unwrap_err();
        assert!(err.contains("3 characters"), "{err}");
        assert!(page_by_chars("".to_string(), 0, 10).is_ok());
    }
}
