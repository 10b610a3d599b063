//! Which notes a rollup (`summarize_notes`) draws on: by paths, tag, dates and the links of a
//! hub note, every criterion given narrowing the selection. Hidden notes, Obsidian's "Excluded
//! files" and the `watch.exclude` globs are never selected (`vault/exclusions.rs`), nor are the
//! rollups vaultsum wrote (a `rollup` property), which are named instead.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::context::{ContextError, ToolContext};
use crate::generated_notes::is_rollup_note;
use crate::left_out::{left_out_by_read, LeftOut};
use crate::vault::exclusions::Exclusions;
use crate::vault::policy::is_visible_note;
use crate::vault::Vault;

/// What to select; `None`/empty means "not narrowed by this".
#[derive(Debug, Clone, Default)]
pub struct Criteria {
    pub paths: Vec<String>,
    pub tag: Option<String>,
    pub from: Option<Day>,
    pub to: Option<Day>,
    pub links_of: Option<String>,
    pub depth: usize,
}

/// The notes selected, in path order, the notes left out of a date range for having no date,
/// the rollups vaultsum wrote that matched and were left out, and the entries the scan could
/// not read (the caller says them all in `details`).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub notes: Vec<String>,
    pub undated: usize,
    /// Notes with a `rollup` property (rollups vaultsum wrote, `generated_notes.rs`) that every
    /// criterion matched: never a source, or each rollup would summarize the ones before it.
    pub rollups: Vec<String>,
    pub left_out: Vec<LeftOut>,
}

/// A calendar day, as days since 1970-01-01 (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day(pub i64);

impl Day {
    /// `YYYY-MM-DD`, or `None` when it is not a real date.
    pub fn parse(text: &str) -> Option<Day> {
        let mut parts = text.trim().splitn(3, '-');
        let year: i64 = parts.next()?.parse().ok()?;
        let month: u32 = parts.next()?.parse().ok()?;
        let day: u32 = parts.next()?.get(..2)?.parse().ok()?;
        Day::from_ymd(year, month, day)
    }

    pub fn from_ymd(year: i64, month: u32, day: u32) -> Option<Day> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        // Howard Hinnant's days_from_civil.
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = month as i64;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day(era * 146_097 + doe - 719_468))
    }
}

impl std::fmt::Display for Day {
    /// `YYYY-MM-DD` (Hinnant's civil_from_days).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// The first and last day of a period the command line names: an ISO week `2026-W47`, a
/// month `2026-11`, or the last N days up to `today` (`7d`).
pub fn period(text: &str, today: Day) -> Option<(Day, Day)> {
    let text = text.trim();
    if let Some((year, week)) = text.split_once(['W', 'w']) {
        let year: i64 = year.trim_end_matches('-').parse().ok()?;
        let week: i64 = week.parse().ok()?;
        // ISO week 1 holds 4 January; weeks start on Monday (1970-01-01 was a Thursday).
        let jan4 = Day::from_ymd(year, 1, 4)?.0;
        let monday = jan4 - (jan4 + 3).rem_euclid(7);
        let weeks_in_year = if Day::from_ymd(year, 12, 28)?.0 - monday >= 52 * 7 {
            53
        } else {
            52
        };
        if !(1..=weeks_in_year).contains(&week) {
            return None;
        }
        let first = monday + (week - 1) * 7;
        return Some((Day(first), Day(first + 6)));
    }
    if let Some(days) = text.strip_suffix('d') {
        let days: i64 = days.parse().ok().filter(|d| *d > 0)?;
        return Some((Day(today.0 - days + 1), today));
    }
    let (year, month) = text.split_once('-')?;
    let (year, month): (i64, u32) = (year.parse().ok()?, month.parse().ok()?);
    let first = Day::from_ymd(year, month, 1)?;
    Some((
        first,
        Day(first.0 + i64::from(days_in_month(year, month)) - 1),
    ))
}

/// The first and last day of a period named relative to `today`: `this-week`, `last-week`
/// (Monday to Sunday), `this-month`, `last-month`; any other text as [`period`] reads it.
pub fn named_period(text: &str, today: Day) -> Option<(Day, Day)> {
    // 1970-01-01 was a Thursday: the Monday of a day's week is 0 to 6 days before it.
    let monday = Day(today.0 - (today.0 + 3).rem_euclid(7));
    let month_of = |day: Day| period(&day.to_string()[..7], today);
    match text.trim().to_ascii_lowercase().as_str() {
        "this-week" => Some((monday, Day(monday.0 + 6))),
        "last-week" => Some((Day(monday.0 - 7), Day(monday.0 - 1))),
        "this-month" => month_of(today),
        "last-month" => month_of(Day(month_of(today)?.0 .0 - 1)),
        _ => period(text, today),
    }
}

impl Day {
    /// Today in UTC.
    pub fn today() -> Day {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Day((seconds / 86_400) as i64)
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Why a selection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    #[error(transparent)]
    Context(#[from] ContextError),
    #[error("links_of: {0} is not a note of the vault")]
    HubNotFound(String),
    #[error("{0}")]
    BadExclude(String),
}

impl ToolContext {
    /// The notes matching every given criterion, in path order.
    pub fn select_notes(&self, criteria: &Criteria) -> Result<Selection, SelectionError> {
        let vault = self.vault()?;
        // What the person excluded in Obsidian or from watch is never selected either.
        let excluded = Exclusions::new(&vault.obsidian_settings(), &self.config.watch.exclude)
            .map_err(|e| SelectionError::BadExclude(e.to_string()))?;
        let mut candidates: BTreeSet<String> = BTreeSet::new();
        // One entry the scan may not read (a symlink out of the vault, a loop, a note deleted
        // meanwhile) is left out and said, never the end of the rollup.
        let mut left_out: Vec<LeftOut> = Vec::new();
        if criteria.paths.is_empty() {
            let scan = vault.scan_notes("").map_err(ContextError::from)?;
            left_out.extend(scan.left_out);
            candidates.extend(scan.files.into_iter().map(|note| note.relative));
        } else {
            let targets = self.expand_targets(&criteria.paths)?;
            left_out.extend(targets.left_out);
            for target in targets.notes {
                let relative = vault.resolve_input(&target).map_err(ContextError::from)?;
                candidates.insert(relative.relative().to_string());
            }
        }
        candidates.retain(|rel| is_visible_note(rel) && excluded.check(rel).is_none());
        left_out.retain(|entry| excluded.check(entry.path.trim_end_matches('/')).is_none());
        if let Some(hub) = &criteria.links_of {
            let linked = linked_notes(vault, hub, criteria.depth.max(1))?;
            candidates.retain(|rel| linked.contains(rel));
        }
        let daily = DailyNotes::of(vault);
        let mut undated = 0;
        let mut notes = Vec::new();
        let mut rollups = Vec::new();
        for rel in candidates {
            // Every candidate is read: its properties say whether it is a rollup.
            let read = vault.path(&rel).and_then(|path| vault.read_bytes(&path));
            let text = match read {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => {
                    left_out.push(left_out_by_read(&rel, &error));
                    continue;
                }
            };
            let rollup = is_rollup_note(&text);
            if let Some(tag) = &criteria.tag {
                if !has_tag(&text, tag) {
                    continue;
                }
            }
            if criteria.from.is_some() || criteria.to.is_some() {
                let Some(day) = daily.date_of(&rel).or_else(|| property_date(&text)) else {
                    if !rollup {
                        undated += 1;
                    }
                    continue;
                };
                if criteria.from.is_some_and(|from| day < from)
                    || criteria.to.is_some_and(|to| day > to)
                {
                    continue;
                }
            }
            if rollup {
                rollups.push(rel);
                continue;
            }
            notes.push(rel);
        }
        Ok(Selection {
            notes,
            undated,
            rollups,
            left_out,
        })
    }
}

/// Where daily notes live and how they are named, as the Daily Notes core plugin (or the
/// Periodic Notes plugin, which takes precedence when its settings exist) says.
struct DailyNotes {
    folder: String,
    format: Option<Regex>,
}

impl DailyNotes {
    fn of(vault: &Vault) -> DailyNotes {
        let read = |relative: &str| -> Option<Value> {
            let path = vault.path(relative).ok()?;
            serde_json::from_slice(&vault.read_bytes(&path).ok()?).ok()
        };
        let periodic = read(".obsidian/plugins/periodic-notes/data.json")
            .and_then(|v| v.get("daily").cloned())
            .filter(|d| d.get("enabled").and_then(Value::as_bool).unwrap_or(true));
        let settings = periodic.or_else(|| read(".obsidian/daily-notes.json"));
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
    fn date_of(&self, rel: &str) -> Option<Day> {
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
fn property_date(text: &str) -> Option<Day> {
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
fn linked_notes(vault: &Vault, hub: &str, depth: usize) -> Result<HashSet<String>, SelectionError> {
    let start = vault
        .resolve_input(hub)
        .map_err(|_| SelectionError::HubNotFound(hub.to_string()))?
        .relative()
        .to_string();
    let index = vault.index();
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
        let Ok(path) = vault.path(&note) else {
            continue;
        };
        let Ok(bytes) = vault.read_bytes(&path) else {
            if note == start {
                return Err(SelectionError::HubNotFound(hub.to_string()));
            }
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
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
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_counted_from_the_epoch() {
        assert_eq!(Day::parse("1970-01-01"), Some(Day(0)));
        assert_eq!(
            Day::parse("2026-11-23").unwrap().0 - Day::parse("2026-11-16").unwrap().0,
            7
        );
        assert_eq!(Day::parse("2026-02-30"), None);
        assert_eq!(Day::parse("2026-11-23").unwrap().to_string(), "2026-11-23");
    }

    #[test]
    fn named_periods_are_counted_from_today() {
        let day = |s| Day::parse(s).unwrap();
        // Tuesday 5 March 2024; a Sunday belongs to the week that began on the Monday before.
        let tuesday = day("2024-03-05");
        let week = |a, b| Some((day(a), day(b)));
        assert_eq!(
            named_period("this-week", tuesday),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("last-week", tuesday),
            week("2024-02-26", "2024-03-03")
        );
        assert_eq!(
            named_period("this-week", day("2024-03-10")),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("this-week", day("2024-03-04")),
            week("2024-03-04", "2024-03-10")
        );
        assert_eq!(
            named_period("this-month", day("2024-02-10")),
            week("2024-02-01", "2024-02-29")
        );
        assert_eq!(
            named_period("last-month", day("2024-01-31")),
            week("2023-12-01", "2023-12-31")
        );
        assert_eq!(
            named_period("2026-W47", tuesday),
            week("2026-11-16", "2026-11-22")
        );
        assert_eq!(named_period("next-week", tuesday), None);
    }

    #[test]
    fn weeks_months_and_last_days_are_periods() {
        let day = |s| Day::parse(s).unwrap();
        assert_eq!(
            period("2026-W47", day("2000-01-01")),
            Some((day("2026-11-16"), day("2026-11-22")))
        );
        assert_eq!(
            period("2026-W01", day("2000-01-01")),
            Some((day("2025-12-29"), day("2026-01-04")))
        );
        assert_eq!(period("2026-W54", day("2000-01-01")), None);
        assert_eq!(
            period("2024-02", day("2000-01-01")),
            Some((day("2024-02-01"), day("2024-02-29")))
        );
        assert_eq!(
            period("7d", day("2026-11-25")),
            Some((day("2026-11-19"), day("2026-11-25")))
        );
    }

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
