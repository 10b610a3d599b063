//! vaultsum's engine as a WebAssembly module (wasm-bindgen): the same code as the native
//! binary's, called from JavaScript with strings (and an image's or recording's bytes) in and
//! strings out. Built by `scripts/wasm-build.sh`; `scripts/wasm-parity.sh` checks that it
//! answers byte for byte what the native build answers, on every note of both vaults and on
//! notes embedding every document file of the repository. Documents are read by a module of
//! their own (`crates/vaultsum-documents-wasm`), which the host loads when a note embeds one.
//!
//! Each function is the engine's own, unwrapped: what a summary is must not differ between
//! the binary and the plugin, so nothing here decides anything.

mod app_vault;

pub use app_vault::AppVault;
use vaultsum_engine::facts;
use vaultsum_engine::llm::local::{self, LocalOptions};
use vaultsum_engine::vault::output_policy::{OutputPolicy, SourceLinks};
use wasm_bindgen::prelude::wasm_bindgen;

/// The offline engine's summary of `markdown` (a note, its embeds already expanded): what
/// `vaultsum_engine::llm::local::summarize` gives with these options. `sentences` 0 means the
/// length that scales with the note; `focus` empty means none.
#[wasm_bindgen(js_name = summarizeOffline)]
pub fn summarize_offline(
    markdown: &str,
    sentences: u32,
    focus: &str,
    cite_sections: bool,
) -> String {
    let options = LocalOptions {
        sentences: (sentences > 0).then_some(sentences as usize),
        focus: (!focus.is_empty()).then(|| focus.to_string()),
        cite_sections,
    };
    local::summarize(markdown, &options).markdown
}

/// `answer` as the output policy lets it into a note, given the `source` it was made from
/// (the links the source names may stay links): `OutputPolicy::default().summary`.
#[wasm_bindgen(js_name = policySummary)]
pub fn policy_summary(answer: &str, source: &str) -> String {
    OutputPolicy::default()
        .summary(answer, &SourceLinks::from_text(source))
        .as_str()
        .to_string()
}

/// The fact check of `answer` against `source` (the text the model was given): a first line
/// with the count of facts and the entity precision, then one line per fact the source does
/// not hold (`kind<TAB>fact<TAB>why`, the fact's text with its line breaks as spaces).
#[wasm_bindgen(js_name = checkFacts)]
pub fn check_facts(answer: &str, source: &str) -> String {
    let check = facts::check(answer, source);
    let precision = check
        .entity_precision()
        .map_or_else(|| "none".to_string(), |p| format!("{p:.6}"));
    let mut out = format!("facts {} precision {precision}\n", check.facts.len());
    for unsupported in &check.unsupported {
        out.push_str(&format!(
            "{:?}\t{}\t{}\n",
            unsupported.fact.kind,
            unsupported.fact.text.replace(['\n', '\r'], " "),
            unsupported.reason
        ));
    }
    out
}

/// The engine's version (the workspace's), to tell which build a plugin carries.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
