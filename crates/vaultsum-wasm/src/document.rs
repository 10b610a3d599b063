//! A document's text for JavaScript: the bytes of a PDF, DOCX, PPTX, XLSX/ODS, CSV/TSV or canvas
//! the host read, as the Markdown the native binary makes of them (vaultsum-documents, the
//! same extractors; `scripts/wasm-documents-parity.sh` compares the two on every fixture).
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
//!   allocations, any borrow it held), so a host should take only `lastPanic` from an instance
//!   that trapped and load a new one for its next document.
//! - The size check before reading: the host read the bytes; what is over
//!   `DocLimits::max_bytes` (50 MiB) is refused here with the native words, before any parser
//!   sees it.

use std::sync::{Mutex, Once};

use vaultsum_documents::{extract, DocLimits, DocumentFileError, DocumentKind};
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

/// The message of the panic that ended the last call (`""` when none did since the last ask),
/// to show the person instead of "unreachable". The instance that panicked must not be used
/// for anything else: load a new one.
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
            let message = match info.payload().downcast_ref::<&str>() {
                Some(text) => text.to_string(),
                None => info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| "no message".to_string()),
            };
            let place = info
                .location()
                .map(|at| format!(" at {}:{}", at.file(), at.line()))
                .unwrap_or_default();
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = Some(format!("the document parser panicked{place}: {message}"));
            }
            previous(info);
        }));
    });
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
        let words = last_panic();
        assert!(
            words.starts_with(
                "the document parser panicked at crates/vaultsum-wasm/src/document.rs:"
            ) && words.ends_with(": index 7 out of range for slice"),
            "{words}"
        );
        assert_eq!(last_panic(), "", "read once");
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
