//! Summaries that know whether they are current, through the real binary: a folder run skips
//! notes whose summary is current (and asks the model nothing for them), `--refresh` replaces
//! stale summaries but never one edited by hand, summaries written before fingerprints count
//! as current unless `--refresh-unmarked`, a note named alone keeps the append contract, and
//! `vaultsum status` says which summaries are current, stale, edited, unmarked or missing.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};
use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;

const WEEKLY: &str = "Meetings/2024-03-04 Weekly sync.md";
const VENDOR: &str = "Meetings/2024-03-11 Vendor call.md";
const MEETINGS: [&str; 2] = [WEEKLY, VENDOR];
/// A sentence of the vendor call's body, edited by the tests that make its summary stale.
const VENDOR_SENTENCE: &str = "They blamed a certification delay for the new firmware.";
const FIRST: &str = "### Key Points\n\n- First-run summary.";
const SECOND: &str = "### Key Points\n\n- Second-run summary.";

const UP_TO_DATE: &str = "up to date";
const STALE: &str = "summary is stale; refresh to replace it";
const EDITED: &str = "summary edited by hand";

fn fixture() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

/// How a run summarizes: the fake model, or the offline engine.
#[derive(Clone, Copy)]
enum Engine<'a> {
    Fake(&'a FakeOpenAi),
    Local,
}

/// `vaultsum --vault V summarize-file --json ARGS`: exit success and the result lines by path.
fn summarize(vault: &TempVault, engine: Engine, args: &[&str]) -> (bool, BTreeMap<String, Value>) {
    let mut command = vaultsum(&vault.outside());
    command
        .arg("--vault")
        .arg(vault.root())
        .arg("summarize-file");
    match engine {
        Engine::Fake(fake) => {
            command.envs(fake.env());
        }
        Engine::Local => {
            command.args(["--engine", "local"]);
        }
    }
    let output = command
        .arg("--json")
        .args(args)
        .output()
        .expect("vaultsum runs");
    let mut lines = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let value: Value = serde_json::from_str(line).expect("a JSON line");
        let path = value["path"].as_str().expect("a path").to_string();
        assert!(lines.insert(path, value).is_none(), "one line per note");
    }
    (output.status.success(), lines)
}

/// [`summarize`] that must succeed.
fn summarize_ok(vault: &TempVault, engine: Engine, args: &[&str]) -> BTreeMap<String, Value> {
    let (success, lines) = summarize(vault, engine, args);
    assert!(success, "{args:?}: {lines:?}");
    lines
}

fn skipped(why: &str, path: &str) -> Value {
    json!({ "success": true, "path": path, "skipped": why })
}

/// The chat completions the fake has answered so far.
fn chats(fake: &FakeOpenAi) -> usize {
    fake.requests()
        .iter()
        .filter(|request| request.path == "/v1/chat/completions")
        .count()
}

fn text(vault: &TempVault, path: &str) -> String {
    String::from_utf8(vault.read(path)).unwrap()
}

fn snapshot(vault: &TempVault, paths: &[&str]) -> Vec<Vec<u8>> {
    paths.iter().map(|path| vault.read(path)).collect()
}

/// The text of the note's last `## Summary` section after its fingerprint line, and that line.
fn last_section(note: &str) -> (String, String) {
    let note = lf(note);
    let section = note.rsplit("## Summary\n").next().unwrap();
    let (marker, rest) = section.split_once('\n').unwrap();
    (rest.trim().to_string(), marker.to_string())
}

/// `text` with LF line ends (the vendor call note is CRLF).
fn lf(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// `vaultsum status --json [PATH]`: the note lines by path, and the counts line.
fn status_json(vault: &TempVault, path: Option<&str>) -> (BTreeMap<String, Value>, Value) {
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["status", "--json"])
        .args(path)
        .assert()
        .success()
        .get_output()
        .clone();
    let mut lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let counts = lines.pop().expect("a counts line");
    let notes = lines
        .into_iter()
        .map(|line| (line["path"].as_str().unwrap().to_string(), line))
        .collect();
    (notes, counts)
}

fn state_of(vault: &TempVault, path: &str) -> (String, String, String) {
    let (notes, _) = status_json(vault, Some(path));
    let line = &notes[path];
    (
        line["state"].as_str().unwrap().to_string(),
        line["section"].as_str().unwrap().to_string(),
        line["property"].as_str().unwrap().to_string(),
    )
}

fn current_section() -> (String, String, String) {
    ("current".into(), "current".into(), "missing".into())
}

#[test]
fn a_second_folder_run_asks_the_model_nothing_and_changes_nothing() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(FIRST));
    let first = summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    assert_eq!(first.len(), 2, "{first:?}");
    for path in MEETINGS {
        assert_eq!(first[path]["success"], true, "{first:?}");
        assert!(first[path].get("skipped").is_none(), "{first:?}");
        assert_eq!(state_of(&vault, path), current_section());
    }
    let asked = chats(&fake);
    assert!(asked >= 2, "one call per note at least: {asked}");
    let after_first = snapshot(&vault, &MEETINGS);

    let second = summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    assert_eq!(chats(&fake), asked, "the second run made no chat request");
    for path in MEETINGS {
        assert_eq!(second[path], skipped(UP_TO_DATE, path));
    }
    assert_eq!(snapshot(&vault, &MEETINGS), after_first);
}

#[test]
fn a_second_offline_folder_run_changes_nothing() {
    let vault = fixture();
    summarize_ok(&vault, Engine::Local, &["Meetings"]);
    let after_first = snapshot(&vault, &MEETINGS);
    for path in MEETINGS {
        assert_eq!(text(&vault, path).matches("## Summary").count(), 1);
    }
    let second = summarize_ok(&vault, Engine::Local, &["Meetings"]);
    for path in MEETINGS {
        assert_eq!(second[path], skipped(UP_TO_DATE, path));
    }
    assert_eq!(snapshot(&vault, &MEETINGS), after_first);
}

#[test]
fn an_edited_note_is_stale_until_refresh_replaces_its_summary() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(FIRST));
    summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    let summarized = text(&vault, VENDOR);
    let (_, first_marker) = last_section(&summarized);
    let edited = summarized.replace(
        VENDOR_SENTENCE,
        "They blamed a certification delay and a supplier change.",
    );
    assert_ne!(edited, summarized);
    vault.write(VENDOR, &edited);
    assert_eq!(
        state_of(&vault, VENDOR),
        ("stale".into(), "stale".into(), "missing".into())
    );

    // Without --refresh: the stale summary is left, said so, and nothing is asked.
    let asked = chats(&fake);
    let before = snapshot(&vault, &MEETINGS);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    assert_eq!(run[VENDOR], skipped(STALE, VENDOR));
    assert_eq!(run[WEEKLY], skipped(UP_TO_DATE, WEEKLY));
    assert_eq!(chats(&fake), asked);
    assert_eq!(snapshot(&vault, &MEETINGS), before);

    // With --refresh: replaced (one section, the new text, a new fingerprint), the edit kept;
    // the current note is still skipped.
    fake.set_fallback(FakeReply::chat(SECOND));
    let weekly_before = vault.read(WEEKLY);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["--refresh", "Meetings"]);
    assert_eq!(run[WEEKLY], skipped(UP_TO_DATE, WEEKLY));
    assert_eq!(run[VENDOR]["success"], true, "{run:?}");
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    assert!(chats(&fake) > asked, "the stale note was summarized again");
    assert_eq!(vault.read(WEEKLY), weekly_before);
    let refreshed = text(&vault, VENDOR);
    assert_eq!(refreshed.matches("## Summary").count(), 1, "{refreshed}");
    assert!(!refreshed.contains("First-run summary"), "{refreshed}");
    let (summary, marker) = last_section(&refreshed);
    assert_eq!(summary, SECOND);
    assert_ne!(marker, first_marker);
    assert!(marker.starts_with("<!-- vaultsum: note="), "{marker}");
    let (edited_lf, refreshed_lf) = (lf(&edited), lf(&refreshed));
    let (body, _) = edited_lf.split_once("\n## Summary\n").unwrap();
    let (new_body, _) = refreshed_lf.split_once("\n## Summary\n").unwrap();
    assert_eq!(new_body.trim_end(), body.trim_end(), "the body is kept");
    assert_eq!(state_of(&vault, VENDOR), current_section());

    // And the refreshed summary is current: a further refresh asks nothing.
    let asked = chats(&fake);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["--refresh", "Meetings"]);
    assert_eq!(run[VENDOR], skipped(UP_TO_DATE, VENDOR));
    assert_eq!(chats(&fake), asked);
}

#[test]
fn a_summary_edited_by_hand_is_never_refreshed() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(FIRST));
    summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    let summarized = text(&vault, WEEKLY);
    let by_hand = summarized.replace("- First-run summary.", "- First-run summary, corrected.");
    assert_ne!(by_hand, summarized);
    vault.write(WEEKLY, &by_hand);
    assert_eq!(
        state_of(&vault, WEEKLY),
        ("edited".into(), "edited".into(), "missing".into())
    );
    fake.set_fallback(FakeReply::chat(SECOND));
    let asked = chats(&fake);
    for args in [&["--refresh", "Meetings"][..], &["Meetings"][..]] {
        let run = summarize_ok(&vault, Engine::Fake(&fake), args);
        assert_eq!(run[WEEKLY], skipped(EDITED, WEEKLY), "{args:?}");
        assert_eq!(run[VENDOR], skipped(UP_TO_DATE, VENDOR), "{args:?}");
        assert_eq!(text(&vault, WEEKLY), by_hand, "{args:?}");
    }
    // Edited by hand and then the body too: still the person's summary.
    let both = by_hand.replace("flat battery", "flat battery or a crash");
    assert_ne!(both, by_hand);
    vault.write(WEEKLY, &both);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["--refresh", "Meetings"]);
    assert_eq!(run[WEEKLY], skipped(EDITED, WEEKLY));
    assert_eq!(text(&vault, WEEKLY), both);
    assert_eq!(chats(&fake), asked, "no call for a note left as it is");
}

#[test]
fn an_unmarked_summary_is_left_until_refresh_unmarked() {
    let vault = fixture();
    let old = "Meetings/2024-02-26 Kickoff.md";
    let old_text = "# Kickoff\n\nWe picked the blue supplier and set the launch for June.\n\n## Summary\n\n- An old summary, written before fingerprints.\n";
    vault.write(old, old_text);
    assert_eq!(
        state_of(&vault, old),
        ("unmarked".into(), "unmarked".into(), "missing".into())
    );
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(FIRST));
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["Meetings"]);
    assert_eq!(run[old], skipped(UP_TO_DATE, old));
    assert_eq!(run[WEEKLY]["success"], true);
    assert!(run[WEEKLY].get("skipped").is_none());
    assert_eq!(text(&vault, old), old_text);

    let asked = chats(&fake);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &["--refresh", "Meetings"]);
    for path in [old, WEEKLY, VENDOR] {
        assert_eq!(run[path], skipped(UP_TO_DATE, path));
    }
    assert_eq!(text(&vault, old), old_text);
    assert_eq!(chats(&fake), asked);

    fake.set_fallback(FakeReply::chat(SECOND));
    let current = snapshot(&vault, &MEETINGS);
    let run = summarize_ok(
        &vault,
        Engine::Fake(&fake),
        &["--refresh-unmarked", "Meetings"],
    );
    assert_eq!(run[old]["success"], true, "{run:?}");
    assert!(run[old].get("skipped").is_none(), "{run:?}");
    for path in MEETINGS {
        assert_eq!(run[path], skipped(UP_TO_DATE, path));
    }
    assert_eq!(chats(&fake), asked + 1, "one call, for the unmarked note");
    assert_eq!(snapshot(&vault, &MEETINGS), current);
    let replaced = text(&vault, old);
    assert_eq!(replaced.matches("## Summary").count(), 1, "{replaced}");
    assert!(!replaced.contains("An old summary"), "{replaced}");
    assert!(replaced
        .starts_with("# Kickoff\n\nWe picked the blue supplier and set the launch for June.\n"));
    assert_eq!(last_section(&replaced).0, SECOND);
    assert_eq!(state_of(&vault, old), current_section());
}

#[test]
fn a_note_named_alone_appends_again_unless_replace() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(FIRST));
    let original = text(&vault, VENDOR);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &[VENDOR]);
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    let once = text(&vault, VENDOR);
    assert!(once.starts_with(&original));

    // Current, but named alone: summarized and appended as before fingerprints.
    fake.set_fallback(FakeReply::chat(SECOND));
    let asked = chats(&fake);
    let run = summarize_ok(&vault, Engine::Fake(&fake), &[VENDOR]);
    assert_eq!(run[VENDOR]["success"], true);
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    assert!(chats(&fake) > asked);
    let twice = text(&vault, VENDOR);
    assert!(twice.starts_with(&once), "the first summary is kept whole");
    assert_eq!(twice.matches("## Summary").count(), 2);
    assert_eq!(last_section(&twice).0, SECOND);

    let run = summarize_ok(&vault, Engine::Fake(&fake), &["--replace", VENDOR]);
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    let replaced = text(&vault, VENDOR);
    assert_eq!(replaced.matches("## Summary").count(), 1, "{replaced}");
    assert!(!replaced.contains("First-run summary"));
    assert_eq!(last_section(&replaced).0, SECOND);
    assert!(replaced.starts_with(original.trim_end()));
    assert_eq!(state_of(&vault, VENDOR), current_section());
}

/// A vault with one note in each state (two current: by section and by property).
fn vault_of_every_state() -> TempVault {
    let body = |topic: &str| {
        format!("# {topic}\n\nThe team met about the {topic} and agreed to ship the inspection app on Monday. Dana will test the camera order with two technicians on Thursday.\n")
    };
    let vault = TempVault::new();
    for (path, topic) in [
        ("a current.md", "budget"),
        ("b stale.md", "schedule"),
        ("c edited.md", "vendor"),
        ("f property.md", "hiring"),
    ] {
        vault.write(path, body(topic));
    }
    vault.write(
        "d unmarked.md",
        format!(
            "{}\n## Summary\n\n- Written by hand long ago.\n",
            body("risks")
        ),
    );
    vault.write("e missing.md", body("launch"));
    summarize_ok(
        &vault,
        Engine::Local,
        &["a current.md", "b stale.md", "c edited.md"],
    );
    summarize_ok(
        &vault,
        Engine::Local,
        &["--into", "property", "f property.md"],
    );
    // The body edited, not the summary (which may quote the same sentence).
    let stale = text(&vault, "b stale.md").replacen("on Monday", "on Tuesday", 1);
    assert!(stale.find("on Tuesday") < stale.find("## Summary"));
    vault.write("b stale.md", stale);
    let edited = text(&vault, "c edited.md");
    let (before, section) = edited.split_once("## Summary\n").unwrap();
    let (marker, summary) = section.split_once('\n').unwrap();
    vault.write(
        "c edited.md",
        format!("{before}## Summary\n{marker}\n{summary}- A point added by hand.\n"),
    );
    vault
}

#[test]
fn status_says_the_state_of_each_summary_and_counts_them() {
    let vault = vault_of_every_state();
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .arg("status")
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "STATE     SECTION   PROPERTY  NOTE\n\
         current   current   missing   a current.md\n\
         stale     stale     missing   b stale.md\n\
         edited    edited    missing   c edited.md\n\
         unmarked  unmarked  missing   d unmarked.md\n\
         missing   missing   missing   e missing.md\n\
         current   missing   current   f property.md\n\
         6 notes: 2 current, 1 stale, 1 edited, 1 unmarked, 1 missing\n"
    );

    let (notes, counts) = status_json(&vault, None);
    let expected = [
        ("a current.md", "present", "current", "current", "missing"),
        ("b stale.md", "present", "stale", "stale", "missing"),
        ("c edited.md", "present", "edited", "edited", "missing"),
        (
            "d unmarked.md",
            "present",
            "unmarked",
            "unmarked",
            "missing",
        ),
        ("e missing.md", "missing", "missing", "missing", "missing"),
        ("f property.md", "present", "current", "missing", "current"),
    ];
    assert_eq!(notes.len(), expected.len(), "{notes:?}");
    for (path, summary, state, section, property) in expected {
        assert_eq!(
            notes[path],
            json!({
                "path": path,
                "summary": summary,
                "state": state,
                "section": section,
                "property": property,
            })
        );
    }
    assert_eq!(
        counts,
        json!({"counts": {"notes": 6, "current": 2, "stale": 1, "edited": 1, "unmarked": 1, "missing": 1, "left_out": {}}})
    );

    // One note: its line and a count line of one.
    let (notes, counts) = status_json(&vault, Some("b stale.md"));
    assert_eq!(notes.keys().collect::<Vec<_>>(), ["b stale.md"]);
    assert_eq!(counts["counts"]["notes"], 1);
    assert_eq!(counts["counts"]["stale"], 1);

    // A folder run does what status says: writes the missing one, skips the rest.
    let run = summarize_ok(&vault, Engine::Local, &["."]);
    assert_eq!(run["a current.md"], skipped(UP_TO_DATE, "a current.md"));
    assert_eq!(run["b stale.md"], skipped(STALE, "b stale.md"));
    assert_eq!(run["c edited.md"], skipped(EDITED, "c edited.md"));
    assert_eq!(run["d unmarked.md"], skipped(UP_TO_DATE, "d unmarked.md"));
    assert!(run["e missing.md"].get("skipped").is_none(), "{run:?}");
    // A note summarized into the property alone has no section yet: a section run writes it.
    assert!(run["f property.md"].get("skipped").is_none(), "{run:?}");
    let (_, counts) = status_json(&vault, None);
    assert_eq!(
        counts,
        json!({"counts": {"notes": 6, "current": 3, "stale": 1, "edited": 1, "unmarked": 1, "missing": 0, "left_out": {}}})
    );
}

#[test]
fn status_on_the_real_vault_counts_what_a_folder_run_summarized() {
    let vault = TempVault::real();
    let folder = "Getting Started";
    let (before, before_counts) = status_json(&vault, None);
    let total = before_counts["counts"]["notes"].as_u64().unwrap();
    assert_eq!(before.len() as u64, total);
    assert!(total > 100, "{before_counts}");
    let (in_folder, _) = status_json(&vault, Some(folder));
    assert!(in_folder.len() >= 20, "{}", in_folder.len());

    let (_, run) = summarize(&vault, Engine::Local, &[folder]);
    assert_eq!(
        run.len(),
        in_folder.len(),
        "one line per note of the folder"
    );
    let written: Vec<&String> = run
        .iter()
        .filter(|(_, line)| line["success"] == true && line.get("skipped").is_none())
        .map(|(path, _)| path)
        .collect();
    assert!(written.len() >= 20, "{run:?}");

    let (after, counts) = status_json(&vault, None);
    let current_before = before_counts["counts"]["current"].as_u64().unwrap();
    assert_eq!(
        counts["counts"]["current"].as_u64().unwrap(),
        current_before + written.len() as u64,
        "{counts}"
    );
    assert_eq!(counts["counts"]["notes"].as_u64().unwrap(), total);
    for path in &written {
        assert_eq!(after[*path]["state"], "current", "{path}");
        assert_eq!(before[*path]["state"], "missing", "{path}");
    }
    // Everything outside the folder is as it was.
    for (path, line) in &before {
        if !path.starts_with(&format!("{folder}/")) {
            assert_eq!(&after[path], line, "{path}");
        }
    }
    // And a second run over the folder writes nothing.
    let (_, again) = summarize(&vault, Engine::Local, &[folder]);
    for path in &written {
        assert_eq!(again[*path], skipped(UP_TO_DATE, path));
    }
}

#[test]
fn property_summaries_are_current_until_the_note_changes() {
    let vault = fixture();
    let run = summarize_ok(&vault, Engine::Local, &["--into", "property", "Meetings"]);
    for path in MEETINGS {
        assert_eq!(run[path]["success"], true, "{run:?}");
        assert_eq!(run[path]["into"], "property", "{run:?}");
        assert!(!text(&vault, path).contains("## Summary"));
        assert_eq!(
            state_of(&vault, path),
            ("current".into(), "missing".into(), "current".into())
        );
    }
    let after_first = snapshot(&vault, &MEETINGS);
    let run = summarize_ok(&vault, Engine::Local, &["--into", "property", "Meetings"]);
    for path in MEETINGS {
        assert_eq!(run[path], skipped(UP_TO_DATE, path));
    }
    assert_eq!(snapshot(&vault, &MEETINGS), after_first);

    let summarized = text(&vault, VENDOR);
    let print_line = |note: &str| {
        note.lines()
            .find(|line| line.starts_with("summary_fingerprint: "))
            .expect("a fingerprint property")
            .to_string()
    };
    let first_print = print_line(&summarized);
    let edited = summarized.replace(VENDOR_SENTENCE, "They blamed the new firmware.");
    assert_ne!(edited, summarized);
    vault.write(VENDOR, &edited);
    assert_eq!(
        state_of(&vault, VENDOR),
        ("stale".into(), "missing".into(), "stale".into())
    );
    let run = summarize_ok(&vault, Engine::Local, &["--into", "property", "Meetings"]);
    assert_eq!(run[VENDOR], skipped(STALE, VENDOR));
    assert_eq!(run[WEEKLY], skipped(UP_TO_DATE, WEEKLY));
    assert_eq!(text(&vault, VENDOR), edited);

    let run = summarize_ok(
        &vault,
        Engine::Local,
        &["--into", "property", "--refresh", "Meetings"],
    );
    assert_eq!(run[WEEKLY], skipped(UP_TO_DATE, WEEKLY));
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    let refreshed = text(&vault, VENDOR);
    assert_ne!(print_line(&refreshed), first_print);
    assert_eq!(refreshed.matches("summary_fingerprint:").count(), 1);
    assert_eq!(refreshed.matches("\nsummary:").count(), 1);
    assert_eq!(
        state_of(&vault, VENDOR),
        ("current".into(), "missing".into(), "current".into())
    );
    // The body below the frontmatter is the edited one, untouched.
    let body = |note: &str| note.splitn(3, "---\r\n").nth(2).unwrap().to_string();
    assert_eq!(body(&refreshed), body(&edited));

    // A section run over the same folder writes the missing sections; the properties stay.
    let run = summarize_ok(&vault, Engine::Local, &["Meetings"]);
    for path in MEETINGS {
        assert!(run[path].get("skipped").is_none(), "{run:?}");
        assert_eq!(
            state_of(&vault, path),
            ("current".into(), "current".into(), "current".into())
        );
    }
}

#[test]
fn a_property_edited_by_hand_or_written_before_fingerprints_is_left() {
    let vault = fixture();
    summarize_ok(&vault, Engine::Local, &["--into", "property", "Meetings"]);
    // The weekly sync's abstract rewritten by hand (the fingerprint line left as it was).
    let summarized = text(&vault, WEEKLY);
    let line = summarized
        .lines()
        .find(|line| line.starts_with("summary: "))
        .expect("a summary property")
        .to_string();
    let by_hand = summarized.replace(&line, "summary: \"My own abstract.\"");
    vault.write(WEEKLY, &by_hand);
    assert_eq!(
        state_of(&vault, WEEKLY),
        ("edited".into(), "missing".into(), "edited".into())
    );
    // The vendor call's property made a plain one, as a person writes it (no fingerprint).
    let vendor = text(&vault, VENDOR);
    let plain: String = vendor
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("summary"))
        .collect::<String>()
        .replacen(
            "type: meeting\r\n",
            "type: meeting\r\nsummary: Mine.\r\n",
            1,
        );
    assert_ne!(plain, vendor);
    vault.write(VENDOR, &plain);
    assert_eq!(
        state_of(&vault, VENDOR),
        ("unmarked".into(), "missing".into(), "unmarked".into())
    );

    let run = summarize_ok(
        &vault,
        Engine::Local,
        &["--into", "property", "--refresh", "Meetings"],
    );
    assert_eq!(run[WEEKLY], skipped(EDITED, WEEKLY));
    assert_eq!(run[VENDOR], skipped(UP_TO_DATE, VENDOR));
    assert_eq!(text(&vault, WEEKLY), by_hand);
    assert_eq!(text(&vault, VENDOR), plain);

    let run = summarize_ok(
        &vault,
        Engine::Local,
        &["--into", "property", "--refresh-unmarked", "Meetings"],
    );
    assert_eq!(run[WEEKLY], skipped(EDITED, WEEKLY));
    assert!(run[VENDOR].get("skipped").is_none(), "{run:?}");
    let replaced = text(&vault, VENDOR);
    assert!(!replaced.contains("summary: Mine."), "{replaced}");
    assert_eq!(replaced.matches("summary_fingerprint: ").count(), 1);
    assert_eq!(
        state_of(&vault, VENDOR),
        ("current".into(), "missing".into(), "current".into())
    );
    // Every line but the two summary lines is the person's, in place.
    let others = |note: &str| -> Vec<String> {
        note.lines()
            .filter(|line| !line.starts_with("summary"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(others(&replaced), others(&plain));
}
