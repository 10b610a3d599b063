//! The local engine on every note of a real vault (the Obsidian Tasks documentation, MIT):
//! no panic, and a non-empty summary for every note that has prose.

use std::path::PathBuf;

use crate::support::temp_vault::real_vault_source;

use vaultsum_core::llm::local::{parse, summarize, LocalOptions};

/// Every note of the vendored real vault (`tests/data/obsidian-tasks-docs`).
fn real_notes() -> Vec<PathBuf> {
    let root = real_vault_source();
    let notes: Vec<PathBuf> = walkdir::WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    assert!(
        notes.len() >= 25,
        "expected a real vault at {}",
        root.display()
    );
    notes
}

#[test]
fn every_real_note_summarizes_without_panic_and_non_trivial_notes_get_key_points() {
    for path in real_notes() {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = parse(&text);
        let summary = summarize(&text, &LocalOptions::default());
        let has_prose = doc
            .sentences
            .iter()
            .any(|s| s.text.split_whitespace().count() >= 4);
        if has_prose {
            assert!(
                summary.key_points > 0,
                "no key points for {}",
                path.display()
            );
            assert!(
                summary.markdown.starts_with("### "),
                "{}:\n{}",
                path.display(),
                summary.markdown
            );
        }
        let open_tasks = doc.tasks.iter().filter(|t| !t.done).count();
        assert_eq!(
            summary.action_items > 0,
            open_tasks > 0,
            "{}",
            path.display()
        );
        assert!(
            !summary.markdown.contains("```"),
            "code fence in summary of {}",
            path.display()
        );
        assert!(
            !summary
                .markdown
                .lines()
                .any(|l| l.starts_with("# ") || l.starts_with("## ")),
            "{}",
            path.display()
        );
    }
}

#[test]
fn every_real_note_gives_the_same_summary_twice() {
    for path in real_notes() {
        let text = std::fs::read_to_string(&path).unwrap();
        let options = LocalOptions {
            sentences: None,
            focus: Some("query filter".into()),
            ..Default::default()
        };
        assert_eq!(
            summarize(&text, &options),
            summarize(&text, &options),
            "{}",
            path.display()
        );
    }
}
