//! The bundled example vault (vault-fixture/) reads as a person would expect.

use crate::support;

use std::path::Path;

use crate::support::files::defused;
use support::temp_vault::TempVault;
use vaultsum_core::vault::{append_summary, expand_note, ExpandOptions, PlaceholderAttachments};

fn fixture() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

#[tokio::test]
async fn every_fixture_note_expands_and_only_the_cycle_fails() {
    let v = fixture();
    let vault = v.open();
    let notes = vault.notes();
    assert_eq!(notes.len(), 10, "{notes:?}");
    for relative in &notes {
        let note = vault.resolve_input(relative).unwrap();
        let out = expand_note(
            &vault,
            &note,
            &ExpandOptions::default(),
            &PlaceholderAttachments,
        )
        .await
        .unwrap();
        let reasons: Vec<&str> = out.details["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["reason"].as_str().unwrap())
            .collect();
        let expected: &[&str] = if relative.starts_with("Notes/Cycle") {
            &["cycle"]
        } else {
            &[]
        };
        assert_eq!(reasons, expected, "{relative}");
    }
}

#[test]
fn dot_folders_are_not_part_of_the_index() {
    let v = fixture();
    let notes = v.open().notes();
    assert!(notes
        .iter()
        .all(|n| !n.starts_with(".obsidian") && !n.starts_with(".trash")));
    assert!(v.root().join(".trash/Discarded idea.md").is_file());
}

#[tokio::test]
async fn meeting_note_pulls_in_plan_sections_blocks_and_media() {
    let out = fixture().expand("Meetings/2024-03-04 Weekly sync.md").await;
    let text = &out.text;
    assert!(text.contains("> [Embedded: Alpha/Plan#Milestones]\n> ## Milestones\n>\n> | Milestone | Target date | Owner |"));
    assert!(text.contains("> [Embedded: Alpha/Plan#^conflict-risk]\n> - Sync conflicts when two technicians inspect the same site on the same day.\n>   - Mitigation: treat inspections as append-only records"));
    assert!(text.contains("> [Embedded: Alpha/Plan#^budget-risk]\n> > [!warning] Budget\n"));
    assert!(text.contains("> [Embedded image: Attachments/whiteboard.png]"));
    assert!(text.contains("> [Embedded audio: Attachments/standup-voice-memo.wav]"));
    assert!(text.contains("- [ ] Dana: move the camera button"));
    assert!(
        !text.contains("## Risks"),
        "only the embedded parts of the plan"
    );
}

#[tokio::test]
async fn bare_plan_link_is_ambiguous_and_resolves_to_the_shortest_path() {
    let out = fixture().expand("Daily/2024-03-05.md").await;
    assert!(out
        .text
        .contains("> [Embedded: Plan#Why it was dropped]\n> ## Why it was dropped\n"));
    assert_eq!(out.details["ambiguous"][0]["chosen"], "Archive/Plan.md");
    assert_eq!(
        out.details["ambiguous"][0]["alternatives"][0],
        "Projects/Alpha/Plan.md"
    );
    assert!(out.text.contains("> [Embedded: #Morning]\n> ## Morning\n"));
    assert!(!out.text.contains("dentist"), "comments are not content");
}

#[tokio::test]
async fn cheatsheet_examples_in_code_stay_verbatim() {
    let v = fixture();
    let source = String::from_utf8(v.read("Notes/Markdown cheatsheet.md")).unwrap();
    let out = v.expand("Notes/Markdown cheatsheet.md").await;
    assert!(
        out.text.contains("`![[Plan]]`")
            && out.text.contains(
                "```markdown\n- A risk worth tracking ^my-risk\n\n![[Plan#^my-risk]]\n```"
            )
    );
    assert!(out
        .text
        .contains("hidden in reading view:  so they are useful"));
    assert!(out.text.contains("| [Embedded image: Attachments/whiteboard.png] (image Attachments/whiteboard.png: no vision model configured) | The sync whiteboard"));
    assert_eq!(out.replacements.len(), 2);
    assert!(source.len() < out.text.len());
}

#[tokio::test]
async fn unicode_names_resolve_from_either_normal_form_and_any_case() {
    let v = fixture();
    v.write("Links.md", "![[CAFE\u{301} RÉSUMÉ#Café résumé]]\n");
    let out = v.expand("Links.md").await;
    assert!(
        out.text
            .contains("> [Embedded: CAFE\u{301} RÉSUMÉ#Café résumé]\n> # Café résumé\n"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains("> > [Embedded: Projects/Alpha/Plan#Decisions]"),
        "nested embed"
    );
    assert!(v.open().resolve_input("Notes/Café résumé").is_ok());
}

#[tokio::test]
async fn crlf_meeting_expands_and_its_summary_stays_crlf() {
    let v = fixture();
    let original = v.read("Meetings/2024-03-11 Vendor call.md");
    assert!(original.windows(2).any(|w| w == b"\r\n"));
    let out = v.expand("Meetings/2024-03-11 Vendor call.md").await;
    assert!(out.text.contains("> [Embedded: Projects/Alpha/Plan#^vendor-risk]\n> - The vendor of the meter-reading Bluetooth module"));
    let vault = v.open();
    let note = vault
        .resolve_input("Meetings/2024-03-11 Vendor call.md")
        .unwrap();
    append_summary(
        &vault,
        &note,
        &original,
        &defused("Vendor SDK slips to April."),
        false,
    )
    .unwrap();
    let written = v.read("Meetings/2024-03-11 Vendor call.md");
    assert!(written.starts_with(&original));
    assert_eq!(
        &written[original.len()..],
        b"\r\n## Summary\r\n\r\nVendor SDK slips to April.\r\n"
    );
}

#[test]
fn media_files_are_real_png_and_wav() {
    let v = fixture();
    assert!(v
        .read("Attachments/whiteboard.png")
        .starts_with(b"\x89PNG\r\n\x1a\n"));
    let wav = v.read("Attachments/standup-voice-memo.wav");
    assert!(wav.starts_with(b"RIFF") && &wav[8..12] == b"WAVE");
}
