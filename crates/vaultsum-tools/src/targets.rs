//! Turning the paths a person types into the notes a batch command works on: a folder stands
//! for every note below it, walked as the vault layer walks (hidden folders left out).

use std::collections::HashSet;

use super::context::{ContextError, ToolContext};

impl ToolContext {
    /// Expands each input: a file stays as it is (checked later by the tool), a folder becomes
    /// its notes in path order. Order of inputs is kept; duplicates are dropped by the note they
    /// resolve to, so `Projects/Apollo`, `Projects/Apollo.md` and `./Projects/Apollo.md` are one
    /// target (the first spelling is kept).
    pub fn expand_targets(&self, inputs: &[String]) -> Result<Vec<String>, ContextError> {
        let vault = self.vault()?;
        let mut seen: HashSet<String> = HashSet::new();
        let mut out: Vec<String> = Vec::new();
        for input in inputs {
            let path = vault.resolve_input(input)?;
            if !path.absolute().is_dir() {
                if seen.insert(path.relative().to_string()) {
                    out.push(input.clone());
                }
                continue;
            }
            let notes = vault.walk_notes(path.relative())?;
            for note in notes {
                if seen.insert(note.relative.clone()) {
                    out.push(note.relative);
                }
            }
        }
        Ok(out)
    }
}
