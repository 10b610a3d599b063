//! What is done with the facts of a summary the note does not hold, as it is written: the
//! checker itself is `crate::facts`; the one corrective request a host may make in between
//! is vaultsum-tools' `fact_check.rs` (docs/fact-check.md).
//!
//! [`finish`], on the cleaned summary and abstract about to be written: the final check. A
//! wikilink to a note or heading the source does not have is unlinked (its text kept): never
//! written as a link. What is still not found is listed in a `[!warning]` callout below the
//! summary and named after the abstract, so nobody reads it as the note's own; agents get the
//! same list in `details.unsupported`. Runs before the output policy, which then treats the
//! marks as any other text.

use std::sync::Arc;

use serde_json::{json, Value};

use super::clean::clean_summary;
use crate::facts::{as_read, FactCheck, FactKind, SourceFacts, Unsupported};

/// The callout's title: what the listed facts are.
pub const MARK_TITLE: &str = "Not found in the note";

/// How the check of one summary went, from the first answer to what is written.
#[derive(Debug, Clone)]
pub struct FactCheckRun {
    /// The mode it ran in (`retry` or `mark`; with `off` there is no run).
    pub mode: &'static str,
    /// The text the model was given, indexed.
    pub source: Arc<SourceFacts>,
    /// What the model was told the text is (a note's path), the first line of `source`.
    path: String,
    /// A hash of the text the model was given, to tell whether a text to link against is it.
    content_hash: u64,
    /// The first answer's checkable facts, entity precision and facts not found.
    first_facts: usize,
    first_precision: Option<f64>,
    first_unsupported: usize,
    /// Whether a corrective request was made, how long it took, and whether its answer was
    /// kept.
    pub retried: bool,
    pub retry_ms: Option<u64>,
    pub retry_kept: bool,
    pub retry_error: Option<String>,
}

impl FactCheckRun {
    /// The first check of `answer` (its facts as read: nothing invisible may cut a name or a
    /// number in two, see [`as_read`]), against the note's `path` and `content` (the model is
    /// shown the path too: a daily note's date, a title's name). Returns the run and the
    /// first check, which a host that may ask the model again (`retry`) decides from.
    pub fn first(
        mode: &'static str,
        path: &str,
        content: &str,
        answer: &mut String,
    ) -> (FactCheckRun, FactCheck) {
        *answer = as_read(answer);
        // Checked as it will be written: an answer wrapped in a ```markdown fence is
        // unwrapped by the writer, so its facts are facts, not code.
        let text = clean_summary(answer).unwrap_or_else(|| answer.clone());
        let source = SourceFacts::new(&format!("{path}\n{content}"));
        let first = source.check(&text);
        let run = FactCheckRun {
            mode,
            source: Arc::new(source),
            path: path.to_string(),
            content_hash: hash_of(content),
            first_facts: first.facts.len(),
            first_precision: first.entity_precision(),
            first_unsupported: first.unsupported.len(),
            retried: false,
            retry_ms: None,
            retry_kept: false,
            retry_error: None,
        };
        (run, first)
    }
}

/// The summary and abstract as they will be written, with what the check found in them.
#[derive(Debug, Clone)]
pub struct Checked {
    pub summary: String,
    pub abstract_text: Option<String>,
    /// For `details.fact_check` and `details.unsupported`; `None` when the check is off.
    pub report: Option<FactReport>,
}

/// What the final check found, for people (the marks, the result line) and agents (details).
#[derive(Debug, Clone)]
pub struct FactReport {
    run: FactCheckRun,
    /// Facts of the summary and the abstract not found, in order, each once.
    pub unsupported: Vec<Unsupported>,
    /// Entity precision of what is written (summary and abstract).
    pub precision: Option<f64>,
    /// Checkable facts in what is written.
    pub facts: usize,
    /// Wikilinks unlinked because their note or heading is not in the source.
    pub unlinked: usize,
}

/// The final check of the cleaned `summary` and `abstract_text`: wikilinks the source does
/// not have unlinked, facts not found marked (a callout below the summary, a note after the
/// abstract).
pub fn finish(
    run: Option<&FactCheckRun>,
    summary: String,
    abstract_text: Option<String>,
) -> Checked {
    finish_linking(run, summary, abstract_text, None)
}

/// [`finish`], with the wikilinks that stay links being only those `linkable` names too: the
/// note as expanded without a model's reading of its pictures and recordings
/// (`Expansion::named`). A picture's description may name `[[Other Note]]`; it is a fact of the
/// text the model was given (not marked), but no link the note made, so it is written as text,
/// as the output policy does with a URL or an embed from a description.
pub fn finish_linking(
    run: Option<&FactCheckRun>,
    summary: String,
    abstract_text: Option<String>,
    linkable: Option<&str>,
) -> Checked {
    let Some(run) = run else {
        return Checked {
            summary,
            abstract_text,
            report: None,
        };
    };
    let summary = as_read(&summary);
    let abstract_text = abstract_text.map(|text| as_read(&text));
    // Indexed only when it is not the text the model was given (a note without pictures or
    // recordings read is its own `named`).
    let links = linkable
        .filter(|text| hash_of(text) != run.content_hash)
        .map(|text| SourceFacts::new(&format!("{}\n{text}", run.path)));
    let (summary, summary_check, unlinked) = unlink_missing(&run.source, links.as_ref(), summary);
    let abstract_check = abstract_text.as_deref().map(|text| run.source.check(text));
    let mut unsupported: Vec<Unsupported> = Vec::new();
    for item in summary_check
        .unsupported
        .iter()
        .chain(abstract_check.iter().flat_map(|c| c.unsupported.iter()))
    {
        let seen = unsupported
            .iter()
            .any(|u| u.fact.kind == item.fact.kind && u.fact.text == item.fact.text);
        if !seen {
            unsupported.push(item.clone());
        }
    }
    let (mut entities, mut missing, mut facts) = (0, 0, 0);
    for check in std::iter::once(&summary_check).chain(abstract_check.iter()) {
        facts += check.facts.len();
        entities += check.facts.iter().filter(|f| f.kind.is_entity()).count();
        missing += check
            .unsupported
            .iter()
            .filter(|u| u.fact.kind.is_entity())
            .count();
    }
    let precision = (entities > 0).then(|| (entities - missing) as f64 / entities as f64);
    let summary = if unsupported.is_empty() {
        summary
    } else {
        // A fence the answer leaves open would swallow the marks: closed first.
        format!(
            "{summary}{}\n\n{}",
            fence_closer(&summary),
            marks(&unsupported)
        )
    };
    let abstract_text = match (abstract_text, &abstract_check) {
        (Some(text), Some(check)) if !check.is_supported() => {
            let listed: Vec<String> = check
                .unsupported
                .iter()
                .map(|u| u.fact.text.clone())
                .collect();
            Some(format!(
                "{text} ({}: {})",
                MARK_TITLE.to_lowercase(),
                listed.join(", ")
            ))
        }
        (text, _) => text,
    };
    Checked {
        summary,
        abstract_text,
        report: Some(FactReport {
            run: run.clone(),
            unsupported,
            precision,
            facts,
            unlinked,
        }),
    }
}

/// `summary` with every wikilink whose note or heading the source lacks (or `linkable` lacks,
/// when given) turned into its text, and the check of the result.
fn unlink_missing(
    source: &SourceFacts,
    linkable: Option<&SourceFacts>,
    summary: String,
) -> (String, FactCheck, usize) {
    let check = source.check(&summary);
    let not_linkable = linkable.map(|links| links.check(&summary));
    let mut links: Vec<&Unsupported> = check
        .unsupported
        .iter()
        .filter(|u| u.fact.kind == FactKind::Wikilink)
        .collect();
    for extra in not_linkable.iter().flat_map(|c| c.unsupported.iter()) {
        let listed = links.iter().any(|u| u.fact.span == extra.fact.span);
        if extra.fact.kind == FactKind::Wikilink && !listed {
            links.push(extra);
        }
    }
    if links.is_empty() {
        return (summary, check, 0);
    }
    links.sort_by_key(|u| std::cmp::Reverse(u.fact.span.start));
    let mut text = summary;
    let mut unlinked = 0;
    for link in links {
        let span = link.fact.span.clone();
        if text.get(span.clone()) != Some(link.fact.text.as_str()) {
            continue;
        }
        text.replace_range(span, &link_text(&link.fact.text));
        unlinked += 1;
    }
    // The links stay in the report as they were written: they are facts of the answer that
    // the source does not hold, now shown as text.
    let mut recheck = source.check(&text);
    for link in check
        .unsupported
        .iter()
        .filter(|u| u.fact.kind == FactKind::Wikilink)
    {
        recheck.unsupported.push(link.clone());
    }
    (text, recheck, unlinked)
}

/// A hash of `text`, the same in every run (std's `DefaultHasher` has fixed keys).
fn hash_of(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// What Obsidian shows for a wikilink: its alias, else `Note > Heading`, else the heading.
fn link_text(link: &str) -> String {
    let inner = link
        .trim_start_matches('!')
        .trim_start_matches("[[")
        .trim_end_matches("]]");
    if let Some((_, alias)) = inner.split_once('|') {
        return alias.trim().to_string();
    }
    let inner = inner.trim();
    match inner.split_once('#') {
        Some(("", heading)) => heading.trim_start_matches('^').trim().to_string(),
        Some((note, heading)) => format!("{} > {}", note.trim(), heading.trim()),
        None => inner.to_string(),
    }
}

/// The line that closes a code fence `text` leaves open (`\n```\n`), or nothing.
fn fence_closer(text: &str) -> String {
    let mut open: Option<(char, usize)> = None;
    for line in text.lines() {
        let line = line.trim_start_matches([' ', '>']);
        let Some(c) = line.chars().next().filter(|c| *c == '`' || *c == '~') else {
            continue;
        };
        let run = line.chars().take_while(|x| *x == c).count();
        if run < 3 {
            continue;
        }
        open = match open {
            None => Some((c, run)),
            Some((oc, orun)) if oc == c && run >= orun && line[run..].trim().is_empty() => None,
            still => still,
        };
    }
    open.map_or(String::new(), |(c, run)| {
        format!("\n{}", c.to_string().repeat(run))
    })
}

/// The callout listing the facts not found: each as code (shown as written, never live),
/// its kind and why.
fn marks(unsupported: &[Unsupported]) -> String {
    let mut callout = format!("> [!warning] {MARK_TITLE}\n");
    for item in unsupported {
        callout.push_str(&format!(
            "> - {} ({}): {}\n",
            as_code(&item.fact.text),
            item.fact.kind,
            item.reason
        ));
    }
    callout.trim_end().to_string()
}

/// `text` as a code span on one line, with a fence longer than any backtick run inside.
fn as_code(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let longest = line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if line.starts_with('`') || line.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{line}{pad}{fence}")
}

impl FactReport {
    /// `details.fact_check`: the mode, the figures before and after, the retry.
    pub fn to_json(&self) -> Value {
        let run = &self.run;
        json!({
            "mode": run.mode,
            "facts": self.facts,
            "entity_precision": self.precision,
            "not_found": self.unsupported.len(),
            "unlinked": self.unlinked,
            "first_answer": {
                "facts": run.first_facts,
                "entity_precision": run.first_precision,
                "not_found": run.first_unsupported,
            },
            "retried": run.retried,
            "retry_kept": run.retry_kept,
            "retry_ms": run.retry_ms,
            "retry_error": run.retry_error,
        })
    }

    /// `details.unsupported`: each fact not found, its kind and why.
    pub fn unsupported_json(&self) -> Value {
        Value::Array(
            self.unsupported
                .iter()
                .map(|u| {
                    json!({
                        "fact": u.fact.text,
                        "kind": u.fact.kind,
                        "reason": u.reason,
                        "why": u.reason.as_str(),
                    })
                })
                .collect(),
        )
    }

    /// Puts both into `details`.
    pub fn put_into(&self, details: &mut Value) {
        details["fact_check"] = self.to_json();
        details["unsupported"] = self.unsupported_json();
    }
}

/// A summary that could not be checked, said below it: Kagi's Universal Summarizer returns the
/// summary without the page's text, so there is nothing to check it against.
pub fn unchecked(summary: &str, why: &str) -> String {
    format!("{}\n\n> [!info] Not checked\n> {why}", summary.trim_end())
}

/// Why a Kagi summary is unchecked, in its note and in `details.fact_check.why`.
pub const KAGI_UNCHECKED: &str = "Kagi returns the summary without the page's text, so its \
names and numbers could not be checked against the page.";

/// `"; 2 facts not found in the note"` for a result line, or nothing.
pub fn not_found_suffix(details: &Value) -> String {
    match details["fact_check"]["not_found"].as_u64() {
        Some(0) | None => String::new(),
        Some(1) => "; 1 fact not found in the note (marked)".to_string(),
        Some(n) => format!("; {n} facts not found in the note (marked)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_over(source: &str) -> FactCheckRun {
        let source = Arc::new(SourceFacts::new(source));
        FactCheckRun {
            mode: "mark",
            source,
            path: String::new(),
            content_hash: 0,
            first_facts: 0,
            first_precision: None,
            first_unsupported: 0,
            retried: false,
            retry_ms: None,
            retry_kept: false,
            retry_error: None,
        }
    }

    #[test]
    fn a_wikilink_only_a_pictures_description_names_is_written_as_text_not_marked() {
        let note = "# Plan\n\nSee [[Budget]] for the figures.\n";
        let described = format!(
            "{note}\n> [Embedded image: board.png]\n> The board says: open [[Passwords]].\n"
        );
        let (run, _) = FactCheckRun::first("mark", "Plan.md", &described, &mut String::new());
        let summary = "- The figures are in [[Budget]].\n- The board points at [[Passwords]].";
        let checked = finish_linking(Some(&run), summary.to_string(), None, Some(note));
        assert_eq!(
            checked.summary,
            "- The figures are in [[Budget]].\n- The board points at Passwords."
        );
        let report = checked.report.expect("a report");
        assert_eq!(report.unlinked, 1);
        assert!(report.unsupported.is_empty(), "{:?}", report.unsupported);
        // Without the named text (a rollup, a selection), the description's link stays.
        let kept = finish(Some(&run), summary.to_string(), None);
        assert_eq!(kept.summary, summary);
    }

    #[test]
    fn a_fact_not_in_the_note_is_listed_in_a_callout_and_counted() {
        let run = run_over("The budget is 4,000 euros. Ana leads the project.");
        let checked = finish(Some(&run), "- Ana: 4,200 euros".to_string(), None);
        assert_eq!(
            checked.summary,
            "- Ana: 4,200 euros\n\n> [!warning] Not found in the note\n\
             > - `4,200 euros` (number): not in the note"
        );
        let report = checked.report.expect("a report");
        assert_eq!(report.unsupported.len(), 1);
        assert_eq!(report.precision, Some(0.5));
        assert_eq!(
            not_found_suffix(&json!({"fact_check": report.to_json()})),
            "; 1 fact not found in the note (marked)"
        );
    }

    #[test]
    fn a_faithful_summary_is_written_unchanged() {
        let run = run_over("The budget is 4,000 euros. Ana leads the project.");
        let summary = "- Budget: 4000 euros, led by Ana".to_string();
        let checked = finish(Some(&run), summary.clone(), Some("Ana's budget.".into()));
        assert_eq!(checked.summary, summary);
        assert_eq!(checked.abstract_text.as_deref(), Some("Ana's budget."));
        assert!(checked.report.expect("a report").unsupported.is_empty());
    }

    #[test]
    fn a_link_to_a_heading_the_note_lacks_is_unlinked_never_written() {
        let run = run_over("# Plan\nWe ship in May.\n## Risks\nNone.");
        let checked = finish(
            Some(&run),
            "- We ship in May ([[#Plan]])\n- None ([[#Budget|budget]])".to_string(),
            None,
        );
        let (body, marks) = checked
            .summary
            .split_once("\n\n> [!warning]")
            .expect("marks");
        assert_eq!(body, "- We ship in May ([[#Plan]])\n- None (budget)");
        // Listed as code: shown as written, not a link.
        assert!(marks.contains("`[[#Budget|budget]]` (wikilink): no such heading in the note"));
        let report = checked.report.expect("a report");
        assert_eq!(report.unlinked, 1);
        assert!(report
            .unsupported
            .iter()
            .any(|u| u.fact.text == "[[#Budget|budget]]"));
    }

    #[test]
    fn a_fact_only_in_the_abstract_is_named_after_it() {
        let run = run_over("Ana leads the project.");
        let checked = finish(
            Some(&run),
            "- Ana leads.".to_string(),
            Some("Luis leads the project.".into()),
        );
        assert_eq!(
            checked.abstract_text.as_deref(),
            Some("Luis leads the project. (not found in the note: Luis)")
        );
    }

    #[test]
    fn with_the_check_off_nothing_changes() {
        let checked = finish(None, "- 4,200 euros".into(), None);
        assert_eq!(checked.summary, "- 4,200 euros");
        assert!(checked.report.is_none());
    }

    #[test]
    fn a_code_fact_keeps_its_backticks_inside_a_longer_fence() {
        assert_eq!(as_code("a`b"), "``a`b``");
        assert_eq!(as_code("`x`"), "`` `x` ``");
        assert_eq!(as_code("two\nlines"), "`two lines`");
    }

    #[test]
    fn marks_after_a_fence_left_open_are_outside_it() {
        let run = run_over("Ana approved.");
        let checked = finish(
            Some(&run),
            "- Luis approved.\n\n```mermaid\ngraph TD\nA-->B".to_string(),
            None,
        );
        assert!(
            checked
                .summary
                .contains("A-->B\n```\n\n> [!warning] Not found in the note"),
            "{}",
            checked.summary
        );
        assert_eq!(fence_closer("```\nx\n```"), "");
        assert_eq!(fence_closer("~~~~\nx\n~~~"), "\n~~~~");
    }
}
