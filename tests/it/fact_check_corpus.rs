//! The fact checker on a corpus of its own: the offline engine's summaries of every note of
//! the vendored real vault (`tests/data/obsidian-tasks-docs`, MIT) and of `vault-fixture`,
//! as they are (faithful: every word is the note's) and with one planted error each, written
//! by code below that shares nothing with the checker: changed digits, a person swapped in
//! (mid-sentence and opening a sentence), a date a month off, a percentage from nowhere, a
//! wikilink to a note the source neither links nor embeds.
//!
//! Asserted: at least 95% of the plants caught (an unsupported fact overlapping the plant),
//! at most 2% of the faithful answers flagged. Printed (`--nocapture`): the figures, each
//! miss, each false flag with its reason, and the entity precision of both sets.

use std::path::{Path, PathBuf};

use regex::Regex;
use vaultsum_core::facts::{FactCheck, SourceFacts};
use vaultsum_core::llm::local::{summarize, LocalOptions};

/// People none of the notes name (checked per note below).
const PEOPLE: &[&str] = &[
    "Luis",
    "Marta Kowalski",
    "Priya",
    "Kenji Watanabe",
    "Olga",
    "Tomás Ferreira",
    "Amara",
    "Sven Lindqvist",
    "Chiara",
    "Dmitri",
];

const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A note of a vault: its name (the file stem) and its text.
struct Note {
    path: PathBuf,
    name: String,
    text: String,
}

fn notes(root: &Path) -> Vec<Note> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            let name = e.path().file_stem()?.to_string_lossy().into_owned();
            Some(Note {
                path: e.path().to_path_buf(),
                name,
                text,
            })
        })
        .collect()
}

/// One planted error: the answer with it, and where it is.
struct Plant {
    kind: &'static str,
    answer: String,
    at: std::ops::Range<usize>,
}

/// Byte ranges of an answer where a plant must not go: code spans, links, URLs, tables'
/// delimiter rows.
fn protected(answer: &str) -> Vec<std::ops::Range<usize>> {
    let re =
        Regex::new(r"`[^`\n]*`|\[\[[^\]\n]*\]\]|\]\([^)\n]*\)|https?://\S+|^\|[-:| ]+\|$").unwrap();
    re.find_iter(answer).map(|m| m.range()).collect()
}

fn free(ranges: &[std::ops::Range<usize>], at: &std::ops::Range<usize>) -> bool {
    ranges
        .iter()
        .all(|r| r.end <= at.start || at.end <= r.start)
}

/// Whether `word` occurs in `text` as a whole word, case ignored.
fn mentions(text: &str, word: &str) -> bool {
    Regex::new(&format!(r"(?i)(^|[^\w]){}($|[^\w])", regex::escape(word)))
        .unwrap()
        .is_match(text)
}

/// Appends `addition` as a new line under the first list item, or after the answer.
fn appended(answer: &str, addition: &str, kind: &'static str, planted: &str) -> Plant {
    let mut out = answer.trim_end().to_string();
    out.push('\n');
    out.push_str(addition);
    let start = out.len() - addition.len() + addition.find(planted).unwrap();
    Plant {
        kind,
        at: start..start + planted.len(),
        answer: out,
    }
}

/// Every plant this answer and its note allow (`seed` picks among the candidates).
fn plants(answer: &str, note: &Note, vault: &[Note], seed: usize) -> Vec<Plant> {
    let source = &note.text;
    let guarded = protected(answer);
    let mut out = Vec::new();

    // Changed digits: a number standing alone (not glued to a letter), one digit changed so
    // that the new number is nowhere in the note.
    let number = Regex::new(r"(?:^|[^\w.,])(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+)(?:$|[^\w])").unwrap();
    let candidates: Vec<_> = number
        .captures_iter(answer)
        .filter_map(|c| c.get(1))
        .filter(|m| free(&guarded, &m.range()))
        .collect();
    if !candidates.is_empty() {
        let m = candidates[seed % candidates.len()];
        let digits: Vec<usize> = m
            .as_str()
            .char_indices()
            .filter(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i)
            .collect();
        for shift in 1..10 {
            let i = digits[(seed + shift) % digits.len()];
            let old = m.as_str().as_bytes()[i] - b'0';
            let new = (old + shift as u8) % 10;
            let mut changed = m.as_str().to_string();
            changed.replace_range(i..i + 1, &new.to_string());
            let bare: String = changed.chars().filter(char::is_ascii_digit).collect();
            if changed.starts_with('0') || mentions(source, &changed) || mentions(source, &bare) {
                continue;
            }
            let mut planted = answer.to_string();
            planted.replace_range(m.range(), &changed);
            out.push(Plant {
                kind: "changed digits",
                at: m.start()..m.start() + changed.len(),
                answer: planted,
            });
            break;
        }
    }

    // A person swapped in: a capitalised word inside a sentence replaced, or, where the
    // answer has none, a line naming someone.
    let person = PEOPLE
        .iter()
        .cycle()
        .skip(seed % PEOPLE.len())
        .take(PEOPLE.len())
        .find(|p| p.split(' ').all(|w| !mentions(source, w)))
        .copied()
        .expect("a person the note does not name");
    let capitalised = Regex::new(r"[a-z,] ([A-Z][a-z]{2,})\b").unwrap();
    let swappable: Vec<_> = capitalised
        .captures_iter(answer)
        .filter_map(|c| c.get(1))
        .filter(|m| free(&guarded, &m.range()))
        .filter(|m| !MONTHS.contains(&m.as_str()))
        .collect();
    if swappable.is_empty() {
        out.push(appended(
            answer,
            &format!("- The page was reviewed by {person}."),
            "person swapped in",
            person,
        ));
    } else {
        let m = swappable[seed % swappable.len()];
        let mut planted = answer.to_string();
        planted.replace_range(m.range(), person);
        out.push(Plant {
            kind: "person swapped in",
            at: m.start()..m.start() + person.len(),
            answer: planted,
        });
    }
    // The same, opening a sentence, where a capital says nothing.
    let other = PEOPLE
        .iter()
        .rev()
        .find(|p| p.split(' ').all(|w| !mentions(source, w)))
        .copied()
        .unwrap();
    out.push(appended(
        answer,
        &format!("- {other} will follow up on this."),
        "person opening a sentence",
        other,
    ));

    // A date a month off: the answer's own date shifted, else a date of the note shifted and
    // added.
    let iso = Regex::new(r"\b(\d{4})-(\d{2})-(\d{2})\b").unwrap();
    let shift = |c: &regex::Captures<'_>| -> String {
        let month: u32 = c[2].parse().unwrap();
        let (year, month) = if month == 12 {
            (c[1].parse::<u32>().unwrap() + 1, 1)
        } else {
            (c[1].parse().unwrap(), month + 1)
        };
        format!("{year}-{month:02}-{}", &c[3])
    };
    let in_answer = iso
        .captures_iter(answer)
        .find(|c| free(&guarded, &c.get(0).unwrap().range()) && !source.contains(&shift(c)));
    if let Some(c) = in_answer {
        let whole = c.get(0).unwrap();
        let moved = shift(&c);
        let mut planted = answer.to_string();
        planted.replace_range(whole.range(), &moved);
        out.push(Plant {
            kind: "date a month off",
            at: whole.start()..whole.start() + moved.len(),
            answer: planted,
        });
    } else if let Some(c) = iso
        .captures_iter(source)
        .find(|c| !source.contains(&shift(c)))
    {
        let moved = shift(&c);
        out.push(appended(
            answer,
            &format!("- This is due on {moved}."),
            "date a month off",
            &moved,
        ));
    }

    // A percentage from nowhere.
    let percent = (13..100)
        .cycle()
        .skip(seed % 80)
        .take(90)
        .find(|n| !mentions(source, &n.to_string()))
        .expect("a number the note does not hold");
    let figure = format!("{percent}%");
    out.push(appended(
        answer,
        &format!("- About {figure} of users rely on this."),
        "percentage from nowhere",
        &figure,
    ));

    // A wikilink to a note the source neither links nor embeds.
    let unlinked = vault
        .iter()
        .cycle()
        .skip(seed % vault.len())
        .take(vault.len())
        .find(|n| {
            n.path != note.path
                && !source
                    .to_lowercase()
                    .contains(&format!("[[{}", n.name.to_lowercase()))
                && !source.to_lowercase().contains(&n.name.to_lowercase())
        });
    if let Some(target) = unlinked {
        let link = format!("[[{}]]", target.name);
        out.push(appended(
            answer,
            &format!("- Details are in {link}."),
            "wikilink to a note not linked",
            &link,
        ));
    }
    out
}

fn caught(check: &FactCheck, at: &std::ops::Range<usize>) -> bool {
    check
        .unsupported
        .iter()
        .any(|u| u.fact.span.start < at.end && at.start < u.fact.span.end)
}

#[test]
fn planted_errors_are_caught_and_faithful_summaries_pass() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut vault = notes(&manifest.join("tests/data/obsidian-tasks-docs"));
    vault.extend(notes(&manifest.join("vault-fixture")));
    let options = LocalOptions::default();

    let (mut faithful, mut flagged) = (0usize, Vec::new());
    let (mut entities, mut found_entities) = (0usize, 0.0f64);
    let (mut planted_entities, mut planted_found) = (0usize, 0.0f64);
    let mut by_kind: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut misses = Vec::new();
    for (seed, note) in vault.iter().enumerate() {
        let answer = summarize(&note.text, &options).markdown;
        if answer.trim().is_empty() {
            continue;
        }
        let source = SourceFacts::new(&note.text);
        let check = source.check(&answer);
        faithful += 1;
        let count = check.facts.iter().filter(|f| f.kind.is_entity()).count();
        entities += count;
        found_entities += check.entity_precision().unwrap_or(1.0) * count as f64;
        if !check.is_supported() {
            flagged.push((note.name.clone(), check.unsupported.clone()));
        }
        for plant in plants(&answer, note, &vault, seed) {
            let result = source.check(&plant.answer);
            let count = result.facts.iter().filter(|f| f.kind.is_entity()).count();
            planted_entities += count;
            planted_found += result.entity_precision().unwrap_or(1.0) * count as f64;
            let entry = by_kind.entry(plant.kind).or_default();
            entry.0 += 1;
            if caught(&result, &plant.at) {
                entry.1 += 1;
            } else {
                misses.push(format!(
                    "{} in {}: {:?}",
                    plant.kind,
                    note.name,
                    &plant.answer[plant.at.clone()]
                ));
            }
        }
    }

    let plants: usize = by_kind.values().map(|(n, _)| n).sum();
    let caught_all: usize = by_kind.values().map(|(_, c)| c).sum();
    let catch_rate = caught_all as f64 / plants as f64;
    let flag_rate = flagged.len() as f64 / faithful as f64;
    println!("fact check corpus: {faithful} faithful answers, {plants} planted errors");
    for (kind, (n, c)) in &by_kind {
        println!("  {kind}: {c}/{n} caught");
    }
    println!(
        "  caught: {caught_all}/{plants} = {:.1}%",
        catch_rate * 100.0
    );
    for miss in &misses {
        println!("  missed: {miss}");
    }
    println!(
        "  faithful answers flagged: {}/{faithful} = {:.1}%",
        flagged.len(),
        flag_rate * 100.0
    );
    for (name, unsupported) in &flagged {
        for u in unsupported {
            println!(
                "  false flag in {name}: {} {:?}: {}",
                u.fact.kind, u.fact.text, u.reason
            );
        }
    }
    println!(
        "  entity precision: faithful {:.3} ({entities} entities), planted {:.3} ({planted_entities})",
        found_entities / entities as f64,
        planted_found / planted_entities as f64
    );
    assert!(
        faithful >= 100,
        "expected the vendored vaults, got {faithful} answers"
    );
    assert!(catch_rate >= 0.95, "caught only {:.1}%", catch_rate * 100.0);
    assert!(
        flag_rate <= 0.02,
        "flagged {:.1}% of faithful answers",
        flag_rate * 100.0
    );
}
