//! A generated vault for the MCP benchmarks: 10,000 notes of a few KB in 100 folders, each
//! embedding three headings of other notes, so a read expands like a real meeting note does.

#![allow(dead_code)] // each benchmark uses part of it

use std::path::Path;

/// Notes in the generated vault.
pub const NOTES: usize = 10_000;
const PER_FOLDER: usize = 100;

/// The vault-relative path of note `i`.
pub fn note_path(i: usize) -> String {
    format!("Area {:03}/Note {:05}.md", i / PER_FOLDER, i)
}

/// The notes note `i` embeds (a heading of each).
fn embedded_by(i: usize) -> [usize; 3] {
    [
        (i * 7 + 1) % NOTES,
        (i * 13 + 5) % NOTES,
        (i * 31 + 11) % NOTES,
    ]
}

/// Every note a read of `notes` opens: those notes and the notes they embed (none of the
/// embedded sections embeds anything), each once, in index order.
pub fn notes_touched_reading(notes: std::ops::Range<usize>) -> Vec<usize> {
    let mut touched: std::collections::BTreeSet<usize> = notes.clone().collect();
    touched.extend(notes.flat_map(embedded_by));
    touched.into_iter().collect()
}

/// Writes the vault (with `.obsidian/`, as Obsidian would) under `root`.
pub fn generate(root: &Path) {
    std::fs::create_dir_all(root.join(".obsidian")).unwrap();
    let paragraph = "The inspection found the pump running hot after the filter change, and the \
technician logged the reading twice to be sure. The office booked a repair for the next \
morning and asked for photos of the data plate before the visit. ";
    for i in 0..NOTES {
        let [a, b, c] = embedded_by(i);
        let mut text = format!(
            "---\nid: {i}\n---\n# Note {i}\n\n## Background\n\n{}\n\n## Details\n\n",
            paragraph.repeat(3)
        );
        for item in 0..8 {
            text.push_str(&format!(
                "- [ ] Follow-up {item} for note {i} ^item-{item}\n"
            ));
        }
        text.push_str(&format!(
            "\n{}\n\n## Related\n\n![[Note {a:05}#Background]]\n\n![[Note {b:05}#Background]]\n\n![[Note {c:05}#Background]]\n",
            paragraph.repeat(4)
        ));
        let path = root.join(note_path(i));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}
