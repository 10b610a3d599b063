//! Rollups (`summarize_notes`, issue 21) over a generated year of daily notes: the selection by
//! week, month, nested tag, hub links and their combinations; current summaries reused instead
//! of paid calls; a 300-note rollup within a 4,096-token window; the `max_notes` guard before any
//! request; and the offline engine.

use crate::support;

use std::sync::Arc;

use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fake_server::ReceivedRequest;
use support::temp_vault::TempVault;
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext, ToolOutput};

const MONTH_DAYS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// Every day of 2026 as `(month, day, day of the year from 0)`.
fn days_of_2026() -> Vec<(u32, u32, usize)> {
    let mut out = Vec::new();
    for (m, days) in MONTH_DAYS.iter().enumerate() {
        for d in 1..=*days {
            out.push((m as u32 + 1, d, out.len()));
        }
    }
    out
}

/// A vault with the daily-notes settings (folder `Journal`, format `YYYY-MM-DD`) and a note for
/// every day of 2026: every fifth tagged `#client/acme` (inline or in front matter), every third
/// with a task, every tenth with its own `## Summary`. Plus a hub linking to three notes, one of
/// which links to a fourth (depth 2), a dated meeting note, an undated note, a hidden note and a
/// note in an Obsidian-excluded folder.
fn year_vault() -> TempVault {
    let vault = TempVault::new();
    vault.write(
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal", "format": "YYYY-MM-DD"}"#,
    );
    vault.write(
        ".obsidian/app.json",
        r#"{"userIgnoreFilters": ["Archive/"]}"#,
    );
    for (m, d, n) in days_of_2026() {
        let mut note = String::new();
        if n % 10 == 5 {
            note.push_str("---\ntags: [client/acme]\n---\n");
        }
        note.push_str(&format!(
            "# 2026-{m:02}-{d:02}\n\nWorked on day {n} of the year.\n"
        ));
        if n % 5 == 0 {
            note.push_str("Call with #client/acme about the roadmap.\n");
        }
        if n % 3 == 0 {
            note.push_str(&format!("- [ ] Follow up item {n}\n"));
        }
        if n % 10 == 0 {
            note.push_str(&format!("\n## Summary\n\n- Own summary of day {n}.\n"));
        }
        vault.write(&format!("Journal/2026-{m:02}-{d:02}.md"), note);
    }
    vault.write(
        "Hub.md",
        "# Hub\n\n- [[2026-01-05]]\n- ![[Journal/2026-01-06]]\n- [Plan](Projects/Plan.md)\n",
    );
    vault.write(
        "Projects/Plan.md",
        "# Plan\n\nSee [[Deep]] and #clientele.\n",
    );
    vault.write("Projects/Deep.md", "# Deep\n\nDetails.\n");
    vault.write(
        "Meetings/Kickoff.md",
        "---\ndate: 2026-11-18\n---\n# Kickoff\n\nStarted.\n",
    );
    vault.write(
        "Meetings/Undated.md",
        "# Undated\n\nNo date here. #client\n",
    );
    vault.write(".hidden/2026-11-17.md", "# Hidden\n");
    vault.write("Archive/2026-11-17 old.md", "# Old #client/acme\n");
    vault
}

fn registry(vault: &TempVault, fake: Option<&FakeOpenAi>, window: Option<u64>) -> Registry {
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        ..Config::default()
    };
    match fake {
        Some(fake) => {
            config.llm = fake.llm_config();
            config.summarize.engine = Engine::Llm;
            config.llm.summarize_model = format!("rollup-model-{}", fake.url());
        }
        None => config.summarize.engine = Engine::Offline,
    }
    config.llm.context_tokens = window;
    Registry::new(Arc::new(ToolContext::new(config).expect("context")))
}

async fn rollup(registry: &Registry, args: Value) -> ToolOutput {
    registry.call("summarize_notes", args).await
}

fn selected(output: &ToolOutput) -> Vec<String> {
    assert!(!output.is_error, "{}", output.text);
    output.details["notes"]
        .as_array()
        .expect("details.notes")
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

fn journal(days: &[(u32, u32)]) -> Vec<String> {
    days.iter()
        .map(|(m, d)| format!("Journal/2026-{m:02}-{d:02}.md"))
        .collect()
}

fn chats(fake: &FakeOpenAi) -> Vec<ReceivedRequest> {
    fake.requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_are_selected_by_dates_tag_hub_and_their_combinations() {
    let vault = year_vault();
    let registry = registry(&vault, None, None);
    let dry = |args: Value| {
        let mut args = args;
        args["dry_run"] = json!(true);
        args["max_notes"] = json!(1000);
        args
    };

    // ISO week 2026-W47: Monday 16 to Sunday 22 November; the meeting dated by its property.
    let week = rollup(
        &registry,
        dry(json!({ "from": "2026-11-16", "to": "2026-11-22" })),
    )
    .await;
    let mut expected = journal(&(16..=22).map(|d| (11, d)).collect::<Vec<_>>());
    expected.push("Meetings/Kickoff.md".to_string());
    assert_eq!(selected(&week), expected);
    assert_eq!(week.details["undated_left_out"], 4, "{}", week.details);

    // A month of daily notes only: restricted to the folder.
    let month = rollup(
        &registry,
        dry(json!({ "paths": ["Journal"], "from": "2026-02-01", "to": "2026-02-28" })),
    )
    .await;
    assert_eq!(
        selected(&month),
        journal(&(1..=28).map(|d| (2, d)).collect::<Vec<_>>())
    );

    // A nested tag: `client` matches `#client/acme` inline and in front matter, not
    // `#clientele`, never a hidden or excluded note.
    let tagged = rollup(&registry, dry(json!({ "tag": "#client" }))).await;
    let mut expected: Vec<String> = days_of_2026()
        .into_iter()
        .filter(|(_, _, n)| n % 5 == 0)
        .map(|(m, d, _)| format!("Journal/2026-{m:02}-{d:02}.md"))
        .collect();
    expected.push("Meetings/Undated.md".to_string());
    expected.sort();
    assert_eq!(selected(&tagged), expected);

    // Tag and dates together.
    let both = rollup(
        &registry,
        dry(json!({ "tag": "client/acme", "from": "2026-01-01", "to": "2026-01-15" })),
    )
    .await;
    assert_eq!(selected(&both), journal(&[(1, 1), (1, 6), (1, 11)]));

    // A hub: its links and embeds at depth 1, and their links at depth 2.
    let hub = rollup(&registry, dry(json!({ "links_of": "Hub.md" }))).await;
    assert_eq!(
        selected(&hub),
        [
            "Journal/2026-01-05.md",
            "Journal/2026-01-06.md",
            "Projects/Plan.md"
        ]
    );
    let deep = rollup(&registry, dry(json!({ "links_of": "Hub.md", "depth": 2 }))).await;
    assert_eq!(
        selected(&deep),
        [
            "Journal/2026-01-05.md",
            "Journal/2026-01-06.md",
            "Projects/Deep.md",
            "Projects/Plan.md"
        ]
    );
    let hub_and_tag = rollup(
        &registry,
        dry(json!({ "links_of": "Hub.md", "depth": 2, "tag": "client" })),
    )
    .await;
    assert_eq!(selected(&hub_and_tag), ["Journal/2026-01-06.md"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_week_reuses_current_summaries_and_names_every_note_in_sources() {
    let vault = year_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n\n- A good week.\n\n### Action Items\n\n- [ ] Follow up",
    ));
    let registry = registry(&vault, Some(&fake), Some(32_768));
    // 2026-01-05 .. 2026-01-11 are days 4..10: day 10 (Jan 11) has its own summary.
    let output = rollup(
        &registry,
        json!({ "paths": ["Journal"], "from": "2026-01-05", "to": "2026-01-11" }),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    let requests = chats(&fake);
    assert_eq!(
        requests.len(),
        1,
        "one paid call for a week that fits the window"
    );
    let sent = requests[0].user_text();
    assert!(sent.contains("- Own summary of day 10."), "{sent}");
    assert!(
        !sent.contains("Worked on day 10 of"),
        "the summarized note's text is not sent"
    );
    assert!(sent.contains("Worked on day 4 of"), "{sent}");
    assert_eq!(
        output.details["reused_summaries"],
        json!(["Journal/2026-01-11.md"])
    );
    let sources = output.text.split("### Sources").nth(1).expect("Sources");
    for day in 5..=11 {
        assert!(
            sources.contains(&format!("- [[Journal/2026-01-{day:02}]]")),
            "{sources}"
        );
    }
    eprintln!(
        "FIGURE week of 7 notes: {} requests, ~{} prompt tokens estimated",
        requests.len(),
        output.details["estimated_tokens"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_notes_fit_a_4096_token_window() {
    let vault = year_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- Part of the year."));
    let registry = registry(&vault, Some(&fake), Some(4096));
    let output = rollup(
        &registry,
        json!({ "paths": ["Journal"], "from": "2026-01-01", "to": "2026-10-27", "max_notes": 300 }),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(output.details["note_count"], 300);
    let requests = chats(&fake);
    assert!(
        requests.len() > 2,
        "split into parts and merged: {}",
        requests.len()
    );
    let sources = output.text.split("### Sources").nth(1).expect("Sources");
    assert_eq!(
        sources.lines().filter(|l| l.starts_with("- [[")).count(),
        300
    );
    eprintln!(
        "FIGURE 300-note rollup in a 4096-token window: {} requests, ~{} tokens of notes",
        requests.len(),
        output.details["estimated_tokens"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_selection_larger_than_max_notes_is_refused_before_any_request() {
    let vault = year_vault();
    let fake = FakeOpenAi::start();
    let registry = registry(&vault, Some(&fake), None);
    let output = rollup(&registry, json!({ "paths": ["Journal"] })).await;
    assert!(output.is_error);
    assert_eq!(output.details["error"], "too_many_notes");
    assert!(
        output
            .text
            .starts_with("365 notes selected, more than max_notes (100)")
            && output.text.contains("raise max_notes"),
        "{}",
        output.text
    );
    assert!(fake.requests().is_empty(), "no request was made");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_offline_engine_rolls_up_without_a_key() {
    let vault = year_vault();
    let registry = registry(&vault, None, None);
    let output = rollup(
        &registry,
        json!({ "from": "2026-03-02", "to": "2026-03-04" }),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(output.details["engine"], "offline");
    assert!(output.text.contains("Worked on day"), "{}", output.text);
    assert!(
        output.text.contains("- [[Journal/2026-03-03]]"),
        "{}",
        output.text
    );
}

#[test]
fn the_rollup_command_takes_a_week_and_lists_it_in_a_dry_run() {
    let vault = year_vault();
    let output = support::cli::run_to_exit(
        support::cli::vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args([
                "rollup",
                "Journal",
                "--week",
                "2026-W47",
                "--dry-run",
                "--json",
            ]),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(
        printed["details"]["notes"],
        json!(journal(&(16..=22).map(|d| (11, d)).collect::<Vec<_>>()))
    );
    let refused = support::cli::run_to_exit(
        support::cli::vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["rollup", "--week", "2026-W60"]),
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--week 2026-W60: not a period"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_summary_is_not_reused_and_never_sent() {
    let vault = year_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("- Fresh summary of the day."));
    let registry = registry(&vault, Some(&fake), Some(32_768));
    // Days 4 and 5 (Jan 5 and 6) get summaries written by the tool, with fingerprints; then
    // day 5 is edited, so its summary is stale.
    for day in ["Journal/2026-01-05.md", "Journal/2026-01-06.md"] {
        let written = registry
            .call("summarize_file", json!({ "path": day }))
            .await;
        assert!(!written.is_error, "{}", written.text);
    }
    let day5 = String::from_utf8(vault.read("Journal/2026-01-06.md")).unwrap();
    vault.write(
        "Journal/2026-01-06.md",
        day5.replace("Worked on day 5 of", "Rested on day 5 of"),
    );
    let before = chats(&fake).len();
    let output = rollup(
        &registry,
        json!({ "paths": ["Journal"], "from": "2026-01-05", "to": "2026-01-06" }),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(
        output.details["reused_summaries"],
        json!(["Journal/2026-01-05.md"]),
        "the current summary is reused, the stale one is not"
    );
    let sent = chats(&fake)[before].user_text();
    assert!(
        !sent.contains("Worked on day 4 of"),
        "day 4 stands as its summary: {sent}"
    );
    assert!(
        sent.contains("Rested on day 5 of"),
        "day 5 is read again: {sent}"
    );
    assert_eq!(
        sent.matches("Fresh summary of the day.").count(),
        1,
        "day 4's summary once; day 5's stale summary is never sent: {sent}"
    );
    assert!(
        !sent.contains("<!-- vaultsum:"),
        "no fingerprint line is sent: {sent}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_to_creates_the_rollup_note_replaces_it_on_a_rerun_and_never_touches_a_foreign_note() {
    let vault = year_vault();
    vault.write("Reviews/.keep", "");
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- A good week."));
    let registry = registry(&vault, Some(&fake), Some(32_768));
    let week = json!({
        "paths": ["Journal"], "from": "2026-01-05", "to": "2026-01-11",
        "save_to": "Reviews/Week 2.md",
    });
    let first = rollup(&registry, week.clone()).await;
    assert!(!first.is_error, "{}", first.text);
    assert_eq!(first.details["save_to"], "Reviews/Week 2.md");
    let note = String::from_utf8(vault.read("Reviews/Week 2.md")).unwrap();
    assert!(
        note.starts_with("---\nrollup: \"Journal, 2026-01-05..2026-01-11\"\n---\n"),
        "{note}"
    );
    assert!(
        note.contains("## Summary\n<!-- vaultsum: generated summary="),
        "the mark of what vaultsum wrote: {note}"
    );
    assert!(
        note.contains(" -->\n\n### Key Points\n\n- A good week."),
        "{note}"
    );
    assert!(
        note.contains("### Sources\n- [[Journal/2026-01-05]]"),
        "{note}"
    );
    assert!(!note.contains("<abstract>"), "{note}");

    // A person adds a line; a re-run replaces the rollup vaultsum wrote and keeps the line.
    vault.write(
        "Reviews/Week 2.md",
        note.replace(
            "---\n\n## Summary",
            "---\nMy own thoughts on the week.\n\n## Summary",
        ),
    );
    let second = rollup(&registry, week.clone()).await;
    assert!(!second.is_error, "{}", second.text);
    let again = String::from_utf8(vault.read("Reviews/Week 2.md")).unwrap();
    assert_eq!(again.matches("## Summary").count(), 1, "{again}");
    assert!(again.contains("My own thoughts on the week."), "{again}");

    // Into both: the abstract the model gave goes into the summary property too.
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n\n- A good week.\n\n<abstract>A calm week of roadmap calls.</abstract>",
    ));
    let mut both = week.clone();
    both["into"] = json!("both");
    let third = rollup(&registry, both).await;
    assert!(!third.is_error, "{}", third.text);
    let with_property = String::from_utf8(vault.read("Reviews/Week 2.md")).unwrap();
    assert!(
        with_property.contains("\nsummary: \"A calm week of roadmap calls.\"\n"),
        "{with_property}"
    );
    assert_eq!(with_property.matches("## Summary").count(), 1);
    assert!(!with_property.contains("<abstract>"), "{with_property}");

    // A note that is not a rollup's is refused before any paid call, and left as it was.
    let calls = chats(&fake).len();
    for foreign in ["Projects/Plan.md", "Reviews/.hidden/x.md", "../outside.md"] {
        let before = std::fs::read(vault.root().join(foreign)).ok();
        let mut args = week.clone();
        args["save_to"] = json!(foreign);
        let refused = rollup(&registry, args).await;
        assert!(refused.is_error, "{foreign}: {}", refused.text);
        assert_eq!(std::fs::read(vault.root().join(foreign)).ok(), before);
    }
    let mut args = week.clone();
    args["save_to"] = json!("Projects/Plan.md");
    let refused = rollup(&registry, args).await;
    assert!(
        refused
            .text
            .contains("Projects/Plan.md exists and is not a note vaultsum wrote"),
        "{}",
        refused.text
    );
    assert_eq!(
        chats(&fake).len(),
        calls,
        "no paid call for a refused save_to"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn action_items_name_the_note_they_came_from() {
    let vault = year_vault();
    let registry = registry(&vault, None, None);
    // Offline engine: days 4..10 of January; days 6 and 9 have a task.
    let output = rollup(
        &registry,
        json!({ "paths": ["Journal"], "from": "2026-01-05", "to": "2026-01-11" }),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    for (n, day) in [(6, "2026-01-07"), (9, "2026-01-10")] {
        assert!(
            output
                .text
                .contains(&format!("- [ ] Follow up item {n} ([[Journal/{day}]])")),
            "{}",
            output.text
        );
    }
    // With the LLM, each note's tasks carry their link into the request.
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("- [ ] Follow up"));
    let registry = registry_llm(&vault, &fake);
    rollup(
        &registry,
        json!({ "paths": ["Journal"], "from": "2026-01-07", "to": "2026-01-07" }),
    )
    .await;
    let sent = chats(&fake)[0].user_text();
    assert!(
        sent.contains("- [ ] Follow up item 6 ([[Journal/2026-01-07]])"),
        "{sent}"
    );
    assert!(
        sent.contains("Keep the ([[link]]) at the end of every action item"),
        "{sent}"
    );
}

fn registry_llm(vault: &TempVault, fake: &FakeOpenAi) -> Registry {
    registry(vault, Some(fake), Some(32_768))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_excluded_from_watch_are_never_selected_either() {
    let vault = year_vault();
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        ..Config::default()
    };
    config.summarize.engine = Engine::Offline;
    config.watch.exclude = vec!["Meetings/**".to_string()];
    let registry = Registry::new(Arc::new(ToolContext::new(config).expect("context")));
    let tagged = rollup(&registry, json!({ "tag": "client", "dry_run": true })).await;
    let notes = selected(&tagged);
    assert!(!notes.is_empty());
    assert!(
        notes.iter().all(|n| !n.starts_with("Meetings/")),
        "watch.exclude applies: {notes:?}"
    );
    assert!(
        notes.iter().all(|n| !n.starts_with("Archive/")),
        "Obsidian's excluded files apply: {notes:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollup_reports_its_steps() {
    let vault = year_vault();
    vault.write("Reviews/.keep", "");
    let registry = registry(&vault, None, None);
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = {
        let seen = Arc::clone(&seen);
        vaultsum_tools::ProgressSink::new(move |update| {
            seen.lock().unwrap().push(update.message.clone())
        })
    };
    let output = vaultsum_tools::with_progress(
        sink,
        rollup(
            &registry,
            json!({ "paths": ["Journal"], "from": "2026-01-05", "to": "2026-01-11",
                    "save_to": "Reviews/Week.md" }),
        ),
    )
    .await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(
        *seen.lock().unwrap(),
        ["reading 7 notes", "summarizing", "writing Reviews/Week.md"]
    );
}
