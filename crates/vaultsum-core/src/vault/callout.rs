//! A summary as an Obsidian callout block (`> [!summary]`), for a front end that puts it into a
//! note itself: the plugin's "Summarize selection" inserts it below the selection through the
//! editor, where the person's unsaved text lives. The block is composed here from text the
//! output policy made ([`DefusedText`]: never a model's answer as it came) and checked by the
//! same verifier as every write (`inert_check.rs`), standing alone, since where the editor puts
//! it is not known here; a block the verifier finds anything live in is refused whole.

use super::error::VaultError;
use super::inert_check::live_in_note;
use super::output_policy::DefusedText;
use super::write::refuse_live;

/// The first line of every summary callout.
pub const CALLOUT_HEADER: &str = "> [!summary]";

/// `summary` as a callout block: `> [!summary]`, then each of its lines quoted (`>` alone for a
/// blank one); LF line breaks, no final newline. `what` names the source in an error (`the
/// selection`).
pub fn summary_callout(summary: &DefusedText, what: &str) -> Result<String, VaultError> {
    let mut block = String::from(CALLOUT_HEADER);
    for line in summary.as_str().trim().lines() {
        block.push_str(if line.trim().is_empty() {
            "\n>"
        } else {
            "\n> "
        });
        block.push_str(line.trim_end());
    }
    refuse_live(
        what,
        live_in_note(&block, 0..block.len(), summary.links(), None),
    )?;
    Ok(block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::{OutputPolicy, SourceLinks};

    fn callout(answer: &str, source: &str) -> String {
        let policy = OutputPolicy::default();
        let summary = policy.summary(answer, &SourceLinks::from_text(source));
        summary_callout(&summary, "the selection").unwrap()
    }

    #[test]
    fn every_line_is_quoted_under_the_summary_header() {
        assert_eq!(
            callout("### Key points\n\n- one\n- [ ] two", "one two"),
            "> [!summary]\n> ### Key points\n>\n> - one\n> - [ ] two"
        );
    }

    #[test]
    fn a_link_the_selection_does_not_name_is_not_a_link() {
        let block = callout(
            "See [the offer](https://evil.example/x).",
            "A note without links.",
        );
        assert!(!block.contains("](https://evil.example/x)"), "{block}");
        let kept = callout(
            "See [docs](https://docs.rs/x).",
            "Read https://docs.rs/x today.",
        );
        assert!(kept.contains("[docs](https://docs.rs/x)"), "{kept}");
    }
}
