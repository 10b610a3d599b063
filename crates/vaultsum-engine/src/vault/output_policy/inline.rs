//! The allow-list for the inside of a line (a paragraph's, a heading's, a list item's, a table
//! row's text): one left-to-right scan that copies what is on the list and writes everything
//! else so that it can only be text.
//!
//! On the list, copied as they came: plain characters and emphasis (`*`, `_`, `~`, `=` make
//! nothing that acts), backslash escapes, code spans (shaped so Dataview reads no query in
//! them), single-line wikilinks `[[Note#Heading|alias]]` whose inside is plain, footnote
//! references `[^1]`, links whose URL the source named (or a vault path it named), images of the
//! vault it named,
//! the tags `<br>`, `<kbd>`, `<sub>`, `<sup>`, `<mark>` without attributes, a few named
//! entities, URLs the source named, math whose commands are all typesetting.
//!
//! Everything else becomes text by construction, never by a later check:
//! - `<` is written `&lt;` (text in Markdown and inside an HTML block alike, so no tag and no
//!   Templater `<%`), `&` before what would be an entity `&amp;`;
//! - `[` of anything but the constructs above `\[` (no link, reference or embed can form, even
//!   with a definition the note around the summary holds);
//! - a backtick run that closes nowhere on its line `\``;
//! - `$` `\$` when the summary holds a command that is not typesetting (`math.rs`);
//! - `%%` (an Obsidian comment, which hides text) `%\%`;
//! - `::` `:` WORD JOINER `:` (Dataview reads `[key:: value]` and `(key:: value)` in rendered
//!   HTML, code included, and renders the value as Markdown again);
//! - a URL the source did not name a code span, shown and never clickable.

use super::edits::code_span;
use super::math::MathRule;
use super::url::{bare_email_at, bare_url_at, host_label, is_local, local_part_len};
use super::{Defused, LinkRule};

/// WORD JOINER: the one invisible character the policy writes, where a visible one would
/// change what the text says: between two colons (no Dataview field) and before the `=` that
/// starts a code span (no Dataview query; Dataview trims white space, not this).
pub(crate) const BREAK: char = '\u{2060}';

/// Attribute-free inline tags a summary may keep (a line break in a table cell, keys, indices).
const ALLOWED_TAGS: [&str; 5] = ["br", "kbd", "sub", "sup", "mark"];

/// Entities kept as they are: none of them renders a character that builds anything.
const ALLOWED_ENTITIES: [&str; 7] = [
    "&lt;", "&gt;", "&amp;", "&quot;", "&#39;", "&nbsp;", "&#91;",
];

/// The inline scan over a summary's lines.
pub(super) struct Inline<'r> {
    pub rule: &'r LinkRule,
    pub math: MathRule,
    /// Backtick count of the code spans the policy makes (a run found nowhere in the text).
    pub fence: usize,
    pub counts: Defused,
    /// Whether a command that is not typesetting was seen in text (the caller scans again with
    /// every `$` escaped when it was).
    pub saw_unsafe_command: bool,
}

/// Where the scan of one line stands.
struct Line<'o> {
    out: &'o mut String,
    /// The last character a reader sees, for the `::` rule (`None` after a tag boundary: a
    /// code span's or a link's HTML stands between).
    last_rendered: Option<char>,
}

impl Line<'_> {
    /// A `[` that must stay text: `\[`, or `&#91;` right after a `]` (pulldown-cmark reads
    /// `[a]\[r]` as a full reference link to the label `r`, which the note may define).
    fn push_bracket(&mut self) {
        if self.out.ends_with(']') {
            self.push_rendered('[', "&#91;");
        } else {
            self.push_rendered('[', "\\[");
        }
    }

    /// A marker of what the policy took out (`[image removed: host]`), as text.
    fn push_marker(&mut self, words: &str) {
        self.push_bracket();
        self.push_element(&format!("{words}\\]"));
    }

    fn push_rendered(&mut self, shown: char, written: &str) {
        if shown == ':' && self.last_rendered == Some(':') {
            self.out.push(BREAK);
        }
        if shown == '%' && written.starts_with('%') && self.out.ends_with('%') {
            // `%%` never in the bytes: the second is escaped.
            self.out.push('\\');
        }
        self.out.push_str(written);
        self.last_rendered = Some(shown);
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.push_rendered(c, c.encode_utf8(&mut buf));
    }

    fn push_element(&mut self, written: &str) {
        // A `!` written just before a `[` the policy keeps would make it an image.
        if written.starts_with('[') && self.out.ends_with('!') {
            let before = &self.out[..self.out.len() - 1];
            if before.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0 {
                self.out.pop();
                self.out.push_str("\\!");
            }
        }
        self.out.push_str(written);
        self.last_rendered = None;
    }
}

impl Inline<'_> {
    /// Writes the text of one line (its block markers already written) into `out`.
    pub fn line(&mut self, content: &str, out: &mut String, table_row: Option<&[usize]>) {
        let table = table_row.is_some();
        let excess_pipes = table_row.unwrap_or_default();
        // A footnote definition's `[^1]:` (block markers) ends in a colon the `::` rule sees.
        let last_rendered = out.chars().next_back().filter(|c| *c == ':');
        let mut line = Line { out, last_rendered };
        let bytes = content.as_bytes();
        let mut i = 0;
        // A Dataview query is code whose trimmed text starts with `=` or `$=`; a line of an
        // indented code block may start so: the first `=` is escaped (`\=` reads `=` in text),
        // unless the policy's word joiner already stands before it.
        let lead = content.len() - content.trim_start_matches([' ', '\t']).len();
        let after_blank = &content[lead..];
        let joined = after_blank.starts_with(BREAK);
        let body = after_blank.strip_prefix(BREAK).unwrap_or(after_blank);
        if body.starts_with("$=") || (body.starts_with('=') && !joined) {
            line.out.push_str(&content[..lead]);
            i = lead;
            if joined {
                // Before `$`, the joiner is not where the policy puts one: taken out.
                self.counts.invisible += 1;
                i += BREAK.len_utf8();
            }
            self.counts.inline_code += 1;
            if body.starts_with('$') {
                line.push_rendered('$', "\\$");
                i += 1;
            }
            line.push_rendered('=', "\\=");
            i += 1;
        }
        // Where the run of characters an e-mail's local part can hold ends, and whether an `@`
        // follows it: found once per run, so `a_a_a_…` stays linear.
        let mut local_run = (0usize, false);
        // The line's backtick runs and cell borders, indexed once when it has a backtick.
        let mut backtick_runs: Option<Runs> = None;
        // In a table row GFM splits the cells at `|` before it reads code or math: a span the
        // policy keeps never crosses a `|` there.
        while i < bytes.len() {
            let b = bytes[i];
            let rest = &content[i..];
            let step = match b {
                b'\\' => self.backslash(rest, &mut line),
                b'`' => {
                    let runs = backtick_runs.get_or_insert_with(|| Runs::of(content, table));
                    runs.at = i;
                    self.backticks(rest, &mut line, runs)
                }
                b'<' => self.angle(rest, &mut line, content[..i].trim().is_empty()),
                b'&' => self.ampersand(rest, &mut line),
                b'!' if rest.starts_with("![") => self.bang(rest, &mut line),
                b'[' => self.bracket(rest, &mut line),
                b'$' => self.dollar(rest, &mut line, table),
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z'
                    if i == 0 || !bytes[i - 1].is_ascii_alphanumeric() =>
                {
                    if i >= local_run.0 {
                        let end = i + local_part_len(rest);
                        local_run = (end, bytes.get(end) == Some(&b'@'));
                    }
                    self.word(rest, &mut line, local_run.1, table)
                }
                b'|' if excess_pipes.contains(&i) => {
                    line.push_rendered('|', "\\|");
                    1
                }
                _ => {
                    let c = rest.chars().next().unwrap_or(' ');
                    if c == BREAK {
                        // The policy's own joiner, where it puts one (`invisible.rs` kept it).
                        let next = rest[c.len_utf8()..].chars().next();
                        let apart = line.last_rendered == Some(':') && next == Some(':');
                        if !(apart || next == Some('=')) {
                            self.counts.invisible += 1;
                            i += c.len_utf8();
                            continue;
                        }
                    }
                    line.push_char(c);
                    c.len_utf8()
                }
            };
            i += step.max(1);
        }
    }

    fn backslash(&mut self, rest: &str, line: &mut Line<'_>) -> usize {
        match rest[1..].chars().next() {
            Some('<') => {
                line.push_rendered('<', "&lt;");
                2
            }
            // After a colon, `\:` is written `:` so that the word joiner stands between the
            // two colons it keeps apart.
            Some(':') if line.last_rendered == Some(':') => {
                line.push_rendered(':', ":");
                2
            }
            Some('[') => {
                line.push_bracket();
                2
            }
            Some(c) if c.is_ascii_punctuation() => {
                line.push_rendered(c, &rest[..2]);
                2
            }
            // Before a URL (which becomes a code span), the backslash is escaped, so that it
            // does not escape the span's backtick.
            Some(_) if bare_url_at(&rest[1..]).is_some() => {
                line.push_rendered('\\', "\\\\");
                1
            }
            _ => {
                let name_len = rest[1..]
                    .bytes()
                    .take_while(u8::is_ascii_alphabetic)
                    .count();
                if name_len > 0 && !super::math::is_typesetting(&rest[1..1 + name_len]) {
                    self.saw_unsafe_command = true;
                }
                line.push_char('\\');
                1
            }
        }
    }

    /// A code span when the run closes on this line, else each backtick escaped.
    fn backticks(&mut self, rest: &str, line: &mut Line<'_>, runs: &mut Runs) -> usize {
        let run = rest.bytes().take_while(|b| *b == b'`').count();
        match runs.closing(run) {
            Some(close) => {
                let content = &rest[run..run + close];
                let shaped = self.shape_code(content);
                let ticks = &rest[..run];
                line.push_element(&format!("{ticks}{shaped}{ticks}"));
                run + close + run
            }
            None => {
                for _ in 0..run {
                    line.push_rendered('`', "\\`");
                }
                run
            }
        }
    }

    /// A code span's content: `<%` broken, `::` joined apart, and a leading `=` or `$=` (a
    /// Dataview query) preceded by the word joiner.
    pub fn shape_code(&mut self, content: &str) -> String {
        let mut shaped = shape_code_text(content);
        let lead = shaped.len() - shaped.trim_start().len();
        let body = &shaped[lead..];
        if body.starts_with('=') || body.starts_with("$=") {
            self.counts.inline_code += 1;
            shaped.insert(lead, BREAK);
        }
        if shaped.len() != content.len() && shaped.contains("< %") && !content.contains("< %") {
            self.counts.templater += 1;
        }
        shaped
    }

    fn angle(&mut self, rest: &str, line: &mut Line<'_>, at_start: bool) -> usize {
        // Not at the start of a line: a tag alone on its line would open an HTML block, in
        // which nothing that follows is Markdown.
        if let Some(len) = allowed_tag(rest).filter(|_| !at_start) {
            line.push_element(&rest[..len]);
            return len;
        }
        if let Some(len) = autolink(rest) {
            let url = &rest[1..len - 1];
            let allowed = if url.contains('@') && !url.contains(':') {
                self.rule.allows(&format!("mailto:{url}"))
            } else {
                self.rule.allows(url)
            };
            if allowed {
                line.push_element(&rest[..len]);
            } else {
                self.unlinked(url, rest[len..].chars().next(), line);
            }
            return len;
        }
        // `<` stays `<` only before what is written as it comes and can start nothing
        // (`<3`, `a < b`, `<=`, `<-`); before anything else it is written `&lt;`.
        match rest[1..].chars().next() {
            None => line.push_char('<'),
            Some(c) if c.is_whitespace() || c.is_ascii_digit() || matches!(c, '=' | '-' | '>') => {
                line.push_char('<')
            }
            Some(c) => {
                if c == '%' {
                    self.counts.templater += 1;
                } else if c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?') {
                    self.counts.html += 1;
                }
                line.push_rendered('<', "&lt;");
            }
        }
        1
    }

    fn ampersand(&mut self, rest: &str, line: &mut Line<'_>) -> usize {
        if let Some(entity) = ALLOWED_ENTITIES.iter().find(|e| rest.starts_with(**e)) {
            line.push_element(entity);
            return entity.len();
        }
        if entity_len(rest).is_some() {
            self.counts.html += 1;
            line.push_rendered('&', "&amp;");
        } else {
            line.push_char('&');
        }
        1
    }

    /// `![…](…)` and `![[…]]`: an image of the vault stays; one from outside becomes a plain
    /// link when the source named it, else a marker; an embed becomes a link.
    fn bang(&mut self, rest: &str, line: &mut Line<'_>) -> usize {
        if rest.starts_with("![[") {
            // An image of the vault stays an embed, with no alias but a size (an alias would be
            // alt text no one sees). Any other embed would show another note's text (or a file)
            // as part of the summary: written as a link (`\!` and the wikilink).
            // Only an image the source named: a model may not show the vault's other files.
            if let Some(len) = wikilink(&rest[1..]).filter(|len| {
                let inner = &rest[3..*len - 1];
                vault_image_embed(inner) && self.rule.names_local(inner)
            }) {
                line.push_element(&rest[..1 + len]);
                return 1 + len;
            }
            self.counts.embeds += 1;
            line.push_rendered('!', "\\!");
            // An embed of a file the source did not name is no link to it either: its brackets
            // are text (Obsidian reads `\![[x]]` as a wikilink).
            if let Some(len) = wikilink(&rest[1..]) {
                if !self.rule.names_local(&rest[3..len - 1]) {
                    line.push_bracket();
                    line.push_bracket();
                    return 3;
                }
            }
            return 1;
        }
        let Some(link) = inline_link(&rest[1..]) else {
            line.push_rendered('!', "\\!");
            return 1;
        };
        if is_local(link.dest)
            && safe_vault_path(link.dest)
            && plain_label(link.text)
            && self.rule.names_local(link.dest)
        {
            if !has_image_extension(link.dest) {
                // `![x](Private/Diary.md)` embeds that note's text as Obsidian shows it: a
                // link, as `![[…]]` of a note is.
                self.counts.embeds += 1;
                line.push_rendered('!', "\\!");
                return 1;
            }
            line.push_element(&rest[..1 + link.len]);
            return 1 + link.len;
        }
        self.counts.remote_images += 1;
        if !is_local(link.dest) && self.rule.allows(link.dest) && plain_label(link.text) {
            let label = if link.text.trim().is_empty() {
                host_label(link.dest)
            } else {
                link.text.to_string()
            };
            line.push_element(&format!("[{}]({})", label, link.raw_dest));
        } else {
            let host = place_label(link.dest);
            line.push_marker(&format!("image removed: {host}"));
        }
        1 + link.len
    }

    fn bracket(&mut self, rest: &str, line: &mut Line<'_>) -> usize {
        if rest.starts_with("[[") {
            if let Some(len) = wikilink(rest) {
                line.push_element(&rest[..len]);
                return len + self.no_destination(&rest[len..], line);
            }
            self.counts.links += 1;
            line.push_bracket();
            line.push_bracket();
            return 2;
        }
        if let Some(len) = footnote_reference(rest) {
            line.push_element(&rest[..len]);
            return len + self.no_destination(&rest[len..], line);
        }
        if let Some(link) = inline_link(rest) {
            // An image inside a link is the link's text: its alt.
            let text = match inline_link_at(link.text.strip_prefix('!').unwrap_or(""), false) {
                Some(image) if image.len + 1 == link.text.len() => image.text,
                _ => link.text,
            };
            if plain_label(text) {
                // A vault path only when the source named that file; a URL as the rule says.
                let keep = !super::url::never_a_link(link.dest)
                    && if is_local(link.dest) {
                        self.rule.names_local(link.dest)
                    } else {
                        self.rule.allows(link.dest)
                    };
                let mut label = String::new();
                let mut inner = Line {
                    out: &mut label,
                    last_rendered: None,
                };
                for c in text.chars() {
                    inner.push_char(c);
                }
                if keep {
                    if text.len() != link.text.len() {
                        self.counts.remote_images += usize::from(!is_local(link.dest));
                    }
                    line.push_element(&format!("[{label}]({})", link.raw_dest));
                } else {
                    self.counts.links += 1;
                    let host = place_label(link.dest);
                    line.push_element(&format!("{label} "));
                    line.push_marker(&format!("link removed: {host}"));
                }
                return link.len;
            }
        }
        line.push_bracket();
        1
    }

    /// A URL or an address that may not be a link, as a code span: shown, never clickable.
    fn unlinked(&mut self, url: &str, after: Option<char>, line: &mut Line<'_>) {
        self.counts.links += 1;
        let shaped = shape_code_text(url);
        let span = code_span(&shaped, self.fence, line.out.chars().next_back(), after);
        line.push_element(&span);
    }

    /// After a wikilink or a footnote reference the policy keeps, a `(` or `[` is escaped: a
    /// CommonMark reader takes `[[Note]](url)` for a link with that destination.
    fn no_destination(&mut self, after: &str, line: &mut Line<'_>) -> usize {
        if after.starts_with("![") {
            line.push_rendered('!', "\\!");
            return 1;
        }
        match after.as_bytes().first() {
            Some(b'(') => {
                line.push_rendered('(', "\\(");
                1
            }
            Some(b'[') => {
                line.push_bracket();
                1
            }
            _ => 0,
        }
    }

    fn dollar(&mut self, rest: &str, line: &mut Line<'_>, table: bool) -> usize {
        if !self.math.allowed {
            self.counts.math += 1;
            line.push_rendered('$', "\\$");
            return 1;
        }
        // In a table row a cell ends at `|`, before any span is read: no span crosses one.
        let span = super::math::span(rest).filter(|len| !(table && rest[..*len].contains('|')));
        if let Some(len) = span {
            let span = &rest[..len];
            if super::math::unsafe_command(span).is_some() {
                self.saw_unsafe_command = true;
            }
            line.push_element(&super::math::shape(span));
            return len;
        }
        // A `$` that starts no span here is escaped: another reader could pair it with one
        // further on (around a code span the policy made, say).
        line.push_rendered('$', "\\$");
        1
    }

    /// A word: a bare URL (kept when the source named it, else a code span), or letters.
    fn word(
        &mut self,
        rest: &str,
        line: &mut Line<'_>,
        email_possible: bool,
        table: bool,
    ) -> usize {
        // In a table row the cell ends at `|` before any autolink is read.
        let scan = if table {
            &rest[..rest.find('|').unwrap_or(rest.len())]
        } else {
            rest
        };
        if let Some(len) = bare_url_at(scan) {
            let rest = scan;
            let url = &rest[..len];
            // When what follows it up to the next white space is written otherwise than it
            // comes (`<` as `&lt;`, `::` joined apart), a reader of the bytes could take the URL
            // on through it: a code span ends it for every reader.
            let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let trailing_kept = !rest[len..word_end]
                .contains(['<', ':', '$', '&', '[', '`', '%', '\\', '!', BREAK]);
            if self.rule.allows(url) && trailing_kept {
                line.push_element(url);
            } else {
                self.unlinked(url, rest[len..].chars().next(), line);
            }
            return len;
        }
        // Only where an `@` ends the run (known for the whole run at once: linear on `a_a_…`).
        if let Some(len) = email_possible.then(|| bare_email_at(rest)).flatten() {
            let address = &rest[..len];
            if self.rule.allows(&format!("mailto:{address}")) {
                line.push_element(address);
            } else {
                self.unlinked(address, rest[len..].chars().next(), line);
            }
            return len;
        }
        // The whole run a scheme could be made of, so that no later start inside it looks
        // again at the same characters (`a.a.a.…` stays linear).
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            .count()
            .max(1);
        let (text, _) = rest.split_at(len);
        for c in text.chars() {
            line.push_char(c);
        }
        len
    }
}

/// `content` of a code span or block with `<%` broken (`< %`) and `::` joined apart.
pub(super) fn shape_code_text(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    let mut previous = None;
    for c in content.chars() {
        if c == ':' && previous == Some(':') {
            out.push(BREAK);
        }
        if c == '%' && previous == Some('<') {
            out.push(' ');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// A line's backtick runs by length, and the `|` that end a table row's cells: where a run
/// of `n` backticks starting at `at` closes is a binary search, not a scan (a line of runs
/// that close nowhere stays linear).
struct Runs {
    by_length: std::collections::HashMap<usize, Vec<usize>>,
    cell_ends: Vec<usize>,
    /// The offset of the run being closed, set by the caller.
    at: usize,
}

impl Runs {
    fn of(content: &str, table: bool) -> Runs {
        let bytes = content.as_bytes();
        let mut by_length: std::collections::HashMap<usize, Vec<usize>> = Default::default();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'`' {
                let len = bytes[i..].iter().take_while(|b| **b == b'`').count();
                by_length.entry(len).or_default().push(i);
                i += len;
            } else {
                i += 1;
            }
        }
        let cell_ends = if table {
            (0..bytes.len())
                .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
                .collect()
        } else {
            Vec::new()
        };
        Runs {
            by_length,
            cell_ends,
            at: 0,
        }
    }

    /// Where the run of `run` backticks at `self.at` closes, as the offset of the closing run
    /// from the end of the opening one; never past a cell's `|` in a table row.
    fn closing(&self, run: usize) -> Option<usize> {
        let starts = self.by_length.get(&run)?;
        let open_end = self.at + run;
        let next = starts[starts.partition_point(|s| *s < open_end)..].first()?;
        let border = self.cell_ends[self.cell_ends.partition_point(|p| *p < open_end)..].first();
        if border.is_some_and(|b| b < next) {
            return None;
        }
        Some(next - open_end)
    }
}

/// The length of an allowed tag at the start of `rest` (`<br>`, `</kbd>`, `<br />`).
fn allowed_tag(rest: &str) -> Option<usize> {
    let end = rest.find('>')?;
    let inner = &rest[1..end];
    let inner = inner.strip_prefix('/').unwrap_or(inner);
    let inner = inner
        .trim_end()
        .strip_suffix('/')
        .unwrap_or(inner)
        .trim_end();
    ALLOWED_TAGS
        .iter()
        .any(|tag| tag.eq_ignore_ascii_case(inner))
        .then_some(end + 1)
}

/// The length of a CommonMark autolink at the start of `rest` (`<https://…>`, `<a@b.c>`).
fn autolink(rest: &str) -> Option<usize> {
    let end = rest.find('>')?;
    let inner = &rest[1..end];
    if inner.is_empty() || inner.contains(|c: char| c.is_whitespace() || c == '<') {
        return None;
    }
    let scheme_ok = super::url::scheme(inner).is_some_and(|s| s.len() >= 2);
    let email = inner.contains('@') && !inner.contains(['/', ':']);
    (scheme_ok || email).then_some(end + 1)
}

/// The length of what would be an entity at the start of `rest` (`&#58;`, `&colon;`).
fn entity_len(rest: &str) -> Option<usize> {
    let body = &rest[1..];
    let len = if let Some(num) = body.strip_prefix('#') {
        let digits = match num.strip_prefix(['x', 'X']) {
            Some(hex) => 1 + hex.bytes().take_while(u8::is_ascii_hexdigit).count(),
            None => num.bytes().take_while(u8::is_ascii_digit).count(),
        };
        1 + digits
    } else {
        body.bytes().take_while(u8::is_ascii_alphanumeric).count()
    };
    (len > 0 && body[len..].starts_with(';')).then_some(len + 2)
}

/// A wikilink as Obsidian reads it: on one line, ending at the first `]]`, its inside plain
/// (nothing another reader could take for code, a tag, a link or math). The length, or `None`.
fn wikilink(rest: &str) -> Option<usize> {
    // Up to the first `]]`, given up at a character a plain inside never has (so `[[[[…` and
    // `[[a[[a…` are looked at once each: linear).
    let body = &rest[2..];
    let stop = body.find(['[', '`', '<', '\n', '\r']).unwrap_or(body.len());
    let close = body[..stop].find("]]")? + 2;
    let inner = &rest[2..close];
    // An alias that is blank would make an invisible link.
    let blank_alias = inner
        .split_once('|')
        .is_some_and(|(_, alias)| alias.trim().trim_end_matches('\\').trim().is_empty());
    let plain = !inner.trim().is_empty()
        && !blank_alias
        && !inner.contains(['[', ']', '`', '<', '>', '$', '\n', '\r', '!', '&'])
        && !inner.contains("%%")
        && !inner.contains("::")
        // Nothing a reader without wikilinks would link by itself.
        && !inner.contains("://")
        && !inner.to_ascii_lowercase().contains("www.")
        && !inner.contains('@')
        && inner.chars().all(|c| !super::invisible::is_invisible(c));
    plain.then_some(close + 2)
}

/// What a removed link or image pointed at, for its marker: a URL's host, a vault path's file
/// name (decoded).
fn place_label(dest: &str) -> String {
    if !is_local(dest) {
        return host_label(dest);
    }
    let decoded = percent_encoding::percent_decode_str(dest.trim()).decode_utf8_lossy();
    let path = decoded.split(['#', '?']).next().unwrap_or("");
    // The model wrote it: only letters, digits, spaces, `.`, `-` and `_` reach the marker
    // (written as it is), the rest `_`, at most 60 of them.
    path.rsplit('/')
        .next()
        .unwrap_or(path)
        .chars()
        .take(60)
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether a file name ends in an image extension (what an embed may show in a summary). A
/// fact the verifier (`inert_check.rs`) shares with the policy, as it shares the link rule.
fn is_image_name(name: &str) -> bool {
    const IMAGES: [&str; 8] = ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "avif"];
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| IMAGES.iter().any(|i| i.eq_ignore_ascii_case(ext.trim())))
}

/// Whether a link destination names an image file (percent-escapes decoded, `#…`/`?…` left
/// out).
pub(crate) fn has_image_extension(dest: &str) -> bool {
    let decoded = percent_encoding::percent_decode_str(dest).decode_utf8_lossy();
    is_image_name(decoded.split(['#', '?']).next().unwrap_or(""))
}

/// The inside of `![[…]]` naming an image of the vault, with no alias but a size (`|200`,
/// `|200x100`).
fn vault_image_embed(inner: &str) -> bool {
    let (target, alias) = match inner.split_once('|') {
        Some((target, alias)) => (target.trim_end_matches('\\'), Some(alias)),
        None => (inner, None),
    };
    let size = |alias: &str| {
        let mut parts = alias.trim().splitn(2, 'x');
        parts.all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    is_image_name(target) && !target.contains(':') && alias.is_none_or(size)
}

/// `[^label]` with a plain label.
fn footnote_reference(rest: &str) -> Option<usize> {
    let label = rest.strip_prefix("[^")?;
    let end = label.find(']')?;
    (end > 0
        && label[..end]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')))
    .then_some(end + 3)
}

/// An inline link `[text](dest)` at the start of `rest`, on one line, without a title.
struct InlineLink<'a> {
    text: &'a str,
    /// The destination as it reads (angle brackets taken off).
    dest: &'a str,
    /// The destination as written.
    raw_dest: &'a str,
    len: usize,
}

fn inline_link(rest: &str) -> Option<InlineLink<'_>> {
    inline_link_at(rest, true)
}

/// [`inline_link`]; `image_inside`: whether its text may be one image (`[![x](i.png)](Note)`),
/// one level only. The scans stop at the first character a kept link never has there, so each
/// `[` is looked at from once (linear on `[a[a[a…`, `[a](((…`).
fn inline_link_at(rest: &str, image_inside: bool) -> Option<InlineLink<'_>> {
    let after = rest.strip_prefix('[')?;
    let close = match after.strip_prefix('!') {
        Some(image) if image_inside && image.starts_with('[') => {
            let inner = inline_link_at(image, false)?;
            let end = 1 + inner.len;
            after[end..].starts_with(']').then_some(end)?
        }
        _ => {
            let end = after.find(['[', ']', '\n'])?;
            after[end..].starts_with(']').then_some(end)?
        }
    };
    let text = &after[..close];
    let tail = after[close + 1..].strip_prefix('(')?;
    let (raw_dest, dest, used) = if let Some(angle) = tail.strip_prefix('<') {
        let end = angle.find(['>', '<', '\n'])?;
        if !angle[end..].starts_with('>') {
            return None;
        }
        (&tail[..end + 2], &angle[..end], end + 2)
    } else {
        let mut parens = 0usize;
        let mut end = tail.len();
        for (i, c) in tail.char_indices() {
            match c {
                '(' => parens += 1,
                ')' if parens == 0 => {
                    end = i;
                    break;
                }
                ')' => parens -= 1,
                c if c.is_whitespace()
                    || c.is_control()
                    || matches!(c, '[' | ']' | '<' | '>' | '`' | '\\' | '"' | '&') =>
                {
                    return None
                }
                _ => {}
            }
        }
        (&tail[..end], &tail[..end], end)
    };
    if !tail[used..].starts_with(')')
        || dest.is_empty()
        // An entity or a colon could spell a scheme the check does not see
        // (`&#106;avascript:`); `%%` and `<%` would be a comment and a Templater tag.
        || dest.contains(['\\', '`', '"', '<', '>', '&'])
        || (is_local(dest) && dest.contains(':'))
        || dest.contains("%%")
        || raw_dest.contains("<%")
    {
        return None;
    }
    Some(InlineLink {
        text,
        dest,
        raw_dest,
        len: 1 + close + 1 + 1 + used + 1,
    })
}

/// Link text or alt text with nothing in it but words: no markup that another reader could
/// parse otherwise (brackets, code, tags, math, comments, fields).
fn plain_label(text: &str) -> bool {
    // Not empty either: an empty link is an invisible place to click.
    !text.trim().is_empty()
        && !text.contains(['[', ']', '`', '<', '>', '$', '\\', '&', '!'])
        && !text.contains("%%")
        && !text.contains("::")
        && !text.contains("://")
        && !text.contains("www.")
}

/// A vault path an image may load: no way up and out, no scheme, no encoded dots.
fn safe_vault_path(dest: &str) -> bool {
    let lower = dest.to_ascii_lowercase();
    !dest.starts_with(['/', '\\'])
        && !dest.split(['/', '\\']).any(|part| part == "..")
        && !lower.contains("%2e")
        && !lower.contains("%2f")
        && !lower.contains("%5c")
        && !dest.contains(':')
}
