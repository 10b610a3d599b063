//! A summary never reads itself: what the model (or the offline engine) receives is the note
//! without its `## Summary` sections and without its summary property, and the notes it embeds
//! without theirs; `read` still shows notes as they are. Through the real binary.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;

const WEEKLY: &str = "Meetings/2024-03-04 Weekly sync.md";
const NEW_SUMMARY: &str = "### Key Points\n\n- A fresh summary.";
/// Placed only in the old summary section: it must never reach a summarizer.
const OLD_SECTION_MARKER: &str = "Zebra-quartz old summary line";
/// Placed only in the old summary property.
const OLD_PROPERTY_MARKER: &str = "Walrus-onyx old abstract";

fn fixture() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

/// `text` with a `summary:` property added to its frontmatter and an old `## Summary` section
/// (followed by a later section that is the person's and must still be read) appended.
fn with_old_summaries(text: &str) -> String {
    with_old_summary_lines(text, &format!("- {OLD_SECTION_MARKER}."))
}

/// [`with_old_summaries`] with these lines in the old `## Summary` section.
fn with_old_summary_lines(text: &str, lines: &str) -> String {
    let (frontmatter, body) = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .expect("the note has frontmatter");
    format!(
        "---\n{frontmatter}\nsummary: \"{OLD_PROPERTY_MARKER}\"\n---\n{body}\n## Summary\n\n{lines}\n\n## Afterthoughts\n\nThe vendor call moved to Friday.\n"
    )
}

fn summarize(vault: &TempVault, fake: &FakeOpenAi, args: &[&str]) -> Vec<Value> {
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--vault")
        .arg(vault.root())
        .arg("summarize-file")
        .arg("--json")
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The chat completions the fake received (not the questions about the model's window).
fn chat_requests(fake: &FakeOpenAi) -> Vec<support::fake_server::ReceivedRequest> {
    fake.requests()
        .into_iter()
        .filter(|request| request.path == "/v1/chat/completions")
        .collect()
}

/// The user text of `requests` joined, and how many there were.
fn sent_text(requests: &[support::fake_server::ReceivedRequest]) -> (String, usize) {
    let texts: Vec<String> = requests.iter().map(|r| r.user_text()).collect();
    (texts.join("\n"), requests.len())
}

fn note_text(vault: &TempVault, path: &str) -> String {
    String::from_utf8(vault.read(path)).unwrap()
}

#[test]
fn the_old_summary_never_reaches_the_model_on_append_or_replace() {
    let vault = fixture();
    let original = note_text(&vault, WEEKLY);
    vault.write(WEEKLY, with_old_summaries(&original));
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- First-run-summary."));

    // What each run sent, all its requests together (a note the fake's token counts make look
    // truncated is sent again in parts).
    summarize(&vault, &fake, &[WEEKLY]);
    let first_run = sent_text(&chat_requests(&fake));
    fake.set_fallback(FakeReply::chat(NEW_SUMMARY));
    summarize(&vault, &fake, &["--replace", WEEKLY]);
    let all = chat_requests(&fake);
    let second_run = sent_text(&all[first_run.1..]);
    for sent in [&first_run.0, &second_run.0] {
        assert!(!sent.contains(OLD_SECTION_MARKER), "{sent}");
        assert!(!sent.contains(OLD_PROPERTY_MARKER), "{sent}");
        // The rest of the note is all there: other properties, the body, and the person's
        // section after the old summary.
        assert!(
            sent.contains("attendees: [Priya, Dana, Marco, Sam]"),
            "{sent}"
        );
        assert!(
            sent.contains("photograph the equipment plate first"),
            "{sent}"
        );
        assert!(sent.contains("The vendor call moved to Friday."), "{sent}");
    }
    // The summary the first run appended is not read by the second either (the fake also
    // answered the embedded image's description with that text: it stays, quoted, in the embed).
    assert!(
        !second_run
            .0
            .lines()
            .any(|line| line == "- First-run-summary."),
        "{}",
        second_run.0
    );
    let written = note_text(&vault, WEEKLY);
    assert!(!written.contains(OLD_SECTION_MARKER), "replace removed it");
    assert_eq!(written.matches("## Summary").count(), 1);
}

#[test]
fn embedded_notes_leave_their_summaries_out_but_a_summary_embedded_by_name_stays() {
    let vault = TempVault::with(&[
        (
            "Project.md",
            "# Project\n\n![[Kickoff]]\n\nDecisions so far: ![[Review#Summary]]\n",
        ),
        (
            "Kickoff.md",
            "We picked the blue supplier.\n\n## Summary\n\n- Kickoff-old-summary.\n\n## Risks\n\nLate parts.\n",
        ),
        (
            "Review.md",
            "Long review text.\n\n## Summary\n\n- Review-summary-asked-for.\n",
        ),
    ]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(NEW_SUMMARY));
    summarize(&vault, &fake, &["Project.md"]);
    let sent = sent_text(&chat_requests(&fake)).0;
    assert!(sent.contains("We picked the blue supplier."), "{sent}");
    assert!(sent.contains("Late parts."), "{sent}");
    assert!(!sent.contains("Kickoff-old-summary"), "{sent}");
    assert!(sent.contains("Review-summary-asked-for"), "{sent}");
}

#[test]
fn the_offline_engine_never_carries_the_old_summary_into_the_new_one() {
    let vault = fixture();
    let original = note_text(&vault, WEEKLY);
    // An old summary made of the note's own key sentences, as an extractive engine would pick
    // them: fed back, they would be picked again.
    let old = format!(
        "- {OLD_SECTION_MARKER}: Dana will move the camera button to the top of the screen and test the new order with two technicians on Thursday.\n\
         - {OLD_SECTION_MARKER}: technicians photograph the equipment plate first, then the fault, so the prototype puts the camera button first.\n\
         - {OLD_SECTION_MARKER}: Sam, Dana, Priya and Marco agreed the inspection screen prototype and the checklist order for technicians."
    );
    vault.write(WEEKLY, with_old_summary_lines(&original, &old));
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--engine", "local", "--replace", WEEKLY])
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(output.status.success());
    let written = note_text(&vault, WEEKLY);
    assert!(!written.contains(OLD_SECTION_MARKER), "{written}");
    let summary = written.split("## Summary").nth(1).expect("a new summary");
    assert!(!summary.contains(OLD_PROPERTY_MARKER), "{summary}");
    assert!(summary.contains("- "), "{summary}");
    // The property itself is the person's frontmatter until property mode writes it: kept.
    assert!(written.contains(OLD_PROPERTY_MARKER));
    assert!(written.contains("The vendor call moved to Friday."));
}

#[test]
fn a_real_note_is_summarized_without_its_old_summary_and_read_shows_it() {
    let vault = TempVault::real();
    let path = "Getting Started/Priority.md";
    let mut text = note_text(&vault, path);
    text.push_str(&format!("\n## Summary\n\n- {OLD_SECTION_MARKER}.\n"));
    vault.write(path, &text);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(NEW_SUMMARY));
    summarize(&vault, &fake, &[path]);
    let sent = sent_text(&chat_requests(&fake)).0;
    assert!(!sent.contains(OLD_SECTION_MARKER), "{sent}");
    assert!(sent.contains("Priority"), "{sent}");

    // A read is not a summary: it shows the note as it is, summaries included.
    let read = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["read", path])
        .assert()
        .success()
        .get_output()
        .clone();
    let shown = String::from_utf8_lossy(&read.stdout);
    assert!(shown.contains(OLD_SECTION_MARKER), "{shown}");
    assert!(shown.contains("A fresh summary"), "{shown}");
}
