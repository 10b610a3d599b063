//! The fact checker's cost per summary, against parsing the same summary with pulldown-cmark
//! (which the check itself does once) in the same run.
//!
//! The summaries: the offline engine's summaries of every note of the vendored real vault
//! (`tests/data/obsidian-tasks-docs`) and of the test fixture vault, cycled to 1,000, each
//! checked against its note. Timed apart: indexing the note (`SourceFacts::new`, once per
//! summary written), and the check of a summary against the indexed note. Then, once each,
//! hostile texts: a 10 MiB source of dates, numbers and capitalised names repeated, with a
//! 1 MiB answer of the same kinds of fact, none of them in the source, against a parse of the
//! same bytes (linear, not quadratic, in both).
//!
//! Figures: best of 7 passes over all 1,000, per summary.
//!
//! Run: `cargo bench --bench fact_check`

use std::path::Path;
use std::time::{Duration, Instant};

use pulldown_cmark::Parser;
use vaultsum_core::facts::SourceFacts;
use vaultsum_core::llm::local::{summarize, LocalOptions};
use vaultsum_core::vault::markdown::parser_options;

const SUMMARIES: usize = 1_000;
const PASSES: usize = 7;

fn notes(root: &Path) -> Vec<String> {
    let mut found: Vec<_> = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    found.retain(|text| !text.trim().is_empty());
    found
}

fn timed<F: FnMut()>(mut run: F, times: &mut Vec<Duration>) {
    let start = Instant::now();
    run();
    times.push(start.elapsed());
}

fn per_summary(times: &[Duration]) -> f64 {
    times.iter().min().unwrap().as_secs_f64() * 1e6 / SUMMARIES as f64
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks for a list; this bench has no criterion cases
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = notes(&manifest.join("tests/data/obsidian-tasks-docs"));
    sources.extend(notes(&manifest.join("vault-fixture")));
    let options = LocalOptions::default();
    let pairs: Vec<(String, String)> = sources
        .iter()
        .map(|note| (note.clone(), summarize(note, &options).markdown))
        .filter(|(_, summary)| !summary.trim().is_empty())
        .collect();
    let cases: Vec<(&str, SourceFacts, &str)> = (0..SUMMARIES)
        .map(|i| {
            let (note, summary) = &pairs[i % pairs.len()];
            (note.as_str(), SourceFacts::new(note), summary.as_str())
        })
        .collect();
    let summary_bytes: usize = cases.iter().map(|(_, _, s)| s.len()).sum();
    let note_bytes: usize = cases.iter().map(|(n, _, _)| n.len()).sum();

    let (mut parse, mut index, mut check) = (vec![], vec![], vec![]);
    let (mut facts, mut unsupported) = (0, 0);
    for _ in 0..PASSES {
        timed(
            || {
                for (_, _, summary) in &cases {
                    let events = Parser::new_ext(summary, parser_options())
                        .into_offset_iter()
                        .count();
                    std::hint::black_box(events);
                }
            },
            &mut parse,
        );
        timed(
            || {
                for (note, _, _) in &cases {
                    std::hint::black_box(SourceFacts::new(note));
                }
            },
            &mut index,
        );
        timed(
            || {
                (facts, unsupported) = (0, 0);
                for (_, source, summary) in &cases {
                    let result = source.check(summary);
                    facts += result.facts.len();
                    unsupported += result.unsupported.len();
                    std::hint::black_box(result);
                }
            },
            &mut check,
        );
    }
    println!(
        "fact check: {SUMMARIES} offline summaries of {} real notes (summary {} bytes, note {} bytes on average), best of {PASSES}",
        pairs.len(),
        summary_bytes / SUMMARIES,
        note_bytes / SUMMARIES
    );
    let (p, i, c) = (
        per_summary(&parse),
        per_summary(&index),
        per_summary(&check),
    );
    println!(
        "  check of a summary: {c:.1} us, pulldown-cmark parse of it {p:.1} us: {:.2}x ({facts} facts, {unsupported} unsupported)",
        c / p
    );
    println!(
        "  index of its note: {i:.1} us; index + check {:.1} us: {:.2}x the parse",
        i + c,
        (i + c) / p
    );
    hostile();
}

/// A 10 MiB source and a 1 MiB answer full of facts, none of the answer's in the source.
fn hostile() {
    let fill = |unit: &str, size: usize| unit.repeat(size / unit.len());
    let source = fill(
        "Ana Lopez met Bank of America on 2026-05-03 at 15:30 about 4,000 EUR (12%), see [[Plan]] and `x`. ",
        10 * 1024 * 1024,
    );
    let answers = [
        (
            "names, dates, numbers",
            fill(
                "- Luis Garcia met Ana Ruiz on 4 June 2027 at 9 pm about 4,200 USD (13%). ",
                1024 * 1024,
            ),
        ),
        ("`Ana Ana …`", fill("Ana ", 1024 * 1024)),
        (
            "code spans and links",
            fill("`y` [[Other]] https://a.example/x ", 1024 * 1024),
        ),
    ];
    println!("hostile: a 10 MiB source, 1 MiB answers (seconds; pulldown-cmark parse of the answer in brackets):");
    let start = Instant::now();
    let indexed = SourceFacts::new(&source);
    let index = start.elapsed().as_secs_f64();
    let start = Instant::now();
    std::hint::black_box(Parser::new_ext(&source, parser_options()).count());
    println!(
        "  index of the source: {index:.2} s ({:.2} s)",
        start.elapsed().as_secs_f64()
    );
    for (name, answer) in answers {
        check_hostile(&indexed, name, &answer);
    }
    // One word repeated in both: every place of the name's first word in the source is a
    // start a phrase lookup may try.
    let start = Instant::now();
    let repeated = SourceFacts::new(&fill("Ana ", 10 * 1024 * 1024));
    println!(
        "  index of a source of `Ana Ana …`: {:.2} s",
        start.elapsed().as_secs_f64()
    );
    check_hostile(
        &repeated,
        "`Ana Ana … Luis` against it",
        &format!("{}Luis", fill("Ana ", 1024 * 1024)),
    );
}

fn check_hostile(indexed: &SourceFacts, name: &str, answer: &str) {
    let start = Instant::now();
    std::hint::black_box(Parser::new_ext(answer, parser_options()).count());
    let parse = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let result = indexed.check(answer);
    let check = start.elapsed().as_secs_f64();
    println!(
        "  {name}: check {check:.2} s ({parse:.2} s), {} facts, {} unsupported",
        result.facts.len(),
        result.unsupported.len()
    );
}
