//! A second vault shape for `read_vs_cat`, unlike the MCP benchmarks' vault on every axis the
//! read's cost depends on: 5,000 notes in 40 folders (not 10,000 in 100), four `##` sections of
//! about 120 words each (not one long note with a task list), and three section embeds per note
//! (`![[Note 812#Section 2]]`) into notes that are read themselves, so the read touches no file
//! beyond the ones `cat` is given.

#![allow(dead_code)] // not every caller uses every item

use std::path::Path;

/// Notes in the vault.
pub const NOTES: usize = 5_000;
/// Folders they are in.
pub const FOLDERS: usize = 40;
const PER_FOLDER: usize = NOTES / FOLDERS;

/// The vault-relative path of note `i`.
pub fn note_path(i: usize) -> String {
    format!("{}/Note {i}.md", folder(i / PER_FOLDER))
}

/// The vault-relative path of folder `f`.
pub fn folder(f: usize) -> String {
    format!("Topic {f:02}")
}

/// The notes note `i` embeds (the second section of each).
fn embedded_by(i: usize) -> [usize; 3] {
    [
        (i * 11 + 812) % NOTES,
        (i * 17 + 3) % NOTES,
        (i * 29 + 1_999) % NOTES,
    ]
}

const SENTENCES: [&str; 8] = [
    "The team reviewed the quarterly figures and agreed that the backlog had grown faster than expected.",
    "Two customers asked for the export feature again, and support logged both requests with screenshots.",
    "We moved the release by one week so that the migration scripts can be tested on a copy of production.",
    "Maria will write the summary for the board and circulate a draft before Thursday's call.",
    "The new build server cut the average pipeline time from eleven minutes to just under seven.",
    "Nobody objected to the proposal, but the budget owner wants a cost estimate before signing off.",
    "A short retrospective found that most delays came from waiting on reviews rather than on the code itself.",
    "Next steps are to book the workshop room, confirm the agenda and send the invitations by Friday.",
];

/// About 120 words of prose, different from note to note and section to section.
fn section_text(note: usize, section: usize) -> String {
    let mut text = String::new();
    for k in 0..7 {
        if k > 0 {
            text.push(' ');
        }
        text.push_str(SENTENCES[(note * 5 + section * 3 + k * 7) % SENTENCES.len()]);
    }
    text
}

/// Writes the vault (with `.obsidian/`, as Obsidian would) under `root`.
pub fn generate(root: &Path) {
    std::fs::create_dir_all(root.join(".obsidian")).unwrap();
    for f in 0..FOLDERS {
        std::fs::create_dir_all(root.join(folder(f))).unwrap();
    }
    for i in 0..NOTES {
        let mut text = format!("---\ntags: [meeting]\n---\n# Note {i}\n");
        for section in 1..=4 {
            text.push_str(&format!(
                "\n## Section {section}\n\n{}\n",
                section_text(i, section)
            ));
        }
        // The embeds close the last section, so an embedded second section embeds nothing.
        for target in embedded_by(i) {
            text.push_str(&format!("\n![[Note {target}#Section 2]]\n"));
        }
        std::fs::write(root.join(note_path(i)), text).unwrap();
    }
}
