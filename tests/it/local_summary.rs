//! What a user gets from the local engine: the summary's shape, its action items, tables,
//! length, focus, and that it never leaks code, frontmatter or comments.

use vaultsum_core::llm::local::{summarize, LocalOptions};

const MEETING: &str = "---
tags: [meeting]
secret: frontmatter-value
---
# Project Falcon kickoff

The Falcon project will replace the legacy billing system by the end of the year.
The team agreed that the migration starts with the invoicing module.
This decision was driven by the invoicing module's high maintenance cost.

## Budget

The approved budget is 120,000 euros for the first phase.
Hardware costs are expected to stay below 15,000 euros.

| Item | Cost |
| --- | --- |
| Licences | 40,000 |
| Contractors | 80,000 |

## Risks

The main risk is the data migration from the old database.
However, a dry run in March should reveal most problems early.

```python
print(\"code-only-marker\")
```

%% private-comment-marker %%

## Tasks

- [ ] Alice drafts the migration plan 📅 2024-03-01
- [x] Bob sets up the repository
- [ ] Carol books the dry-run environment
    - [ ] Carol confirms database access
- [X] Dave sends the kickoff invite
";

fn key_points(markdown: &str) -> Vec<String> {
    section(markdown, "### Key Points")
        .into_iter()
        .filter_map(|l| l.strip_prefix("- ").map(str::to_string))
        .collect()
}

fn section(markdown: &str, heading: &str) -> Vec<String> {
    let mut lines = markdown.lines().skip_while(|l| *l != heading);
    lines.next();
    lines
        .take_while(|l| !l.starts_with("### "))
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn local(markdown: &str) -> String {
    summarize(markdown, &LocalOptions::default()).markdown
}

#[test]
fn every_open_task_is_an_action_item_and_no_done_task_is() {
    let summary = local(MEETING);
    let items = section(&summary, "### Action Items");
    assert_eq!(
        items,
        vec![
            "- [ ] Alice drafts the migration plan 📅 2024-03-01",
            "- [ ] Carol books the dry-run environment",
            "- [ ] Carol confirms database access",
        ]
    );
    assert!(!summary.contains("Bob sets up"), "{summary}");
    assert!(!summary.contains("Dave sends"), "{summary}");
}

#[test]
fn action_items_come_last_and_are_omitted_when_there_are_none() {
    let summary = local(MEETING);
    let last_heading = summary.lines().rfind(|l| l.starts_with("### "));
    assert_eq!(last_heading, Some("### Action Items"));
    let no_tasks = local("# Notes\n\nOnly prose here. Nothing to do.\n\n- [x] Finished already\n");
    assert!(!no_tasks.contains("Action Items"), "{no_tasks}");
    assert!(!no_tasks.contains("- [ ]"), "{no_tasks}");
}

#[test]
fn summary_has_no_top_level_heading_only_level_three_subsections() {
    let summary = local(MEETING);
    for line in summary.lines().filter(|l| l.starts_with('#')) {
        assert!(
            line.starts_with("### "),
            "unexpected heading {line:?} in\n{summary}"
        );
    }
}

#[test]
fn code_frontmatter_and_comments_never_appear_in_the_summary() {
    for n in 1..=12 {
        let summary = summarize(
            MEETING,
            &LocalOptions {
                sentences: Some(n),
                focus: None,
                ..Default::default()
            },
        )
        .markdown;
        for leaked in [
            "code-only-marker",
            "frontmatter-value",
            "private-comment-marker",
            "tags:",
        ] {
            assert!(
                !summary.contains(leaked),
                "{leaked} leaked with {n} sentences:\n{summary}"
            );
        }
    }
}

#[test]
fn tables_in_the_note_are_kept_as_tables() {
    let summary = local(MEETING);
    let table = section(&summary, "### Budget");
    assert_eq!(
        table,
        vec![
            "| Item | Cost |",
            "| --- | --- |",
            "| Licences | 40,000 |",
            "| Contractors | 80,000 |"
        ]
    );
}

#[test]
fn long_tables_are_cut_and_say_how_many_rows_were_left_out() {
    let mut note = String::from(
        "# Scores\n\nThe scores per day are below.\n\n| Day | Score |\n| --- | --- |\n",
    );
    for day in 1..=30 {
        note.push_str(&format!("| {day} | {} |\n", day * 2));
    }
    let summary = local(&note);
    assert!(summary.contains("| 12 | 24 |"), "{summary}");
    assert!(!summary.contains("| 13 | 26 |"), "{summary}");
    assert!(summary.contains("(18 more rows in the note)"), "{summary}");
}

#[test]
fn sentences_option_fixes_the_number_of_key_points() {
    for n in [1, 2, 4, 6] {
        let summary = summarize(
            MEETING,
            &LocalOptions {
                sentences: Some(n),
                focus: None,
                ..Default::default()
            },
        );
        assert_eq!(
            key_points(&summary.markdown).len(),
            n,
            "{}",
            summary.markdown
        );
        assert_eq!(summary.key_points, n);
    }
    // Never more than the note has.
    let short = summarize(
        "One sentence only.",
        &LocalOptions {
            sentences: Some(5),
            focus: None,
            ..Default::default()
        },
    );
    assert_eq!(key_points(&short.markdown), vec!["One sentence only."]);
}

#[test]
fn length_scales_with_the_note() {
    let sentence = |i: usize| format!("Topic {i} covers subject{i} with detail{i} and point{i}. ");
    let short: String = (0..6).map(sentence).collect();
    let long: String = (0..120).map(sentence).collect();
    let short_points = summarize(&short, &LocalOptions::default()).key_points;
    let long_points = summarize(&long, &LocalOptions::default()).key_points;
    assert!(
        short_points >= 2 && short_points < long_points,
        "short {short_points}, long {long_points}"
    );
}

#[test]
fn key_points_keep_note_order() {
    let summary = local(MEETING);
    let points = key_points(&summary);
    let positions: Vec<usize> = points
        .iter()
        .map(|p| MEETING.find(p.as_str()).expect("point is a note sentence"))
        .collect();
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    assert_eq!(positions, sorted, "{summary}");
}

#[test]
fn output_is_deterministic() {
    let first = summarize(
        MEETING,
        &LocalOptions {
            sentences: None,
            focus: Some("budget".into()),
            ..Default::default()
        },
    );
    for _ in 0..5 {
        assert_eq!(
            summarize(
                MEETING,
                &LocalOptions {
                    sentences: None,
                    focus: Some("budget".into()),
                    ..Default::default()
                }
            ),
            first
        );
    }
}

#[test]
fn focus_boosts_sentences_about_the_focus_terms() {
    let one = |focus: Option<&str>| {
        key_points(
            &summarize(
                MEETING,
                &LocalOptions {
                    sentences: Some(1),
                    focus: focus.map(str::to_string),
                    ..Default::default()
                },
            )
            .markdown,
        )
    };
    let unfocused = one(None);
    assert!(!unfocused[0].contains("risk"), "{unfocused:?}");
    let focused = one(Some("risks"));
    assert_eq!(
        focused,
        vec!["The main risk is the data migration from the old database."]
    );
}

#[test]
fn dangling_opener_is_chosen_only_with_its_predecessor() {
    let predecessor_of = [
        ("However, a dry run", "The main risk is the data migration"),
        (
            "This decision was driven",
            "The team agreed that the migration",
        ),
    ];
    for n in 1..=8 {
        let points = key_points(
            &summarize(
                MEETING,
                &LocalOptions {
                    sentences: Some(n),
                    focus: None,
                    ..Default::default()
                },
            )
            .markdown,
        );
        for (opener, predecessor) in predecessor_of {
            if points.iter().any(|p| p.starts_with(opener)) {
                assert!(
                    points.iter().any(|p| p.starts_with(predecessor)),
                    "{opener:?} without {predecessor:?} at n={n}: {points:?}"
                );
            }
        }
    }
}

#[test]
fn note_with_only_code_and_frontmatter_gives_an_empty_summary() {
    let summary = summarize(
        "---\na: b\n---\n```\ncode\n```\n%% note %%\n",
        &LocalOptions::default(),
    );
    assert!(summary.is_empty(), "{:?}", summary.markdown);
}

#[test]
fn open_tasks_inside_code_blocks_are_not_action_items() {
    let note = "Example of syntax.\n\n```text\n- [ ] not a real task\n```\n\n> [!example]\n> ```text\n> - [ ] quoted code task\n> ```\n";
    let summary = local(note);
    assert!(!summary.contains("Action Items"), "{summary}");
}

#[test]
fn expansion_markers_are_never_key_points() {
    let note = "# Cycle\n\nThe plan links back to itself for testing. The loop is intended.\n\n\
                [Embed failed: Cycle B: cycle]\n\n\
                > [Embedded image: Attachments/board.png]\n\
                > [Attachments/board.png: image; no vision model configured (set FIREWORKS_API_KEY to describe it)]\n";
    let summary = vaultsum_core::llm::local::summarize(note, &Default::default());
    assert!(
        !summary.markdown.contains("Embed failed"),
        "{}",
        summary.markdown
    );
    assert!(
        !summary.markdown.contains("no vision model"),
        "{}",
        summary.markdown
    );
    assert!(summary.markdown.contains("The plan links back to itself"));
}
