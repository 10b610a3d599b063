//! A `## Summary` section composed onto a note's bytes: where it goes, its line ends, what
//! closes a block the note leaves open first; the verifier's view of the result. The write
//! itself (the file, its checks, the swap) is the host's: vaultsum-core's `vault/write.rs`, the
//! plugin's `Vault.process`.

use super::inert_check::{live_in_note, Live};
use super::markdown::map_note;
use super::note_end::LeftOpen;
use super::note_facts::summary_sections;
use super::output_policy::DefusedText;

const BOM: &[u8] = b"\xEF\xBB\xBF";
/// The note's new content with `summary` appended under `## Summary`.
///
/// The current bytes are an exact prefix of the result, except that `replace` first removes
/// every existing `## Summary` section (to the next heading of level 1 or 2, or the end).
/// Exactly one blank line precedes `## Summary` unless the note already ends with more (bytes
/// are never removed), then a blank line, the summary, one final newline. A note whose lines
/// end in CRLF gets CRLF; a byte-order mark stays where it is.
/// A note that ends inside a block that runs or hides is [`LeftOpen`] (`note_end.rs`).
pub fn compose_with_summary(
    current: &[u8],
    summary: &str,
    replace: bool,
) -> Result<Vec<u8>, LeftOpen> {
    Ok(compose_section(current, summary, None, replace)?.content)
}

/// The note's new content with `summary` appended under `## Summary`, as a write composes it,
/// and what the verifier finds live in the bytes written (the property test of the policy and
/// the verifier together: nothing, for any answer and any note).
pub fn compose_and_check(
    current: &[u8],
    summary: &DefusedText,
) -> Result<(Vec<u8>, Vec<Live>), LeftOpen> {
    let composed = compose_section(current, summary.as_str(), None, false)?;
    let document = String::from_utf8_lossy(&composed.content).into_owned();
    let live = live_in_note(
        &document,
        composed.written,
        summary.links(),
        Some(composed.heading),
    );
    Ok((composed.content, live))
}

/// A note with its section composed: the new content, where the bytes vaultsum wrote start
/// (closing lines, separator, heading, summary) and where its `## Summary` heading stands.
pub struct Composed {
    /// The new content.
    pub content: Vec<u8>,
    /// Where the bytes vaultsum wrote are.
    pub written: std::ops::Range<usize>,
    /// Where its `## Summary` heading stands.
    pub heading: usize,
}

/// [`compose_with_summary`] with an optional `marker` line (the summary's fingerprint, an
/// HTML comment) right under the `## Summary` heading.
pub fn compose_section(
    current: &[u8],
    summary: &str,
    marker: Option<&str>,
    replace: bool,
) -> Result<Composed, LeftOpen> {
    let crlf = uses_crlf(current);
    let newline: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let mut base = current.to_vec();
    if replace {
        if let Ok(text) = std::str::from_utf8(current) {
            if let Some(without) = remove_summary_sections(text) {
                base = without.into_bytes();
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(&base) {
        let closing = super::note_end::closing_lines(text, if crlf { "\r\n" } else { "\n" })?;
        if !closing.is_empty() {
            if !base.is_empty() && !base.ends_with(b"\n") {
                base.extend_from_slice(newline);
            }
            base.extend_from_slice(closing.as_bytes());
        }
    }
    // The closing lines are vaultsum's own fixed text; the verifier checks what follows them,
    // and that they closed what they were for (the heading is a heading).
    let written_start = base.len();
    let body_start = if base.starts_with(BOM) { BOM.len() } else { 0 };
    let body = &base[body_start..];
    let separator: Vec<u8> = if body.is_empty() {
        Vec::new()
    } else if body.ends_with(b"\n") {
        let without_break = body[..body.len() - 1]
            .strip_suffix(b"\r")
            .unwrap_or(&body[..body.len() - 1]);
        if last_line(without_break).iter().all(u8::is_ascii_whitespace) {
            Vec::new()
        } else {
            newline.to_vec()
        }
    } else if last_line(body).iter().all(u8::is_ascii_whitespace) && body.contains(&b'\n') {
        newline.to_vec()
    } else {
        [newline, newline].concat()
    };

    let summary = summary.trim().replace("\r\n", "\n");
    let summary = if crlf {
        summary.replace('\n', "\r\n")
    } else {
        summary
    };
    let mut out = base;
    out.extend_from_slice(&separator);
    let heading = out.len();
    out.extend_from_slice(b"## Summary");
    out.extend_from_slice(newline);
    if let Some(marker) = marker {
        out.extend_from_slice(marker.as_bytes());
        out.extend_from_slice(newline);
    }
    out.extend_from_slice(newline);
    out.extend_from_slice(summary.as_bytes());
    out.extend_from_slice(newline);
    let written = written_start..out.len();
    Ok(Composed {
        content: out,
        written,
        heading,
    })
}

/// True when most line breaks are CRLF.
fn uses_crlf(bytes: &[u8]) -> bool {
    let breaks = bytes.iter().filter(|b| **b == b'\n').count();
    let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
    crlf > 0 && crlf * 2 >= breaks
}

fn last_line(bytes: &[u8]) -> &[u8] {
    match bytes.iter().rposition(|b| *b == b'\n') {
        Some(at) => &bytes[at + 1..],
        None => bytes,
    }
}

/// The text without its `## Summary` sections, or `None` when it has none. Trailing blank
/// lines left at the end are dropped.
fn remove_summary_sections(text: &str) -> Option<String> {
    let sections = summary_sections(text, &map_note(text));
    if sections.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for section in &sections {
        if section.start < pos {
            continue;
        }
        out.push_str(&text[pos..section.start]);
        pos = section.end;
    }
    out.push_str(&text[pos..]);
    if pos == text.len() {
        let kept = out.trim_end_matches(['\n', '\r', ' ', '\t']).len();
        out.truncate(kept);
    }
    Some(out)
}

/// Why a section is not written: the bytes would act in Obsidian, or the note leaves a block
/// open that would take the summary in. Nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SectionRefused {
    /// The verifier of written bytes (`inert_check.rs`) found something live in what a summary
    /// write would put on disk, after the output policy.
    #[error("refused to write the summary into {path}: the written text would still act in Obsidian ({found}); the note was left unchanged")]
    Live {
        /// The note, vault-relative.
        path: String,
        /// What was found, first few.
        found: String,
    },
    /// The note ends inside a block that runs or hides (`note_end.rs`): the summary would be
    /// read as its code, or hidden.
    #[error("{path} ends inside {what}, which would take in the summary; close it in the note and summarize again (the note was left unchanged)")]
    LeftOpen {
        /// The note, vault-relative.
        path: String,
        /// What is left open (`a ```dataviewjs block`, `a %% comment`).
        what: String,
    },
}

/// A write the verifier found live constructs in is refused whole.
pub fn refuse_live(relative: &str, live: Vec<Live>) -> Result<(), SectionRefused> {
    if live.is_empty() {
        return Ok(());
    }
    let found: Vec<String> = live.iter().take(3).map(Live::to_string).collect();
    Err(SectionRefused::Live {
        path: relative.to_string(),
        found: found.join("; "),
    })
}

/// `before`, the section composed after it ([`compose_section`]), then `after`, checked by the
/// verifier as the bytes will be on disk, the note around them.
pub fn compose_verified(
    relative: &str,
    before: &[u8],
    after: &[u8],
    summary: &DefusedText,
    marker: Option<&str>,
    replace: bool,
) -> Result<Vec<u8>, SectionRefused> {
    let mut composed =
        compose_section(before, summary.as_str(), marker, replace).map_err(|open| {
            SectionRefused::LeftOpen {
                path: relative.to_string(),
                what: open.0,
            }
        })?;
    composed.content.extend_from_slice(after);
    let document = String::from_utf8_lossy(&composed.content);
    refuse_live(
        relative,
        live_in_note(
            &document,
            composed.written.clone(),
            summary.links(),
            Some(composed.heading),
        ),
    )?;
    Ok(composed.content)
}
