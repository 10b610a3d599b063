//! Embed expansion over the vault on disk: the engine's expander
//! (`vaultsum_engine::vault::expand`, which says what an expansion is) reading notes through
//! [`Vault`] (confined, cached by stamp) and attachments through an [`AttachmentReader`]
//! (images described, audio transcribed, documents extracted), read concurrently.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

pub use vaultsum_engine::vault::expand::{
    assemble, failed_marker, plan_expansion, EmbedFiles, ExpandOptions, Expansion, ExpansionPlan,
    PendingAttachment, Replacement,
};

pub use super::attachment::{AttachmentKind, AttachmentReader, PlaceholderAttachments};
use super::error::VaultError;
use super::note_cache::ParsedNote;
use super::paths::VaultPath;
use super::Vault;

/// The vault's files as the expander reads them: notes parsed through the vault's cache
/// (confined opens, size limits), attachments by their path inside the vault.
impl EmbedFiles for Vault {
    fn parsed_note(&self, path: &str) -> Result<Arc<ParsedNote>, &'static str> {
        Vault::parsed_note(self, path).map_err(|e| match e {
            VaultError::Escapes(_) => "outside the vault",
            VaultError::NotFound(_) => "not found",
            VaultError::NotRegular { kind, .. } => kind.embed_reason(),
            VaultError::TooLarge { .. } => "too large to read (read.max_note_bytes)",
            VaultError::InvalidCanvas { .. } => "not a valid canvas",
            _ => "could not be read",
        })
    }

    fn attachment_allowed(&self, path: &str) -> bool {
        self.path(path).is_ok()
    }
}

/// Reads `note` from disk and expands it. See [`expand_source`].
pub async fn expand_note(
    vault: &Arc<Vault>,
    note: &VaultPath,
    opts: &ExpandOptions,
    attachments: &dyn AttachmentReader,
) -> Result<Expansion, VaultError> {
    let supported = supported_kinds(attachments);
    let on_disk = Arc::clone(vault);
    let (vault, path, opts) = (Arc::clone(vault), note.clone(), opts.clone());
    let (root, plan) = off_the_runtime(vault.files_on_caller(), move || {
        // A note this process parsed already (embedded by one read before, in a batch) is
        // not read again while its file is unchanged: one stat instead of an open and reads.
        let root = match vault.parsed_if_unchanged(path.relative()) {
            Some(root) => root,
            None => {
                let (bytes, stamp) = vault.read_stamped(&path)?;
                let source = super::note_source(path.relative(), bytes)?;
                vault.parse_owned(path.relative(), source, stamp)
            }
        };
        let plan = plan_on_disk(&vault, &path, &root, opts, supported);
        Ok::<_, VaultError>((root, plan))
    })
    .await?;
    Ok(finish_expansion(&on_disk, &root.source, plan, attachments).await)
}

/// Expands `source`, the content of `note` (read by the caller, so a writer can compare the
/// exact bytes it summarized with the file later). The note keeps its own frontmatter;
/// embedded notes lose theirs. Never fails: every problem becomes an inline marker.
pub async fn expand_source(
    vault: &Arc<Vault>,
    note: &VaultPath,
    source: &str,
    opts: &ExpandOptions,
    attachments: &dyn AttachmentReader,
) -> Expansion {
    let supported = supported_kinds(attachments);
    let on_disk = Arc::clone(vault);
    let (vault, path, opts, text) = (
        Arc::clone(vault),
        note.clone(),
        opts.clone(),
        source.to_string(),
    );
    let plan = off_the_runtime(vault.files_on_caller(), move || {
        let root = vault.parse_text(path.relative(), &text, None);
        plan_on_disk(&vault, &path, &root, opts, supported)
    })
    .await;
    finish_expansion(&on_disk, source, plan, attachments).await
}

/// Runs file-reading work on tokio's blocking pool, so a slow disk or a cloud-synced file
/// being downloaded holds one pool thread, never an async worker that other calls need;
/// on the calling thread when the front end asked for that ([`Vault::read_files_on_caller`]).
async fn off_the_runtime<T: Send + 'static>(
    on_caller: bool,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    if on_caller {
        return work();
    }
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => value,
        Err(error) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            // Only when the runtime itself is shutting down, which ends the caller too.
            Err(error) => panic!("the blocking pool stopped: {error}"),
        },
    }
}

/// The attachment kinds `reader` handles, asked once, before the expansion leaves the async
/// side.
fn supported_kinds(reader: &dyn AttachmentReader) -> Vec<AttachmentKind> {
    AttachmentKind::ALL
        .into_iter()
        .filter(|kind| reader.supports(*kind))
        .collect()
}

/// The plan for `root` (the parsed content of `note`), every embedded note read from disk
/// against a snapshot of the index; the sentinel nonce from this process's randomness.
fn plan_on_disk(
    vault: &Vault,
    note: &VaultPath,
    root: &Arc<ParsedNote>,
    opts: ExpandOptions,
    supported: Vec<AttachmentKind>,
) -> ExpansionPlan {
    let nonce = format!("{:x}", RandomState::new().build_hasher().finish());
    let index = vault.index();
    plan_expansion(vault, &index, note.relative(), root, opts, supported, nonce)
}

/// Reads the attachments the plan is waiting for, concurrently, and assembles the text.
async fn finish_expansion(
    vault: &Vault,
    source: &str,
    plan: ExpansionPlan,
    attachments: &dyn AttachmentReader,
) -> Expansion {
    let texts: Vec<String> = futures::future::join_all(plan.pending.iter().map(|pending| async {
        let failed = |reason: String| failed_marker(&pending.path, &reason);
        // Allowed when planned (`attachment_allowed`); a path refused now says why.
        let path = match vault.path(&pending.path) {
            Ok(path) => path,
            Err(_) => return failed("outside the vault".to_string()),
        };
        attachments
            .read_attachment_page(&path, pending.kind, pending.page)
            .await
            .unwrap_or_else(failed)
    }))
    .await;
    assemble(source, plan, &texts)
}
