//! The document a rollup summarizes: each note under a heading with its `[[link]]`, its open
//! tasks carrying that link, so the rollup's action items say where each came from; what the
//! model is told besides the focus; the links put back where the offline engine showed their
//! text.

use super::days::Day;

/// `# [[Note]]` and what stands for it, tasks carrying the note's link.
pub fn push_note(document: &mut String, path: &str, body: &str) {
    let body = with_source_on_tasks(body.trim(), &link_of(path));
    document.push_str(&format!("# {}\n\n{}\n\n", link_of(path), body));
}

/// The dry run's line naming the rollups vaultsum wrote that matched and were left out (empty
/// when there are none).
pub fn rollups_left_out_line(rollups: &[String]) -> String {
    if rollups.is_empty() {
        return String::new();
    }
    let links: Vec<String> = rollups.iter().map(|path| link_of(path)).collect();
    format!(
        "left out, rollups vaultsum wrote (never a source): {}\n",
        links.join(", ")
    )
}

/// What the model is told besides the focus: the document is many notes, and each task keeps
/// the link of its note.
pub fn rollup_focus(focus: Option<&str>, cite_notes: bool) -> String {
    let mut text = String::from(
        "This is not one note but several, each under a heading with its [[link]]: write one \
         summary of all of them together. Keep the ([[link]]) at the end of every action item, \
         so each names the note it came from.",
    );
    if cite_notes {
        text.push_str(
            " End every key point too with the ([[link]]) of the note or notes it comes from.",
        );
    }
    if let Some(focus) = focus.map(str::trim).filter(|f| !f.is_empty()) {
        text.push_str(" Emphasise: ");
        text.push_str(focus);
    }
    text
}

/// `body` with `(link)` after every open task that does not name it yet (`- [ ] Call Dana` →
/// `- [ ] Call Dana ([[Journal/2026-11-18]])`), so the rollup's action items say which note each
/// came from, with the LLM and the offline engine alike.
pub fn with_source_on_tasks(body: &str, link: &str) -> String {
    let mut out = String::with_capacity(body.len() + 64);
    for line in body.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content.trim_end_matches('\r'), &line[content.len()..]),
            None => (line, ""),
        };
        let task = content.trim_start();
        let open = ["- [ ] ", "* [ ] ", "+ [ ] "]
            .iter()
            .any(|marker| task.starts_with(marker));
        if open && !content.contains(link) {
            out.push_str(content.trim_end());
            out.push_str(&format!(" ({link})"));
            out.push_str(end);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `rollup` with each open task's trailing `(Name)` (a source link the offline engine showed as
/// its text) made the link `([[Folder/Name]])` again, when `Name` is a selected note's.
pub fn restore_task_links(rollup: &str, notes: &[String]) -> String {
    let mut out = String::with_capacity(rollup.len() + 64);
    for line in rollup.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let end = &line[content.len()..];
        let is_task = ["- [ ] ", "* [ ] "]
            .iter()
            .any(|marker| content.trim_start().starts_with(marker));
        let restored = is_task
            .then(|| {
                notes.iter().find_map(|path| {
                    let link = link_of(path);
                    let name = link
                        .trim_start_matches("[[")
                        .trim_end_matches("]]")
                        .rsplit('/')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    content
                        .strip_suffix(&format!("({name})"))
                        .map(|head| format!("{head}({link})"))
                })
            })
            .flatten();
        match restored {
            Some(content) => {
                out.push_str(&content);
                out.push_str(end);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The link a rollup writes for a note: its path without the `.md` extension.
pub fn link_of(path: &str) -> String {
    let stem = path.strip_suffix(".md").unwrap_or(path);
    format!("[[{stem}]]")
}

/// What a rollup covers, for its note's `rollup` property: `Journal, #client, 2026-11-16..2026-11-22`.
/// The days are the resolved ones (`from`, `to`), so a `period` is recorded as the days it
/// meant on the day it ran.
pub fn describe(
    paths: &[String],
    tag: Option<&str>,
    from: Option<Day>,
    to: Option<Day>,
    links_of: Option<&str>,
) -> String {
    let mut parts: Vec<String> = paths.to_vec();
    if let Some(tag) = tag {
        parts.push(format!("#{}", tag.trim_start_matches('#')));
    }
    if from.is_some() || to.is_some() {
        let day = |day: Option<Day>| day.map(|day| day.to_string()).unwrap_or_default();
        parts.push(format!("{}..{}", day(from), day(to)));
    }
    if let Some(hub) = links_of {
        parts.push(format!("links of {hub}"));
    }
    parts.join(", ")
}

/// A dry run's answer: the notes selected (`reused` of them with a current summary reused),
/// the fewest paid calls with the `engine`, the `media` to describe, each note, and the
/// rollups vaultsum wrote that matched and were left out.
pub fn dry_run_text(
    notes: &[String],
    reused: usize,
    paid_calls: usize,
    engine: &str,
    media: usize,
    rollups: &[String],
) -> String {
    let count = notes.len();
    let calls = if paid_calls == 1 { "call" } else { "calls" };
    let mut text = format!(
        "{count} notes selected ({reused} with a current summary reused); {paid_calls} paid \
         {calls} at least ({engine} engine)"
    );
    if media > 0 {
        text.push_str(&format!(
            ", and {media} embedded pictures or recordings to describe with the vision and \
             transcription models (those already described cost nothing)"
        ));
    }
    text.push_str(":\n");
    for path in notes {
        text.push_str(&format!("- {}\n", link_of(path)));
    }
    text.push_str(&rollups_left_out_line(rollups));
    text
}

/// The dry run's line naming the note the rollup would be written into.
pub fn would_be_written(target: &str) -> String {
    format!("would be written into {target}\n")
}

/// Why nothing is left to roll up: no note matched, some had no date, some were left out
/// (each described).
pub fn empty_selection_message(undated: usize, rollups: &[String], left_out: &[String]) -> String {
    let mut message = "no note matches the selection".to_string();
    if undated > 0 {
        message.push_str(&format!(
            " ({} notes have no date: neither a daily note's name nor a `date` or `created` \
             property)",
            undated
        ));
    }
    if !rollups.is_empty() {
        message.push_str(&format!(
            "; {} rollups vaultsum wrote matched and were left out, since a rollup is never a \
             source of another: {}",
            rollups.len(),
            rollups.join(", ")
        ));
    }
    if !left_out.is_empty() {
        message.push_str(&format!("; left out: {}", left_out.join(", ")));
    }
    message
}
