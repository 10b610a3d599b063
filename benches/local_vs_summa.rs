//! Throughput of the local engine against summa's TextRank (Python) on the same notes, in the
//! same run: the eval notes (real vault notes kept in `eval/notes/`), raw markdown for both.
//! Prints both times per pass over all notes and the ratio. summa runs through
//! `$SUMMA_PYTHON` (default `eval/.venv/bin/python`, made by `eval/run.sh`); without it the
//! baseline is skipped and said so.
//!
//! Run: `cargo bench --bench local_vs_summa` (or `eval/run.sh --bench`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use vaultsum_core::llm::local::{summarize, LocalOptions};

const SUMMA_PASSES: usize = 5;

fn notes(root: &Path) -> Vec<PathBuf> {
    let mut notes: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    notes.sort();
    notes
}

/// Median time of one pass over all texts, over enough passes to fill about two seconds.
fn time_local(texts: &[String]) -> Duration {
    let pass = || {
        let start = Instant::now();
        for text in texts {
            std::hint::black_box(summarize(
                std::hint::black_box(text),
                &LocalOptions::default(),
            ));
        }
        start.elapsed()
    };
    let warm = pass();
    let passes = (Duration::from_secs(2).as_secs_f64() / warm.as_secs_f64().max(1e-6))
        .clamp(5.0, 2000.0) as usize;
    let mut timings: Vec<Duration> = (0..passes).map(|_| pass()).collect();
    timings.sort();
    timings[timings.len() / 2]
}

fn time_summa(python: &Path, script: &Path, notes: &[PathBuf]) -> Result<Duration, String> {
    let output = Command::new(python)
        .arg(script)
        .arg(SUMMA_PASSES.to_string())
        .args(notes)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let seconds: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("unexpected output from summa timing: {e}"))?;
    Ok(Duration::from_secs_f64(seconds))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let notes = notes(&root.join("eval/notes"));
    let texts: Vec<String> = notes
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "local_vs_summa: {} notes, {} KB of markdown",
        notes.len(),
        bytes / 1024
    );

    let local = time_local(&texts);
    println!(
        "local engine   {:>10.3} ms per pass",
        local.as_secs_f64() * 1e3
    );

    let python = std::env::var_os("SUMMA_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("eval/.venv/bin/python"));
    match time_summa(&python, &root.join("eval/summa_timing.py"), &notes) {
        Ok(summa) => {
            println!(
                "summa TextRank {:>10.3} ms per pass",
                summa.as_secs_f64() * 1e3
            );
            println!(
                "ratio: local engine is {:.1}x faster than summa",
                summa.as_secs_f64() / local.as_secs_f64()
            );
        }
        Err(error) => {
            println!("summa baseline skipped (run eval/run.sh once to create eval/.venv): {error}")
        }
    }
}
