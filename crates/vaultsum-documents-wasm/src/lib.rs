//! vaultsum's document reader as a WebAssembly module of its own (wasm-bindgen): the bytes of
//! a PDF, DOCX, PPTX, XLSX/ODS, CSV/TSV or canvas the host read, as the Markdown the native
//! binary makes of them (vaultsum-documents, the same extractors). `scripts/wasm-parity.sh`
//! compares the two through notes that embed every document file of the repository.
//!
//! Apart from the engine's module (`crates/vaultsum-wasm`) because the readers are twice its
//! size (PDF, spreadsheets, zip): a host loads this one only when a note embeds a document,
//! and when a parser panics (below) it drops this instance alone, the engine and what it holds
//! (the note being summarized, its other embeds) untouched.
//!
//! What the native binary does and this cannot:
//! - The time limit (`DocLimits::timeout`, 30 s): WebAssembly here has no clock and no thread to
//!   abandon, so an extraction runs to its end, and the host's call waits for it. A PDF's pages
//!   are read one by one, never on several threads (the text is the same).
//! - Panic containment: the module is built with `panic = "abort"` (wasm32-unknown-unknown's
//!   only strategy), so a parser's panic cannot become an error. It traps: the call throws a
//!   `WebAssembly.RuntimeError` ("unreachable") in JavaScript. The panic's own words are kept
//!   by a panic hook and given by [`last_panic`] (read once). Tried in Node 20 with a panicking
//!   export built for the purpose (2026-11-28): the call threw, `lastPanic` gave the panic's
//!   message, and later calls on the same instance (a CSV, a PDF after four traps) answered as
//!   before. Still, nothing the panic interrupted was undone (its shadow-stack frames, its heap
//!   allocations, any borrow it held), so the host takes only `lastPanic` from an instance
//!   that trapped, starts a new one (wasm-bindgen's `__wbg_reset_state`), and asks the new one
//!   for the binary's words ([`panic_answer`]: what the native binary, whose panics unwind and
//!   are caught, says of the same file).
//! - The size check before reading: the host read the bytes; what is over
//!   `DocLimits::max_bytes` (50 MiB) is refused here with the native words, before any parser
//!   sees it.

use std::sync::{Mutex, Once};

use vaultsum_documents::{
    canvas_to_markdown, extract, DocLimits, DocumentError, DocumentFileError, DocumentKind,
};
use wasm_bindgen::prelude::wasm_bindgen;

/// The document `file_name` names (its kind from the extension), from its `bytes`, under the
/// default limits: `{"text": …}`, what the native `MediaDescriber::extract_document` gives
/// (`DocumentText::to_markdown`), or `{"error": …}` in the native words. `page` (1-based) picks
/// one PDF page, as a `#page=N` link does.
#[wasm_bindgen(js_name = extractDocument)]
pub fn extract_document(file_name: &str, bytes: &[u8], page: Option<u32>) -> String {
    keep_panic_messages();
    let answer = match document_markdown(file_name, bytes, page) {
        Ok(text) => serde_json::json!({ "text": text }),
        Err(error) => serde_json::json!({ "error": error.to_string() }),
    };
    answer.to_string()
}

/// The Markdown of the document `file_name` names, or why there is none, naming the file.
pub fn document_markdown(
    file_name: &str,
    bytes: &[u8],
    page: Option<u32>,
) -> Result<String, DocumentFileError> {
    let kind =
        DocumentKind::from_file_name(file_name).ok_or_else(|| DocumentFileError::NotADocument {
            file_name: file_name.to_string(),
        })?;
    extract(kind, bytes, page, &DocLimits::default())
        .map(|text| text.to_markdown())
        .map_err(|source| DocumentFileError::Extract {
            file_name: file_name.to_string(),
            source,
        })
}

/// A canvas embedded in a note, as the expander reads it: the Markdown the native binary makes
/// of a `.canvas` it treats as a note (its file cards as `![[file#subpath]]` embeds, expanded
/// in turn): `{"text": …}`, or `{"error": …}` with why it is not a valid canvas (the host then
/// refuses the note as `invalid_canvas`, the binary's "not a valid canvas").
#[wasm_bindgen(js_name = canvasNote)]
pub fn canvas_note(bytes: &[u8]) -> String {
    keep_panic_messages();
    let answer = match canvas_to_markdown(bytes, &DocLimits::default()) {
        Ok(text) => serde_json::json!({ "text": text.to_markdown() }),
        Err(error) => serde_json::json!({ "error": error.to_string() }),
    };
    answer.to_string()
}

/// What the native binary says of `file_name` when its extraction ran past the time limit
/// (`DocLimits::timeout`, 30 s): `{"error": …}`. A host that runs the reader where it can be
/// stopped (a Web Worker) asks for these words before the extraction starts, and gives them if
/// it has to stop it.
#[wasm_bindgen(js_name = timeoutAnswer)]
pub fn timeout_answer(file_name: &str) -> String {
    let error = DocumentFileError::Extract {
        file_name: file_name.to_string(),
        source: DocumentError::TimedOut {
            seconds: DocLimits::default().timeout.as_secs(),
        },
    };
    serde_json::json!({ "error": error.to_string() }).to_string()
}

/// The time limit of one extraction, in milliseconds: the native binary's (`DocLimits::timeout`).
#[wasm_bindgen(js_name = timeLimitMs)]
pub fn time_limit_ms() -> f64 {
    DocLimits::default().timeout.as_millis() as f64
}

/// What the native binary says of `file_name` when its parser panicked with `message` (what
/// [`last_panic`] gave from the instance that trapped): `{"error": …}`, as
/// [`extract_document`] answers, in the words of `vaultsum_documents`' caught panic.
#[wasm_bindgen(js_name = panicAnswer)]
pub fn panic_answer(file_name: &str, message: &str) -> String {
    let format = DocumentKind::from_file_name(file_name).map_or("document", DocumentKind::name);
    let error = DocumentFileError::Extract {
        file_name: file_name.to_string(),
        source: DocumentError::Panicked {
            format,
            message: message.to_string(),
        },
    };
    serde_json::json!({ "error": error.to_string() }).to_string()
}

/// The message of the panic that ended the last call (`""` when none did since the last ask):
/// the panic's payload, as the native binary keeps it. The instance that panicked must not be
/// used for anything else: start a new one and ask it for [`panic_answer`].
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> String {
    LAST_PANIC
        .lock()
        .map(|mut last| last.take())
        .unwrap_or_default()
        .unwrap_or_default()
}

/// The last panic's message, kept by the hook before the module aborts.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Sets, once, a panic hook that keeps the panic's message for [`last_panic`]. With
/// `panic = "abort"` the hook still runs, before the trap.
fn keep_panic_messages() {
    static SET: Once = Once::new();
    SET.call_once(|| {
        // The hook before it still runs after (natively it prints the panic; in WebAssembly
        // it has nowhere to print).
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // The payload's text, as vaultsum-documents' `contain_panic` keeps it natively.
            let message = match info.payload().downcast_ref::<&str>() {
                Some(text) => text.to_string(),
                None => info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| "no message".to_string()),
            };
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = Some(message);
            }
            previous(info);
        }));
    });
}

/// The reader's version (the workspace's), to tell which build a plugin carries.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_document_is_refused_by_name() {
        let answer = extract_document("Clippings/photo.png", b"\x89PNG", None);
        assert_eq!(
            answer,
            r#"{"error":"cannot read Clippings/photo.png as a document: its extension is not one of .pdf, .docx, .pptx, .xlsx, .ods, .csv, .tsv or .canvas"}"#
        );
    }

    #[test]
    fn bytes_over_the_document_limit_are_refused_in_the_native_words() {
        let limit = DocLimits::default().max_bytes as usize;
        let answer = extract_document("big.csv", &vec![b'a'; limit + 1], None);
        assert_eq!(
            answer,
            format!(
                r#"{{"error":"cannot read big.csv as a document: {} bytes is over the {limit}-byte limit for documents"}}"#,
                limit + 1
            )
        );
    }

    #[test]
    fn a_panic_leaves_its_words_for_last_panic_once() {
        keep_panic_messages();
        // Natively the panic unwinds and is caught here; in WebAssembly the hook runs the same
        // way, just before the trap.
        let caught = std::panic::catch_unwind(|| panic!("index 7 out of range for slice"));
        assert!(caught.is_err());
        assert_eq!(last_panic(), "index 7 out of range for slice");
        assert_eq!(last_panic(), "", "read once");
    }

    #[test]
    fn a_canvas_reads_as_the_note_the_expander_reads() {
        let answer = canvas_note(
            br#"{"nodes":[{"id":"a","type":"text","text":"Plan the trip","x":0,"y":0,"width":10,"height":10}],"edges":[]}"#,
        );
        assert_eq!(answer, r#"{"text":"**Canvas**\n\nPlan the trip"}"#);
        let broken: serde_json::Value = serde_json::from_str(&canvas_note(b"{nodes")).unwrap();
        assert!(broken["error"].is_string(), "{broken}");
    }

    #[test]
    fn a_reading_stopped_at_the_time_limit_is_told_in_the_native_words() {
        assert_eq!(
            timeout_answer("Papers/slow.pdf"),
            r#"{"error":"cannot read Papers/slow.pdf as a document: extraction took longer than 30 s and was abandoned"}"#
        );
        assert_eq!(time_limit_ms(), 30_000.0);
    }

    #[test]
    fn a_panic_is_told_in_the_words_of_a_caught_one() {
        assert_eq!(
            panic_answer("Papers/scan.pdf", "index 7 out of range for slice"),
            r#"{"error":"cannot read Papers/scan.pdf as a document: the PDF parser failed on this file (a bug in the parser: index 7 out of range for slice)"}"#
        );
    }

    #[test]
    fn a_document_gives_its_text() {
        let answer: serde_json::Value = serde_json::from_str(&extract_document(
            "people.csv",
            b"name,city\nAda,London\n",
            None,
        ))
        .unwrap();
        assert_eq!(
            answer,
            serde_json::json!({ "text": "**Table**\n\n| name | city |\n| --- | --- |\n| Ada | London |" })
        );
    }
}
