//! The fact check through the real binary and a fake OpenAI server on 127.0.0.1 (issue 44): an
//! answer with a fact the note does not hold gets one corrective request by default, and what
//! is still not found is marked in the note, counted in the result and listed in
//! `details.unsupported`; `mark` makes no second request; `off` writes the answer as it came.

use crate::support;

use serde_json::Value;
use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;

const NOTE: &str = "# Budget review\n\nAna presented the budget: 4,000 euros for the pilot, \
                    approved on 3 May 2026.\n\n## Risks\n\nThe vendor may be late.\n";

/// The model's first answer: the amount altered, a person swapped in.
const ALTERED: &str = "### Key Points\n\n- Ana presented a budget of 4,200 euros.\n\
                       - Approved by Luis on 3 May 2026.";

/// What a model answers to the corrective request: the altered facts taken out.
const CORRECTED: &str = "### Key Points\n\n- Ana presented the budget.\n\
                         - Approved on 3 May 2026.";

fn summarize(vault: &TempVault, fake: &FakeOpenAi, config: Option<&str>) -> (Value, String) {
    let mut command = vaultsum(&vault.outside());
    command.envs(fake.env());
    if let Some(config) = config {
        let path = vault.outside().join("config.toml");
        std::fs::write(&path, config).unwrap();
        command.env("VAULTSUM_CONFIG", &path);
    }
    let output = command
        .arg("--vault")
        .arg(vault.root())
        .args(["-v", "summarize-file", "--json", "Budget.md"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: Value = serde_json::from_str(
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .expect("one JSON line");
    (
        printed,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn written(vault: &TempVault) -> String {
    let note = String::from_utf8(vault.read("Budget.md")).unwrap();
    assert!(note.starts_with(NOTE), "the note's own text changed");
    note
}

#[test]
fn by_default_one_corrective_request_takes_the_altered_facts_out() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(ALTERED));
    fake.push(FakeReply::chat(CORRECTED));
    let (printed, _) = summarize(&vault, &fake, None);

    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "the answer and one corrective request");
    let correction = requests[1].user_text();
    assert!(correction.contains(&format!("<summary>\n{ALTERED}\n</summary>")));
    assert!(correction.contains("- 4,200 euros (number): not in the note"));
    assert!(correction.contains("- Luis (name): not in the note"));
    // The note is not sent again: the retry costs the answer's length.
    assert!(!correction.contains("The vendor may be late"));

    let note = written(&vault);
    assert!(note.contains(CORRECTED), "{note}");
    assert!(!note.contains("4,200") && !note.contains("Luis"), "{note}");
    assert!(
        !note.contains("[!warning]"),
        "nothing left to mark:\n{note}"
    );
    assert!(printed.get("unsupported").is_none(), "{printed}");
    let check = &printed["details"]["fact_check"];
    assert_eq!(check["mode"], "retry");
    assert_eq!(check["retried"], true);
    assert_eq!(check["retry_kept"], true);
    assert_eq!(check["first_answer"]["not_found"], 2);
    assert_eq!(check["not_found"], 0);
    assert_eq!(check["entity_precision"], 1.0);
}

#[test]
fn what_the_retry_leaves_is_marked_counted_and_listed() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(ALTERED));
    // A model that takes out only one of the two.
    fake.push(FakeReply::chat(
        "### Key Points\n\n- Ana presented the budget.\n- Approved by Luis on 3 May 2026.",
    ));
    let (printed, stderr) = summarize(&vault, &fake, None);
    assert_eq!(fake.requests().len(), 2);
    let note = written(&vault);
    assert!(
        note.contains("> [!warning] Not found in the note\n> - `Luis` (name): not in the note\n"),
        "{note}"
    );
    assert_eq!(printed["unsupported"], 1);
    let unsupported = printed["details"]["unsupported"].as_array().unwrap();
    assert_eq!(unsupported.len(), 1);
    assert_eq!(unsupported[0]["fact"], "Luis");
    assert_eq!(unsupported[0]["kind"], "name");
    assert_eq!(unsupported[0]["reason"], "not_in_source");
    assert!(
        stderr.contains("1 fact not found in the note (marked)"),
        "{stderr}"
    );
}

#[test]
fn mark_makes_no_second_request_and_a_failed_retry_keeps_the_answer_marked() {
    // mark: one request, both facts marked.
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(ALTERED));
    let (printed, _) = summarize(&vault, &fake, Some("[summarize]\nfact_check = \"mark\"\n"));
    assert_eq!(fake.requests().len(), 1);
    assert_eq!(printed["unsupported"], 2);
    let note = written(&vault);
    assert!(note.contains("> - `4,200 euros` (number): not in the note"));
    assert!(note.contains("> - `Luis` (name): not in the note"));

    // retry, the retry refused by the server: the first answer, marked, and the error said.
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(ALTERED));
    fake.set_fallback(FakeReply::openai_error(400, "bad request"));
    let (printed, _) = summarize(&vault, &fake, None);
    assert_eq!(printed["unsupported"], 2);
    assert_eq!(printed["details"]["fact_check"]["retry_kept"], false);
    assert!(printed["details"]["fact_check"]["retry_error"].is_string());
    assert!(written(&vault).contains("- Ana presented a budget of 4,200 euros."));
}

#[test]
fn off_writes_the_answer_unchecked() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(ALTERED));
    let (printed, _) = summarize(&vault, &fake, Some("[summarize]\nfact_check = \"off\"\n"));
    assert_eq!(fake.requests().len(), 1);
    assert!(printed.get("unsupported").is_none());
    assert!(printed["details"].get("fact_check").is_none());
    let note = written(&vault);
    assert!(
        note.contains(ALTERED) && !note.contains("[!warning]"),
        "{note}"
    );
}

#[test]
fn a_citation_to_a_missing_heading_is_unlinked_and_a_real_one_kept() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "- The vendor may be late ([[#Risks]]).\n- Costs are tracked ([[#Costs|costs]]).",
    ));
    let (printed, _) = summarize(&vault, &fake, Some("[summarize]\nfact_check = \"mark\"\n"));
    let note = written(&vault);
    assert!(
        note.contains("- The vendor may be late ([[#Risks]])."),
        "{note}"
    );
    assert!(note.contains("- Costs are tracked (costs)."), "{note}");
    let body = note.split("> [!warning]").next().unwrap();
    assert!(
        !body.contains("[[#Costs"),
        "never written as a link:\n{note}"
    );
    // Listed below the summary as code, shown as written.
    assert!(note.contains("> - `[[#Costs|costs]]` (wikilink): no such heading in the note"));
    assert_eq!(printed["details"]["fact_check"]["unlinked"], 1);
}

#[test]
fn a_retry_that_echoes_the_markers_of_the_request_is_read_inside_them() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(ALTERED));
    fake.push(FakeReply::chat(&format!(
        "<summary>\n{CORRECTED}\n</summary>"
    )));
    let (printed, _) = summarize(&vault, &fake, None);
    let note = written(&vault);
    assert!(note.contains(CORRECTED), "{note}");
    assert!(!note.contains("summary>"), "{note}");
    assert_eq!(printed["details"]["fact_check"]["retry_kept"], true);
}

#[test]
fn a_date_from_a_daily_notes_name_and_a_model_heading_are_written_as_the_note_holds_them() {
    let vault = TempVault::with(&[("Journal/2026-05-03.md", "Met Ana about the pilot.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("## Overview\n\n- On 3 May 2026, met Ana."));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--json", "Journal/2026-05-03.md"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(fake.requests().len(), 1, "nothing to correct");
    let note = String::from_utf8(vault.read("Journal/2026-05-03.md")).unwrap();
    // The model's `##` would end the `## Summary` section for every later reader.
    assert!(
        note.contains("### Overview\n\n- On 3 May 2026, met Ana."),
        "{note}"
    );
    assert!(!note.contains("[!warning]"), "{note}");
}

#[test]
fn an_answer_wrapped_in_a_markdown_fence_is_checked_as_it_is_written() {
    let vault = TempVault::with(&[("Budget.md", NOTE)]);
    let fake = FakeOpenAi::start();
    // The writer unwraps the fence, so its facts are facts, not code.
    fake.set_fallback(FakeReply::chat(&format!("```markdown\n{ALTERED}\n```")));
    let (printed, _) = summarize(&vault, &fake, Some("[summarize]\nfact_check = \"mark\"\n"));
    assert_eq!(
        printed["details"]["fact_check"]["first_answer"]["not_found"],
        2
    );
    assert_eq!(printed["unsupported"], 2);
}
