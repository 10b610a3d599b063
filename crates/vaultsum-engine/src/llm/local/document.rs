//! Markdown → what the summarizer works on: sentences with their section and position, tables
//! and tasks.
//!
//! pulldown-cmark does the block structure. Skipped entirely: frontmatter, code (fenced,
//! indented, inline math blocks), HTML, image and file embeds, and Obsidian `%%comments%%`.
//! Kept as note content: paragraphs, list items, quotes and callouts (their `[!type]` marker and
//! short title dropped), and expanded embeds (`> [Embedded: X]` blocks, whose label starts a
//! section named X). Links keep their visible text, inline code keeps its backticks.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use super::sentences::split_sentences;

/// A note, taken apart for ranking and rendering.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// The first level-1 heading, if any: usually the note's subject.
    pub title: Option<String>,
    /// Section 0 is the text before the first heading (its heading is empty).
    pub sections: Vec<Section>,
    /// Prose sentences in note order (list items, quotes and callouts included; tasks not).
    pub sentences: Vec<Sentence>,
    /// Tables in note order.
    pub tables: Vec<Table>,
    /// Checklist items in note order, open and done.
    pub tasks: Vec<Task>,
}

/// A heading and the text under it (up to the next heading of any level).
#[derive(Debug, Clone)]
pub struct Section {
    /// The heading's text (empty for the preamble).
    pub heading: String,
    /// 1–6; 0 for the preamble; 7 for an expanded embed's label.
    pub level: u8,
    /// What a point from this section links to cite it (`#Risks`, `Plan#Why`, `Plan`), when
    /// the heading can be linked: a heading of the note's own, of an embedded note, or the
    /// embed itself. `None` for the preamble, a heading of a quote or callout of the note's own
    /// (which Obsidian may not resolve), and headings a link cannot spell.
    pub cite: Option<String>,
}

/// What kind of block a sentence came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// An ordinary paragraph.
    Paragraph,
    /// A bullet or numbered list item (not a task).
    ListItem,
    /// A paragraph inside a quote or callout.
    Quote,
}

/// One sentence of the note.
#[derive(Debug, Clone)]
pub struct Sentence {
    /// The sentence as it should be shown (markdown emphasis and link targets removed).
    pub text: String,
    /// Index into [`Document::sections`].
    pub section: usize,
    /// 0 for the first sentence of its section, 1 for the second, …
    pub index_in_section: usize,
    /// Running number of the block (paragraph, item) it belongs to.
    pub block: usize,
    /// What kind of block that is.
    pub kind: BlockKind,
}

/// A table, re-rendered as a clean markdown table.
#[derive(Debug, Clone)]
pub struct Table {
    /// Index into [`Document::sections`].
    pub section: usize,
    /// How many sentences come before it: where it sits in the note.
    pub position: usize,
    /// Header cells.
    pub header: Vec<String>,
    /// Body rows.
    pub rows: Vec<Vec<String>>,
}

/// A checklist item (`- [ ] …` or `- [x] …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// The item's own text, without its children.
    pub text: String,
    /// `[x]`/`[X]`. Anything other than `[ ]` and `[x]` is not parsed as a task by markdown.
    pub done: bool,
}

/// Parses `markdown` into a [`Document`]. Never fails: anything it cannot use is skipped.
pub fn parse(markdown: &str) -> Document {
    let source = strip_comments(markdown);
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
        | Options::ENABLE_MATH
        | Options::ENABLE_WIKILINKS;
    let mut builder = Builder::default();
    builder.doc.sections.push(Section {
        heading: String::new(),
        level: 0,
        cite: None,
    });
    for event in Parser::new_ext(&source, options) {
        builder.event(event);
    }
    builder.doc
}

/// One open block whose text is being collected.
#[derive(Debug)]
struct OpenBlock {
    kind: BlockKind,
    text: String,
    task: Option<bool>,
    /// A list item whose own text was already emitted when its nested list began.
    emitted: bool,
}

#[derive(Default)]
struct Builder {
    doc: Document,
    blocks: Vec<OpenBlock>,
    /// Per Start(Paragraph): whether it opened its own block (false inside a list item).
    paragraph_opened: Vec<bool>,
    /// Depth of constructs whose text is skipped (code, metadata, images, footnote bodies).
    skip: usize,
    quote_depth: usize,
    heading: Option<(u8, String)>,
    table: Option<TableBuilder>,
    /// Inside inline `<span>…</span>`: image captions and tag lists, not prose.
    span_depth: usize,
    /// Per open link: where an alias-less wikilink's text starts in the current buffer.
    links: Vec<Option<usize>>,
    block_counter: usize,
    current_section: usize,
    sentences_in_section: usize,
    /// The note of the embed being read (empty for an embed of the note's own section), until
    /// its quote ends.
    embed_note: Option<String>,
}

#[derive(Default)]
struct TableBuilder {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    cell: Option<String>,
}

impl Builder {
    fn event(&mut self, event: Event<'_>) {
        if self.skip > 0 {
            match event {
                Event::Start(
                    Tag::CodeBlock(_)
                    | Tag::MetadataBlock(_)
                    | Tag::Image { .. }
                    | Tag::FootnoteDefinition(_),
                ) => self.skip += 1,
                Event::End(
                    TagEnd::CodeBlock
                    | TagEnd::MetadataBlock(_)
                    | TagEnd::Image
                    | TagEnd::FootnoteDefinition,
                ) => self.skip -= 1,
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.push_text(&text),
            Event::Code(code) => {
                let code = code.trim();
                if !code.is_empty() {
                    self.push_text(&format!("`{code}`"));
                }
            }
            Event::SoftBreak | Event::HardBreak => self.push_text("\n"),
            Event::TaskListMarker(done) => {
                if let Some(block) = self.blocks.last_mut() {
                    block.task = Some(done);
                }
            }
            // `<br>` inside a table cell separates lines; other HTML is not note prose.
            Event::InlineHtml(html) => {
                let tag = html.trim().to_ascii_lowercase();
                if tag.starts_with("<br") {
                    self.push_text(" ");
                } else if tag.starts_with("<span") && !tag.ends_with("/>") {
                    self.span_depth += 1;
                } else if tag.starts_with("</span") {
                    self.span_depth = self.span_depth.saturating_sub(1);
                }
            }
            Event::Html(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::FootnoteReference(_)
            | Event::Rule => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::CodeBlock(_)
            | Tag::MetadataBlock(_)
            | Tag::Image { .. }
            | Tag::FootnoteDefinition(_) => self.skip += 1,
            Tag::Heading { level, .. } => self.heading = Some((level as u8, String::new())),
            Tag::BlockQuote(_) => self.quote_depth += 1,
            Tag::Paragraph => {
                let in_item =
                    matches!(self.blocks.last(), Some(b) if b.kind == BlockKind::ListItem);
                if in_item {
                    self.push_text("\n");
                    self.paragraph_opened.push(false);
                } else {
                    let kind = if self.quote_depth > 0 {
                        BlockKind::Quote
                    } else {
                        BlockKind::Paragraph
                    };
                    self.open(kind);
                    self.paragraph_opened.push(true);
                }
            }
            Tag::Item => self.open(BlockKind::ListItem),
            Tag::List(_) => {
                // A nested list: the parent item's own text is complete.
                if let Some(index) = self
                    .blocks
                    .iter()
                    .rposition(|b| b.kind == BlockKind::ListItem)
                {
                    if index == self.blocks.len() - 1 && !self.blocks[index].emitted {
                        let block = &mut self.blocks[index];
                        block.emitted = true;
                        let snapshot = OpenBlock {
                            kind: block.kind,
                            text: std::mem::take(&mut block.text),
                            task: block.task,
                            emitted: false,
                        };
                        self.emit(snapshot);
                    }
                }
            }
            Tag::Link { link_type, .. } => {
                let bare_wikilink = matches!(link_type, LinkType::WikiLink { has_pothole: false });
                let start = bare_wikilink.then(|| self.buffer().map_or(0, |b| b.len()));
                self.links.push(start);
            }
            Tag::Table(_) => self.table = Some(TableBuilder::default()),
            Tag::TableCell => {
                if let Some(table) = &mut self.table {
                    table.cell = Some(String::new());
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                if let Some((level, text)) = self.heading.take() {
                    let heading = clean_inline(&text);
                    if level == 1 && self.doc.title.is_none() && !heading.is_empty() {
                        self.doc.title = Some(heading.clone());
                    }
                    self.start_section(heading, level);
                }
            }
            TagEnd::Link => {
                if let Some(Some(start)) = self.links.pop() {
                    if let Some(buffer) = self.buffer() {
                        if let Some(target) = buffer.get(start..) {
                            let shown = wikilink_display(target);
                            buffer.truncate(start);
                            buffer.push_str(&shown);
                        }
                    }
                }
            }
            TagEnd::BlockQuote(_) => {
                self.quote_depth = self.quote_depth.saturating_sub(1);
                if self.quote_depth == 0 {
                    self.embed_note = None;
                }
            }
            TagEnd::Paragraph => {
                let opened_own_block = self.paragraph_opened.pop().unwrap_or(false);
                if let Some(block) = opened_own_block.then(|| self.blocks.pop()).flatten() {
                    self.emit(block);
                }
            }
            TagEnd::Item => {
                if let Some(block) = self.blocks.pop() {
                    // Text after a nested list still belongs to the item.
                    if !block.emitted || !block.text.trim().is_empty() {
                        self.emit(block);
                    }
                }
            }
            TagEnd::TableCell => {
                if let Some(table) = &mut self.table {
                    if let Some(cell) = table.cell.take() {
                        table.row.push(clean_inline(&cell));
                    }
                }
            }
            TagEnd::TableHead => {
                if let Some(table) = &mut self.table {
                    table.header = std::mem::take(&mut table.row);
                }
            }
            TagEnd::TableRow => {
                if let Some(table) = &mut self.table {
                    let row = std::mem::take(&mut table.row);
                    table.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    if !table.header.is_empty() {
                        self.doc.tables.push(Table {
                            section: self.current_section,
                            position: self.doc.sentences.len(),
                            header: table.header,
                            rows: table.rows,
                        });
                    }
                }
            }
            _ => {}
        }
    }

    fn open(&mut self, kind: BlockKind) {
        self.blocks.push(OpenBlock {
            kind,
            text: String::new(),
            task: None,
            emitted: false,
        });
    }

    /// Where text goes right now: the heading, the table cell or the innermost open block.
    fn buffer(&mut self) -> Option<&mut String> {
        if let Some((_, heading)) = &mut self.heading {
            Some(heading)
        } else if let Some(cell) = self.table.as_mut().and_then(|t| t.cell.as_mut()) {
            Some(cell)
        } else {
            self.blocks.last_mut().map(|b| &mut b.text)
        }
    }

    fn push_text(&mut self, text: &str) {
        if self.span_depth > 0 {
            return;
        }
        if let Some(buffer) = self.buffer() {
            buffer.push_str(text);
        }
    }

    fn start_section(&mut self, heading: String, level: u8) {
        let cite = if level == 7 {
            // The embed's label: `Plan#Why`, `Plan`, or `#Morning` for the note's own.
            Some(heading.clone())
        } else if level == 1 {
            // A note's title: citing it says no more than the note itself.
            None
        } else if self.quote_depth == 0 {
            Some(format!("#{heading}"))
        } else {
            self.embed_note
                .as_ref()
                .map(|note| format!("{note}#{heading}"))
        }
        .filter(|target| linkable(target));
        self.doc.sections.push(Section {
            heading,
            level,
            cite,
        });
        self.current_section = self.doc.sections.len() - 1;
        self.sentences_in_section = 0;
    }

    /// Turns a finished block into a task or sentences.
    fn emit(&mut self, block: OpenBlock) {
        let mut text = block.text.trim().to_string();
        if block.kind == BlockKind::Quote {
            let (first, rest) = text.split_once('\n').unwrap_or((text.as_str(), ""));
            let first = first.trim();
            if let Some(label) = embed_label(first) {
                let label = label.to_string();
                self.embed_note = Some(label.split('#').next().unwrap_or("").to_string());
                text = rest.to_string();
                self.start_section(label, 7);
            } else if let Some(title) = callout_title(first) {
                // A callout's title is kept only when it is a sentence in its own right.
                let keep =
                    title.split_whitespace().count() >= 6 || title.ends_with(['.', '!', '?']);
                text = if keep {
                    format!("{title}\n{rest}")
                } else {
                    rest.to_string()
                };
            }
        }
        let text = clean_inline(&text);
        if text.is_empty() {
            return;
        }
        if let Some(done) = block.task {
            self.doc.tasks.push(Task { text, done });
            return;
        }
        // Checkboxes with custom statuses (`- [/] …`, `- [-] …`) are tasks, not prose.
        if block.kind == BlockKind::ListItem && is_custom_status(&text) {
            return;
        }
        self.block_counter += 1;
        for sentence in split_sentences(&text) {
            // The expander's own markers (`[Embed failed: X: cycle]`, media placeholders) say
            // nothing about the note; they are not key points.
            if is_expansion_marker(&sentence) {
                continue;
            }
            self.doc.sentences.push(Sentence {
                text: sentence,
                section: self.current_section,
                index_in_section: self.sentences_in_section,
                block: self.block_counter,
                kind: block.kind,
            });
            self.sentences_in_section += 1;
        }
    }
}

/// A marker the embed expander writes in place of content it could not read.
fn is_expansion_marker(sentence: &str) -> bool {
    let sentence = sentence.trim();
    sentence.starts_with("[Embed failed:")
        || (sentence.starts_with('[')
            && sentence.ends_with(']')
            && (sentence.contains("not read yet")
                || sentence.contains("no vision model")
                || sentence.contains("no transcription model")))
}

/// `[Embedded: Note#Heading]`, the label of an expanded embed.
/// Whether `target` (`Note#Heading`) can be written as a wikilink that Obsidian resolves as
/// written: one heading, none of the characters links cannot hold or Obsidian rewrites.
fn linkable(target: &str) -> bool {
    let (note, heading) = target.split_once('#').unwrap_or((target, ""));
    let bad = |c: char| {
        matches!(
            c,
            '[' | ']' | '|' | '#' | '^' | ':' | '%' | '\\' | '`' | '\n'
        )
    };
    let empty = note.is_empty() && heading.trim().is_empty();
    let spellable = !note.contains(bad) && !heading.contains(bad) && heading.trim() == heading;
    spellable && !empty
}

fn embed_label(line: &str) -> Option<&str> {
    line.strip_prefix("[Embedded:")?
        .strip_suffix(']')
        .map(str::trim)
}

/// `[!note] Title` or `[!tip]- Title`: the title, possibly empty.
fn callout_title(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("[!")?;
    let close = rest.find(']')?;
    let kind = &rest[..close];
    if kind.is_empty()
        || !kind
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return None;
    }
    Some(rest[close + 1..].trim_start_matches(['+', '-']).trim())
}

/// How Obsidian shows `[[Folder/Note#Heading]]` without an alias, shortened for prose:
/// the heading if there is one, else the note name.
fn wikilink_display(target: &str) -> String {
    let (note, fragment) = target.split_once('#').unwrap_or((target, ""));
    let fragment = fragment
        .rsplit('#')
        .next()
        .unwrap_or("")
        .trim_start_matches('^');
    if !fragment.is_empty() {
        return fragment.to_string();
    }
    let name = note.rsplit('/').next().unwrap_or(note);
    name.strip_suffix(".md").unwrap_or(name).to_string()
}

fn is_custom_status(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next() == Some('[') && chars.next().is_some() && chars.next() == Some(']')
}

/// Collapses white space and drops a trailing block id (`^abc123`).
fn clean_inline(text: &str) -> String {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.len() > 1 && words.last().is_some_and(|w| is_block_id(w)) {
        words.pop();
    }
    words.join(" ")
}

fn is_block_id(word: &str) -> bool {
    word.strip_prefix('^').is_some_and(|id| {
        !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Blanks out Obsidian `%%comments%%` (which may span lines) outside fenced code, keeping line
/// breaks so the markdown structure around them is unchanged.
pub fn strip_comments(markdown: &str) -> String {
    if !markdown.contains("%%") {
        return markdown.to_string();
    }
    let mut out = String::with_capacity(markdown.len());
    let mut in_comment = false;
    let mut fence: Option<(char, usize)> = None;
    for line in markdown.split_inclusive('\n') {
        if !in_comment {
            let marker = line.trim_start().trim_start_matches(['>', ' ', '\t']);
            let fence_char = marker.chars().next().filter(|c| *c == '`' || *c == '~');
            if let Some(ch) = fence_char {
                let run = marker.chars().take_while(|c| *c == ch).count();
                if run >= 3 {
                    match fence {
                        None => fence = Some((ch, run)),
                        Some((open, len)) if open == ch && run >= len => fence = None,
                        _ => {}
                    }
                    out.push_str(line);
                    continue;
                }
            }
            if fence.is_some() {
                out.push_str(line);
                continue;
            }
        }
        let mut rest = line;
        while !rest.is_empty() {
            match rest.find("%%") {
                Some(at) => {
                    if in_comment {
                        out.extend(rest[..at].chars().filter(|c| *c == '\n'));
                    } else {
                        out.push_str(&rest[..at]);
                    }
                    in_comment = !in_comment;
                    rest = &rest[at + 2..];
                }
                None => {
                    if in_comment {
                        out.extend(rest.chars().filter(|c| *c == '\n'));
                    } else {
                        out.push_str(rest);
                    }
                    rest = "";
                }
            }
        }
    }
    out
}
