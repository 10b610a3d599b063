//! The cost part of a batch's closing line (`summarize-file`, `rollup`), read from
//! `Registry::usage` and worded by `vaultsum_tools::batch_line` (the words every front end
//! shares, the `summarize_folder` tool's too).

use crate::tools::batch_line;
use crate::tools::summarizer::Summarizer;
use crate::tools::Registry;

/// What follows the counts of a closing line (see [`batch_line::cost_clause`]): every count
/// when anything was used, `, offline` or `; no requests` when nothing was.
pub fn cost_clause(registry: &Registry) -> String {
    let offline = matches!(
        registry.context().engine_choice().summarizer,
        Summarizer::Local
    );
    batch_line::cost_clause(registry.usage(), offline)
}
