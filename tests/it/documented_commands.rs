//! Every command line the README and `docs/` show stays true: each one is taken from the
//! Markdown itself, run through the built binary against a copy of the fixture vault, and must
//! exit as documented. A command that needs a key, the network or a long-running service is
//! listed below as skipped, with the reason; a command newly documented and not classified here
//! fails the test, and so does a classification whose command the pages no longer show.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use support::cli::{run_to_exit, vaultsum};
use support::doc_pages::{lines_with_code, pages_with, repository};
use support::temp_vault::TempVault;

/// What a documented command line must do.
enum Documented {
    /// Run against a fresh copy of the fixture vault (with the notes of [`prepared_vault`]),
    /// from the vault's root, with no key: it must exit with this code.
    Exits(i32),
    /// Not run here, and why.
    Skipped(&'static str),
}

use Documented::{Exits, Skipped};

/// Every command line the pages show, as written there (a leading `$ ` prompt left out).
const CLASSIFIED: &[(&str, Documented)] = &[
    // README.md
    (
        "rm -rf /tmp/vaultsum-demo && cp -r vault-fixture /tmp/vaultsum-demo && cargo run -q -- --vault /tmp/vaultsum-demo summarize-file --engine offline Meetings",
        Exits(0),
    ),
    (
        "bash scripts/test.sh",
        Skipped("runs the whole test suite, this test included"),
    ),
    // docs/obsidian-plugin.md
    (
        "bash scripts/wasm-build.sh   # the engine as WebAssembly (target/wasm-pkg/), which main.js inlines",
        Skipped("builds the engine for wasm32 (a toolchain step of a minute; .ci/run runs it before the plugin's tests)"),
    ),
    ("vaultsum doctor", Exits(0)),
    ("vaultsum mcp config claude-desktop --write", Exits(0)),
    ("vaultsum summarize-file Projects/Alpha/Plan.md --dry-run", Exits(0)),
    ("vaultsum summarize-file Projects/Alpha/Plan.md", Exits(0)),
    ("vaultsum summarize-file Projects Meetings", Exits(0)),
    ("vaultsum status", Exits(0)),
    (
        "vaultsum read \"Meetings/2024-03-04 Weekly sync.md\"",
        Exits(0),
    ),
    (
        "vaultsum rollup --from 2024-03-01 --to 2024-03-07",
        Exits(0),
    ),
    (
        "vaultsum mcp",
        Skipped("a server that runs until its client closes it (tests/it/mcp_binary.rs drives it)"),
    ),
    (
        "vaultsum watch",
        Skipped("a service that runs until stopped (tests/it/watch_*.rs drive it)"),
    ),
    // docs/command-line.md
    (
        "vaultsum [--vault DIR] [--config FILE] [-v|-q] <command>",
        Skipped("the synopsis, not a command line"),
    ),
    (
        "vaultsum summarize https://example.com/paper.pdf --type takeaway --engine agnes --lang EN",
        Skipped("needs KAGI_API_KEY and the network (Kagi; tests/it/kagi_cli.rs uses a fake)"),
    ),
    (
        "vaultsum search \"tokio select\" \"rust async cancellation 2025\" --limit 5",
        Skipped("needs KAGI_API_KEY and the network (Kagi; tests/it/kagi_cli.rs uses a fake)"),
    ),
    (
        "vaultsum compact chat.json --keep-last 3 > compacted.json     # stdin when no FILE",
        Exits(0),
    ),
    ("vaultsum config path --json", Exits(0)),
    // docs/configuration.md (the doctor's examples)
    (
        "FIREWORKS_MODEL=accounts/fireworks/models/gpt-oss-12b vaultsum doctor",
        Skipped("its output shows a hosted server's answers: needs FIREWORKS_API_KEY and the network (tests/it/doctor.rs uses a fake)"),
    ),
    // docs/mcp.md
    (
        "vaultsum mcp config CLIENT [--write] [--with-keys] [--file PATH]",
        Skipped("the synopsis, not a command line"),
    ),
    ("vaultsum mcp config cursor --write --with-keys", Exits(0)),
    // docs/rollups.md
    (
        "vaultsum rollup --week 2026-W47            # ISO week, Monday to Sunday",
        Exits(0),
    ),
    (
        "vaultsum rollup Journal --month 2026-11    # a folder and a month",
        Exits(0),
    ),
    (
        "vaultsum rollup --last 7d --tag client     # the last 7 days (UTC) up to today, nested tags",
        Exits(0),
    ),
    ("vaultsum rollup --links-of Projects/Hub.md --depth 2", Exits(0)),
    (
        "vaultsum rollup --week 2026-W47 --dry-run  # the selection and the paid calls, none made",
        Exits(0),
    ),
    (
        "vaultsum rollup --week 2026-W47 --save-to \"Reviews/2026-W47.md\" --prompt journal",
        Exits(0),
    ),
];

/// The first command of the README makes its own copy of the fixture vault; the test makes
/// that copy itself (a temp folder, never `/tmp/vaultsum-demo`) and runs the rest.
const DEMO_COPY: &str = "rm -rf /tmp/vaultsum-demo && cp -r vault-fixture /tmp/vaultsum-demo && ";
const DEMO_VAULT: &str = "/tmp/vaultsum-demo";

/// The pages a newcomer and a user read: the README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    pages_with(&[])
}

/// Whether a line is a command someone would type: `vaultsum …`, possibly after variables set
/// for it, or one of the repository's own commands.
fn is_command(line: &str) -> bool {
    let mut rest = line;
    while let Some((word, after)) = rest.split_once(' ') {
        let is_assignment = word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        });
        if !is_assignment {
            break;
        }
        rest = after;
    }
    rest == "vaultsum"
        || ["vaultsum ", "cargo ", "bash scripts/", "rm -rf "]
            .iter()
            .any(|start| rest.starts_with(start))
}

/// The command lines of one page: lines of its code blocks (fenced, or indented four spaces)
/// that are commands, and, in the README, inline code spans that are `vaultsum` command lines.
fn command_lines(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).expect("page reads");
    let is_readme = page.file_name().is_some_and(|name| name == "README.md");
    let mut found = Vec::new();
    for (line, code) in lines_with_code(&text) {
        let trimmed = line.trim_start();
        if code {
            let command = trimmed.strip_prefix("$ ").unwrap_or(trimmed).trim_end();
            if is_command(command) {
                found.push(command.to_string());
            }
        } else if is_readme {
            found.extend(
                line.split('`')
                    .skip(1)
                    .step_by(2)
                    .filter(|span| span.starts_with("vaultsum "))
                    .map(str::to_string),
            );
        }
    }
    found
}

/// A command line as the words a shell would pass, and where its stdout goes: quotes taken
/// off, a `# comment` left out, `> FILE` taken as the redirection it is.
fn words(line: &str) -> (Vec<String>, Option<String>) {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(open) if c == open => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None if c == '#' && !in_word => break,
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line:?}");
    if in_word {
        words.push(word);
    }
    let redirect = match words.iter().position(|w| w == ">") {
        Some(at) => {
            assert_eq!(at + 2, words.len(), "`> FILE` ends the line: {line:?}");
            let file = words.pop();
            words.pop();
            file
        }
        None => None,
    };
    (words, redirect)
}

/// Days since 1970-01-01 as a civil date (Howard Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn today_utc() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs();
    civil_date(i64::try_from(seconds / 86_400).expect("days fit"))
}

/// A copy of the fixture vault with what the documented examples name and the fixture lacks:
/// daily notes in the week, month and last days the rollup examples choose (tagged `#client`),
/// the hub `Projects/Hub.md`, the folder `Reviews/`, and the transcript `chat.json`.
fn prepared_vault() -> TempVault {
    let vault = TempVault::copy_of(&repository().join("vault-fixture"));
    let today = today_utc();
    let daily = |date: &str| {
        format!(
            "---\ndate: {date}\n---\n# {date}\n\nMet the client about the van rental. \
             Dana will send the quote by Friday; the client wants a decision next week.\n\n\
             - [ ] Call Dana about the van #client/acme\n"
        )
    };
    vault.write("Journal/2026-11-18.md", daily("2026-11-18"));
    vault.write(&format!("Journal/{today}.md"), daily(&today));
    vault.write(
        "Projects/Hub.md",
        "# Hub\n\nThe projects: [[Alpha/Plan]] and the journal [[Journal/2026-11-18]].\n",
    );
    std::fs::create_dir_all(vault.root().join("Reviews")).expect("Reviews/");
    let transcript = serde_json::json!([
        {"role": "user", "content": "What is in the plan?"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "read_file", "arguments": "{\"path\":\"Projects/Alpha/Plan.md\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "# Project Alpha\n\nAn offline-first app."},
        {"role": "assistant", "content": "An offline-first app."}
    ]);
    vault.write("chat.json", transcript.to_string());
    vault
}

/// Runs one documented command line as a person would from the vault's root, with no key, a
/// home folder of its own (so `mcp config --write` writes there) and nothing from the
/// developer's shell.
fn run(line: &str, vault: &TempVault) -> std::process::Output {
    let line = line.strip_prefix(DEMO_COPY).unwrap_or(line);
    let (mut words, redirect) = words(line);
    if words.starts_with(&["cargo", "run", "-q", "--"].map(String::from)) {
        words = std::iter::once("vaultsum".to_string())
            .chain(words.into_iter().skip(4))
            .collect();
    }
    assert_eq!(
        words.first().map(String::as_str),
        Some("vaultsum"),
        "{line:?}"
    );
    for word in &mut words {
        if word == DEMO_VAULT {
            *word = vault.root().to_string_lossy().into_owned();
        }
    }
    let home = vault.outside().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let mut command = vaultsum(&vault.outside());
    command
        .current_dir(vault.root())
        .env("HOME", &home)
        .env("USERPROFILE", &home)
        .env("APPDATA", home.join("AppData/Roaming"))
        .env("LOCALAPPDATA", home.join("AppData/Local"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("CODEX_HOME")
        .args(&words[1..]);
    let output = run_to_exit(&mut command);
    if let Some(file) = redirect {
        std::fs::write(vault.root().join(file), &output.stdout).expect("redirected stdout");
    }
    output
}

#[test]
fn every_documented_command_line_is_classified_and_every_classification_is_documented() {
    let documented: BTreeSet<String> = pages()
        .iter()
        .flat_map(|page| command_lines(page))
        .collect();
    let classified: BTreeSet<String> = CLASSIFIED
        .iter()
        .map(|(line, _)| line.to_string())
        .collect();
    let unclassified: Vec<&String> = documented.difference(&classified).collect();
    let gone: Vec<&String> = classified.difference(&documented).collect();
    assert!(
        unclassified.is_empty(),
        "command lines the README or docs/ show that this test does not know: add each to \
         CLASSIFIED in tests/it/documented_commands.rs, run or skipped with the reason: {unclassified:#?}"
    );
    assert!(
        gone.is_empty(),
        "CLASSIFIED names command lines no page shows any more: {gone:#?}"
    );
}

#[test]
fn every_documented_command_line_that_runs_offline_exits_as_documented() {
    let mut wrong = Vec::new();
    for (line, documented) in CLASSIFIED {
        let code = match documented {
            Exits(code) => code,
            Skipped(why) => {
                eprintln!("skipped: {line}: {why}");
                continue;
            }
        };
        let vault = prepared_vault();
        let output = run(line, &vault);
        if output.status.code() != Some(*code) {
            wrong.push(format!(
                "{line}\n  exit {:?}, documented {code}\n  stdout: {}\n  stderr: {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_readme_first_command_summarizes_both_meeting_notes_of_the_copy() {
    let (line, _) = CLASSIFIED[0];
    let vault = prepared_vault();
    let meetings = [
        "Meetings/2024-03-04 Weekly sync.md",
        "Meetings/2024-03-11 Vendor call.md",
    ];
    let before: Vec<Vec<u8>> = meetings.iter().map(|note| vault.read(note)).collect();
    let output = run(line, &vault);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for (note, original) in meetings.iter().zip(before) {
        let now = vault.read(note);
        assert!(now.starts_with(&original), "{note} lost bytes");
        assert!(
            String::from_utf8_lossy(&now[original.len()..]).contains("## Summary"),
            "{note} got no summary"
        );
    }
    // The last line of stderr is the batch's closing line (its wording is not pinned here).
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .lines()
            .last()
            .is_some_and(|last| last.starts_with("vaultsum: 2 notes: 2 summarized")),
        "{stderr}"
    );
}

#[test]
fn documented_output_redirection_writes_the_compacted_transcript() {
    let line = CLASSIFIED
        .iter()
        .map(|(line, _)| *line)
        .find(|line| line.starts_with("vaultsum compact "))
        .expect("the compact example is classified");
    let vault = prepared_vault();
    let output = run(line, &vault);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let compacted: serde_json::Value =
        serde_json::from_slice(&vault.read("compacted.json")).expect("compacted.json is JSON");
    assert_eq!(compacted.as_array().map(Vec::len), Some(4), "{compacted}");
}

#[test]
fn civil_dates_are_counted_from_1970() {
    assert_eq!(civil_date(0), "1970-01-01");
    assert_eq!(civil_date(20_780), "2026-11-23");
    assert_eq!(civil_date(11_016), "2000-02-29");
}
