//! Turning the paths a person types into the notes a batch command works on: a folder stands
//! for every note below it, walked as the vault layer walks (hidden folders left out).

use super::context::{ContextError, ToolContext};

impl ToolContext {
    /// Expands each input: a file stays as it is (checked later by the tool), a folder becomes
    /// its notes in path order. Order of inputs is kept; duplicates are dropped.
    pub fn expand_targets(&self, inputs: &[String]) -> Result<Vec<String>, ContextError> {
        let vault = self.vault()?;
        let mut out: Vec<String> = Vec::new();
        for input in inputs {
            let path = vault.resolve_input(input)?;
            if !path.absolute().is_dir() {
                push_unique(&mut out, input.clone());
                continue;
            }
            let notes = vault.walk_notes(path.relative())?;
            for note in notes {
                push_unique(&mut out, note.relative);
            }
        }
        Ok(out)
    }
}

fn push_unique(out: &mut Vec<String>, item: String) {
    if !out.contains(&item) {
        out.push(item);
    }
}
