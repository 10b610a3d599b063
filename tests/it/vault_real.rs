//! Every note of a real vault (the Obsidian Tasks documentation, MIT) expands without a panic,
//! and every embed whose target exists expands.

use crate::support;

use support::temp_vault::TempVault;
use vaultsum_core::vault::{expand_note, ExpandOptions, PlaceholderAttachments};

/// A writable copy of the vendored real vault (`tests/data/obsidian-tasks-docs`).
fn real_vault() -> TempVault {
    TempVault::real()
}

#[tokio::test]
async fn every_note_of_the_real_vault_expands() {
    let v = real_vault();
    let vault = v.open();
    let notes = vault.notes();
    assert!(
        notes.len() > 100,
        "the real vault has its notes: {}",
        notes.len()
    );
    let mut embeds = 0;
    let mut missing = Vec::new();
    let all_names: Vec<String> = walkdir::WalkDir::new(vault.root())
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().to_lowercase())
        .collect();
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
        let failures = out.details["failures"].as_array().unwrap();
        for failure in failures {
            let reason = failure["reason"].as_str().unwrap();
            if reason == "not found" {
                let reference = failure["reference"].as_str().unwrap();
                let name = reference
                    .split('#')
                    .next()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_lowercase();
                let exists = all_names
                    .iter()
                    .any(|n| *n == name || *n == format!("{name}.md"));
                assert!(!exists, "{relative}: {failure} names a file that exists");
                missing.push(reference.to_string());
                continue;
            }
            assert_ne!(reason, "heading not found", "{relative}: {failure}");
            assert_ne!(reason, "outside the vault", "{relative}: {failure}");
        }
        embeds += out.details["embeds"].as_array().unwrap().len();
    }
    assert!(
        embeds > 100,
        "the real vault's embeds were expanded: {embeds}"
    );
    // Only the template's placeholder image is genuinely missing from this vault.
    assert_eq!(missing, vec!["../images/insert-filename-here.png"]);
}

#[tokio::test]
async fn known_limitations_page_gathers_every_limitations_section() {
    let v = real_vault();
    let out = v.expand("Support and Help/Known Limitations.md").await;
    assert!(out.text.contains("> [Embedded: Urgency#Limitations of the Urgency Score]\n> ## Limitations of the Urgency Score"));
    assert!(out
        .text
        .contains("> [Embedded: Tasks Api#Limitations of the Tasks API]"));
    // `![[....]]` there is inside a code span: documentation, not an embed.
    assert!(out.text.contains("`![[....]]`"));
    assert!(!out.text.contains("[Embed failed"), "{}", out.text);
}

#[tokio::test]
async fn odd_embeds_of_the_real_vault_stay_as_written_in_code_and_give_markers_outside() {
    let v = real_vault();
    let migration = v.expand("migration.md").await;
    assert!(migration.text.contains("simple embeds, `![[]]`"));
    v.write("Odd.md", "![[]] and ![[....]]\n");
    let odd = v.expand("Odd.md").await;
    assert_eq!(
        odd.text,
        "[Embed failed: ![[]]: empty embed, no target] and [Embed failed: ....: not found]\n"
    );
}

#[tokio::test]
async fn images_in_a_table_inside_a_callout_stay_in_their_cells() {
    let v = real_vault();
    let out = v.expand("Getting Started/On Completion.md").await;
    assert!(out.text.contains(
        "> | [Embedded image: images/on-completion-before.png] (image images/on-completion-before.png: no vision model configured)"
    ), "{}", out.text);
}

#[tokio::test]
async fn snippet_embedded_in_a_quote_expands_inside_the_quote() {
    let v = real_vault();
    let out = v.expand("Advanced/Styling.md").await;
    assert!(
        out.text
            .contains("> > [Embedded: Sample HTML - Short mode]\n> > "),
        "{}",
        &out.text[..2000.min(out.text.len())]
    );
}
