//! Turning the paths a person types into the notes a batch command works on: a folder stands
//! for every note below it, walked as the vault layer walks (hidden folders left out).

use std::collections::HashSet;

use super::context::{ContextError, ToolContext};
use crate::left_out::LeftOut;

/// The notes a batch works on, and the entries of its folders the walk left out (a symlink
/// out of the vault, a loop, a FIFO, a name that is not UTF-8, …; see `vault/walk.rs`).
#[derive(Debug, Default)]
pub struct Targets {
    pub notes: Vec<String>,
    pub left_out: Vec<LeftOut>,
}

impl ToolContext {
    /// Expands each input: a file stays as it is (checked later by the tool), a folder becomes
    /// its notes in path order. Order of inputs is kept; duplicates are dropped by the file they
    /// resolve to, so `Projects/Apollo`, `Projects/Apollo.md`, `./Projects/Apollo.md`,
    /// `Projects\Apollo.md` and, where the file system ignores case and Unicode form (NTFS,
    /// APFS), `projects/apollo.md` are one target (the first spelling is kept).
    pub fn expand_targets(&self, inputs: &[String]) -> Result<Targets, ContextError> {
        let vault = self.vault()?;
        let mut seen: HashSet<Identity> = HashSet::new();
        let mut out: Vec<String> = Vec::new();
        let mut left_out: Vec<LeftOut> = Vec::new();
        for input in inputs {
            let path = vault.resolve_input(input)?;
            let (folder, identity) = path.folder_and_identity();
            if !folder {
                if seen.insert(Identity::new(identity, path.relative())) {
                    out.push(input.clone());
                }
                continue;
            }
            let scan = vault.scan_notes(path.relative())?;
            left_out.extend(scan.left_out);
            for note in scan.files {
                // Found by the walk, so already a real path below the root: no second check of
                // where it leads, only which file it is.
                let identity = vault.identity_of(&note.relative);
                if seen.insert(Identity::new(identity, &note.relative)) {
                    out.push(note.relative);
                }
            }
        }
        Ok(Targets {
            notes: out,
            left_out,
        })
    }
}

impl ToolContext {
    /// Whether `inputs` name more than one note: several notes, or a folder (even of one
    /// note). A run over several notes leaves their current summaries alone; a single note
    /// named explicitly is summarized as asked.
    pub fn names_several_notes(&self, inputs: &[String], targets: &[String]) -> bool {
        targets.len() > 1
            || self.vault().is_ok_and(|vault| {
                inputs.iter().any(|input| {
                    vault
                        .resolve_input(input)
                        .is_ok_and(|path| path.absolute().is_dir())
                })
            })
    }
}

/// What makes two targets one: the file on disk when it can be looked at, else the name.
#[derive(PartialEq, Eq, Hash)]
enum Identity {
    File(vaultsum_core::vault::FileId),
    Name(String),
}

impl Identity {
    fn new(file: Option<vaultsum_core::vault::FileId>, relative: &str) -> Identity {
        match file {
            Some(id) => Identity::File(id),
            None => Identity::Name(relative.to_string()),
        }
    }
}
