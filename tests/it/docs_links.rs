//! Every relative link of the README, `ARCHITECTURE.md` and `docs/` leads somewhere: the file
//! exists and, for `page.md#anchor`, the page has a heading with that anchor (as GitHub makes
//! them). The reference is split over pages, so a heading renamed or a section moved must not
//! leave a link behind.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::support::doc_pages::{lines_with_code, pages_with, repository};

fn pages() -> Vec<PathBuf> {
    pages_with(&["ARCHITECTURE.md"])
}

/// The page's lines outside code blocks (fenced or indented): where links and headings are.
fn prose_lines(text: &str) -> Vec<String> {
    lines_with_code(text)
        .into_iter()
        .filter(|(_, code)| !code)
        .map(|(line, _)| line.to_string())
        .collect()
}

/// GitHub's anchors for a page's headings: lower case, punctuation other than `-` and `_`
/// dropped, spaces as `-`, a repeated one numbered (`-1`, `-2`).
fn anchors(page: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(page).expect("page reads");
    let mut seen = std::collections::HashMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose_lines(&text) {
        let Some(heading) = line
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches('#'))
            .and_then(|rest| rest.strip_prefix(' '))
        else {
            continue;
        };
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let count = seen.entry(slug.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            slug.clone()
        } else {
            format!("{slug}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The targets of a line's links, `[text](target)`, images and code spans left out.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join("");
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        let before = &rest[..at];
        let is_image = before
            .rfind('[')
            .is_some_and(|open| before[..open].ends_with('!'));
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        if !is_image {
            targets.push(after[..end].to_string());
        }
        rest = &after[end..];
    }
    targets
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page reads");
        let name = page
            .strip_prefix(repository())
            .unwrap()
            .display()
            .to_string();
        for line in prose_lines(&text) {
            for target in link_targets(&line) {
                let is_url = target.split_once(':').is_some_and(|(scheme, _)| {
                    !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphabetic())
                });
                if is_url {
                    continue;
                }
                checked += 1;
                let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
                let destination = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file.replace("%20", " "))
                };
                if !destination.exists() {
                    broken.push(format!("{name}: {target}: no such file"));
                } else if !anchor.is_empty()
                    && destination.extension().is_some_and(|ext| ext == "md")
                    && !anchors(&destination).contains(anchor)
                {
                    broken.push(format!("{name}: {target}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(
        checked > 30,
        "the pages link to each other ({checked} links)"
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.md");
    std::fs::write(
        &page,
        "# The LLM\n\n## Setting up a client: `vaultsum mcp config`\n\n```\n# not a heading\n```\n\n## What it cost\n\n## What it cost\n",
    )
    .unwrap();
    let expected: BTreeSet<String> = [
        "the-llm",
        "setting-up-a-client-vaultsum-mcp-config",
        "what-it-cost",
        "what-it-cost-1",
    ]
    .map(String::from)
    .into();
    assert_eq!(anchors(&page), expected);
    assert_eq!(
        link_targets("see [a](x.md#b), `[c](d)` and ![e](f.png) and [g](#h)"),
        ["x.md#b", "#h"]
    );
}
