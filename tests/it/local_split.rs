//! The local engine's markdown-aware sentence splitter: what counts as a sentence, and what is
//! never note prose.

use vaultsum_core::llm::local::document::BlockKind;
use vaultsum_core::llm::local::{parse, split_sentences};

fn texts(markdown: &str) -> Vec<String> {
    parse(markdown)
        .sentences
        .into_iter()
        .map(|s| s.text)
        .collect()
}

#[test]
fn abbreviations_do_not_end_sentences() {
    let got =
        split_sentences("Use a tag, e.g. #task, to filter. Dr. Smith agreed, i.e. yes. Next one.");
    assert_eq!(
        got,
        vec![
            "Use a tag, e.g. #task, to filter.",
            "Dr. Smith agreed, i.e. yes.",
            "Next one."
        ]
    );
}

#[test]
fn decimals_versions_and_urls_do_not_split() {
    let got = split_sentences(
        "Scores rose to 3.5 in Tasks 7.21.0 today. See obsidian.md/plugins?id=x for more.",
    );
    assert_eq!(
        got,
        vec![
            "Scores rose to 3.5 in Tasks 7.21.0 today.",
            "See obsidian.md/plugins?id=x for more."
        ]
    );
}

#[test]
fn lower_case_sentence_starts_still_split() {
    let got = split_sentences("i went home. then i slept. done");
    assert_eq!(got, vec!["i went home.", "then i slept.", "done"]);
}

#[test]
fn question_and_exclamation_marks_end_sentences() {
    assert_eq!(
        split_sentences("Is it ready? Yes! Ship it."),
        vec!["Is it ready?", "Yes!", "Ship it."]
    );
}

#[test]
fn ellipsis_runs_on_before_lower_case_but_ends_before_a_capital() {
    assert_eq!(
        split_sentences("Wait... what now. Then... Later it worked."),
        vec!["Wait... what now.", "Then...", "Later it worked."]
    );
}

#[test]
fn initials_and_etc_before_lower_case_do_not_split() {
    assert_eq!(
        split_sentences("J. R. R. Tolkien wrote books, films etc. and more."),
        vec!["J. R. R. Tolkien wrote books, films etc. and more."]
    );
}

#[test]
fn closing_quotes_and_brackets_stay_with_their_sentence() {
    assert_eq!(
        split_sentences("He said \"stop.\" Then (quietly.) It ended."),
        vec!["He said \"stop.\"", "Then (quietly.)", "It ended."]
    );
}

#[test]
fn frontmatter_code_html_and_comments_are_not_sentences() {
    let note = "---\ntitle: Secret frontmatter\n---\n# Note\n\nVisible prose here.\n\n```\nfn hidden_code() {}\n```\n\n    indented code line\n\n%% a hidden comment %%\n\nMore %%inline secret%% prose.\n\n%%\nmulti-line\nsecret\n%%\n\n<div>html block text</div>\n";
    let got = texts(note);
    assert_eq!(got, vec!["Visible prose here.", "More prose."]);
}

#[test]
fn comment_markers_inside_code_do_not_start_a_comment() {
    let note = "```\nlet x = \"%%\";\n```\n\nThis prose stays. %%hidden%% And this too.\n";
    assert_eq!(texts(note), vec!["This prose stays.", "And this too."]);
}

#[test]
fn headings_start_sections_and_are_not_sentences() {
    let doc = parse("# Title\n\nIntro line.\n\n## Setup\n\nFirst step. Second step.\n");
    assert_eq!(doc.title.as_deref(), Some("Title"));
    let setup: Vec<(&str, usize)> = doc
        .sentences
        .iter()
        .filter(|s| doc.sections[s.section].heading == "Setup")
        .map(|s| (s.text.as_str(), s.index_in_section))
        .collect();
    assert_eq!(setup, vec![("First step.", 0), ("Second step.", 1)]);
}

#[test]
fn bullets_numbered_items_and_nested_items_are_separate_units() {
    let doc = parse("- First bullet point.\n  - Nested child item.\n- Second bullet point.\n\n1. Numbered one.\n2. Numbered two.\n");
    let got: Vec<(&str, BlockKind)> = doc
        .sentences
        .iter()
        .map(|s| (s.text.as_str(), s.kind))
        .collect();
    assert_eq!(
        got,
        vec![
            ("First bullet point.", BlockKind::ListItem),
            ("Nested child item.", BlockKind::ListItem),
            ("Second bullet point.", BlockKind::ListItem),
            ("Numbered one.", BlockKind::ListItem),
            ("Numbered two.", BlockKind::ListItem),
        ]
    );
}

#[test]
fn tasks_are_collected_apart_from_prose_with_their_state() {
    let doc = parse(
        "- [ ] Open task 📅 2024-01-01\n- [x] Done task\n- [/] In progress item\n- Plain item.\n",
    );
    let tasks: Vec<(&str, bool)> = doc
        .tasks
        .iter()
        .map(|t| (t.text.as_str(), t.done))
        .collect();
    assert_eq!(
        tasks,
        vec![("Open task 📅 2024-01-01", false), ("Done task", true)]
    );
    assert_eq!(
        texts("- [/] In progress item\n- Plain item.\n"),
        vec!["Plain item."]
    );
}

#[test]
fn links_keep_their_text_and_embeds_of_files_are_dropped() {
    let note = "See [the docs](https://example.com/x) and [[Folder/Other Note|the other note]] or [[Dates#Done date]] and [[Plain]]. ![[diagram.png]] ![alt text](img.png) Done.\n";
    assert_eq!(
        texts(note),
        vec![
            "See the docs and the other note or Done date and Plain.",
            "Done."
        ]
    );
}

#[test]
fn callout_markers_and_short_titles_are_dropped_but_body_kept() {
    let note = "> [!warning] Careful\n> Back up your vault first.\n\n> [!tip] Use the global filter to keep only tagged checklist items as tasks.\n";
    assert_eq!(
        texts(note),
        vec![
            "Back up your vault first.",
            "Use the global filter to keep only tagged checklist items as tasks."
        ]
    );
}

#[test]
fn quotes_are_note_content() {
    let doc = parse("> Quoted wisdom stays in.\n");
    assert_eq!(doc.sentences[0].text, "Quoted wisdom stays in.");
    assert_eq!(doc.sentences[0].kind, BlockKind::Quote);
}

#[test]
fn expanded_embed_blocks_are_content_under_their_own_section() {
    let note = "# Host\n\nHost text.\n\n> [Embedded: Other#Plan]\n> The plan is to ship in May.\n> - [ ] Book the venue\n";
    let doc = parse(note);
    let embedded = doc
        .sentences
        .iter()
        .find(|s| s.text == "The plan is to ship in May.")
        .expect("embed prose kept");
    assert_eq!(doc.sections[embedded.section].heading, "Other#Plan");
    assert!(doc.sentences.iter().all(|s| !s.text.contains("[Embedded")));
    assert_eq!(doc.tasks.len(), 1);
    assert_eq!(doc.tasks[0].text, "Book the venue");
}

#[test]
fn tables_are_captured_with_header_and_rows() {
    let doc = parse("| Name | Score |\n| --- | --- |\n| `a` | 1.5 |\n| b<br>c | 2 |\n");
    assert_eq!(doc.tables.len(), 1);
    assert_eq!(doc.tables[0].header, vec!["Name", "Score"]);
    assert_eq!(
        doc.tables[0].rows,
        vec![vec!["`a`", "1.5"], vec!["b c", "2"]]
    );
    assert!(doc.sentences.is_empty());
}

#[test]
fn image_captions_in_spans_and_block_ids_are_not_prose() {
    let note =
        "![shot](a.png)\n<span class=\"caption\">A caption</span>\n\nReal sentence here. ^abc123\n";
    assert_eq!(texts(note), vec!["Real sentence here."]);
}
