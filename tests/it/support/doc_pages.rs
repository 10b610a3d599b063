//! The repository's documentation pages and their lines, for the tests that hold the pages to
//! what they show (links that resolve, command lines that run).

use std::path::PathBuf;

/// The repository's root folder.
pub fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README, then the given top-level pages, then every page of `docs/` in name order.
pub fn pages_with(top_level: &[&str]) -> Vec<PathBuf> {
    let mut pages = vec![repository().join("README.md")];
    pages.extend(top_level.iter().map(|name| repository().join(name)));
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repository().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A page's lines, each with whether it is code (inside a fenced block, or indented four
/// spaces); the fence lines themselves are left out.
pub fn lines_with_code(text: &str) -> Vec<(&str, bool)> {
    let mut lines = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        if marker.len() >= 3 {
            match &fence {
                None => fence = Some(marker),
                Some(open) if trimmed.trim_end() == open.as_str() => fence = None,
                Some(_) => {}
            }
            continue;
        }
        lines.push((line, fence.is_some() || line.starts_with("    ")));
    }
    lines
}
