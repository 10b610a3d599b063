//! A reader of embedded files that makes no paid call: documents are read as always (on this
//! machine), images and recordings the real reader would pay a model for are left as a
//! placeholder and counted (with no model to ask, they read as the real run reads them). For counts asked
//! before a paid run (a rollup's dry run), which must cost nothing even when the person then
//! declines.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::vault::attachment::counted_placeholder;
use crate::vault::{AttachmentKind, AttachmentReader, VaultPath};

/// Wraps the real reader; see the module.
pub struct UnpaidReads<'a> {
    inner: &'a dyn AttachmentReader,
    /// Images and recordings that the real run would describe or transcribe.
    pub media: AtomicUsize,
}

impl<'a> UnpaidReads<'a> {
    /// Over `inner`, the reader the real run uses.
    pub fn over(inner: &'a dyn AttachmentReader) -> UnpaidReads<'a> {
        UnpaidReads {
            inner,
            media: AtomicUsize::new(0),
        }
    }
}

#[async_trait::async_trait]
impl AttachmentReader for UnpaidReads<'_> {
    async fn read_attachment(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
    ) -> Result<String, String> {
        self.read_attachment_page(path, kind, None).await
    }

    async fn read_attachment_page(
        &self,
        path: &VaultPath,
        kind: AttachmentKind,
        page: Option<u32>,
    ) -> Result<String, String> {
        if self.inner.may_pay_for(kind) {
            self.media.fetch_add(1, Ordering::Relaxed);
            return Ok(counted_placeholder(path.relative(), kind));
        }
        self.inner.read_attachment_page(path, kind, page).await
    }

    fn supports(&self, kind: AttachmentKind) -> bool {
        self.inner.supports(kind)
    }

    fn may_pay_for(&self, kind: AttachmentKind) -> bool {
        self.inner.may_pay_for(kind)
    }
}
