//! The summary property through the real binary: `summarize-file --into property` (and
//! `--into both`) on many frontmatter shapes. Each valid shape is checked against the exact
//! text expected (every byte outside the `summary:` and `summary_fingerprint:` lines kept), the
//! frontmatter is parsed again with a YAML parser, and `status` must call the new property
//! current. Frontmatter that is not a set of properties, or not YAML, is refused with an error
//! naming the note, and the note is left byte-identical.

use crate::support;

use saphyr::{LoadableYamlNode, YamlOwned};
use serde_json::Value;
use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;
use vaultsum_core::vault::summary_fingerprint::{note_hash, Fingerprint};
use vaultsum_tools::instructions::Instructions;

const NOTE: &str = "Notes/Plan.md";
/// The section summary the fake model answers with.
const SUMMARY: &str = "### Key Points\n\n- The plan ships on Monday.";
/// The abstract the fake model ends its answer with: characters YAML would misread unquoted
/// (a leading `- `, `: `, ` #`, both quotes, a backslash) and non-ASCII text.
const ABSTRACT: &str = r#"- Leading dash: "quoted" words, a # hash, 'single' quotes: C:\path — Zoë 東京 [x] {y} &z *w"#;
/// [`ABSTRACT`] as written: the output policy writes a bracket that no construct of its list
/// opens as `\[` (it renders as `[`; a reference definition elsewhere could make `[x]` a link).
const WRITTEN: &str = r#"- Leading dash: "quoted" words, a # hash, 'single' quotes: C:\path — Zoë 東京 \[x] {y} &z *w"#;
/// [`WRITTEN`] as a YAML double-quoted scalar, written by hand (not by the code under test).
const ABSTRACT_YAML: &str = r#""- Leading dash: \"quoted\" words, a # hash, 'single' quotes: C:\\path — Zoë 東京 \\[x] {y} &z *w""#;

fn answer() -> String {
    format!("{SUMMARY}\n\n<abstract>\n{ABSTRACT}\n</abstract>\n")
}

/// The fingerprint the tool must write for a summary `text` of the note `original`.
fn fingerprint(original: &str, text: &str) -> Fingerprint {
    Fingerprint::new(
        note_hash(original, "summary", Instructions::builtin().identity()),
        text,
    )
}

/// `expected` with `{S}` the quoted abstract and `{F}` the quoted property fingerprint.
fn expand(expected: &str, original: &str) -> String {
    let print = fingerprint(original, WRITTEN).value();
    expected
        .replace("{S}", ABSTRACT_YAML)
        .replace("{F}", &format!("\"{print}\""))
}

struct Run {
    success: bool,
    lines: Vec<Value>,
    stderr: String,
}

fn summarize(vault: &TempVault, fake: &FakeOpenAi, into: &str, note: &str) -> Run {
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        // The answer is made up to test how the property is written, not a summary of the note: the fact check
        // (fact_check.rs) would take its facts out.
        .env("VAULTSUM_FACT_CHECK", "off")
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--into", into, "--json", note])
        .output()
        .expect("vaultsum runs");
    Run {
        success: output.status.success(),
        lines: String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn status_line(vault: &TempVault, note: &str) -> Value {
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["status", "--json", note])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    serde_json::from_str(text.lines().next().expect("a note line")).unwrap()
}

/// The text between the fences, parsed with a YAML parser: it must be one mapping.
fn frontmatter(note: &str) -> YamlOwned {
    let body = note
        .strip_prefix('\u{feff}')
        .unwrap_or(note)
        .replace("\r\n", "\n");
    let inner = body.strip_prefix("---\n").expect("a frontmatter");
    let end = inner
        .split_inclusive('\n')
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len();
            Some((start, line))
        })
        .find(|(_, line)| line.trim_end() == "---")
        .map(|(start, _)| start)
        .expect("a closing fence");
    let mut docs = YamlOwned::load_from_str(&inner[..end]).expect("the frontmatter is YAML");
    assert_eq!(docs.len(), 1, "one YAML document");
    let root = docs.remove(0);
    assert!(root.is_mapping(), "the frontmatter is a mapping: {root:?}");
    root
}

fn property<'a>(root: &'a YamlOwned, key: &str) -> Option<&'a str> {
    root.as_mapping()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .and_then(|(_, v)| v.as_str())
}

/// Writes `original`, runs `--into property`, and checks the note is exactly `expected` (see
/// [`expand`]), that its frontmatter parses with the abstract and fingerprint in it, and that
/// `status` calls the property current. Then, from `original` again, `--into both`: the same
/// frontmatter edit and a fingerprinted `## Summary` section appended, without the abstract.
fn check_shape(original: &str, expected: &str) {
    let expected = expand(expected, original);
    let vault = TempVault::with(&[(NOTE, original)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&answer()));

    let run = summarize(&vault, &fake, "property", NOTE);
    assert!(run.success, "{:?} {}", run.lines, run.stderr);
    assert_eq!(run.lines.len(), 1, "{:?}", run.lines);
    assert_eq!(run.lines[0]["success"], true, "{:?}", run.lines);
    assert_eq!(run.lines[0]["into"], "property");
    assert_eq!(
        run.lines[0]["abstract_length"],
        WRITTEN.chars().count(),
        "{:?}",
        run.lines
    );
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    assert_eq!(written, expected, "original: {original:?}");
    assert_eq!(
        written.matches("## Summary").count(),
        original.matches("## Summary").count(),
        "property mode adds no section"
    );
    let root = frontmatter(&written);
    assert_eq!(property(&root, "summary"), Some(WRITTEN));
    assert_eq!(
        property(&root, "summary_fingerprint"),
        Some(fingerprint(original, WRITTEN).value().as_str())
    );
    let status = status_line(&vault, NOTE);
    assert_eq!(status["property"], "current", "{status}");
    // An old section without a fingerprint makes the note's overall state `unmarked`.
    let overall = if original.contains("## Summary") {
        "unmarked"
    } else {
        "current"
    };
    assert_eq!(status["state"], overall, "{status}");

    // Both: the property as above, then the section appended after every byte of it.
    vault.write(NOTE, original);
    let run = summarize(&vault, &fake, "both", NOTE);
    assert!(run.success, "{:?} {}", run.lines, run.stderr);
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    let tail = written
        .strip_prefix(expected.as_str())
        .unwrap_or_else(|| panic!("the property edit, then the section: {written:?}"));
    let crlf = expected.contains("\r\n");
    let newline = if crlf { "\r\n" } else { "\n" };
    let section = format!(
        "## Summary{newline}{}{newline}{newline}{}{newline}",
        fingerprint(original, SUMMARY).marker_line(),
        SUMMARY.replace('\n', newline)
    );
    assert_eq!(
        tail.trim_start_matches(['\r', '\n']),
        section,
        "{written:?}"
    );
    assert!(
        !tail.contains("Leading dash"),
        "the abstract is not in the section"
    );
    assert_eq!(property(&frontmatter(&written), "summary"), Some(WRITTEN));
    let status = status_line(&vault, NOTE);
    assert_eq!(
        (status["section"].as_str(), status["property"].as_str()),
        (Some("current"), Some("current")),
        "{status}"
    );
}

/// A frontmatter the property cannot be written into: refused, naming the note, exit code
/// nonzero, the note and the vault untouched.
fn check_refused(original: &str, why: &str) {
    let vault = TempVault::with(&[(NOTE, original)]);
    let entries = vault.entries();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&answer()));
    for into in ["property", "both"] {
        let run = summarize(&vault, &fake, into, NOTE);
        assert!(!run.success, "{into}: {:?}", run.lines);
        assert_eq!(run.lines.len(), 1, "{:?} {}", run.lines, run.stderr);
        assert_eq!(run.lines[0]["success"], false);
        assert_eq!(run.lines[0]["path"], NOTE);
        let error = run.lines[0]["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("refusing to write the summary property of {NOTE}")),
            "{error}"
        );
        assert!(error.contains(why), "{error}");
        assert!(error.contains("left unchanged"), "{error}");
        assert_eq!(vault.read(NOTE), original.as_bytes(), "{into}");
        assert_eq!(vault.entries(), entries, "no file appeared or vanished");
    }
}

macro_rules! shapes {
    ($($name:ident: $original:expr => $expected:expr;)*) => {
        $(
            #[test]
            fn $name() {
                check_shape($original, $expected);
            }
        )*
    };
}

shapes! {
    no_frontmatter:
        "# Plan\n\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\n# Plan\n\nShip on Monday.\n";
    no_frontmatter_no_final_newline:
        "Ship on Monday."
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.";
    body_starting_with_a_thematic_break_line:
        "Intro.\n\n---\n\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\nIntro.\n\n---\n\nShip on Monday.\n";
    empty_frontmatter:
        "---\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    comments_inside:
        "---\n# a comment: with colon\ntitle: Plan # trailing comment\n  # indented comment\n---\nShip on Monday.\n"
        => "---\n# a comment: with colon\ntitle: Plan # trailing comment\n  # indented comment\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    a_commented_summary_key_is_not_the_key:
        "---\n# summary: not a key\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\n# summary: not a key\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    flow_list:
        "---\ntags: [a, b]\n---\nShip on Monday.\n"
        => "---\ntags: [a, b]\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    block_list:
        "---\ntags:\n- a\n- b\n---\nShip on Monday.\n"
        => "---\ntags:\n- a\n- b\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    indented_block_list:
        "---\ntags:\n  - a\n  - b\naliases:\n    - Plan B\n---\nShip on Monday.\n"
        => "---\ntags:\n  - a\n  - b\naliases:\n    - Plan B\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    double_quoted_summary_key:
        "---\n\"summary\": old value\nother: 1\n---\nShip on Monday.\n"
        => "---\n\"summary\": {S}\nother: 1\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    single_quoted_summary_key:
        "---\n'summary': old value\nother: 1\n---\nShip on Monday.\n"
        => "---\n'summary': {S}\nother: 1\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    quoted_other_keys:
        "---\n\"title\": Plan\n'owner': Dana\n---\nShip on Monday.\n"
        => "---\n\"title\": Plan\n'owner': Dana\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    crlf_note:
        "---\r\ntitle: Plan\r\ntags:\r\n  - a\r\n---\r\nShip on Monday.\r\nThen rest.\r\n"
        => "---\r\ntitle: Plan\r\ntags:\r\n  - a\r\nsummary: {S}\r\nsummary_fingerprint: {F}\r\n---\r\nShip on Monday.\r\nThen rest.\r\n";
    crlf_note_without_frontmatter:
        "Ship on Monday.\r\nThen rest.\r\n"
        => "---\r\nsummary: {S}\r\nsummary_fingerprint: {F}\r\n---\r\nShip on Monday.\r\nThen rest.\r\n";
    crlf_existing_block_summary:
        "---\r\nsummary: |\r\n  old one\r\n  old two\r\ntags:\r\n  - a\r\n---\r\nShip on Monday.\r\n"
        => "---\r\nsummary: {S}\r\ntags:\r\n  - a\r\nsummary_fingerprint: {F}\r\n---\r\nShip on Monday.\r\n";
    bom_note:
        "\u{feff}---\ntitle: Plan\n---\nShip on Monday.\n"
        => "\u{feff}---\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    bom_note_without_frontmatter:
        "\u{feff}Ship on Monday.\n"
        => "\u{feff}---\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    bom_and_crlf:
        "\u{feff}---\r\ntitle: Plan\r\n---\r\nShip on Monday.\r\n"
        => "\u{feff}---\r\ntitle: Plan\r\nsummary: {S}\r\nsummary_fingerprint: {F}\r\n---\r\nShip on Monday.\r\n";
    existing_plain_summary:
        "---\ntitle: Plan\nsummary: An old summary\n---\nShip on Monday.\n"
        => "---\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_double_quoted_summary:
        "---\nsummary: \"Old: one # two\"\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntitle: Plan\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_single_quoted_summary:
        "---\nsummary: 'It''s old'\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntitle: Plan\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_literal_block_summary:
        "---\nsummary: |\n  old line one\n  old line two\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntitle: Plan\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_folded_block_summary:
        "---\nsummary: >-\n  folded\n  text\n\n  second paragraph\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntitle: Plan\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_plain_summary_with_continuation_lines:
        "---\nsummary: first part\n  continues here\n  and here\nnext: 1\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\nnext: 1\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_summary_list:
        "---\nsummary:\n- one\n- two\ntags: [x]\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntags: [x]\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_indented_summary_list:
        "---\nsummary:\n  - one\n  - two\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_empty_summary:
        "---\nsummary:\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\ntitle: Plan\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    existing_summary_and_fingerprint_replaced_in_place:
        "---\nsummary: old\nsummary_fingerprint: \"note=0000 summary=0000\"\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\ntitle: Plan\n---\nShip on Monday.\n";
    keys_after_the_summary_key_and_blank_lines:
        "---\na: 1\n\nsummary: old\n\nb: 2\nc: [3]\n---\nShip on Monday.\n"
        => "---\na: 1\n\nsummary: {S}\n\nb: 2\nc: [3]\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    keys_that_only_start_with_summary:
        "---\nsummary_old: keep\nsummaryish: keep\n---\nShip on Monday.\n"
        => "---\nsummary_old: keep\nsummaryish: keep\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    nested_mappings:
        "---\nmeta:\n  summary: nested stays\n  owner:\n    name: Dana\ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nmeta:\n  summary: nested stays\n  owner:\n    name: Dana\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    anchors_and_aliases_elsewhere:
        "---\ndefaults: &d\n  color: blue\ncopy: *d\nflow: {a: 1, b: [2, 3]}\n---\nShip on Monday.\n"
        => "---\ndefaults: &d\n  color: blue\ncopy: *d\nflow: {a: 1, b: [2, 3]}\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    unicode_values:
        "---\ntitle: Réunion 東京 🚀\nauthor: Zoë\n---\nÉquipe: lancement lundi.\n"
        => "---\ntitle: Réunion 東京 🚀\nauthor: Zoë\nsummary: {S}\nsummary_fingerprint: {F}\n---\nÉquipe: lancement lundi.\n";
    values_with_colons:
        "---\nurl: https://example.com:8080/a?b=c\ntime: \"10:30\"\nnote: \"a: b\"\nlabel: a:b::c\n---\nShip on Monday.\n"
        => "---\nurl: https://example.com:8080/a?b=c\ntime: \"10:30\"\nnote: \"a: b\"\nlabel: a:b::c\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    scalars_of_every_kind:
        "---\ncount: 3\ndone: true\ndate: 2024-03-04\nnothing: ~\nratio: 0.5\n---\nShip on Monday.\n"
        => "---\ncount: 3\ndone: true\ndate: 2024-03-04\nnothing: ~\nratio: 0.5\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n";
    // Obsidian reads no frontmatter when the opening `---` has trailing spaces (the first line
    // must be exactly `---`): that block is body text, and a frontmatter is added before it.
    trailing_spaces_after_the_opening_fence_is_not_a_frontmatter:
        "---  \ntitle: Plan\n---\nShip on Monday.\n"
        => "---\nsummary: {S}\nsummary_fingerprint: {F}\n---\n---  \ntitle: Plan\n---\nShip on Monday.\n";
    trailing_spaces_after_the_closing_fence:
        "---\ntitle: Plan\n---   \nShip on Monday.\n"
        => "---\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---   \nShip on Monday.\n";
    only_frontmatter:
        "---\ntitle: Plan\nstatus: draft\n---\n"
        => "---\ntitle: Plan\nstatus: draft\nsummary: {S}\nsummary_fingerprint: {F}\n---\n";
    only_frontmatter_without_final_newline:
        "---\ntitle: Plan\n---"
        => "---\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---";
    an_old_section_stays_in_property_mode:
        "---\ntitle: Plan\n---\nShip on Monday.\n\n## Summary\n\n- Old.\n"
        => "---\ntitle: Plan\nsummary: {S}\nsummary_fingerprint: {F}\n---\nShip on Monday.\n\n## Summary\n\n- Old.\n";
}

// `--into both` on a note with an old section appends a second one (a single note named
// explicitly keeps the append contract), so that shape is checked in property mode only.
#[test]
fn both_on_a_note_with_an_old_section_keeps_it_and_appends() {
    let vault = TempVault::with(&[(NOTE, "Ship on Monday.\n\n## Summary\n\n- Old.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&answer()));
    let run = summarize(&vault, &fake, "both", NOTE);
    assert!(run.success, "{:?}", run.lines);
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    assert_eq!(written.matches("## Summary").count(), 2, "{written}");
    assert!(written.contains("- Old.\n"), "{written}");
}

#[test]
fn a_plain_value_with_colon_space_is_invalid_yaml_and_refused() {
    check_refused("---\nnote: a: b\n---\nShip on Monday.\n", "not valid YAML");
}

#[test]
fn a_summary_key_with_a_space_before_its_colon_is_refused_not_duplicated() {
    // `summary : old` is the key `summary` too; the edit does not see it as the property's
    // line, and a second `summary:` would be a duplicate key: the verification refuses it.
    check_refused(
        "---\nsummary : old\ntitle: Plan\n---\nShip on Monday.\n",
        "duplicated key",
    );
}

#[test]
fn unclosed_flow_list_is_refused() {
    check_refused("---\na: [b\n---\nShip on Monday.\n", "not valid YAML");
}

#[test]
fn a_frontmatter_that_is_a_list_is_refused() {
    check_refused("---\n- a\n- b\n---\nShip on Monday.\n", "a list");
}

#[test]
fn a_frontmatter_that_is_one_value_is_refused() {
    check_refused(
        "---\njust some text\n---\nShip on Monday.\n",
        "a single value",
    );
}

#[test]
fn a_tab_indented_mess_is_refused() {
    check_refused(
        "---\ntitle: Plan\ntags:\n\t- a\n\tnested:\n\t\tb: c\n---\nShip on Monday.\n",
        "not valid YAML",
    );
}

#[test]
fn a_crlf_bom_note_with_invalid_yaml_is_refused() {
    check_refused(
        "\u{feff}---\r\ntitle: \"unclosed\r\n---\r\nShip on Monday.\r\n",
        "not valid YAML",
    );
}

#[test]
fn an_anchor_on_the_summary_used_elsewhere_is_refused() {
    // Replacing the anchored value would change (break) the alias: the edit does not verify.
    check_refused(
        "---\nsummary: &s old\ncopy: *s\n---\nShip on Monday.\n",
        "could not be verified",
    );
}

#[test]
fn the_model_is_asked_for_an_abstract_that_stays_out_of_the_section() {
    let vault = TempVault::with(&[(NOTE, "---\ntitle: Plan\n---\nShip on Monday.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(&answer()));
    let run = summarize(&vault, &fake, "both", NOTE);
    assert!(run.success, "{:?}", run.lines);
    let chats: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|request| request.path == "/v1/chat/completions")
        .collect();
    assert_eq!(
        chats.len(),
        1,
        "one call makes the summary and the abstract"
    );
    let system = chats[0].system_text();
    assert!(system.contains("<abstract>"), "{system}");
    assert!(system.contains("</abstract>"), "{system}");
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    let section = written.split("## Summary").nth(1).expect("a section");
    assert!(section.contains("The plan ships on Monday."), "{section}");
    assert!(!section.contains("abstract"), "{section}");
    assert!(!section.contains("Leading dash"), "{section}");
    assert_eq!(property(&frontmatter(&written), "summary"), Some(WRITTEN));

    // Section mode asks for no abstract and writes no property.
    let vault = TempVault::with(&[(NOTE, "Ship on Monday.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY));
    let run = summarize(&vault, &fake, "section", NOTE);
    assert!(run.success, "{:?}", run.lines);
    let chats: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|request| request.path == "/v1/chat/completions")
        .collect();
    assert_eq!(chats.len(), 1);
    assert!(!chats[0].system_text().contains("<abstract>"));
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    assert!(written.starts_with("Ship on Monday.\n\n## Summary\n<!-- vaultsum: note="));
}

#[test]
fn the_offline_engine_writes_the_property_too() {
    let original =
        "---\ntags: [plan]\n---\nThe team decided to ship the inspection app on Monday. \
                    Dana will test the new camera order with two technicians on Thursday. \
                    Marco owns the vendor call.\n";
    let vault = TempVault::with(&[(NOTE, original)]);
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--engine",
            "local",
            "--into",
            "property",
            "--json",
            NOTE,
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let line: Value = serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
    assert_eq!(line["success"], true, "{line}");
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    let root = frontmatter(&written);
    let abstract_text = property(&root, "summary").expect("a summary property");
    assert!(!abstract_text.is_empty());
    assert_eq!(
        line["abstract_length"],
        abstract_text.chars().count(),
        "{line}"
    );
    let print = fingerprint(original, abstract_text).value();
    let expected = format!(
        "---\ntags: [plan]\nsummary: {}\nsummary_fingerprint: \"{print}\"\n---\n{}",
        serde_json::to_string(abstract_text).unwrap(),
        original.split_once("---\n---\n").map_or_else(
            || original.splitn(3, "---\n").nth(2).unwrap(),
            |(_, body)| body
        )
    );
    assert_eq!(written, expected);
    assert_eq!(status_line(&vault, NOTE)["property"], "current");
}
