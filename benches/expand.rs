//! Embed expansion cost, as a ratio against reading the same files in the same run.
//!
//! Generates a 10,000-note vault (a few KB per note, three heading embeds per note to other
//! notes), opens it once (indexing is not counted), reads every note once so the page cache is
//! equally warm for all variants, then times, best of five passes in which the variants take
//! turns:
//! - baseline: reading every note's bytes (the 10,000 files, each once);
//! - baseline with targets: reading every note and the three notes it embeds;
//! - expansion, cold: reading and expanding every note with a freshly opened vault;
//! - expansion, warm: the same with a vault that has expanded them before (parsed notes reused).
//!
//! Run: `cargo bench --bench expand`. `EXPAND_BENCH_DIR=/some/dir` keeps the generated vault
//! there and reuses it on the next run (handy when profiling).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use vaultsum_core::vault::{expand_note, ExpandOptions, PlaceholderAttachments, Vault};

const NOTES: usize = 10_000;
const PER_FOLDER: usize = 100;
const PASSES: usize = 5;

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

fn time<F: FnOnce() -> usize>(best: &mut Duration, f: F) -> usize {
    let start = Instant::now();
    let checksum = f();
    *best = (*best).min(start.elapsed());
    checksum
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::env::var_os("EXPAND_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| tmp.path().to_path_buf());
    if !root.join(note_path(NOTES - 1)).exists() {
        generate(&root);
    }
    let vault = std::sync::Arc::new(Vault::open(&root).unwrap());
    let paths: Vec<_> = (0..NOTES)
        .map(|i| vault.resolve_input(&note_path(i)).unwrap())
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let opts = ExpandOptions::default();

    let read_notes = || -> usize {
        paths
            .iter()
            .map(|p| std::fs::read(p.absolute()).unwrap().len())
            .sum()
    };
    let read_with_targets = || -> usize {
        (0..NOTES)
            .map(|i| {
                let own = std::fs::read(paths[i].absolute()).unwrap().len();
                own + targets(i)
                    .iter()
                    .map(|t| std::fs::read(paths[*t].absolute()).unwrap().len())
                    .sum::<usize>()
            })
            .sum()
    };
    let expand_all = |vault: &std::sync::Arc<Vault>| -> usize {
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

    // Every file read once, and the long-lived vault's parse cache filled, before any timing.
    let bytes = read_notes();
    let expanded_bytes = expand_all(&vault);
    let mut read = Duration::MAX;
    let mut read_targets = Duration::MAX;
    let mut cold = Duration::MAX;
    let mut warm = Duration::MAX;
    let mut target_bytes = 0;
    // The variants take turns in every pass, so a busy machine slows all of them alike.
    for _ in 0..PASSES {
        time(&mut read, read_notes);
        target_bytes = time(&mut read_targets, read_with_targets);
        // Cold: a freshly opened vault (indexed before the clock starts) parses every note it
        // meets, once.
        let fresh = std::sync::Arc::new(Vault::open(&root).unwrap());
        assert_eq!(time(&mut cold, || expand_all(&fresh)), expanded_bytes);
        drop(fresh);
        // Warm: the long-lived vault, as in MCP or watch mode, where parsed notes are reused
        // until they change on disk (each note is still read, and each embedded one checked).
        assert_eq!(time(&mut warm, || expand_all(&vault)), expanded_bytes);
    }

    println!("notes: {NOTES}, note bytes: {bytes}, with embedded targets: {target_bytes}, expanded text: {expanded_bytes}, best of {PASSES} passes");
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("read notes:                {:>8.1} ms", ms(read));
    println!("read notes + targets:      {:>8.1} ms", ms(read_targets));
    println!("read and expand, cold:     {:>8.1} ms", ms(cold));
    println!("read and expand, warm:     {:>8.1} ms", ms(warm));
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
        ratio(warm, read)
    );
    println!(
        "ratio warm expand / read notes + targets:  {:.2}x",
        ratio(warm, read_targets)
    );
}
