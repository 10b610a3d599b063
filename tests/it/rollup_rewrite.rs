//! A rollup written again into its `save_to` note: what a person added to the note survives
//! byte for byte, a rollup a person edited is refused before any paid call and left as it is,
//! rollups are never the sources of later rollups, and a period's rollup records its days.
//! Through the registry with a fake OpenAI server, and through the binary with the offline
//! engine.

use crate::support;

use std::sync::Arc;

use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext, ToolOutput};

const NOTE: &str = "Reviews/Week of 2026-12-28.md";
const TAKEAWAY: &str = "My takeaway: hire a second designer.\n";

/// Daily notes from 2026-12-21 to 2027-01-10 in `Journal/` (the daily-notes settings), each
/// with a line of its own.
fn journal_vault() -> TempVault {
    let vault = TempVault::new();
    vault.write(
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal", "format": "YYYY-MM-DD"}"#,
    );
    vault.write("Reviews/.keep", "");
    let days = (21..=31)
        .map(|d| format!("2026-12-{d:02}"))
        .chain((1..=10).map(|d| format!("2027-01-{d:02}")));
    for day in days {
        vault.write(
            &format!("Journal/{day}.md"),
            format!("# {day}\n\nWorked on the launch plan.\n"),
        );
    }
    vault
}

fn registry(vault: &TempVault, fake: &FakeOpenAi) -> Registry {
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        ..Config::default()
    };
    config.llm = fake.llm_config();
    config.summarize.engine = Engine::Llm;
    config.llm.summarize_model = format!("rollup-model-{}", fake.url());
    config.llm.context_tokens = Some(32_768);
    Registry::new(Arc::new(ToolContext::new(config).expect("context")))
}

async fn rollup(registry: &Registry, args: Value) -> ToolOutput {
    registry.call("summarize_notes", args).await
}

fn this_week() -> Value {
    json!({ "period": "this-week", "today": "2027-01-03", "save_to": NOTE })
}

fn chats(fake: &FakeOpenAi) -> usize {
    fake.requests()
        .iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .count()
}

fn text(vault: &TempVault, relative: &str) -> String {
    String::from_utf8(vault.read(relative)).unwrap()
}

/// The note without its `## Summary` section and what follows, and what follows the section.
fn around_summary(note: &str, summary_end: &str) -> (String, String) {
    let start = note.find("## Summary").expect("a summary section");
    let end = note[start..].find(summary_end).expect("the summary's end") + start;
    (
        note[..start].to_string(),
        note[end + summary_end.len()..].to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_typed_under_a_rollup_survives_the_rerun_byte_for_byte() {
    let vault = journal_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- A calm week."));
    let registry = registry(&vault, &fake);
    let first = rollup(&registry, this_week()).await;
    assert!(!first.is_error, "{}", first.text);
    let written = text(&vault, NOTE);
    assert!(
        written.starts_with("---\nrollup: \"2026-12-28..2027-01-03\"\n---\n"),
        "a period records the days it meant: {written}"
    );
    assert!(
        written.contains("## Summary\n<!-- vaultsum: generated summary="),
        "{written}"
    );

    // The person types a line at the end, and one above the rollup.
    let edited = format!(
        "{}{TAKEAWAY}",
        written.replace("---\n\n## Summary", "---\nAbove.\n\n## Summary")
    );
    vault.write(NOTE, &edited);
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- A busy week."));
    let second = rollup(&registry, this_week()).await;
    assert!(!second.is_error, "{}", second.text);
    let again = text(&vault, NOTE);
    assert!(again.contains("- A busy week."), "{again}");
    assert!(!again.contains("- A calm week."), "{again}");
    let sources_end = "- [[Journal/2027-01-03]]\n";
    let (before_then, after_then) = around_summary(&edited, sources_end);
    let (before_now, after_now) = around_summary(&again, sources_end);
    assert_eq!(
        before_now, before_then,
        "everything above the rollup is kept"
    );
    assert_eq!(after_then, TAKEAWAY);
    assert_eq!(after_now, TAKEAWAY, "the typed line is kept, where it was");
    assert_eq!(again.matches("## Summary").count(), 1, "{again}");

    // The rollup note is named with a date of the week, but it is never one of its sources.
    assert_eq!(second.details["rollups_left_out"], json!([NOTE]));
    let notes = second.details["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 7, "{notes:?}");
    assert!(notes
        .iter()
        .all(|n| n.as_str().unwrap().starts_with("Journal/")));
    let sent = fake.requests().last().unwrap().user_text();
    assert!(
        !sent.contains("A calm week"),
        "the rollup is not sent: {sent}"
    );

    // Run a third time: the same, the line still once.
    let third = rollup(&registry, this_week()).await;
    assert!(!third.is_error, "{}", third.text);
    assert_eq!(text(&vault, NOTE), again);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollup_edited_by_hand_is_refused_before_any_paid_call_and_left_unchanged() {
    let vault = journal_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- A calm week."));
    let registry = registry(&vault, &fake);
    assert!(!rollup(&registry, this_week()).await.is_error);
    let written = text(&vault, NOTE);

    let unchanged_after_refusal = |edited: String| {
        let vault = &vault;
        let registry = &registry;
        let fake = &fake;
        async move {
            vault.write(NOTE, &edited);
            let calls = chats(fake);
            let refused = rollup(registry, this_week()).await;
            assert!(refused.is_error, "{}", refused.text);
            assert_eq!(chats(fake), calls, "no paid call for a refused rewrite");
            assert_eq!(text(vault, NOTE), edited, "the note is left as it was");
            assert_eq!(refused.details["error"], "save_to_edited");
            refused.text
        }
    };
    // A word changed inside the rollup.
    let message =
        unchanged_after_refusal(written.replace("- A calm week.", "- A calm week, I think.")).await;
    assert!(
        message.starts_with(&format!(
            "{NOTE}: the summary vaultsum wrote under `## Summary` is not as it was written"
        )),
        "{message}"
    );
    assert!(message.contains("left unchanged"), "{message}");
    assert!(
        message.contains("move what you wrote out of the `## Summary` section"),
        "{message}"
    );
    // A line inserted between two of its lines.
    unchanged_after_refusal(written.replace("### Sources\n", "### Sources\n- [[Mine]]\n")).await;
    // A rollup from before the marks: what is the person's in it cannot be told apart.
    let unmarked = unchanged_after_refusal(
        "---\nrollup: \"2026-12-28..2027-01-03\"\n---\n\n## Summary\n\n- Old.\nMine.\n".into(),
    )
    .await;
    assert!(unmarked.contains("carries no mark"), "{unmarked}");

    // With the section deleted, the rollup is written anew after what is left.
    vault.write(NOTE, "---\nrollup: \"old\"\n---\nMine.\n");
    let rewritten = rollup(&registry, this_week()).await;
    assert!(!rewritten.is_error, "{}", rewritten.text);
    let note = text(&vault, NOTE);
    assert!(
        note.starts_with("---\nrollup: \"2026-12-28..2027-01-03\"\n---\nMine.\n\n## Summary\n"),
        "{note}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abstract_edited_by_hand_is_refused_and_its_own_is_replaced() {
    let vault = journal_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n\n- A calm week.\n\n<abstract>A calm week of planning.</abstract>",
    ));
    let registry = registry(&vault, &fake);
    let mut both = this_week();
    both["into"] = json!("both");
    assert!(!rollup(&registry, both.clone()).await.is_error);
    let written = text(&vault, NOTE);
    assert!(
        written.contains("\nsummary: \"A calm week of planning.\"\n"),
        "{written}"
    );
    assert!(
        written.contains("\nsummary_fingerprint: \"generated summary="),
        "{written}"
    );

    // Its own abstract, as written, is replaced.
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n\n- A busy week.\n\n<abstract>A busy week of planning.</abstract>",
    ));
    let again = rollup(&registry, both.clone()).await;
    assert!(!again.is_error, "{}", again.text);
    let rewritten = text(&vault, NOTE);
    assert!(
        rewritten.contains("\nsummary: \"A busy week of planning.\"\n"),
        "{rewritten}"
    );

    // Edited by hand: refused, nothing asked, nothing written.
    let edited = rewritten.replace("A busy week of planning.", "A busy week; hire soon.");
    vault.write(NOTE, &edited);
    let calls = chats(&fake);
    let refused = rollup(&registry, both).await;
    assert!(refused.is_error, "{}", refused.text);
    assert!(
        refused
            .text
            .contains("its `summary` property was edited since vaultsum wrote it"),
        "{}",
        refused.text
    );
    assert_eq!(chats(&fake), calls);
    assert_eq!(text(&vault, NOTE), edited);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_month_rollup_leaves_out_the_week_rollups_and_says_so_in_its_dry_run() {
    let vault = journal_vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- A calm week."));
    let registry = registry(&vault, &fake);
    assert!(!rollup(&registry, this_week()).await.is_error);
    // An older rollup, from before the marks, is a rollup too (its `rollup` property).
    vault.write(
        "Reviews/Week of 2026-12-21.md",
        "---\nrollup: \"\"\n---\n\n## Summary\n\n- Old.\n",
    );
    let month = rollup(
        &registry,
        json!({ "period": "2026-12", "dry_run": true, "max_notes": 1000 }),
    )
    .await;
    assert!(!month.is_error, "{}", month.text);
    assert_eq!(
        month.details["rollups_left_out"],
        json!(["Reviews/Week of 2026-12-21.md", NOTE])
    );
    let notes = month.details["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 11, "{notes:?}");
    assert!(
        month.text.contains(
            "left out, rollups vaultsum wrote (never a source): [[Reviews/Week of 2026-12-21]], \
             [[Reviews/Week of 2026-12-28]]"
        ),
        "{}",
        month.text
    );
    // Named by their folder they are left out too, and an empty selection says why.
    let folder = rollup(&registry, json!({ "paths": ["Reviews"], "dry_run": true })).await;
    assert!(folder.is_error);
    assert!(
        folder
            .text
            .contains("2 rollups vaultsum wrote matched and were left out"),
        "{}",
        folder.text
    );
}

#[test]
fn the_offline_command_keeps_a_typed_line_and_refuses_an_edited_rollup() {
    let vault = journal_vault();
    let run = || {
        support::cli::run_to_exit(
            support::cli::vaultsum(&vault.outside())
                .arg("--vault")
                .arg(vault.root())
                .args([
                    "rollup",
                    "--from",
                    "2027-01-01",
                    "--to",
                    "2027-01-07",
                    "--save-to",
                    "Reviews/W.md",
                    "--engine",
                    "offline",
                ]),
        )
    };
    let first = run();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let written = text(&vault, "Reviews/W.md");
    assert!(
        written.starts_with("---\nrollup: \"2027-01-01..2027-01-07\"\n---\n"),
        "{written}"
    );
    vault.write("Reviews/W.md", format!("{written}{TAKEAWAY}"));
    let second = run();
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let again = text(&vault, "Reviews/W.md");
    assert!(
        again.ends_with(&format!("- [[Journal/2027-01-07]]\n{TAKEAWAY}")),
        "{again}"
    );
    assert_eq!(again.matches(TAKEAWAY).count(), 1, "{again}");

    let edited = again.replace("### Sources\n", "### Sources\nMine.\n");
    vault.write("Reviews/W.md", &edited);
    let refused = run();
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stdout).into_owned()
        + &String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains(
            "Reviews/W.md: the summary vaultsum wrote under `## Summary` is not as it was written"
        ),
        "{said}"
    );
    assert_eq!(text(&vault, "Reviews/W.md"), edited);
}
