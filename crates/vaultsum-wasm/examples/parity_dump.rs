//! The native half of `scripts/wasm-parity.sh`: for every note (`*.md`, hidden folders left
//! out, in byte order of their paths) under each folder given, the engine's answers computed by
//! this crate's functions built natively, in the format `parity.mjs` prints from the
//! WebAssembly build of the same functions. The script compares the two outputs byte for byte.

use std::io::Write;
use std::path::{Path, PathBuf};

fn notes_under(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            notes_under(root, &path, found)?;
        } else if path.extension().is_some_and(|e| e == "md") {
            found.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let started = std::time::Instant::now();
    let mut count = 0usize;
    for root in std::env::args().skip(1) {
        let root = PathBuf::from(root);
        let mut notes = Vec::new();
        notes_under(&root, &root, &mut notes)?;
        let mut notes: Vec<String> = notes
            .iter()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .collect();
        notes.sort();
        // Each note's summary is also checked against the next note's text, so that the check's
        // findings (not only its "all found") are compared.
        let texts: Vec<String> = notes
            .iter()
            .map(|note| {
                std::fs::read(root.join(note)).map(|b| String::from_utf8_lossy(&b).into_owned())
            })
            .collect::<Result<_, _>>()?;
        for (index, note) in notes.iter().enumerate() {
            count += 1;
            let text = &texts[index];
            let other = &texts[(index + 1) % texts.len()];
            let summary = vaultsum_wasm::summarize_offline(text, 0, "", false);
            let cited = vaultsum_wasm::summarize_offline(text, 0, "", true);
            let policy = vaultsum_wasm::policy_summary(&summary, text);
            let checked = vaultsum_wasm::check_facts(&summary, text);
            let crossed = vaultsum_wasm::check_facts(&summary, other);
            write!(
                out,
                "==> {note} <==\n{}\n{summary}\n{}\n{cited}\n{}\n{policy}\n{checked}{crossed}",
                summary.len(),
                cited.len(),
                policy.len()
            )?;
        }
    }
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    eprintln!(
        "native: {count} notes in {elapsed:.1} ms ({:.2} ms a note)",
        elapsed / count.max(1) as f64
    );
    out.flush()
}
