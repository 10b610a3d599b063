//! The native half of `scripts/wasm-documents-parity.sh`: each document file given (a path
//! relative to the working folder), extracted the way the native binary extracts an embed,
//! `MediaDescriber::extract_document` under the default `DocLimits` (pages on several threads,
//! the time limit, the cache: in a temporary folder), in the format `documents-parity.mjs`
//! prints from the WebAssembly module's `extractDocument`. A PDF is read whole, then as its
//! page 1 and page 2 (`#page=N`; a one-page PDF's page 2 is an error, compared too). The script
//! compares the two outputs byte for byte.

use std::io::Write;
use std::time::Instant;

use vaultsum_core::config::{Config, Env};
use vaultsum_core::media::document::{DocLimits, DocumentFileError, DocumentKind};
use vaultsum_core::media::{MediaDescriber, MediaError};

/// The pages each file is read at: whole, and for a PDF page 1 and page 2 too.
fn pages_of(kind: Option<DocumentKind>) -> Vec<Option<u32>> {
    match kind {
        Some(DocumentKind::Pdf) => vec![None, Some(1), Some(2)],
        _ => vec![None],
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache = tempfile::tempdir()?;
    let config = Config::load_without_file(&Env::from_pairs([]))?;
    let media = MediaDescriber::with_cache_root(None, &config.llm, cache.path());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut extracting = std::time::Duration::ZERO;
    let mut count = 0usize;
    for file in std::env::args().skip(1) {
        let bytes = std::fs::read(&file)?;
        let kind = DocumentKind::from_file_name(&file);
        for page in pages_of(kind) {
            count += 1;
            let started = Instant::now();
            // The binary gives only documents to `extract_document` (other files get a
            // placeholder); the module refuses them in the words of `NotADocument`.
            let result = match kind {
                Some(kind) => {
                    media
                        .extract_document(&file, kind, bytes.clone(), page, DocLimits::default())
                        .await
                }
                None => Err(MediaError::Document(DocumentFileError::NotADocument {
                    file_name: file.clone(),
                })),
            };
            extracting += started.elapsed();
            let answer = match result {
                Ok(text) => serde_json::json!({ "text": text }),
                Err(error) => serde_json::json!({ "error": error.to_string() }),
            };
            let answer = answer.to_string();
            let page = page.map_or_else(|| "all".to_string(), |p| p.to_string());
            writeln!(
                out,
                "==> {file} page {page} <==\n{}\n{answer}",
                answer.len()
            )?;
        }
    }
    out.flush()?;
    eprintln!(
        "native: {count} extractions in {:.1} ms",
        extracting.as_secs_f64() * 1000.0
    );
    Ok(())
}
