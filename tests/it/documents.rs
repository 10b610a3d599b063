//! Everything a note embeds becomes text (issue 11), through the real binary: PDFs page by page
//! (`#page=N` alone), office files, sheets and delimited files as tables, canvases with their
//! file cards expanded by the same expander (cycles included), corrupt files as markers,
//! extractions cached outside the vault, and a 1 GB file refused without being read.

use crate::support;

use std::path::{Path, PathBuf};

use support::cli::{run_to_exit, vaultsum};
use support::fingerprints::without_fingerprints;
use support::temp_vault::TempVault;
use vaultsum_core::media::UNCACHED_DOCUMENT_BELOW;

/// A committed document fixture (made by real tools: see `make_fixtures.py` beside them).
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/vaultsum-documents/tests/fixtures")
        .join(name)
}

/// A vault holding `files` copied from the fixtures (`(fixture, vault path)`) and `notes`.
fn vault_with(files: &[(&str, &str)], notes: &[(&str, &str)]) -> TempVault {
    let vault = TempVault::with(notes);
    for (name, target) in files {
        let bytes = std::fs::read(fixture(name)).expect("the fixture is committed");
        vault.write(target, bytes);
    }
    vault
}

/// `vaultsum read PATH` on the vault with the offline engine: (exit code, stdout, stderr).
fn read(vault: &TempVault, path: &str) -> (i32, String, String) {
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["read", path]),
    );
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_pdf_embed_with_a_page_gives_that_page_alone() {
    let vault = vault_with(
        &[("multipage.pdf", "papers/study.pdf")],
        &[("Reading.md", "My notes.\n\n![[study.pdf#page=2]]\n")],
    );
    let (code, text, stderr) = read(&vault, "Reading.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("Methods on page 2"), "{text}");
    assert!(text.contains("Line 1 of page 2 mentions the methods section."));
    assert!(!text.contains("page 1"), "only page 2: {text}");
    assert!(!text.contains("page 3"), "only page 2: {text}");
}

#[test]
fn read_on_a_pdf_gives_every_page_in_labelled_blocks_and_names_a_scanned_page() {
    let vault = vault_with(
        &[
            ("multipage.pdf", "study.pdf"),
            ("scanned.pdf", "receipt.pdf"),
        ],
        &[],
    );
    let (code, text, stderr) = read(&vault, "study.pdf");
    assert_eq!(code, 0, "{stderr}");
    let first = text.find("Introduction on page 1").expect("page 1");
    let third = text.find("Results on page 3").expect("page 3");
    assert!(first < third);
    assert!(text.contains("**Page 2**"), "{text}");

    let (code, scan, _) = read(&vault, "receipt.pdf");
    assert_eq!(code, 0);
    assert!(scan.contains("Cover letter with a real text layer."));
    assert!(scan.contains("no text layer on this page"), "{scan}");
}

#[test]
fn a_text_layer_of_punctuation_is_named_unreadable_not_sent_as_text() {
    // Issue 36: a font without a Unicode map whose codes land on `!"#$%&...` reads as
    // punctuation; the page says its layer is unreadable, and a document of such pages says
    // so once.
    let vault = vault_with(
        &[
            ("punctuation-codes.pdf", "survey.pdf"),
            ("punctuation-codes-only.pdf", "scanned/visit.pdf"),
        ],
        &[(
            "Pump.md",
            "Survey notes.\n\n![[survey.pdf]]\n\n![[visit.pdf]]\n",
        )],
    );
    let (code, text, stderr) = read(&vault, "Pump.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.contains("> This page is set in Helvetica and reads as it is written."),
        "{text}"
    );
    assert_eq!(
        text.matches("text layer unreadable on this page").count(),
        2,
        "pages 2 and 3 of survey.pdf: {text}"
    );
    assert_eq!(
        text.matches("text layer unreadable on every page").count(),
        1,
        "visit.pdf, once: {text}"
    );
    assert!(text.contains("**Pages 1–2**"), "{text}");
    for noise in ["\"&!", "#*", "($-"] {
        assert!(!text.contains(noise), "{noise} in {text}");
    }
}

#[test]
fn office_files_and_sheets_read_as_markdown_with_tables() {
    let vault = vault_with(
        &[
            ("report.docx", "Q3 report.docx"),
            ("budget.xlsx", "budget.xlsx"),
            ("deck.pptx", "deck.pptx"),
            ("contacts.csv", "contacts.csv"),
        ],
        &[(
            "Project.md",
            "# Project\n\n![[Q3 report.docx]]\n\n![[budget.xlsx]]\n\n![[deck.pptx]]\n\n![[contacts.csv]]\n",
        )],
    );
    let (code, text, stderr) = read(&vault, "Project.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("Quarterly report"), "{text}");
    assert!(text.contains("Revenue grew in every region this quarter."));
    assert!(
        text.contains("| Region | Revenue | Growth |"),
        "the DOCX table is a Markdown table: {text}"
    );
    assert!(text.contains("Sheet:"), "each sheet is labelled: {text}");
    assert!(text.contains("Slide 1"), "slides in order: {text}");
    assert!(!text.contains("not supported yet"), "{text}");
}

#[test]
fn a_corrupt_document_is_a_marker_and_the_rest_of_the_note_is_read() {
    let vault = vault_with(
        &[
            ("truncated.pdf", "broken.pdf"),
            ("truncated.docx", "broken.docx"),
            ("truncated.xlsx", "broken.xlsx"),
        ],
        &[(
            "Note.md",
            "Before.\n\n![[broken.pdf]]\n\n![[broken.docx]]\n\n![[broken.xlsx]]\n\nAfter.\n",
        )],
    );
    let (code, text, stderr) = read(&vault, "Note.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(text.contains("Before.") && text.contains("After."));
    assert_eq!(
        text.matches("[Embed failed: ").count(),
        3,
        "each broken file is a marker: {text}"
    );
}

#[test]
fn a_pdf_that_needs_a_password_is_a_marker_saying_so_never_blank_pages() {
    let vault = vault_with(
        &[("encrypted-user-password.pdf", "Contract.pdf")],
        &[("Note.md", "Signed copy:\n\n![[Contract.pdf]]\n")],
    );
    let (code, text, stderr) = read(&vault, "Note.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.contains("[Embed failed: Contract.pdf: ")
            && text.contains("the PDF is encrypted and cannot be read: it needs a password"),
        "{text}"
    );
    assert!(!text.contains("blank page"), "{text}");
    // Read on its own, the PDF is the same marker naming the file, not a page of nothing.
    let (code, text, stderr) = read(&vault, "Contract.pdf");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.contains("[Contract.pdf: cannot read Contract.pdf as a document: ")
            && text.contains("needs a password"),
        "{text}"
    );
    assert!(!text.contains("blank page"), "{text}");
}

#[test]
fn a_pdf_with_acrobat_9_encryption_and_an_empty_password_reads_as_text() {
    // Revision 5 (Acrobat 9's AES-256), which pdf_oxide alone decrypts to empty pages: the empty
    // password is the user's in one file and the owner's in the other.
    let vault = vault_with(
        &[
            ("encrypted-r5-empty-password.pdf", "Handout.pdf"),
            ("encrypted-r5-empty-owner-password.pdf", "Minutes.pdf"),
        ],
        &[(
            "Note.md",
            "Handout:\n\n![[Handout.pdf]]\n\nMinutes:\n\n![[Minutes.pdf]]\n",
        )],
    );
    let (code, text, stderr) = read(&vault, "Note.md");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        text.matches("pdf encryption test").count(),
        2,
        "both files read: {text}"
    );
    assert!(!text.contains("[Embed failed"), "{text}");
}

#[test]
fn a_canvas_reads_its_cards_and_expands_its_file_cards_through_the_same_expander() {
    let canvas = r##"{
      "nodes": [
        {"id": "g", "type": "group", "x": 0, "y": 0, "width": 900, "height": 700, "label": "Launch"},
        {"id": "t", "type": "text", "x": 10, "y": 10, "width": 200, "height": 100, "text": "Ship the beta in May."},
        {"id": "f", "type": "file", "x": 300, "y": 10, "width": 200, "height": 100, "file": "Plans/Risks.md", "subpath": "#Open"},
        {"id": "c", "type": "file", "x": 300, "y": 300, "width": 200, "height": 100, "file": "Plans/Back.md"},
        {"id": "l", "type": "link", "x": 10, "y": 300, "width": 200, "height": 100, "url": "https://example.com/spec"}
      ],
      "edges": [{"id": "e", "fromNode": "t", "toNode": "f", "label": "depends on"}]
    }"##;
    let vault = TempVault::with(&[
        ("Board.canvas", canvas),
        (
            "Plans/Risks.md",
            "# Risks\n\n## Closed\n\nOld risk.\n\n## Open\n\nThe vendor may be late.\n",
        ),
        // A note that embeds the canvas back: a cycle, cut by the expander.
        ("Plans/Back.md", "Back link: ![[Board.canvas]]\n"),
    ]);
    let (code, text, stderr) = read(&vault, "Board.canvas");
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("Ship the beta in May."), "{text}");
    assert!(text.contains("The vendor may be late."), "{text}");
    assert!(
        !text.contains("Old risk."),
        "only the #Open section: {text}"
    );
    assert!(text.contains("https://example.com/spec"));
    assert!(text.contains("Launch"), "group label: {text}");
    assert!(text.contains("depends on"), "edge label: {text}");
    assert!(
        text.contains("[Embed failed: Board.canvas: cycle]"),
        "the cycle is cut: {text}"
    );

    // The same canvas embedded in a note.
    vault.write("Weekly.md", "This week:\n\n![[Board.canvas]]\n");
    let (code, weekly, _) = read(&vault, "Weekly.md");
    assert_eq!(code, 0);
    assert!(weekly.contains("The vendor may be late."), "{weekly}");
}

#[test]
fn an_extraction_is_cached_outside_the_vault_by_content() {
    let vault = vault_with(&[("report.docx", "report.docx")], &[]);
    let (code, first, _) = read(&vault, "report.docx");
    assert_eq!(code, 0);
    let cache = vault.outside().join("cache/media");
    let entries = || -> usize {
        walkdir::WalkDir::new(&cache)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .count()
    };
    assert_eq!(entries(), 1, "one cached extraction");
    let (_, second, _) = read(&vault, "report.docx");
    assert_eq!(first, second);
    assert_eq!(entries(), 1, "served from the cache, not extracted again");
    // Other bytes under the same name: a new extraction.
    vault.write("report.docx", std::fs::read(fixture("bench.docx")).unwrap());
    let (_, third, _) = read(&vault, "report.docx");
    assert_ne!(third, first);
    assert_eq!(entries(), 2);
    assert!(
        walkdir::WalkDir::new(vault.root())
            .into_iter()
            .filter_map(Result::ok)
            .all(|e| e.file_type().is_dir() || e.file_name() == "report.docx"),
        "nothing written in the vault"
    );
}

/// A document's cache entry is not synced to disk (its text is free to make again, a sync is not
/// free); one that a power cut left empty or cut short is extracted again, never served.
#[test]
fn a_document_cache_entry_left_torn_by_a_crash_is_extracted_again() {
    let vault = vault_with(&[("report.docx", "report.docx")], &[]);
    let (code, first, _) = read(&vault, "report.docx");
    assert_eq!(code, 0);
    let entries: Vec<_> = walkdir::WalkDir::new(vault.outside().join("cache/media"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let [entry] = entries.as_slice() else {
        panic!("one cached extraction: {entries:?}")
    };
    let whole = std::fs::read(entry).unwrap();
    for torn in [Vec::new(), whole[..whole.len() / 2].to_vec()] {
        std::fs::write(entry, &torn).unwrap();
        let (code, again, _) = read(&vault, "report.docx");
        assert_eq!(code, 0);
        assert_eq!(again, first, "a torn entry of {} bytes", torn.len());
        assert_eq!(std::fs::read(entry).unwrap(), whole, "stored whole again");
    }
}

#[test]
fn a_small_document_is_extracted_each_time_and_never_cached() {
    let vault = vault_with(
        &[("values.tsv", "values.tsv"), ("report.docx", "report.docx")],
        &[],
    );
    let small = std::fs::metadata(vault.root().join("values.tsv"))
        .unwrap()
        .len();
    assert!(small < UNCACHED_DOCUMENT_BELOW as u64, "{small} bytes");
    let cache = vault.outside().join("cache/media");
    let cached = || {
        walkdir::WalkDir::new(&cache)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .count()
    };
    let (code, first, _) = read(&vault, "values.tsv");
    assert_eq!(code, 0);
    assert!(first.contains("| "), "a table: {first}");
    assert_eq!(cached(), 0, "a small file's text is not cached");
    // Edited, it reads its new text (nothing stale served from anywhere).
    vault.write("values.tsv", "id\tvalue\nzeta\t99\n");
    let (_, second, _) = read(&vault, "values.tsv");
    assert!(second.contains("zeta") && second.contains("99"), "{second}");
    // A larger one in the same vault is cached, as before.
    read(&vault, "report.docx");
    assert_eq!(cached(), 1);
}

/// `read` on a 1 GB file (a sparse PDF and a sparse video) refuses or names it without reading
/// it: the process's peak memory, measured by the kernel for that one process, stays under
/// 100 MB.
#[cfg(target_os = "linux")]
#[test]
fn read_on_a_one_gigabyte_file_stays_under_100_mb_of_memory() {
    let vault = TempVault::new();
    vault.sparse("Attachments/huge.pdf", 1 << 30);
    vault.sparse("Attachments/huge.mp4", 1 << 30);
    vault.write(
        "Note.md",
        "![[huge.pdf]]\n![[huge.mp4]]\n![[huge.pdf#page=1]]\n",
    );
    for path in ["Attachments/huge.pdf", "Attachments/huge.mp4", "Note.md"] {
        let (code, peak_kb, text) = run_measuring_peak_memory(&vault, &["read", path]);
        assert_eq!(code, 0, "{path}: {text}");
        assert!(text.contains("huge"), "{path}: {text}");
        assert!(
            peak_kb < 100 * 1024,
            "{path}: peak memory {peak_kb} KB is over 100 MB"
        );
    }
}

/// Runs the binary with `args` on the vault and returns its exit code, its peak resident memory
/// in KB and its stdout.
///
/// The kernel's peak for a process starts from its parent's at `fork` (and keeps it across
/// `exec`), so the binary is started by a small Python process that forks, execs it and reports
/// what `wait4` says: the test process's own memory never counts.
#[cfg(target_os = "linux")]
fn run_measuring_peak_memory(vault: &TempVault, args: &[&str]) -> (i32, i64, String) {
    const LAUNCHER: &str = "import os, sys\n\
pid = os.fork()\n\
if pid == 0:\n    os.execv(sys.argv[1], sys.argv[1:])\n\
_, status, usage = os.wait4(pid, 0)\n\
sys.stderr.write(f'peak_kb={usage.ru_maxrss} code={os.waitstatus_to_exitcode(status)}\\n')\n";
    let output = std::process::Command::new("python3")
        .env_clear()
        .env("XDG_CONFIG_HOME", vault.outside().join("config"))
        .env("VAULTSUM_CACHE_DIR", vault.outside().join("cache"))
        .args(["-c", LAUNCHER, env!("CARGO_BIN_EXE_vaultsum"), "--vault"])
        .arg(vault.root())
        .args(args)
        .output()
        .expect("python3 runs (CI has it)");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report = stderr
        .lines()
        .find_map(|line| line.strip_prefix("peak_kb="))
        .unwrap_or_else(|| panic!("no report from the launcher: {stderr}"));
    let (peak, code) = report.split_once(" code=").expect("peak and code");
    (
        code.trim().parse().expect("an exit code"),
        peak.parse().expect("a size in KB"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// A recording embedded in a meeting note is transcribed with speakers: the request asks for
/// diarization as Fireworks takes it, and the note reads as speaker turns.
#[test]
fn a_recording_reads_as_speaker_turns_and_the_request_asks_for_diarization() {
    use support::fake_openai::{FakeOpenAi, FakeReply};
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::diarized_transcription(&[
        ("SPEAKER_01", 0.0, 3.5, "Welcome, everyone."),
        ("SPEAKER_01", 3.5, 7.2, "Let us start with the budget."),
        ("SPEAKER_00", 7.2, 12.0, "The budget is approved."),
        ("SPEAKER_01", 3700.0, 3705.0, "Thanks, see you next week."),
    ]));
    let vault = TempVault::with(&[("Meeting.md", "# Standup\n\n![[standup.m4a]]\n")]);
    vault.write("standup.m4a", b"fake m4a bytes");
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--vault")
            .arg(vault.root())
            .args(["read", "Meeting.md"]),
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        text.contains("**Speaker 1** (0:00 - 0:07)"),
        "consecutive segments of one speaker are one turn: {text}"
    );
    assert!(text.contains("Welcome, everyone. Let us start with the budget."));
    assert!(text.contains("**Speaker 2** (0:07 - 0:12)"), "{text}");
    assert!(
        text.contains("**Speaker 1** (1:01:40 - 1:01:45)"),
        "H:MM:SS past an hour: {text}"
    );

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let field = |name: &str| -> Vec<String> {
        requests[0]
            .multipart_fields()
            .into_iter()
            .filter(|f| f.name == name)
            .map(|f| String::from_utf8_lossy(&f.data).into_owned())
            .collect()
    };
    assert_eq!(field("diarize"), ["true"]);
    assert_eq!(field("response_format"), ["verbose_json"]);
    assert_eq!(field("timestamp_granularities[]"), ["word", "segment"]);
}

/// `media.diarize = false`, or a server that ignores diarization and answers `{"text"}`: the
/// plain transcript.
#[test]
fn without_diarization_the_plain_transcript_is_read() {
    use support::fake_openai::{FakeOpenAi, FakeReply};
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::transcription("Plain words, no speakers."));
    fake.push(FakeReply::transcription("Asked without speakers."));
    let vault = TempVault::with(&[("Meeting.md", "![[memo.wav]]\n")]);
    vault.write("memo.wav", b"RIFF one");
    let read = |extra: &[&str]| {
        let output = run_to_exit(
            vaultsum(&vault.outside())
                .envs(fake.env())
                .arg("--vault")
                .arg(vault.root())
                .args(extra)
                .args(["read", "Meeting.md"]),
        );
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(read(&[]).contains("Plain words, no speakers."));

    let config = vault.outside().join("no-diarize.toml");
    std::fs::write(&config, "[media]\ndiarize = false\n").unwrap();
    vault.write("memo.wav", b"RIFF two");
    let text = read(&["--config", config.to_str().unwrap()]);
    assert!(text.contains("Asked without speakers."), "{text}");
    let second = &fake.requests()[1];
    assert!(second.multipart_field("diarize").is_none());
    assert!(second.multipart_field("response_format").is_none());
}

/// What the author wrote about an image stays beside its description or placeholder.
#[tokio::test]
async fn an_image_embed_keeps_its_alt_text() {
    let vault = TempVault::with(&[(
        "Note.md",
        "![A whiteboard photo of the Q3 plan](img/board.png)\n\n![[sketch.png|Sketch of the API]]\n\n![[sketch.png|300]]\n",
    )]);
    vault.write("img/board.png", b"png");
    vault.write("sketch.png", b"png");
    let text = vault.expand("Note.md").await.text;
    assert!(
        text.contains(
            "[Embedded image: img/board.png (alt text: A whiteboard photo of the Q3 plan)]"
        ),
        "{text}"
    );
    assert!(
        text.contains("(alt text: Sketch of the API)"),
        "a wiki alias that is not a size is alt text: {text}"
    );
    assert_eq!(
        text.matches("alt text").count(),
        2,
        "`|300` is a size, not alt text: {text}"
    );
}

/// `summarize-file` on a document writes into its companion note beside it: created with an
/// embed of the document and the summary, appended to (or replaced) on the next run, and an
/// unrelated note at that name is never written.
#[test]
fn summarizing_a_document_writes_its_companion_note_and_never_an_unrelated_one() {
    let vault = vault_with(&[("report.docx", "Work/Q3 report.docx")], &[]);
    let summarize = |extra: &[&str]| {
        let output = run_to_exit(
            vaultsum(&vault.outside())
                .arg("--vault")
                .arg(vault.root())
                .args(["summarize-file", "--engine", "local", "--json"])
                .args(extra)
                .arg("Work/Q3 report.docx"),
        );
        let line = String::from_utf8_lossy(&output.stdout).trim().to_string();
        (output.status.code(), line)
    };
    let companion = "Work/Q3 report.docx (summary).md";

    let (code, line) = summarize(&[]);
    assert_eq!(code, Some(0), "{line}");
    let result: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(result["path"], companion, "the result names the companion");
    let first = without_fingerprints(&String::from_utf8(vault.read(companion)).unwrap());
    assert!(
        first.starts_with("![[Work/Q3 report.docx]]\n\n## Summary\n\n"),
        "{first}"
    );
    assert!(
        first.contains("distributor") || first.contains("Revenue"),
        "{first}"
    );
    assert_eq!(
        std::fs::read(vault.root().join("Work/Q3 report.docx")).unwrap(),
        std::fs::read(fixture("report.docx")).unwrap(),
        "the document itself is never written"
    );

    let (code, _) = summarize(&[]);
    assert_eq!(code, Some(0));
    let second = without_fingerprints(&String::from_utf8(vault.read(companion)).unwrap());
    assert!(second.starts_with(&first), "appended: {second}");
    assert_eq!(second.matches("## Summary").count(), 2);

    let (code, _) = summarize(&["--replace"]);
    assert_eq!(code, Some(0));
    let replaced = String::from_utf8(vault.read(companion)).unwrap();
    assert_eq!(replaced.matches("## Summary").count(), 1, "{replaced}");
    assert!(replaced.starts_with("![[Work/Q3 report.docx]]\n"));

    // Someone's own note at the companion's name, not embedding the document: refused.
    let theirs = "My thoughts on the Q3 report, written by hand.\n";
    vault.write(companion, theirs);
    let (code, line) = summarize(&[]);
    assert_eq!(code, Some(1), "{line}");
    assert!(
        line.contains("not that document's companion note"),
        "{line}"
    );
    assert_eq!(vault.read(companion), theirs.as_bytes());
}

#[test]
fn a_unicode_named_pdf_is_found_by_its_name_and_read() {
    let vault = vault_with(
        &[("Café – résumé.pdf", "CV/Café – résumé.pdf")],
        &[("Hiring.md", "Candidate:\n\n![[Café – résumé.pdf]]\n")],
    );
    let (code, text, stderr) = read(&vault, "Hiring.md");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.contains("[Embedded pdf: CV/Café – résumé.pdf]"),
        "{text}"
    );
    assert!(text.contains("Curriculum"), "{text}");
}
