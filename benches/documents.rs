//! Document extraction speed, per MB of input, as a ratio against Python extractors measured in
//! the same run on the same files: pypdf and pdfminer.six (PDF), python-docx (DOCX),
//! python-pptx (PPTX), openpyxl (XLSX) and the `csv` module (TSV).
//!
//! Each extractor runs on the committed fixtures under
//! `crates/vaultsum-documents/tests/fixtures/` (made by `make_fixtures.py` there) repeatedly
//! for about a second; the figure is the mean time per run divided by the file's size in MB.
//! Python runs in one process, imports not counted.
//!
//! Run: `VAULTSUM_BENCH_PYTHON=/path/to/python cargo bench --bench documents`, with a Python
//! that has `pypdf pdfminer.six python-docx python-pptx openpyxl` installed.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use vaultsum_core::media::document::{extract, DocLimits, DocumentKind};

/// How long each extractor is repeated for.
const BUDGET: Duration = Duration::from_secs(1);

/// (fixture, kind, Python baselines to compare with).
const CASES: &[(&str, DocumentKind, &[&str])] = &[
    ("bench.pdf", DocumentKind::Pdf, &["pypdf", "pdfminer"]),
    ("bench.docx", DocumentKind::Docx, &["python-docx"]),
    ("deck.pptx", DocumentKind::Pptx, &["python-pptx"]),
    ("budget.xlsx", DocumentKind::Xlsx, &["openpyxl"]),
    ("values.tsv", DocumentKind::Tsv, &["csv"]),
];

/// Times the extractors named on the command line (`name=path` pairs), printing `name seconds`
/// per run for each.
const PYTHON: &str = r#"
import csv, io, sys, time
def pypdf_run(p):
    import pypdf
    return "".join(page.extract_text() for page in pypdf.PdfReader(p).pages)
def pdfminer_run(p):
    from pdfminer.high_level import extract_text
    return extract_text(p)
def docx_run(p):
    import docx
    d = docx.Document(p)
    text = [para.text for para in d.paragraphs]
    for t in d.tables:
        text += [c.text for row in t.rows for c in row.cells]
    return "\n".join(text)
def pptx_run(p):
    from pptx import Presentation
    out = []
    for slide in Presentation(p).slides:
        out += [s.text_frame.text for s in slide.shapes if s.has_text_frame]
        if slide.has_notes_slide:
            out.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(out)
def openpyxl_run(p):
    import openpyxl
    wb = openpyxl.load_workbook(p, read_only=True, data_only=True)
    return [[list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets]
def csv_run(p):
    with open(p, newline="", encoding="utf-8") as f:
        return list(csv.reader(f, delimiter="\t"))
RUNS = {"pypdf": pypdf_run, "pdfminer": pdfminer_run, "python-docx": docx_run,
        "python-pptx": pptx_run, "openpyxl": openpyxl_run, "csv": csv_run}
for arg in sys.argv[1:]:
    name, path = arg.split("=", 1)
    run = RUNS[name]
    run(path)  # warm-up: imports and caches
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0 or n < 3:
        run(path)
        n += 1
    print(name, (time.perf_counter() - start) / n, flush=True)
"#;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/vaultsum-documents/tests/fixtures"
    ))
    .join(name)
}

/// Mean seconds per extraction of `bytes`, repeated for [`BUDGET`] (at least three runs).
fn time_rust(kind: DocumentKind, bytes: &[u8]) -> f64 {
    let limits = DocLimits::default();
    if let Err(e) = extract(kind, bytes, None, &limits) {
        panic!("{} fixture does not extract: {e}", kind.name());
    }
    let start = Instant::now();
    let mut runs = 0u32;
    while start.elapsed() < BUDGET || runs < 3 {
        std::hint::black_box(extract(kind, std::hint::black_box(bytes), None, &limits).ok());
        runs += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(runs)
}

/// Seconds per run for each `name=path` job, from one Python process.
fn time_python(python: &str, jobs: &[String]) -> Vec<(String, f64)> {
    let output = Command::new(python)
        .arg("-c")
        .arg(PYTHON)
        .args(jobs)
        .output()
        .unwrap_or_else(|e| panic!("cannot run VAULTSUM_BENCH_PYTHON={python}: {e}"));
    if !output.status.success() {
        panic!(
            "the Python baseline failed (does {python} have pypdf pdfminer.six python-docx python-pptx openpyxl?):\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| {
            let (name, secs) = line.split_once(' ')?;
            Some((name.to_string(), secs.trim().parse().ok()?))
        })
        .collect()
}

fn main() {
    let Ok(python) = std::env::var("VAULTSUM_BENCH_PYTHON") else {
        eprintln!(
            "documents bench: set VAULTSUM_BENCH_PYTHON to a Python with pypdf, pdfminer.six, \
             python-docx, python-pptx and openpyxl installed (the baseline is measured in the same run)"
        );
        std::process::exit(2);
    };
    println!(
        "{:<12} {:>9} {:>12} {:>12} {:>14} {:>8}",
        "file", "KB", "rust ms/MB", "baseline", "baseline ms/MB", "ratio"
    );
    for (name, kind, baselines) in CASES {
        let path = fixture(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mb = bytes.len() as f64 / (1024.0 * 1024.0);
        let rust = time_rust(*kind, &bytes);
        let jobs: Vec<String> = baselines
            .iter()
            .map(|b| format!("{b}={}", path.display()))
            .collect();
        for (baseline, secs) in time_python(&python, &jobs) {
            println!(
                "{:<12} {:>9.1} {:>12.2} {:>12} {:>14.2} {:>7.1}x",
                name,
                bytes.len() as f64 / 1024.0,
                rust * 1000.0 / mb,
                baseline,
                secs * 1000.0 / mb,
                secs / rust
            );
        }
    }
    println!("ratio = Python time / Rust time (higher: Rust is faster)");
}
