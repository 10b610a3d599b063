//! Traceable points (issue 44): with `summarize.cite_sections = true`, the offline engine ends
//! each key point with a link to its section, and every such link written resolves in
//! Obsidian's sense: `[[#Heading]]` to a heading of the note itself, `[[Note#Heading]]` to a
//! heading of that note of the vault. Checked over every note of `vault-fixture` and of the
//! vendored real vault, with a resolver written here from the notes' files, sharing nothing
//! with the engine or the checker.

use std::collections::BTreeMap;
use std::path::Path;

use regex::Regex;
use serde_json::Value;

use crate::support;
use support::cli::vaultsum;
use support::temp_vault::{real_vault_source, TempVault};

/// Every note of the vault, by its path without `.md`.
fn notes(root: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for entry in walkdir::WalkDir::new(root) {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "md")
            && !path.components().any(|c| c.as_os_str() == ".obsidian")
        {
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            let key = relative.to_string_lossy().replace('\\', "/");
            found.insert(key, std::fs::read_to_string(path).unwrap_or_default());
        }
    }
    found
}

/// A heading as a link names it: without emphasis and code marks, case and spacing folded.
fn folded(heading: &str) -> String {
    heading
        .replace(['*', '_', '`', '='], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The headings of a note's text, outside code fences.
fn headings(text: &str) -> Vec<String> {
    let heading = Regex::new(r"^#{1,6}[ \t]+(.+?)[ \t#]*$").unwrap();
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if let Some(c) = heading.captures(line).filter(|_| !fenced) {
            found.push(folded(&c[1]));
        }
    }
    found
}

/// The note a link's note part names, as Obsidian finds it: by its path, else by its name.
fn resolve<'a>(notes: &'a BTreeMap<String, String>, name: &str) -> Option<&'a String> {
    let name = name.trim_end_matches(".md");
    notes.get(name).or_else(|| {
        notes
            .iter()
            .find(|(path, _)| path.rsplit('/').next() == Some(name))
            .map(|(_, text)| text)
    })
}

/// Summarizes every note of a copy of `source` with citations on; checks each citation.
/// Returns (citations, notes summarized).
fn check_vault(source: &Path) -> (usize, usize) {
    let vault = TempVault::copy_of(source);
    let config = vault.outside().join("config.toml");
    std::fs::write(&config, "[summarize]\ncite_sections = true\n").unwrap();
    let all = notes(&vault.root());
    let tops: Vec<String> = std::fs::read_dir(vault.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .filter(|name| name.ends_with(".md") || vault.root().join(name).is_dir())
        .collect();
    let output = vaultsum(&vault.outside())
        .env("VAULTSUM_CONFIG", &config)
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--engine",
            "offline",
            "--dry-run",
            "--json",
        ])
        .args(&tops)
        .output()
        .unwrap();
    let link = Regex::new(r"\[\[([^\[\]|]*)#([^\[\]|]+)\]\]").unwrap();
    let (mut citations, mut summarized) = (0, 0);
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let result: Value = serde_json::from_str(line).expect("a JSON line");
        let Some(summary) = result["summary"].as_str() else {
            continue;
        };
        summarized += 1;
        let path = result["path"].as_str().unwrap().trim_end_matches(".md");
        for c in link.captures_iter(summary) {
            citations += 1;
            let (note, heading) = (&c[1], &c[2]);
            let text = if note.is_empty() {
                all.get(path)
            } else {
                resolve(&all, note)
            };
            let text = text.unwrap_or_else(|| panic!("{path}: {} names no note", &c[0]));
            assert!(
                headings(text).contains(&folded(heading)),
                "{path}: {} points to a heading that does not exist",
                &c[0]
            );
        }
    }
    (citations, summarized)
}

#[test]
fn every_citation_the_offline_engine_writes_resolves_on_both_vaults() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (fixture_citations, fixture_notes) = check_vault(&manifest.join("vault-fixture"));
    let (real_citations, real_notes) = check_vault(&real_vault_source());
    println!(
        "vault-fixture: {fixture_citations} citations in {fixture_notes} summaries; \
         real vault: {real_citations} in {real_notes}"
    );
    // Not vacuous: most summaries of sectioned notes cite.
    assert!(
        fixture_notes >= 9 && fixture_citations >= 10,
        "{fixture_citations}"
    );
    assert!(
        real_notes >= 50 && real_citations >= 100,
        "{real_citations}"
    );
}

#[test]
fn citations_are_off_by_default_and_a_rule_turns_them_on_for_a_folder() {
    let vault = TempVault::with(&[
        (
            "Specs/Sync.md",
            "# Sync\n\n## Conflicts\n\nEvery record is kept and shown in order of arrival.\n",
        ),
        (
            "Notes/Sync.md",
            "# Sync\n\n## Conflicts\n\nEvery record is kept and shown in order of arrival.\n",
        ),
    ]);
    let config = vault.outside().join("config.toml");
    std::fs::write(
        &config,
        "[[summarize.rules]]\nfolder = \"Specs\"\ncite_sections = true\n",
    )
    .unwrap();
    let output = vaultsum(&vault.outside())
        .env("VAULTSUM_CONFIG", &config)
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--engine",
            "offline",
            "Specs/Sync.md",
            "Notes/Sync.md",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let spec = String::from_utf8(vault.read("Specs/Sync.md")).unwrap();
    let note = String::from_utf8(vault.read("Notes/Sync.md")).unwrap();
    assert!(
        spec.contains("- Every record is kept and shown in order of arrival. ([[#Conflicts]])"),
        "{spec}"
    );
    assert!(!note.contains("[[#"), "{note}");
}

#[test]
fn a_prompt_note_may_turn_citations_on_for_the_notes_that_use_it() {
    let body = "## Conflicts\n\nEvery record is kept and shown in order of arrival.\n";
    let vault = TempVault::with(&[
        (
            "Prompts/Cited.md",
            "---\ncite_sections: true\n---\nList the decisions, each with its section.\n",
        ),
        (
            "Specs/Sync.md",
            &format!("---\nsummary_prompt: \"[[Prompts/Cited]]\"\n---\n{body}"),
        ),
        ("Specs/Other.md", body),
    ]);
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--engine",
            "offline",
            "Specs/Sync.md",
            "Specs/Other.md",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cited = String::from_utf8(vault.read("Specs/Sync.md")).unwrap();
    let plain = String::from_utf8(vault.read("Specs/Other.md")).unwrap();
    assert!(cited.contains("arrival. ([[#Conflicts]])"), "{cited}");
    assert!(!plain.contains("[[#"), "{plain}");
}
