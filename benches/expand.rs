//! Embed expansion cost, as a ratio against reading the same files in the same run.
//!
//! Generates a 10,000-note vault (a few KB per note, three heading embeds per note to other
//! notes), opens it once (indexing is not counted), then times, best of three passes:
//! - baseline: reading every note's bytes;
//! - baseline with targets: reading every note and the three notes it embeds;
//! - expansion, cold: reading and expanding every note with a freshly opened vault;
//! - expansion, warm: the same with a vault that has expanded them before (parsed notes reused).
//!
//! Run: `cargo bench --bench expand`.

use std::path::Path;
use std::time::{Duration, Instant};

use vaultsum::vault::{expand_note, ExpandOptions, PlaceholderAttachments, Vault};

const NOTES: usize = 10_000;
const PER_FOLDER: usize = 100;
const PASSES: usize = 3;

fn note_path(i: usize) -> String {
    format!("Area {:03}/Note {:05}.md", i / PER_FOLDER, i)
}

fn targets(i: usize) -> [usize; 3] {
    [
        (i * 7 + 1) % NOTES,
        (i * 13 + 5) % NOTES,
        (i * 31 + 11) % NOTES,
    ]
}

fn generate(root: &Path) {
    let paragraph = "The inspection found the pump running hot after the filter change, and the \
technician logged the reading twice to be sure. The office booked a repair for the next \
morning and asked for photos of the data plate before the visit. ";
    for i in 0..NOTES {
        let [a, b, c] = targets(i);
        let mut text = format!(
            "---\nid: {i}\ntags: [bench]\n---\n# Note {i}\n\n## Background\n\n{}\n\n## Details\n\n",
            paragraph.repeat(3)
        );
        for item in 0..8 {
            text.push_str(&format!(
                "- [ ] Follow-up {item} for note {i} with the site team ^item-{item}\n"
            ));
        }
        text.push_str(&format!(
            "\n{}\n\n### Measurements\n\n| Meter | Value |\n|---|---|\n| A | {i} |\n| B | {} |\n\n",
            paragraph.repeat(4),
            i * 2
        ));
        text.push_str(&format!(
            "## Related\n\n![[Note {a:05}#Background]]\n\nSome words in between.\n\n![[Note {b:05}#Background]]\n\n![[Note {c:05}#Background]]\n\n`![[Not an embed]]` %%a comment%%\n"
        ));
        let path = root.join(note_path(i));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn best_of<F: FnMut() -> usize>(mut f: F) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut checksum = 0;
    for _ in 0..PASSES {
        let start = Instant::now();
        checksum = f();
        best = best.min(start.elapsed());
    }
    (best, checksum)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let vault = Vault::open(dir.path()).unwrap();
    let paths: Vec<_> = (0..NOTES)
        .map(|i| vault.resolve_input(&note_path(i)).unwrap())
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let opts = ExpandOptions::default();

    let (read, bytes) = best_of(|| {
        paths
            .iter()
            .map(|p| std::fs::read(p.absolute()).unwrap().len())
            .sum()
    });
    let (read_targets, target_bytes) = best_of(|| {
        (0..NOTES)
            .map(|i| {
                let own = std::fs::read(paths[i].absolute()).unwrap().len();
                own + targets(i)
                    .iter()
                    .map(|t| std::fs::read(paths[*t].absolute()).unwrap().len())
                    .sum::<usize>()
            })
            .sum()
    });
    let expand_all = |vault: &Vault| {
        runtime.block_on(async {
            let mut total = 0;
            for path in &paths {
                let out = expand_note(vault, path, &opts, &PlaceholderAttachments)
                    .await
                    .unwrap();
                assert!(out.details["failures"].as_array().unwrap().is_empty());
                total += out.text.len();
            }
            total
        })
    };
    // Cold: a freshly opened vault (indexed before the clock starts) parses every note it meets.
    let mut cold = Duration::MAX;
    for _ in 0..PASSES {
        let fresh = Vault::open(dir.path()).unwrap();
        let start = Instant::now();
        expand_all(&fresh);
        cold = cold.min(start.elapsed());
    }
    // Warm: the same vault again, as in MCP or watch mode, where parsed notes are reused until
    // they change on disk.
    let (expand, expanded_bytes) = best_of(|| expand_all(&vault));

    println!("notes: {NOTES}, note bytes: {bytes}, with embedded targets: {target_bytes}, expanded text: {expanded_bytes}");
    println!(
        "read notes:                {:>8.1} ms",
        read.as_secs_f64() * 1e3
    );
    println!(
        "read notes + targets:      {:>8.1} ms",
        read_targets.as_secs_f64() * 1e3
    );
    println!(
        "read and expand, cold:     {:>8.1} ms",
        cold.as_secs_f64() * 1e3
    );
    println!(
        "read and expand, warm:     {:>8.1} ms",
        expand.as_secs_f64() * 1e3
    );
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "ratio cold expand / read notes:            {:.2}x",
        ratio(cold, read)
    );
    println!(
        "ratio cold expand / read notes + targets:  {:.2}x",
        ratio(cold, read_targets)
    );
    println!(
        "ratio warm expand / read notes:            {:.2}x",
        ratio(expand, read)
    );
    println!(
        "ratio warm expand / read notes + targets:  {:.2}x",
        ratio(expand, read_targets)
    );
}
