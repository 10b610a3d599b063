//! Issue 41: nothing vaultsum writes can run code, load a remote resource, link where the source
//! did not, or hide text, as Obsidian and its popular plugins render it with their defaults.
//!
//! An adversarial corpus (`tests/data/hostile-answers.jsonl`: hostile model answers in classes,
//! some with the note they are written into) is served by a fake model on 127.0.0.1, keyed by the
//! note's path, and written by the real binary, every note of a writer in one run: the `## Summary`
//! append, `--into both` (the summary property), `--replace`, and rollups saved with
//! `--save-to` (a sample, and the laundering cases: a URL one summary carried must not come back
//! live in a rollup that reuses it). The notes as they are on disk then go to an independent judge
//! (`tests/judge/judge.mjs`: markdown-it plus models of Obsidian, Dataview, MathJax, Mermaid and
//! Templater, sharing nothing with vaultsum's own policy), which reports what is live in the part
//! vaultsum wrote, rendered in the whole note. Every note must be either written with nothing
//! live, or refused with an error and left exactly as it was. The legitimate answers
//! (`tests/data/legitimate-answers.jsonl`) must be written and render as intended.
//!
//! A corpus line: `id`, `class` (transform, dataview, wikilink, math, context, hidden,
//! laundering, html, links, blocks, property, published; legit), `answer` (what the model
//! says), and optionally `note` (the note it is written into, for attacks on the note's context;
//! else a small real note of `vault-fixture/`), `urls` (what the source names besides the URLs and
//! e-mail addresses in the note's own text), `rollup_answer` (laundering: what a second summary
//! or a rollup reusing the first says), `abstract` (the summary property's text), `source` (the
//! published write-up a shape comes from), `expect` (legit: how it must render).

use crate::support;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde_json::{json, Value};
use support::cli::vaultsum;
use support::fake_kagi::{envelope, ok, vaultsum_command, FakeKagi, TEST_KEY};
use support::fake_openai::{FakeOpenAi, FakeReply, ReceivedRequest};
use support::temp_vault::TempVault;

const HOSTILE: &str = include_str!("../data/hostile-answers.jsonl");
const LEGITIMATE: &str = include_str!("../data/legitimate-answers.jsonl");

/// The small real notes an answer is written into when its entry names no note of its own: with
/// and without frontmatter, with embeds and a `%%comment%%`, a table and a callout.
const FIXTURE_NOTES: [&str; 4] = [
    "Archive/Plan.md",
    "Meetings/2024-03-11 Vendor call.md",
    "Notes/Café résumé.md",
    "Daily/2024-03-05.md",
];

/// The folder the corpus notes are written in, inside a copy of `vault-fixture/`.
const FOLDER: &str = "Corpus";

#[derive(Clone)]
struct Entry {
    id: String,
    class: String,
    answer: String,
    note: Option<String>,
    urls: Vec<String>,
    rollup_answer: Option<String>,
    /// The `<abstract>` for the summary property, when it is the attack (`--into both`).
    abstract_text: Option<String>,
    expect: Option<Value>,
}

fn entries(jsonl: &str) -> Vec<Entry> {
    jsonl
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line of the corpus");
            let text = |key: &str| v[key].as_str().map(str::to_string);
            Entry {
                id: text("id").expect("id"),
                class: text("class").expect("class"),
                answer: text("answer").expect("answer"),
                note: text("note"),
                urls: v["urls"]
                    .as_array()
                    .map(|urls| {
                        urls.iter()
                            .map(|u| u.as_str().unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
                rollup_answer: text("rollup_answer"),
                abstract_text: text("abstract"),
                expect: v.get("expect").cloned(),
            }
        })
        .collect()
}

fn fixture_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture")
}

fn judge_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge")
}

/// The note an entry's answer is written into.
fn note_text(entry: &Entry, index: usize) -> String {
    match &entry.note {
        Some(note) => note.clone(),
        None => {
            let path = fixture_source().join(FIXTURE_NOTES[index % FIXTURE_NOTES.len()]);
            std::fs::read_to_string(path).expect("a fixture note")
        }
    }
}

/// The URLs the source names: the entry's, every `http(s)://` and every e-mail address (as
/// `mailto:`, which Obsidian links) in the note's own text (not in a `## Summary` section: what
/// vaultsum wrote there is no source).
fn source_urls(entry: &Entry, note: &str) -> Vec<String> {
    let mut urls = entry.urls.clone();
    let mut own = String::new();
    let mut in_summary = false;
    for line in note.lines() {
        if line.starts_with("# ") || line.starts_with("## ") {
            in_summary = line.trim_end() == "## Summary";
        }
        if !in_summary {
            own.push_str(line);
            own.push('\n');
        }
    }
    let note = own.as_str();
    for word in note.split(|c: char| c.is_whitespace() || "<>()[]\"'`,;:".contains(c)) {
        let word = word.trim_end_matches('.');
        if let Some((user, host)) = word.split_once('@') {
            if !user.is_empty() && host.contains('.') && !host.contains('@') {
                urls.push(format!("mailto:{}", word.to_lowercase()));
            }
        }
    }
    for (at, _) in note.match_indices("http") {
        let rest = &note[at..];
        if rest.starts_with("http://") || rest.starts_with("https://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || "<>()[]\"'`".contains(c))
                .unwrap_or(rest.len());
            urls.push(rest[..end].trim_end_matches(['.', ',', ';']).to_string());
        }
    }
    urls
}

/// The entry a summarize or rollup request is about: the first note of the corpus folder it
/// names (`<note path="Corpus/ID.md">`; a rollup's `# [[Corpus/ID/Source]]`).
fn requested_id(request: &ReceivedRequest) -> Option<String> {
    let text = request.user_text();
    let at = text.find(&format!("{FOLDER}/"))?;
    let id: String = text[at + FOLDER.len() + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    (!id.is_empty()).then_some(id)
}

/// A fake model answering each note with its entry's answer (`rollup`: the rollup answer).
fn model(answers: HashMap<String, String>) -> FakeOpenAi {
    let fake = FakeOpenAi::start();
    let answers = Arc::new(answers);
    fake.answer_with(Arc::new(move |request: &ReceivedRequest| {
        if !request.path.ends_with("/chat/completions") {
            return None;
        }
        // The fact check's corrective request: a model that keeps its answer as it was (an
        // attacker's answer does not correct itself), so what is not found gets its marks,
        // which are then written like any other text.
        let user = request.user_text();
        if let Some(answer) = user
            .strip_prefix("<summary>\n")
            .and_then(|rest| rest.split_once("\n</summary>"))
            .map(|(answer, _)| answer)
        {
            return Some(FakeReply::chat(answer));
        }
        let id = requested_id(request)?;
        answers.get(&id).map(|answer| FakeReply::chat(answer))
    }));
    fake
}

/// How a run of the binary ended: whether it exited 0, its JSON lines, its stderr.
type Ran = (bool, Vec<Value>, String);

/// Runs the binary with these arguments against the fake.
fn run_lines(vault: &TempVault, fake: &FakeOpenAi, args: &[&str]) -> Ran {
    run_lines_with(vault, fake, args, &[])
}

/// [`run_lines`] with more environment variables.
fn run_lines_with(
    vault: &TempVault,
    fake: &FakeOpenAi,
    args: &[&str],
    env: &[(&str, &str)],
) -> Ran {
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .envs(env.iter().copied())
        .arg("--vault")
        .arg(vault.root())
        .args(args)
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .collect();
    (
        output.status.success(),
        lines,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs a `summarize-file --json` over notes: its result for each, by path.
fn run(vault: &TempVault, fake: &FakeOpenAi, args: &[&str]) -> BTreeMap<String, Value> {
    run_with(vault, fake, args, &[])
}

/// [`run`] with more environment variables.
fn run_with(
    vault: &TempVault,
    fake: &FakeOpenAi,
    args: &[&str],
    env: &[(&str, &str)],
) -> BTreeMap<String, Value> {
    let (_, lines, stderr) = run_lines_with(vault, fake, args, env);
    let results: BTreeMap<String, Value> = lines
        .into_iter()
        .filter_map(|value| Some((value["path"].as_str()?.to_string(), value)))
        .collect();
    assert!(!results.is_empty(), "no results from {args:?}: {stderr}");
    results
}

/// Splits `text` into lines with their byte offsets (terminators excluded from the text).
fn lines_of(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let end = start + piece.len();
        let body = piece.trim_end_matches('\n').trim_end_matches('\r');
        out.push((start, end, body));
        start = end;
    }
    out
}

/// What was written: the byte ranges of `new` that are not `old`'s lines kept in order (a line
/// diff: the longest common subsequence), without vaultsum's own fingerprint comment (hidden by
/// design: it is metadata, not the model's text). Also whether every line of `old` was kept.
fn written_ranges(old: &str, new: &str) -> (Vec<(usize, usize)>, bool) {
    let a = lines_of(old);
    let b = lines_of(new);
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i].2 == b[j].2 {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut kept = vec![false; m];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i].2 == b[j].2 {
            kept[j] = true;
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let whole = lcs[0][0] as usize == n;
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (index, (start, end, body)) in b.iter().enumerate() {
        if kept[index] || is_fingerprint(body) {
            continue;
        }
        match ranges.last_mut() {
            Some(last) if last.1 == *start => last.1 = *end,
            _ => ranges.push((*start, *end)),
        }
    }
    (ranges, whole)
}

/// `<!-- vaultsum: note=HEX summary=HEX -->`, or a generated note's mark
/// `<!-- vaultsum: generated summary=HEX lines=N -->`, exactly.
fn is_fingerprint(line: &str) -> bool {
    let hex = |text: &str| !text.is_empty() && text.chars().all(|c| c.is_ascii_hexdigit());
    let generated = line
        .strip_prefix("<!-- vaultsum: generated summary=")
        .and_then(|rest| rest.strip_suffix(" -->"))
        .and_then(|rest| rest.split_once(" lines="))
        .is_some_and(|(summary, lines)| {
            hex(summary) && !lines.is_empty() && lines.chars().all(|c| c.is_ascii_digit())
        });
    if generated {
        return true;
    }
    let Some(rest) = line
        .strip_prefix("<!-- vaultsum: note=")
        .and_then(|rest| rest.strip_suffix(" -->"))
    else {
        return false;
    };
    let Some((note, summary)) = rest.split_once(" summary=") else {
        return false;
    };
    hex(note) && hex(summary)
}

/// One note for the judge.
struct Judged {
    id: String,
    class: String,
    path: String,
    written: Vec<(usize, usize)>,
    urls: Vec<String>,
    property: bool,
    expect: Option<Value>,
}

/// Runs the judge over `notes` of `vault`; its verdict for each, by id.
fn judge(vault: &TempVault, notes: &[Judged]) -> BTreeMap<String, Value> {
    assert!(
        judge_dir().join("node_modules/markdown-it").is_dir(),
        "the judge's packages are not installed: run `bash scripts/node-env.sh` (needs Node.js \
         18+ and npm; `scripts/test.sh` runs it)"
    );
    let manifest = json!({
        "notes": notes.iter().map(|n| {
            let mut item = json!({
                "path": vault.root().join(&n.path),
                "written": n.written.iter().map(|(a, b)| json!([a, b])).collect::<Vec<_>>(),
                "urls": n.urls,
            });
            if n.property {
                item["property"] = json!("summary");
            }
            if let Some(expect) = &n.expect {
                item["expect"] = expect.clone();
            }
            item
        }).collect::<Vec<_>>()
    });
    let manifest_path = vault.outside().join("judge-manifest.json");
    std::fs::write(&manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
    let output = Command::new("node")
        .arg(judge_dir().join("judge.mjs"))
        .arg(&manifest_path)
        .output()
        .expect("run node (Node.js 18+ must be on PATH)");
    assert!(
        output.status.success(),
        "the judge failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let verdict: Value = serde_json::from_slice(&output.stdout).expect("the judge's JSON");
    notes
        .iter()
        .zip(verdict["notes"].as_array().expect("notes"))
        .map(|(note, verdict)| (note.id.clone(), verdict.clone()))
        .collect()
}

/// What went wrong with the notes of one writer, to report all at once.
#[derive(Default)]
struct Report {
    live: BTreeMap<String, Vec<String>>,
    broken: Vec<String>,
    refused: Vec<String>,
}

impl Report {
    fn live_count(&self) -> usize {
        self.live.values().map(Vec::len).sum()
    }

    fn by_class(&self) -> String {
        self.live
            .iter()
            .map(|(class, ids)| format!("{class} {}", ids.len()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Writes every entry with `args` (after `summarize-file --json`), once, into its own note of a
/// copy of `vault-fixture/`, then judges them; `before` runs first on the same vault (the append
/// a `--replace` replaces).
fn write_and_judge(
    corpus: &[Entry],
    writer: &str,
    args: &[&str],
    before: Option<&[&str]>,
) -> Report {
    write_and_judge_with(corpus, writer, args, before, &[])
}

/// [`write_and_judge`] with more environment variables for the writer.
fn write_and_judge_with(
    corpus: &[Entry],
    writer: &str,
    args: &[&str],
    before: Option<&[&str]>,
    env: &[(&str, &str)],
) -> Report {
    let vault = TempVault::copy_of(&fixture_source());
    let mut originals = BTreeMap::new();
    for (index, entry) in corpus.iter().enumerate() {
        let path = format!("{FOLDER}/{}.md", entry.id);
        let text = note_text(entry, index);
        vault.write(&path, &text);
        originals.insert(entry.id.clone(), (path, text));
    }
    let fake = model(
        corpus
            .iter()
            .map(|e| (e.id.clone(), e.answer.clone()))
            .collect(),
    );
    let mut fake = fake;
    if let Some(before) = before {
        let mut first = vec!["summarize-file", "--json"];
        first.extend_from_slice(before);
        first.push(FOLDER);
        run(&vault, &fake, &first);
        // The second summary of a laundering case links what the first one carried: the
        // first summary is vaultsum's text, never the note's, so it names nothing.
        fake = model(
            corpus
                .iter()
                .map(|e| {
                    let answer = e.rollup_answer.as_ref().unwrap_or(&e.answer);
                    (e.id.clone(), answer.clone())
                })
                .collect(),
        );
    }
    let mut full = vec!["summarize-file", "--json"];
    full.extend_from_slice(args);
    full.push(FOLDER);
    let writing = std::time::Instant::now();
    let results = run_with(&vault, &fake, &full, env);
    let written_in = writing.elapsed();
    let started = std::time::Instant::now();

    let mut report = Report::default();
    let mut to_judge = Vec::new();
    for entry in corpus {
        let (path, original) = &originals[&entry.id];
        let now = String::from_utf8(vault.read(path)).expect("UTF-8 note");
        let result = results.get(path);
        let refused = result.is_some_and(|r| r["success"] == json!(false));
        let (written, whole) = written_ranges(original, &now);
        if refused || result.is_none() {
            let error = result.and_then(|r| r["error"].as_str()).unwrap_or("");
            // Refused: the note as it was (or as `before` left it), and a reason given.
            if before.is_none() && now != *original {
                report
                    .broken
                    .push(format!("{writer} {}: refused but changed", entry.id));
            }
            if error.trim().is_empty() {
                report.broken.push(format!(
                    "{writer} {}: no result or no reason: {result:?}",
                    entry.id
                ));
            }
            report.refused.push(format!("{}: {error}", entry.id));
            if before.is_none() {
                continue;
            }
        } else if args.is_empty() && before.is_none() && !now.starts_with(original.as_str()) {
            report.broken.push(format!(
                "{writer} {}: the note is not its old bytes and a section",
                entry.id
            ));
        } else if !whole {
            report.broken.push(format!(
                "{writer} {}: the note's own text changed",
                entry.id
            ));
        }
        to_judge.push(Judged {
            id: entry.id.clone(),
            class: entry.class.clone(),
            path: path.clone(),
            written,
            urls: source_urls(entry, original),
            property: args.contains(&"both"),
            expect: entry.expect.clone(),
        });
    }
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let verdict = &verdicts[&note.id];
        let findings = verdict["findings"].as_array().unwrap();
        let missing = verdict["missing"].as_array().unwrap();
        if !findings.is_empty() || !missing.is_empty() {
            report
                .live
                .entry(note.class.clone())
                .or_default()
                .push(format!(
                    "{}: {} {}",
                    note.id,
                    serde_json::to_string(findings).unwrap(),
                    if missing.is_empty() {
                        String::new()
                    } else {
                        format!("missing {}", serde_json::to_string(missing).unwrap())
                    }
                ));
        }
        if note.property {
            // The property is one value: the note's keys are its own plus `summary` and its
            // fingerprint.
            let keys = verdict["frontmatter_keys"].as_array().unwrap();
            for key in keys {
                let key = key.as_str().unwrap();
                let original = &originals[&note.id].1;
                // `summary_fingerprint` records what the property summarized (freshness).
                let ours = key == "summary" || key == "summary_fingerprint";
                if !ours && !original.contains(&format!("\n{key}:")) {
                    report
                        .broken
                        .push(format!("{writer} {}: a property {key:?} appeared", note.id));
                }
            }
        }
    }
    for refused in &report.refused {
        eprintln!("{writer} refused {refused}");
    }
    eprintln!(
        "FIGURE hostile corpus, {writer}: {} answers, {} refused, {} live ({}); written in {written_in:.1?}, judged in {:.1?}",
        corpus.len(),
        report.refused.len(),
        report.live_count(),
        report.by_class(),
        started.elapsed()
    );
    report
}

fn assert_clean(reports: &[(&str, Report)]) {
    let mut failures = Vec::new();
    for (writer, report) in reports {
        failures.extend(report.broken.iter().cloned());
        for (class, ids) in &report.live {
            for id in ids {
                failures.push(format!("{writer} [{class}] {id}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn hostile_answers_are_inert_through_every_summary_writer() {
    let corpus = entries(HOSTILE);
    assert!(corpus.len() >= 220, "{} answers", corpus.len());
    // `--into both` takes the property from the answer's `<abstract>`: the entry's own, else
    // the same hostile text on one line.
    let with_abstract: Vec<Entry> = corpus
        .iter()
        .map(|entry| Entry {
            answer: format!(
                "{}\n\n<abstract>\n{}\n</abstract>\n",
                entry.answer,
                entry
                    .abstract_text
                    .clone()
                    .unwrap_or_else(|| entry.answer.replace(['\r', '\n'], " "))
            ),
            ..entry.clone()
        })
        .collect();
    // The writers work on vaults of their own: side by side.
    let (append, both, replace) = std::thread::scope(|scope| {
        let append = scope.spawn(|| write_and_judge(&corpus, "append", &[], None));
        let both = scope
            .spawn(|| write_and_judge(&with_abstract, "--into both", &["--into", "both"], None));
        // Half the corpus for `--replace` (it writes twice): every other answer, and every one
        // whose note or laundering depends on what was there before.
        let halved: Vec<Entry> = corpus
            .iter()
            .enumerate()
            .filter(|(index, e)| index % 2 == 0 || e.note.is_some() || e.rollup_answer.is_some())
            .map(|(_, e)| e.clone())
            .collect();
        let replace =
            scope.spawn(move || write_and_judge(&halved, "--replace", &["--replace"], Some(&[])));
        (
            append.join().unwrap(),
            both.join().unwrap(),
            replace.join().unwrap(),
        )
    });
    assert_clean(&[
        ("append", append),
        ("--into both", both),
        ("--replace", replace),
    ]);
}

#[test]
fn legitimate_answers_are_written_and_render_as_intended() {
    let corpus = entries(LEGITIMATE);
    assert!(corpus.len() >= 15, "{} answers", corpus.len());
    // These answers test what renders as intended; they are not summaries of the notes they
    // are written into, so the fact check (on in every hostile run above) would unlink and
    // mark their wikilinks and names.
    let report = write_and_judge_with(
        &corpus,
        "legitimate append",
        &[],
        None,
        &[("VAULTSUM_FACT_CHECK", "off")],
    );
    let mut problems = report.broken.clone();
    problems.extend(
        report
            .refused
            .iter()
            .map(|id| format!("{id}: a legitimate answer was refused")),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_clean(&[("legitimate append", report)]);
}

/// Rollups saved with `--save-to`: a sample of the corpus (one rollup per run), and every
/// laundering case, whose per-note summary is written first and reused by the rollup.
#[test]
fn rollups_saved_to_a_note_are_inert_and_launder_nothing() {
    let corpus = entries(HOSTILE);
    let sample: Vec<Entry> = corpus
        .iter()
        .enumerate()
        .filter(|(index, entry)| entry.class == "laundering" || index % 24 == 0)
        .map(|(_, entry)| entry.clone())
        .collect();
    let vault = TempVault::copy_of(&fixture_source());
    let mut originals = BTreeMap::new();
    for (index, entry) in sample.iter().enumerate() {
        // Each rollup reads a folder of its own: `Corpus/ID/Source.md`.
        let path = format!("{FOLDER}/{}/Source.md", entry.id);
        let text = note_text(entry, index);
        vault.write(&path, &text);
        originals.insert(entry.id.clone(), text);
    }
    vault.write("Rollups/.keep", "");
    // The laundering cases: their summaries first (which a rollup then reuses).
    let summaries = model(
        sample
            .iter()
            .filter(|e| e.rollup_answer.is_some())
            .map(|e| (e.id.clone(), e.answer.clone()))
            .collect(),
    );
    let launder_paths: Vec<String> = sample
        .iter()
        .filter(|e| e.rollup_answer.is_some())
        .map(|e| format!("{FOLDER}/{}/Source.md", e.id))
        .collect();
    let mut args = vec!["summarize-file", "--json"];
    args.extend(launder_paths.iter().map(String::as_str));
    run(&vault, &summaries, &args);
    let rollups = model(
        sample
            .iter()
            .map(|e| {
                (
                    e.id.clone(),
                    e.rollup_answer.clone().unwrap_or_else(|| e.answer.clone()),
                )
            })
            .collect(),
    );
    let mut report = Report::default();
    let mut to_judge = Vec::new();
    // One process per rollup; a few at a time.
    let results: Vec<(Entry, Ran)> = std::thread::scope(|scope| {
        let chunks: Vec<Vec<Entry>> = sample
            .chunks(sample.len().div_ceil(3))
            .map(<[Entry]>::to_vec)
            .collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let (vault, rollups) = (&vault, &rollups);
                scope.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|entry| {
                            let folder = format!("{FOLDER}/{}", entry.id);
                            let save_to = format!("Rollups/{}.md", entry.id);
                            let result = run_lines(
                                vault,
                                rollups,
                                &["rollup", &folder, "--save-to", &save_to, "--json"],
                            );
                            (entry, result)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for (entry, (success, _, stderr)) in &results {
        let save_to = format!("Rollups/{}.md", entry.id);
        let target = vault.root().join(&save_to);
        if !target.exists() {
            // Refused: nothing created, and a reason given.
            if *success || stderr.trim().is_empty() {
                report.broken.push(format!(
                    "rollup {}: no note and no error: {stderr}",
                    entry.id
                ));
            }
            report.refused.push(entry.id.clone());
            continue;
        }
        if !success {
            report
                .broken
                .push(format!("rollup {}: failed but wrote {save_to}", entry.id));
        }
        let text = std::fs::read_to_string(&target).unwrap();
        to_judge.push(Judged {
            id: entry.id.clone(),
            class: entry.class.clone(),
            path: save_to,
            // The whole note is vaultsum's, but for the mark of what it wrote.
            written: written_ranges("", &text).0,
            // The sources' own text: never what vaultsum wrote into them before.
            urls: source_urls(entry, &originals[&entry.id]),
            property: false,
            expect: None,
        });
    }
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let findings = verdicts[&note.id]["findings"].as_array().unwrap();
        if !findings.is_empty() {
            report
                .live
                .entry(note.class.clone())
                .or_default()
                .push(format!(
                    "{}: {}",
                    note.id,
                    serde_json::to_string(findings).unwrap()
                ));
        }
    }
    eprintln!(
        "FIGURE hostile corpus, rollup --save-to: {} rollups, {} refused, {} live ({})",
        sample.len(),
        report.refused.len(),
        report.live_count(),
        report.by_class()
    );
    assert_clean(&[("rollup --save-to", report)]);
}

/// The judge's own tests (node's test runner): obviously live and obviously inert notes, and
/// what a note's context makes the written part responsible for.
#[test]
fn the_judge_finds_what_is_live_and_only_that() {
    let dir = judge_dir();
    assert!(
        dir.join("node_modules/markdown-it").is_dir(),
        "the judge's packages are not installed: run `bash scripts/node-env.sh`"
    );
    let output = Command::new("node")
        .args(["--test", "judge.test.mjs"])
        .current_dir(&dir)
        .output()
        .expect("run node (Node.js 18+ must be on PATH)");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Web pages saved with `summarize URL --save-to` (Kagi's summary of the page, the one URL the
/// note may link to): a sample of the corpus, one page per run.
#[test]
fn web_page_notes_are_inert() {
    let corpus = entries(HOSTILE);
    let sample: Vec<Entry> = corpus
        .iter()
        .enumerate()
        .filter(|(index, _)| index % 18 == 4)
        .map(|(_, entry)| entry.clone())
        .collect();
    let page = |id: &str| format!("https://news.example/story/{id}");
    let fake = FakeKagi::start();
    let answers: Arc<HashMap<String, String>> = Arc::new(
        sample
            .iter()
            .map(|e| (page(&e.id), e.answer.clone()))
            .collect(),
    );
    fake.answer_with(Arc::new(move |request: &ReceivedRequest| {
        if request.path != "/api/v0/summarize" {
            return None;
        }
        let url = request.json()["url"].as_str()?.to_string();
        let answer = answers.get(&url)?;
        Some(ok(envelope(json!({"output": answer, "tokens": 42}))))
    }));
    let vault = TempVault::with(&[("Clippings/.keep", "")]);
    let results: Vec<(Entry, Ran)> = std::thread::scope(|scope| {
        let handles: Vec<_> = sample
            .chunks(sample.len().div_ceil(3))
            .map(|chunk| {
                let (vault, fake) = (&vault, &fake);
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|entry| {
                            let output = vaultsum_command(&fake.base_url(), Some(TEST_KEY))
                                .arg("--vault")
                                .arg(vault.root())
                                .args(["summarize", &page(&entry.id), "--save-to"])
                                .arg(format!("Clippings/{}.md", entry.id))
                                .arg("--json")
                                .output()
                                .unwrap();
                            let ran = (
                                output.status.success(),
                                Vec::new(),
                                format!(
                                    "{}{}",
                                    String::from_utf8_lossy(&output.stdout),
                                    String::from_utf8_lossy(&output.stderr)
                                ),
                            );
                            (entry.clone(), ran)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut report = Report::default();
    let mut to_judge = Vec::new();
    for (entry, (success, _, said)) in &results {
        let path = format!("Clippings/{}.md", entry.id);
        if !vault.root().join(&path).exists() {
            if *success || said.trim().is_empty() {
                report.broken.push(format!(
                    "web page {}: no note and no error: {said}",
                    entry.id
                ));
            }
            report.refused.push(entry.id.clone());
            continue;
        }
        let text = String::from_utf8(vault.read(&path)).unwrap();
        to_judge.push(Judged {
            id: entry.id.clone(),
            class: entry.class.clone(),
            path,
            written: written_ranges("", &text).0,
            urls: vec![page(&entry.id)],
            property: false,
            expect: None,
        });
    }
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let findings = verdicts[&note.id]["findings"].as_array().unwrap();
        if !findings.is_empty() {
            report
                .live
                .entry(note.class.clone())
                .or_default()
                .push(format!(
                    "{}: {}",
                    note.id,
                    serde_json::to_string(findings).unwrap()
                ));
        }
    }
    eprintln!(
        "FIGURE hostile corpus, web page --save-to: {} pages, {} refused, {} live ({})",
        sample.len(),
        report.refused.len(),
        report.live_count(),
        report.by_class()
    );
    assert_clean(&[("web page --save-to", report)]);
}

/// The judge on real, legitimate text: the offline engine's summaries of the vendored real vault
/// (the note's own sentences, links and code) are written and judged like the corpus; nothing
/// in them may be live. A false alarm of the judge shows here first.
#[test]
fn offline_summaries_of_the_real_vault_are_judged_inert() {
    let vault = TempVault::real();
    let mut originals = BTreeMap::new();
    for entry in walkdir::WalkDir::new(vault.root())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
    {
        let relative = entry
            .path()
            .strip_prefix(vault.root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        originals.insert(
            relative.clone(),
            String::from_utf8(vault.read(&relative)).unwrap(),
        );
    }
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--engine", "local", "--json", "."])
        .output()
        .unwrap();
    let mut to_judge = Vec::new();
    let mut broken = Vec::new();
    for (path, original) in &originals {
        let now = String::from_utf8(vault.read(path)).unwrap();
        if now == *original {
            continue;
        }
        if !now.starts_with(original.as_str()) {
            broken.push(format!(
                "{path}: the note is not its old bytes and a section"
            ));
        }
        let entry = Entry {
            id: path.clone(),
            class: "real vault".to_string(),
            answer: String::new(),
            note: None,
            urls: Vec::new(),
            rollup_answer: None,
            abstract_text: None,
            expect: None,
        };
        to_judge.push(Judged {
            id: path.clone(),
            class: entry.class.clone(),
            path: path.clone(),
            written: written_ranges(original, &now).0,
            urls: source_urls(&entry, original),
            property: false,
            expect: None,
        });
    }
    assert!(
        to_judge.len() >= 50,
        "{} summaries written: {}",
        to_judge.len(),
        String::from_utf8_lossy(&output.stderr)
    );
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let findings = verdicts[&note.id]["findings"].as_array().unwrap();
        if !findings.is_empty() {
            broken.push(format!(
                "{}: {}",
                note.id,
                serde_json::to_string(findings).unwrap()
            ));
        }
    }
    eprintln!(
        "FIGURE hostile corpus, real vault offline: {} summaries judged, {} problems",
        to_judge.len(),
        broken.len()
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The MCP server's writers (`vaultsum mcp` over stdio, rmcp's client): `summarize_file` on a
/// quarter of the corpus, a few calls at a time, and `summarize_notes` with `save_to` on a sample.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_writers_leave_hostile_answers_inert() {
    use futures::StreamExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
    use rmcp::ServiceExt;

    let corpus = entries(HOSTILE);
    let notes: Vec<Entry> = corpus.iter().step_by(4).cloned().collect();
    let rollups: Vec<Entry> = corpus.iter().skip(1).step_by(16).cloned().collect();
    let vault = TempVault::copy_of(&fixture_source());
    let mut originals = BTreeMap::new();
    for (index, entry) in notes.iter().enumerate() {
        let path = format!("{FOLDER}/{}.md", entry.id);
        let text = note_text(entry, index);
        vault.write(&path, &text);
        originals.insert(entry.id.clone(), text);
    }
    for (index, entry) in rollups.iter().enumerate() {
        let text = note_text(entry, index);
        vault.write(&format!("{FOLDER}/{}/Source.md", entry.id), &text);
        originals.insert(format!("rollup {}", entry.id), text);
    }
    vault.write("Rollups/.keep", "");
    let fake = model(
        notes
            .iter()
            .chain(&rollups)
            .map(|e| (e.id.clone(), e.answer.clone()))
            .collect(),
    );
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vaultsum")).configure(|cmd| {
        cmd.arg("--vault")
            .arg(vault.root())
            .arg("mcp")
            .env("XDG_CONFIG_HOME", vault.outside().join("config"))
            .env("XDG_STATE_HOME", vault.outside().join("state"))
            .env("VAULTSUM_CACHE_DIR", vault.outside().join("cache"))
            .env_remove("VAULTSUM_CONFIG")
            .env_remove("KAGI_API_KEY");
        for (key, value) in fake.env() {
            cmd.env(key, value);
        }
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn vaultsum mcp");
    let service = ().serve(transport).await.expect("handshake with the binary");
    let calls = notes
        .iter()
        .map(|e| {
            (
                e.clone(),
                "summarize_file",
                json!({ "path": format!("{FOLDER}/{}.md", e.id) }),
            )
        })
        .chain(rollups.iter().map(|e| {
            (
                e.clone(),
                "summarize_notes",
                json!({
                    "paths": [format!("{FOLDER}/{}", e.id)],
                    "save_to": format!("Rollups/{}.md", e.id),
                }),
            )
        }));
    let client = &service;
    let results: Vec<(Entry, &str, bool, String)> = futures::stream::iter(calls)
        .map(|(entry, tool, arguments)| async move {
            let result = client
                .call_tool(
                    CallToolRequestParams::new(tool.to_string())
                        .with_arguments(arguments.as_object().unwrap().clone()),
                )
                .await
                .expect("tools/call answered");
            let text = result
                .content
                .first()
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone())
                .unwrap_or_default();
            (entry, tool, result.is_error == Some(true), text)
        })
        .buffer_unordered(6)
        .collect()
        .await;
    let mut report = Report::default();
    let mut to_judge = Vec::new();
    for (entry, tool, is_error, text) in &results {
        let (path, original) = if *tool == "summarize_file" {
            (format!("{FOLDER}/{}.md", entry.id), &originals[&entry.id])
        } else {
            (
                format!("Rollups/{}.md", entry.id),
                &originals[&format!("rollup {}", entry.id)],
            )
        };
        let written = vault.root().join(&path);
        if *is_error {
            let unchanged = if *tool == "summarize_file" {
                String::from_utf8(vault.read(&path)).unwrap() == *original
            } else {
                !written.exists()
            };
            if !unchanged || text.trim().is_empty() {
                report.broken.push(format!(
                    "mcp {tool} {}: refused but changed, or no reason",
                    entry.id
                ));
            }
            report.refused.push(format!("{tool} {}: {text}", entry.id));
            continue;
        }
        let now = String::from_utf8(vault.read(&path)).unwrap();
        let ranges = if *tool == "summarize_file" {
            if !now.starts_with(original.as_str()) {
                report.broken.push(format!(
                    "mcp {tool} {}: the note is not its old bytes and a section",
                    entry.id
                ));
            }
            written_ranges(original, &now).0
        } else {
            written_ranges("", &now).0
        };
        to_judge.push(Judged {
            id: format!("{tool} {}", entry.id),
            class: entry.class.clone(),
            path,
            written: ranges,
            urls: source_urls(entry, original),
            property: false,
            expect: None,
        });
    }
    service.cancel().await.unwrap();
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let findings = verdicts[&note.id]["findings"].as_array().unwrap();
        if !findings.is_empty() {
            report
                .live
                .entry(note.class.clone())
                .or_default()
                .push(format!(
                    "{}: {}",
                    note.id,
                    serde_json::to_string(findings).unwrap()
                ));
        }
    }
    eprintln!(
        "FIGURE hostile corpus, MCP summarize_file and summarize_notes save_to: {} calls, {} refused, {} live ({})",
        results.len(),
        report.refused.len(),
        report.live_count(),
        report.by_class()
    );
    assert_clean(&[("mcp", report)]);
}

/// The plugin's "Summarize selection": `summarize_text` with `format: "callout"` over a server
/// started with `--cli-tools`, the selection a note of the corpus. The binary answers a
/// `> [!summary]` block the plugin inserts as it is, so the block, standing alone, is judged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selection_callouts_of_hostile_answers_are_inert() {
    use futures::StreamExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
    use rmcp::ServiceExt;

    let corpus: Vec<Entry> = entries(HOSTILE).into_iter().step_by(2).collect();
    let vault = TempVault::copy_of(&fixture_source());
    // The selection: the note's text, after a line naming the entry (how the fake model knows
    // which answer to give; the request names no note).
    let selections: BTreeMap<String, String> = corpus
        .iter()
        .enumerate()
        .map(|(index, e)| {
            (
                e.id.clone(),
                format!("{FOLDER}/{}\n\n{}", e.id, note_text(e, index)),
            )
        })
        .collect();
    let fake = model(
        corpus
            .iter()
            .map(|e| (e.id.clone(), e.answer.clone()))
            .collect(),
    );
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_vaultsum")).configure(|cmd| {
        cmd.arg("--vault")
            .arg(vault.root())
            .args(["mcp", "--cli-tools"])
            .env("XDG_CONFIG_HOME", vault.outside().join("config"))
            .env("XDG_STATE_HOME", vault.outside().join("state"))
            .env("VAULTSUM_CACHE_DIR", vault.outside().join("cache"))
            .env("VAULTSUM_ENGINE", "llm")
            .env_remove("VAULTSUM_CONFIG")
            .env_remove("KAGI_API_KEY");
        for (key, value) in fake.env() {
            cmd.env(key, value);
        }
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn vaultsum mcp --cli-tools");
    let service = ().serve(transport).await.expect("handshake with the binary");
    let client = &service;
    let results: Vec<(Entry, bool, String)> = futures::stream::iter(corpus.iter().cloned())
        .map(|entry| {
            let text = selections[&entry.id].clone();
            async move {
                let arguments = json!({ "text": text, "format": "callout" });
                let result = client
                    .call_tool(
                        CallToolRequestParams::new("summarize_text")
                            .with_arguments(arguments.as_object().unwrap().clone()),
                    )
                    .await
                    .expect("tools/call answered");
                let text = result
                    .content
                    .first()
                    .and_then(|c| c.as_text())
                    .map(|t| t.text.clone())
                    .unwrap_or_default();
                (entry, result.is_error == Some(true), text)
            }
        })
        .buffer_unordered(6)
        .collect()
        .await;
    service.cancel().await.unwrap();
    assert!(
        results
            .iter()
            .all(|(_, _, text)| !text.contains("fake summary")),
        "every selection got its entry's answer"
    );
    let mut report = Report::default();
    let mut to_judge = Vec::new();
    for (entry, is_error, text) in &results {
        if *is_error {
            if text.trim().is_empty() {
                report
                    .broken
                    .push(format!("callout {}: refused with no reason", entry.id));
            }
            report.refused.push(format!("callout {}: {text}", entry.id));
            continue;
        }
        if !text.starts_with("> [!summary]\n") || !text.lines().all(|l| l.starts_with('>')) {
            report.broken.push(format!(
                "callout {}: not one callout block: {text:?}",
                entry.id
            ));
        }
        let path = format!("{FOLDER}/{}.md", entry.id);
        vault.write(&path, format!("{text}\n"));
        to_judge.push(Judged {
            id: format!("callout {}", entry.id),
            class: entry.class.clone(),
            path,
            written: vec![(0, text.len() + 1)],
            urls: source_urls(entry, &selections[&entry.id]),
            property: false,
            expect: None,
        });
    }
    let verdicts = judge(&vault, &to_judge);
    for note in &to_judge {
        let findings = verdicts[&note.id]["findings"].as_array().unwrap();
        if !findings.is_empty() {
            report
                .live
                .entry(note.class.clone())
                .or_default()
                .push(format!(
                    "{}: {}",
                    note.id,
                    serde_json::to_string(findings).unwrap()
                ));
        }
    }
    eprintln!(
        "FIGURE hostile corpus, selection callouts: {} calls, {} refused, {} live ({})",
        results.len(),
        report.refused.len(),
        report.live_count(),
        report.by_class()
    );
    assert!(
        to_judge.len() * 2 > results.len(),
        "most answers make a callout: {:?}",
        report.refused
    );
    assert_clean(&[("selection callout", report)]);
}
