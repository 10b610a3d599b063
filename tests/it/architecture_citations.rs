//! ARCHITECTURE.md stays true: every file it cites in its prose (`vault/write.rs`,
//! `src/cli/batch.rs`, `pdf.rs`) is a file or folder of the repository, and every name it cites
//! in one (`vault/write.rs: write_summary`, `pdf.rs` (`clean`, `read_page`)) is written in that
//! file. A function renamed or moved must take the page with it.

use std::path::PathBuf;

use crate::support::doc_pages::{lines_with_code, repository};

/// Every file and folder of the repository, relative to it, with `/` between parts (build
/// output, dependencies and version control left out).
fn repository_paths() -> Vec<String> {
    let root = repository();
    walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            !matches!(
                name.as_ref(),
                "target" | "node_modules" | ".git" | ".venv" | "dist"
            )
        })
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let relative = entry.path().strip_prefix(&root).ok()?;
            let text = relative.to_string_lossy().replace('\\', "/");
            (!text.is_empty()).then_some(text)
        })
        .collect()
}

/// The files a citation may mean: the path itself, or any path ending in `/CITATION`
/// (`vault/write.rs` is `crates/vaultsum-core/src/vault/write.rs`).
fn resolve(citation: &str, paths: &[String]) -> Vec<PathBuf> {
    let citation = citation.trim_end_matches('/');
    paths
        .iter()
        .filter(|path| *path == citation || path.ends_with(&format!("/{citation}")))
        .map(|path| repository().join(path))
        .collect()
}

/// Whether a backticked span names a file or folder of ours: a path with a known extension,
/// with `/` in it or a `.rs` file; or a folder of two parts or more written with its trailing
/// `/` (`vault/changes/`; a vault's `Clippings/` or `.git/` is not ours).
fn is_file_citation(span: &str) -> bool {
    let plain =
        !span.contains(['*', '<', '…', ' ', '(', '$', '%', '~', '{']) && !span.starts_with('.');
    let folder = span
        .strip_suffix('/')
        .is_some_and(|inner| inner.contains('/') && !inner.starts_with('/'));
    plain && ((has_extension(span) && (span.contains('/') || span.ends_with(".rs"))) || folder)
}

fn has_extension(span: &str) -> bool {
    [".rs", ".ts", ".md", ".toml", ".py", ".sh", ".mjs"]
        .iter()
        .any(|ext| span.ends_with(ext))
}

/// The text of every file at `path`: the file, or every file below the folder.
fn texts_at(path: &std::path::Path) -> Vec<String> {
    walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .collect()
}

/// Whether `name` is written in one of `texts`.
fn is_named_in(name: &str, texts: &[String]) -> bool {
    let words = identifiers(name);
    !words.is_empty()
        && texts
            .iter()
            .any(|text| words.iter().all(|word| is_word_in(word, text)))
}

/// A citation found in the page: the file, the names cited in it, and the line.
struct Citation {
    file: String,
    names: Vec<String>,
    line: usize,
}

/// The citations of ARCHITECTURE.md's prose: `` `file: name` `` spans, and `` `file` ``
/// spans, each with the backticked names of a parenthesis right after it.
fn citations(text: &str) -> Vec<Citation> {
    let mut found = Vec::new();
    for (number, (line, code)) in lines_with_code(text).into_iter().enumerate() {
        if code {
            continue;
        }
        let spans: Vec<(usize, &str)> = line.split('`').enumerate().skip(1).step_by(2).collect();
        let parts: Vec<&str> = line.split('`').collect();
        for (at, span) in spans {
            let (file, name) = match span.split_once(": ") {
                Some((file, name)) => (file, Some(name)),
                None => (span, None),
            };
            if !is_file_citation(file) {
                continue;
            }
            let mut names: Vec<String> = name.map(str::to_string).into_iter().collect();
            // `file` (`a`, `b`): the names in a parenthesis right after the file.
            if name.is_none() && parts.get(at + 1).is_some_and(|after| after.trim() == "(") {
                let mut next = at + 2;
                while let (Some(name), Some(after)) = (parts.get(next), parts.get(next + 1)) {
                    names.push(name.to_string());
                    if after.trim() != "," {
                        break;
                    }
                    next += 2;
                }
            }
            found.push(Citation {
                file: file.to_string(),
                names,
                line: number + 1,
            });
        }
    }
    found
}

/// The identifiers of a cited name: `ChatClient::chat` is `ChatClient` and `chat`;
/// `ExpandOptions::leave_out_summaries`, `Keep`, `retry_while(…)` is `retry_while`.
fn identifiers(name: &str) -> Vec<String> {
    let head = name.split(['(', ' ', '=', '.']).next().unwrap_or("");
    head.split("::")
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect()
}

fn is_word_in(word: &str, text: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !is_ident(before) && !is_ident(after)
    })
}

#[test]
fn every_file_and_name_architecture_cites_exists() {
    let text = std::fs::read_to_string(repository().join("ARCHITECTURE.md")).unwrap();
    let paths = repository_paths();
    let found = citations(&text);
    assert!(found.len() > 100, "citations found: {}", found.len());
    assert!(
        found.iter().filter(|c| !c.names.is_empty()).count() > 60,
        "citations with names"
    );
    let mut wrong = Vec::new();
    for citation in &found {
        let files = resolve(&citation.file, &paths);
        if files.is_empty() {
            wrong.push(format!(
                "line {}: {}: no such file or folder",
                citation.line, citation.file
            ));
            continue;
        }
        let texts: Vec<String> = files.iter().flat_map(|file| texts_at(file)).collect();
        for name in &citation.names {
            // In a folder: `driver.rs: decide` or `cost.ts` name a file below it.
            let (inner, name) = match name.split_once(": ") {
                Some((file, name)) if has_extension(file) => (Some(file), Some(name)),
                _ if has_extension(name) => (Some(name.as_str()), None),
                _ => (None, Some(name.as_str())),
            };
            let texts = match inner {
                Some(inner) => {
                    let below: Vec<PathBuf> = files
                        .iter()
                        .map(|folder| folder.join(inner))
                        .filter(|path| path.is_file())
                        .collect();
                    if below.is_empty() {
                        wrong.push(format!(
                            "line {}: {}{inner}: no such file",
                            citation.line, citation.file
                        ));
                        continue;
                    }
                    below.iter().flat_map(|file| texts_at(file)).collect()
                }
                None => texts.clone(),
            };
            if let Some(name) = name.filter(|name| !is_named_in(name, &texts)) {
                wrong.push(format!(
                    "line {}: {}: {name} is not in it",
                    citation.line, citation.file
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md cites:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn citations_are_read_with_their_names() {
    let found = citations(
        "- see `vault/write.rs: write_summary` and `pdf.rs` (`clean`, `read_page`), not `main.js`\n",
    );
    let read: Vec<(String, Vec<String>)> = found.into_iter().map(|c| (c.file, c.names)).collect();
    assert_eq!(
        read,
        [
            (
                "vault/write.rs".to_string(),
                vec!["write_summary".to_string()]
            ),
            (
                "pdf.rs".to_string(),
                vec!["clean".to_string(), "read_page".to_string()]
            ),
        ]
    );
    assert_eq!(identifiers("ChatClient::chat"), ["ChatClient", "chat"]);
    assert_eq!(
        identifiers("retry_while(replace_refused_while_open, …)"),
        ["retry_while"]
    );
    assert!(is_word_in("chat", "fn chat(&self)") && !is_word_in("chat", "fn chatty()"));
}
