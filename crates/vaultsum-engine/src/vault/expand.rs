//! Embed expansion: a note's text with every `![[…]]` (and local `![…](…)`) replaced by what it
//! shows in Obsidian, so a model reads what the person sees.
//!
//! Each expansion is a labelled quote block (`> [Embedded: Note#Heading]` then `> `-prefixed
//! lines); inside a table cell it is one line, so the table survives. A failure is an inline
//! marker `[Embed failed: <reference>: <reason>]`. Everything outside embeds and `%%comments%%`
//! is copied byte for byte.
//!
//! Odd embeds: `![[]]` (no target) gives the marker `empty embed, no target`; `![[#]]` likewise;
//! `![[....]]` is a name like any other and gives `not found` unless such a file exists.
//!
//! The expansion is planned here with no I/O: the host hands the notes it reads through
//! [`EmbedFiles`] (vaultsum-core reads the disk, confined to the vault; the plugin reads
//! Obsidian's vault), and the attachments the plan waits for come back as texts to
//! [`assemble`]. So a note expands to the same bytes in the binary and in the app.

use foldhash::{HashMap, HashMapExt};
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use serde_json::{json, Value};

use super::attachment_kind::AttachmentKind;
use super::fragment::{block_with_id, heading_section};
use super::index::NoteIndex;
use super::link::{parse_markdown_destination, parse_wikilink, LinkTarget, Subpath};
use super::markdown::{line_start, EmbedSpan, EmbedSyntax};
use super::note_facts::{summary_ranges, summary_sections};
use super::parsed_note::ParsedNote;
use super::resolve::ResolveError;

/// The files an expansion reads, as the host has them.
pub trait EmbedFiles {
    /// The note (or canvas, as Markdown) at the vault-relative `path`, parsed; or the short
    /// reason it cannot be embedded (`not found`, `too large to read …`), shown inline.
    fn parsed_note(&self, path: &str) -> Result<Arc<ParsedNote>, &'static str>;

    /// Whether an attachment at `path` (resolved by the index) may be read: `false` for a
    /// path the host would refuse as outside the vault.
    fn attachment_allowed(&self, path: &str) -> bool;
}

/// An attachment the plan waits for; its text goes, in this order, to [`assemble`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAttachment {
    /// Vault-relative path, as the index resolved it.
    pub path: String,
    /// What kind of file it is.
    pub kind: AttachmentKind,
    /// The page asked for (`![[paper.pdf#page=3]]`), or the whole file.
    pub page: Option<u32>,
}

/// Limits of one expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandOptions {
    /// How deep embeds inside embeds are followed (the note itself is depth 0).
    pub max_depth: usize,
    /// Bytes of embedded note text allowed in total, against runaway fan-out.
    pub max_total_bytes: usize,
    /// Set when the text is read for a summary: the summary property named here (the note's
    /// own) and every `## Summary` section (the note's and its embedded notes') are left out,
    /// so a summary never summarizes a summary. An embed that names a summary section itself
    /// (`![[Meeting#Summary]]`) still shows it: the person asked for that section. `None` (a
    /// read) shows notes as they are.
    pub leave_out_summaries: Option<String>,
}

impl Default for ExpandOptions {
    fn default() -> Self {
        ExpandOptions {
            max_depth: 5,
            max_total_bytes: 1_000_000,
            leave_out_summaries: None,
        }
    }
}

/// Where one embed or comment of the note landed in the expanded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// Byte range of the embed or comment in the note's source.
    pub source: Range<usize>,
    /// Byte range of what replaced it in [`Expansion::text`].
    pub output: Range<usize>,
}

/// A note with its embeds expanded.
#[derive(Debug, Clone)]
pub struct Expansion {
    /// The text a model reads.
    pub text: String,
    /// `text` without what a model made of the images and recordings it embeds (their
    /// descriptions, transcripts, and the server's words when it made none), each still named
    /// by its label: the note's own words and what it embeds. What a summary's links may point
    /// at is read from this, never from a model's reading of a picture, which a prompt
    /// injection in the picture (or a hostile server) writes.
    pub named: String,
    /// For people and UIs: `embeds` expanded (reference, path, kind, depth, bytes), `failures`
    /// (reference, reason, depth), `ambiguous` links (reference, chosen, alternatives),
    /// `source_bytes`, `expanded_bytes`, `files_read`, `budget_exhausted`.
    pub details: Value,
    /// Every top-level replacement, in source order; the text between them is the source's.
    pub replacements: Vec<Replacement>,
}

/// What replaces each embed, with a sentinel where an attachment's text will go: everything
/// of an expansion but the attachments' texts.
#[derive(Debug)]
pub struct ExpansionPlan {
    splices: Vec<(Range<usize>, String)>,
    /// The attachments whose texts [`assemble`] takes, in this order.
    pub pending: Vec<PendingAttachment>,
    report: serde_json::Map<String, Value>,
    nonce: String,
}

/// The line that stands where an embed could not be turned into text (`SourceLinks` reads
/// the file's name back from it).
pub fn failed_marker(reference: &str, reason: &str) -> String {
    format!("{FAILED_OPEN}{reference}: {reason}]")
}

/// How a [`failed_marker`] begins.
const FAILED_OPEN: &str = "[Embed failed: ";

/// The reason in `text` when it is the [`failed_marker`] of `reference`.
fn failed_reason<'a>(reference: &str, text: &'a str) -> Option<&'a str> {
    text.strip_prefix(FAILED_OPEN)?
        .strip_prefix(reference)?
        .strip_prefix(": ")?
        .strip_suffix(']')
}

/// Walks `root` (the parsed content of the note at vault-relative `note`) and every note it
/// embeds, read through `files`, links resolved by `index`. `supported`: the attachment kinds
/// the host turns into text (others get a "not supported yet" block). `nonce`: a value the
/// note cannot guess (the host's randomness), marking where attachment texts go, so a note
/// that writes a sentinel itself gets no file's text in its place.
pub fn plan_expansion(
    files: &dyn EmbedFiles,
    index: &NoteIndex,
    note: &str,
    root: &Arc<ParsedNote>,
    opts: ExpandOptions,
    supported: Vec<AttachmentKind>,
    nonce: String,
) -> ExpansionPlan {
    let source = root.source.as_str();
    let left_out = match &opts.leave_out_summaries {
        Some(property) => summary_ranges(&root.source, &root.map, property),
        None => Vec::new(),
    };
    let mut expander = Expander::new(files, index, opts, supported, nonce);
    expander.cache.insert(note.to_string(), Ok(root.clone()));
    expander.stack.push((note.to_string(), Subpath::Whole));
    let splices = expander.splice_list(note, root, 0..source.len(), &left_out, 0);
    expander.flush_report();
    ExpansionPlan {
        splices,
        pending: expander.pending,
        report: expander.report,
        nonce: expander.nonce,
    }
}

/// The expanded text: the plan's replacements spliced into `source`, each pending
/// attachment's sentinel replaced by its text (`texts`, in [`ExpansionPlan::pending`]'s order;
/// the host reads them, or says why not as an `[Embed failed: …]` line).
pub fn assemble(source: &str, plan: ExpansionPlan, texts: &[String]) -> Expansion {
    let ExpansionPlan {
        splices,
        pending,
        mut report,
        nonce,
    } = plan;
    let read_by_model =
        |kind: AttachmentKind| matches!(kind, AttachmentKind::Image | AttachmentKind::Audio);
    let named_texts: Vec<String> = texts
        .iter()
        .zip(
            pending
                .iter()
                .map(|p| p.kind)
                .chain(std::iter::repeat(AttachmentKind::Other)),
        )
        .map(|(text, kind)| {
            if read_by_model(kind) {
                String::new()
            } else {
                text.clone()
            }
        })
        .collect();
    let mut named = String::with_capacity(source.len() * 2);
    let mut text = String::with_capacity(source.len() * 2);
    let mut replacements = Vec::with_capacity(splices.len());
    let mut pos = 0;
    for (range, replacement) in splices {
        text.push_str(&source[pos..range.start]);
        named.push_str(&source[pos..range.start]);
        substitute(&replacement, &mut named, &named_texts, &nonce);
        let start = text.len();
        substitute(&replacement, &mut text, texts, &nonce);
        replacements.push(Replacement {
            source: range.clone(),
            output: start..text.len(),
        });
        pos = range.end;
    }
    text.push_str(&source[pos..]);
    named.push_str(&source[pos..]);

    report.insert("source_bytes".into(), json!(source.len()));
    report.insert("expanded_bytes".into(), json!(text.len()));
    // The embedded files that could not be read (a picture the server refused, an encrypted
    // PDF): named for the person, whose summary went on without them.
    let unread: Vec<Value> = pending
        .iter()
        .zip(texts)
        .filter_map(|(pending, text)| {
            let reason = failed_reason(&pending.path, text)?;
            Some(json!({ "path": pending.path, "reason": reason }))
        })
        .collect();
    if !unread.is_empty() {
        report.insert("unread".into(), Value::Array(unread));
    }
    Expansion {
        text,
        named,
        details: Value::Object(report),
        replacements,
    }
}

/// The page an embed asks for (`![[paper.pdf#page=3]]`, as Obsidian's PDF viewer takes it).
fn page_of(reference: &str) -> Option<u32> {
    let (_, rest) = reference.split_once("#page=")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|page| *page > 0)
}

/// Something to cut out of a range: an embed to replace, or text to drop.
enum Cut<'a> {
    Embed(&'a EmbedSpan),
    Drop(Range<usize>),
}

impl Cut<'_> {
    fn range(&self) -> Range<usize> {
        match self {
            Cut::Embed(embed) => embed.range.clone(),
            Cut::Drop(range) => range.clone(),
        }
    }
}

/// The synchronous part of an expansion: walks notes, leaves a sentinel where an attachment's
/// text goes, so all attachments can then be read concurrently.
struct Expander<'a> {
    files: &'a dyn EmbedFiles,
    index: &'a NoteIndex,
    opts: ExpandOptions,
    /// The attachment kinds the reader handles; others get a "not supported yet" marker.
    supported: Vec<AttachmentKind>,
    cache: HashMap<String, Result<Arc<ParsedNote>, &'static str>>,
    stack: Vec<(String, Subpath)>,
    used_bytes: usize,
    pending: Vec<PendingAttachment>,
    pending_ids: HashMap<String, usize>,
    nonce: String,
    report: serde_json::Map<String, Value>,
    embeds: Vec<Value>,
    failures: Vec<Value>,
    ambiguous: Vec<Value>,
}

impl<'a> Expander<'a> {
    fn new(
        files: &'a dyn EmbedFiles,
        index: &'a NoteIndex,
        opts: ExpandOptions,
        supported: Vec<AttachmentKind>,
        nonce: String,
    ) -> Self {
        let mut report = serde_json::Map::new();
        report.insert("embeds".into(), json!([]));
        Expander {
            files,
            index,
            opts,
            supported,
            cache: HashMap::new(),
            stack: Vec::new(),
            used_bytes: 0,
            pending: Vec::new(),
            pending_ids: HashMap::new(),
            nonce,
            report,
            embeds: Vec::new(),
            failures: Vec::new(),
            ambiguous: Vec::new(),
        }
    }

    /// The replacements for every embed and comment (and `strip` range) inside `range`.
    fn splice_list(
        &mut self,
        path: &str,
        note: &Arc<ParsedNote>,
        range: Range<usize>,
        strip: &[Range<usize>],
        depth: usize,
    ) -> Vec<(Range<usize>, String)> {
        let within = |r: &Range<usize>| r.start >= range.start && r.end <= range.end;
        let mut cuts: Vec<Cut> = note
            .map
            .embeds
            .iter()
            .filter(|e| within(&e.range))
            .map(Cut::Embed)
            .chain(
                note.map
                    .comments
                    .iter()
                    .filter(|c| within(c))
                    .cloned()
                    .map(Cut::Drop),
            )
            .chain(strip.iter().filter(|s| within(s)).cloned().map(Cut::Drop))
            .collect();
        if depth > 0 {
            // Block ids are hidden in Obsidian's view of an embed; the note itself stays as written.
            let ids = note.map.block_ids.iter().filter(|r| within(r)).cloned();
            cuts.extend(ids.map(Cut::Drop));
        }
        cuts.sort_by_key(|cut| cut.range().start);
        let mut out = Vec::with_capacity(cuts.len());
        let mut pos = range.start;
        for cut in cuts {
            let cut_range = cut.range();
            if cut_range.start < pos {
                continue;
            }
            let text = match cut {
                Cut::Embed(embed) => self.render_embed(path, note, embed, depth),
                Cut::Drop(_) => String::new(),
            };
            pos = cut_range.end;
            out.push((cut_range, text));
        }
        out
    }

    fn render_range(
        &mut self,
        path: &str,
        note: &Arc<ParsedNote>,
        range: Range<usize>,
        strip: &[Range<usize>],
        depth: usize,
    ) -> String {
        let splices = self.splice_list(path, note, range.clone(), strip, depth);
        let mut out = String::with_capacity(range.len());
        let mut pos = range.start;
        for (cut, text) in splices {
            out.push_str(&note.source[pos..cut.start]);
            out.push_str(&text);
            pos = cut.end;
        }
        out.push_str(&note.source[pos..range.end]);
        out
    }

    fn render_embed(
        &mut self,
        from: &str,
        container: &Arc<ParsedNote>,
        embed: &EmbedSpan,
        container_depth: usize,
    ) -> String {
        let depth = container_depth + 1;
        let target = match embed.syntax {
            EmbedSyntax::Empty => return self.fail("![[]]", "empty embed, no target", depth),
            EmbedSyntax::Wiki => parse_wikilink(&embed.target),
            EmbedSyntax::Markdown => parse_markdown_destination(&embed.target),
        };
        let reference = target.reference.clone();
        if target.path.is_empty() && target.subpath == Subpath::Whole {
            return self.fail(
                &container.source[embed.range.clone()],
                "empty embed, no target",
                depth,
            );
        }
        if depth > self.opts.max_depth {
            let reason = format!("depth limit reached ({})", self.opts.max_depth);
            return self.fail(&reference, &reason, depth);
        }
        let resolved = if target.path.is_empty() {
            from.to_string()
        } else {
            match self.index.resolve(from, &target.path) {
                Ok(resolution) => {
                    if !resolution.alternatives.is_empty() {
                        self.ambiguous.push(json!({
                            "reference": reference,
                            "in": from,
                            "chosen": resolution.path,
                            "alternatives": resolution.alternatives,
                        }));
                    }
                    resolution.path
                }
                Err(ResolveError::NotFound) => return self.fail(&reference, "not found", depth),
                Err(ResolveError::Outside) => {
                    return self.fail(&reference, "outside the vault", depth)
                }
            }
        };
        match AttachmentKind::of(&resolved) {
            // A canvas is read as a note (see `note_source`), so its file cards go through
            // this same expander, cycles and depth included.
            None | Some(AttachmentKind::Canvas) => {
                self.embed_note(container, embed, &target, &resolved, depth)
            }
            Some(kind) => {
                self.embed_attachment(container, embed, &reference, &resolved, kind, depth)
            }
        }
    }

    fn embed_note(
        &mut self,
        container: &Arc<ParsedNote>,
        embed: &EmbedSpan,
        target: &LinkTarget,
        resolved: &str,
        depth: usize,
    ) -> String {
        let reference = &target.reference;
        let key = (resolved.to_string(), target.subpath.clone());
        if self.stack.contains(&key) {
            return self.fail(reference, "cycle", depth);
        }
        let note = match self.load(resolved) {
            Ok(note) => note,
            Err(reason) => return self.fail(reference, reason, depth),
        };
        let (range, strip) = match &target.subpath {
            Subpath::Whole => {
                let start = note.map.frontmatter.as_ref().map_or(0, |f| f.end);
                (start..note.source.len(), self.summaries_of(&note, start))
            }
            Subpath::Headings(headings) => {
                match heading_section(&note.source, &note.map, headings) {
                    // A section that *is* a summary was asked for by name: it stays.
                    Some(range) => {
                        let strip = self.summaries_of(&note, range.start + 1);
                        (range, strip)
                    }
                    None => return self.fail(reference, "heading not found", depth),
                }
            }
            Subpath::Block(id) => match block_with_id(&note.source, &note.map, id) {
                Some(selection) => (selection.range, selection.strip),
                None => return self.fail(reference, "block not found", depth),
            },
        };
        if self.used_bytes + range.len() > self.opts.max_total_bytes {
            self.report.insert("budget_exhausted".into(), json!(true));
            return self.fail(reference, "size budget exhausted", depth);
        }
        self.used_bytes += range.len();
        self.stack.push(key);
        let content = self.render_range(resolved, &note, range, &strip, depth);
        self.stack.pop();
        self.embeds.push(json!({
            "reference": reference,
            "path": resolved,
            "kind": "note",
            "depth": depth,
            "bytes": content.len(),
        }));
        format_block(
            container,
            embed,
            &format!("Embedded: {reference}"),
            &content,
        )
    }

    /// The `## Summary` sections of an embedded note starting at or after `from`, when the
    /// expansion is for a summary; none otherwise.
    fn summaries_of(&self, note: &ParsedNote, from: usize) -> Vec<Range<usize>> {
        if self.opts.leave_out_summaries.is_none() {
            return Vec::new();
        }
        summary_sections(&note.source, &note.map)
            .into_iter()
            .filter(|section| section.start >= from)
            .collect()
    }

    fn embed_attachment(
        &mut self,
        container: &Arc<ParsedNote>,
        embed: &EmbedSpan,
        reference: &str,
        resolved: &str,
        kind: AttachmentKind,
        depth: usize,
    ) -> String {
        if !self.files.attachment_allowed(resolved) {
            return self.fail(reference, "outside the vault", depth);
        }
        // The author's own words about the file stay beside what is made of it.
        let label = if embed.alt.is_empty() {
            format!("Embedded {}: {}", kind.label(), resolved)
        } else {
            format!(
                "Embedded {}: {} (alt text: {})",
                kind.label(),
                resolved,
                embed.alt
            )
        };
        self.embeds.push(json!({
            "reference": reference,
            "path": resolved,
            "kind": kind,
            "depth": depth,
        }));
        if !self.supported.contains(&kind) {
            let note = format!("({} {}: not supported yet)", kind.label(), resolved);
            return format_block(container, embed, &label, &note);
        }
        let page = page_of(reference);
        let next_id = self.pending.len();
        let id = *self
            .pending_ids
            .entry(format!("{resolved}#{page:?}"))
            .or_insert(next_id);
        if id == next_id {
            self.pending.push(PendingAttachment {
                path: resolved.to_string(),
                kind,
                page,
            });
        }
        let mode = if embed.in_table { 'i' } else { 'b' };
        let sentinel = format!("{SENTINEL_OPEN}{}:{id}:{mode}{SENTINEL_CLOSE}", self.nonce);
        format_block(container, embed, &label, &sentinel)
    }

    fn load(&mut self, path: &str) -> Result<Arc<ParsedNote>, &'static str> {
        if let Some(cached) = self.cache.get(path) {
            return cached.clone();
        }
        let loaded = self.files.parsed_note(path);
        self.cache.insert(path.to_string(), loaded.clone());
        loaded
    }

    fn fail(&mut self, reference: &str, reason: &str, depth: usize) -> String {
        self.failures.push(json!({
            "reference": reference,
            "reason": reason,
            "depth": depth,
        }));
        failed_marker(reference, reason)
    }

    fn flush_report(&mut self) {
        let embeds = std::mem::take(&mut self.embeds);
        let failures = std::mem::take(&mut self.failures);
        let ambiguous = std::mem::take(&mut self.ambiguous);
        self.report.insert("embeds".into(), Value::Array(embeds));
        self.report
            .insert("failures".into(), Value::Array(failures));
        self.report
            .insert("ambiguous".into(), Value::Array(ambiguous));
        self.report.insert(
            "files_read".into(),
            json!(self.cache.len() + self.pending.len()),
        );
        self.report
            .entry("budget_exhausted")
            .or_insert(json!(false));
    }
}

const SENTINEL_OPEN: char = '\u{E000}';
const SENTINEL_CLOSE: char = '\u{E001}';

/// A list marker (`- `, `1. `) possibly inside quotes: continuation lines are indented under it.
static LIST_MARKER: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+$").expect("valid regex")
});

/// Lays an expansion out as a quote block that continues the embed's line (inside a callout,
/// quote or list item it stays inside it), or as one line inside a table cell.
fn format_block(container: &ParsedNote, embed: &EmbedSpan, label: &str, content: &str) -> String {
    let content = content.trim_matches(|c| c == '\n' || c == '\r');
    if embed.in_table {
        let flat: Vec<&str> = content
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let flat = flat.join(" ").replace('|', "\\|");
        return if flat.is_empty() {
            format!("[{label}]")
        } else {
            format!("[{label}] {flat}")
        };
    }
    let source = &container.source;
    let before = &source[line_start(source, embed.range.start)..embed.range.start];
    let quote_len = before.len() - before.trim_start_matches([' ', '\t', '>']).len();
    let (continuation, mid_line) = if LIST_MARKER.is_match(before) {
        let indent: String = before
            .chars()
            .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
            .collect();
        (indent, false)
    } else {
        (before[..quote_len].to_string(), before.len() > quote_len)
    };
    let separator = format!("\n{continuation}");
    let mut out = String::with_capacity(content.len() + content.len() / 8 + label.len() + 8);
    if mid_line {
        out.push_str(&separator);
    }
    out.push_str("> [");
    out.push_str(label);
    out.push(']');
    for line in content.lines() {
        out.push_str(&separator);
        if line.is_empty() {
            out.push('>');
        } else {
            out.push_str("> ");
            out.push_str(line);
        }
    }
    let rest = &source[embed.range.end..];
    if !rest.is_empty() && !rest.starts_with('\n') && !rest.starts_with("\r\n") {
        out.push_str(&separator);
    }
    out
}

/// Copies `piece` to `out`, replacing this expansion's attachment sentinels with their text;
/// every line of a multi-line text gets the prefix its sentinel's line has (quote markers).
fn substitute(piece: &str, out: &mut String, texts: &[String], nonce: &str) {
    let mut rest = piece;
    while let Some(open) = rest.find(SENTINEL_OPEN) {
        out.push_str(&rest[..open]);
        let after = &rest[open + SENTINEL_OPEN.len_utf8()..];
        let parsed = after.find(SENTINEL_CLOSE).and_then(|close| {
            let mut fields = after[..close].split(':');
            let (n, id, mode) = (fields.next()?, fields.next()?, fields.next()?);
            let text = texts.get(id.parse::<usize>().ok()?)?;
            (n == nonce).then_some((text, mode == "i", close))
        });
        match parsed {
            Some((text, inline, close)) => {
                if inline {
                    let flat: Vec<&str> = text
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .collect();
                    out.push_str(&flat.join(" ").replace('|', "\\|"));
                } else {
                    let prefix = out[line_start(out, out.len())..].to_string();
                    let separator = format!("\n{}", prefix.trim_end());
                    for (i, line) in text.trim().lines().enumerate() {
                        if i > 0 {
                            out.push_str(&separator);
                            if !line.is_empty() {
                                out.push(' ');
                            }
                        }
                        out.push_str(line);
                    }
                }
                rest = &after[close + SENTINEL_CLOSE.len_utf8()..];
            }
            None => {
                out.push(SENTINEL_OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
}
