//! Which notes a rollup draws on, as their names and texts say: daily notes by the day in
//! their name (the Daily Notes or Periodic Notes plugin's format), other notes by a `date` or
//! `created` property, tags in the frontmatter or inline outside code, the notes a hub links
//! to. The host lists and reads the notes (the binary's `rollup_selection.rs`, the app).

use std::collections::{HashSet, VecDeque};
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::days::Day;
use crate::vault::generated_note::Owner;
use crate::vault::index::NoteIndex;

/// The property that marks a rollup's note; its value says what the rollup covers.
pub const ROLLUP_OWNER: &str = "rollup";

/// Whether the note whose text is `text` is a rollup vaultsum wrote (it has a `rollup`
/// property): never a source of another rollup.
pub fn is_rollup_note(text: &str) -> bool {
    Owner {
        key: ROLLUP_OWNER,
        value: None,
    }
    .owns(text)
}

/// What a candidate note is to a rollup's tag and days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Selected.
    Note,
    /// A rollup vaultsum wrote that matched: left out and named.
    Rollup,
    /// Left out of a date range for having no date (counted).
    Undated,
    /// Not matched.
    Unmatched,
}

/// What the candidate at `rel` whose text is `text` is to a rollup of `tag` between `from`
/// and `to` (each `None`: not narrowed by it), daily notes named as `daily` says.
pub fn pick(
    rel: &str,
    text: &str,
    tag: Option<&str>,
    from: Option<Day>,
    to: Option<Day>,
    daily: &DailyNotes,
) -> Pick {
    let rollup = is_rollup_note(text);
    if let Some(tag) = tag {
        if !has_tag(text, tag) {
            return Pick::Unmatched;
        }
    }
    if from.is_some() || to.is_some() {
        let Some(day) = daily.date_of(rel).or_else(|| property_date(text)) else {
            return if rollup {
                Pick::Unmatched
            } else {
                Pick::Undated
            };
        };
        if from.is_some_and(|from| day < from) || to.is_some_and(|to| day > to) {
            return Pick::Unmatched;
        }
    }
    if rollup {
        Pick::Rollup
    } else {
        Pick::Note
    }
}

/// The Periodic Notes plugin's settings, vault-relative.
pub const PERIODIC_NOTES_SETTINGS: &str = ".obsidian/plugins/periodic-notes/data.json";
/// The Daily Notes core plugin's settings, vault-relative.
pub const DAILY_NOTES_SETTINGS: &str = ".obsidian/daily-notes.json";

/// Where daily notes live and how they are named, as the Daily Notes core plugin (or the
/// Periodic Notes plugin, which takes precedence when its settings exist) says.
pub struct DailyNotes {
    folder: String,
    format: Option<Regex>,
}

impl DailyNotes {
    /// From the text of the Periodic Notes plugin's settings ([`PERIODIC_NOTES_SETTINGS`]) and
    /// of the Daily Notes core plugin's ([`DAILY_NOTES_SETTINGS`]), when the vault has them.
    pub fn of(periodic_notes: Option<&str>, daily_notes: Option<&str>) -> DailyNotes {
        let read = |text: Option<&str>| -> Option<Value> { serde_json::from_str(text?).ok() };
        let periodic = read(periodic_notes)
            .and_then(|v| v.get("daily").cloned())
            .filter(|d| d.get("enabled").and_then(Value::as_bool).unwrap_or(true));
        let settings = periodic.or_else(|| read(daily_notes));
        let field = |key: &str| {
            settings
                .as_ref()
                .and_then(|s| s.get(key))
                .and_then(Value::as_str)
                .map(|s| s.trim().trim_matches('/').to_string())
                .filter(|s| !s.is_empty())
        };
        DailyNotes {
            folder: field("folder").unwrap_or_default(),
            format: Some(format_regex(
                &field("format").unwrap_or_else(|| "YYYY-MM-DD".to_string()),
            )),
        }
    }

    /// The day a note is the daily note of: named in the configured format inside the daily
    /// folder; else any note with a `YYYY-MM-DD` date in its file name.
    pub fn date_of(&self, rel: &str) -> Option<Day> {
        let stem = rel
            .rsplit('/')
            .next()?
            .rsplit_once('.')
            .map_or(rel, |(s, _)| s);
        let in_folder = self.folder.is_empty()
            || (rel.starts_with(self.folder.as_str()) && rel[self.folder.len()..].starts_with('/'));
        if in_folder {
            if let Some(captures) = self.format.as_ref().and_then(|f| {
                let inner = &rel[if self.folder.is_empty() {
                    0
                } else {
                    self.folder.len() + 1
                }..];
                let inner = inner.rsplit_once('.').map_or(inner, |(s, _)| s);
                f.captures(inner)
            }) {
                let year = captures.name("y")?.as_str().parse().ok()?;
                let month = captures.name("m")?.as_str().parse().ok()?;
                let day = captures.name("d")?.as_str().parse().ok()?;
                if let Some(day) = Day::from_ymd(year, month, day) {
                    return Some(day);
                }
            }
        }
        static IN_NAME: OnceLock<Regex> = OnceLock::new();
        let found = IN_NAME
            .get_or_init(|| Regex::new(r"(\d{4})-(\d{2})-(\d{2})").expect("valid"))
            .captures(stem)?;
        Day::from_ymd(
            found[1].parse().ok()?,
            found[2].parse().ok()?,
            found[3].parse().ok()?,
        )
    }
}

/// A moment.js format (`YYYY-MM-DD`, `YYYY/MM/YYYY-MM-DD`, `DD.MM.YYYY`, `[Journal] YYYY-MM-DD`
/// …) as an anchored regex capturing `y`, `m` and `d`; other tokens match any text.
fn format_regex(format: &str) -> Regex {
    let mut pattern = String::from("^");
    let mut seen = HashSet::new();
    let mut rest = format;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let (literal, tail) = after.split_once(']').unwrap_or((after, ""));
            pattern.push_str(&regex::escape(literal));
            rest = tail;
            continue;
        }
        let token = ["YYYY", "MM", "DD", "M", "D"]
            .into_iter()
            .find(|t| rest.starts_with(t));
        match token {
            Some(t) => {
                let group = match t {
                    "YYYY" => "y",
                    "MM" | "M" => "m",
                    _ => "d",
                };
                let digits = match t {
                    "YYYY" => r"\d{4}",
                    "MM" | "DD" => r"\d{2}",
                    _ => r"\d{1,2}",
                };
                if seen.insert(group) {
                    pattern.push_str(&format!("(?P<{group}>{digits})"));
                } else {
                    pattern.push_str(digits);
                }
                rest = &rest[t.len()..];
            }
            None => {
                let c = rest.chars().next().expect("not empty");
                if c.is_ascii_alphabetic() {
                    pattern.push_str(r"[^/]*?");
                    let run = rest.chars().take_while(|x| *x == c).count();
                    rest = &rest[run..];
                } else {
                    pattern.push_str(&regex::escape(&c.to_string()));
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
    }
    pattern.push('$');
    Regex::new(&pattern).unwrap_or_else(|_| Regex::new(r"^$").expect("valid"))
}

/// The front matter of a note, when it has one.
fn front_matter(text: &str) -> Option<&str> {
    let body = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let end = body.find("\n---")?;
    Some(&body[..end])
}

/// The `date` or `created` property of a note, read as its first `YYYY-MM-DD`.
pub fn property_date(text: &str) -> Option<Day> {
    let front = front_matter(text)?;
    front.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        matches!(key.trim(), "date" | "created")
            .then(|| Day::parse(value.trim().trim_matches(['"', '\''])))
            .flatten()
    })
}

/// Whether the note has `tag` or a tag nested below it (`client` matches `client/acme`), in its
/// `tags` property (list or string, with or without `#`) or inline outside code.
pub fn has_tag(text: &str, tag: &str) -> bool {
    let wanted = tag.trim().trim_start_matches('#').to_lowercase();
    if wanted.is_empty() {
        return false;
    }
    let matches = |found: &str| {
        let found = found.trim().trim_start_matches('#').to_lowercase();
        found == wanted || found.starts_with(&format!("{wanted}/"))
    };
    if let Some(front) = front_matter(text) {
        let mut in_tags = false;
        for line in front.lines() {
            if let Some(value) = line
                .strip_prefix("tags:")
                .or_else(|| line.strip_prefix("tag:"))
            {
                in_tags = true;
                let value = value.trim().trim_start_matches('[').trim_end_matches(']');
                if value
                    .split([',', ' '])
                    .any(|t| !t.is_empty() && matches(t.trim_matches(['"', '\''])))
                {
                    return true;
                }
            } else if in_tags && line.trim_start().starts_with("- ") {
                if matches(line.trim_start()[2..].trim().trim_matches(['"', '\''])) {
                    return true;
                }
            } else {
                in_tags = false;
            }
        }
    }
    static INLINE: OnceLock<Regex> = OnceLock::new();
    let inline = INLINE.get_or_init(|| {
        Regex::new(r"(?:^|[\s(])#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)").expect("valid")
    });
    // The body starts after `---\n`, the front matter and `\n---`.
    let body = front_matter(text).map_or(text, |f| &text[(f.len() + 8).min(text.len())..]);
    let mut in_fence = false;
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let line = strip_code_and_links(line);
        if inline.captures_iter(&line).any(|c| matches(&c[1])) {
            return true;
        }
    }
    false
}

/// A line without its inline code spans and link targets, where a `#` is not a tag.
fn strip_code_and_links(line: &str) -> String {
    static SPANS: OnceLock<Regex> = OnceLock::new();
    SPANS
        .get_or_init(|| Regex::new(r"`[^`]*`|\[\[[^\]]*\]\]|\]\([^)]*\)").expect("valid"))
        .replace_all(line, " ")
        .into_owned()
}

/// The notes `hub` links to or embeds, and theirs, down to `depth` steps, resolved as
/// Obsidian resolves links. The hub itself is not among them.
///
/// `start`: the hub's vault-relative path; `read`: a note's text, `None` when it cannot be read
/// (the hub unreadable is `None` as a whole).
pub fn linked_notes(
    index: &NoteIndex,
    start: &str,
    depth: usize,
    read: impl Fn(&str) -> Option<String>,
) -> Option<HashSet<String>> {
    let start = start.to_string();
    static LINK: OnceLock<Regex> = OnceLock::new();
    let link = LINK.get_or_init(|| {
        Regex::new(r"!?\[\[([^\]|#^]+)[^\]]*\]\]|\]\(([^)#\s]+\.md)[^)]*\)").expect("valid")
    });
    let mut seen: HashSet<String> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start.clone(), 0usize)]);
    while let Some((note, level)) = queue.pop_front() {
        if level == depth {
            continue;
        }
        let Some(text) = read(&note) else {
            if note == start {
                return None;
            }
            continue;
        };
        for found in link.captures_iter(&text) {
            let target = found
                .get(1)
                .or_else(|| found.get(2))
                .map_or("", |m| m.as_str());
            let target = target.replace("%20", " ");
            if let Ok(resolution) = index.resolve(&note, &target) {
                if seen.insert(resolution.path.clone()) {
                    queue.push_back((resolution.path, level + 1));
                }
            }
        }
    }
    seen.remove(&start);
    Some(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_match_in_front_matter_and_inline_nested_but_not_in_code_or_links() {
        assert!(has_tag("---\ntags: [client/acme, x]\n---\nbody", "#client"));
        assert!(has_tag("---\ntags:\n  - \"#client/acme\"\n---\n", "client"));
        assert!(has_tag("Met #client/acme today", "client"));
        assert!(!has_tag("Met #clientele today", "client"));
        assert!(!has_tag(
            "`#client` and [[Note#client]]\n```\n#client\n```",
            "client"
        ));
    }

    #[test]
    fn moment_formats_become_patterns() {
        let daily = DailyNotes {
            folder: "Journal".into(),
            format: Some(format_regex("YYYY/MM/[Day] DD.MM.YYYY")),
        };
        assert_eq!(
            daily.date_of("Journal/2026/11/Day 18.11.2026.md"),
            Day::parse("2026-11-18")
        );
        assert_eq!(
            daily.date_of("Other/2026-11-19 notes.md"),
            Day::parse("2026-11-19")
        );
        assert_eq!(daily.date_of("Other/Plans.md"), None);
    }
}
