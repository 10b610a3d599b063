//! A PDF's pages read on several threads, under the time limit: the native host's
//! [`PdfPages`] (vaultsum-documents reads them one by one, with no clock, as WebAssembly must).

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use vaultsum_documents::{DocLimits, OpenPdf, PageText, PdfPages};

/// Reads the pages asked for on several threads when the machine has the cores and the file is
/// small enough to open again: pages are independent once the document is open, and a long
/// paper is read in a fraction of the time (issue-604.pdf, 137 pages of 8 MB: 1.2 s -> 0.84 s on
/// 2 cores). Each extra thread opens its own copy of the document, since pdf_oxide's shared
/// object cache makes threads on one copy wait on each other (12,000 lock waits for that file,
/// and little gain), and takes over what the first copy worked out for the whole document
/// while reading the first page, instead of working it out again. Workers take pages in order
/// and stop starting new ones past `limits.timeout`, so what is read is always a run of pages
/// from the first: one entry per page, `None` for a page not started in time. A large document
/// is freed on a thread of its own.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Threaded;

impl PdfPages for Threaded {
    fn read(
        &self,
        pdf: &OpenPdf,
        bytes: &[u8],
        pages: Range<usize>,
        limits: &DocLimits,
    ) -> Vec<Option<PageText>> {
        let deadline = Instant::now() + limits.timeout;
        read_pages_on(
            worker_count(bytes.len(), pages.len()),
            pdf,
            bytes,
            pages,
            deadline,
        )
    }

    fn release(&self, pdf: OpenPdf, size: usize) {
        release(pdf, size);
    }
}

/// The pages of `pages` of `doc` (opened from `bytes`) on `workers` threads, none started
/// past `deadline`.
fn read_pages_on(
    workers: usize,
    doc: &OpenPdf,
    bytes: &[u8],
    pages: Range<usize>,
    deadline: Instant,
) -> Vec<Option<PageText>> {
    if workers <= 1 {
        return pages
            .map(|index| (Instant::now() <= deadline).then(|| doc.read_page(index)))
            .collect();
    }
    let next = AtomicUsize::new(pages.start);
    let results: Mutex<Vec<Option<PageText>>> = Mutex::new(pages.clone().map(|_| None).collect());
    let work = |doc: &OpenPdf| loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= pages.end || Instant::now() > deadline {
            break;
        }
        let page = doc.read_page(index);
        // Only a panic outside `contain_panic` could poison the lock, and the results stored
        // before it are whole either way.
        let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
        results[index - pages.start] = Some(page);
    };
    // Set once the first copy has read a page: it has then worked out what pdf_oxide works
    // out for the whole document before its first page (the running headers and footers, one
    // extraction of every page; the structure tree), which the other copies take over instead
    // of doing it again (a third of the CPU time of a paper read on 2 threads).
    let first_page_read = OnceLock::new();
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(|| {
                // It opened once already; should a second open fail, this thread reads nothing
                // and the others read every page.
                if let Ok(own) = OpenPdf::open_copy(bytes) {
                    first_page_read.wait();
                    if own.adopt_document_wide_results_of(doc).is_ok() {
                        work(&own);
                    }
                    release(own, bytes.len());
                }
            });
        }
        // The first page on this thread alone; then the others start (and so does this one
        // again, should the first page have been the last).
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index < pages.end && Instant::now() <= deadline {
            let page = doc.read_page(index);
            results.lock().unwrap_or_else(|e| e.into_inner())[index - pages.start] = Some(page);
        }
        let _ = first_page_read.set(());
        work(doc);
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    // A page finished after an earlier one was never started is dropped: the document is read
    // as a run of pages from the first, with one note saying where it stops.
    if let Some(first_missing) = results.iter().position(Option::is_none) {
        results[first_missing..]
            .iter_mut()
            .for_each(|page| *page = None);
    }
    results
}

/// Frees a document opened from `size` bytes. An open document takes about 8 times its file's
/// size in many small pieces, and freeing them is slow (15 ms for an 8 MB paper, on every
/// thread's copy): a large one is freed on a thread of its own, so the text is not held up.
fn release(doc: OpenPdf, size: usize) {
    if size < RELEASED_ASIDE_FROM {
        return;
    }
    let freeing = std::thread::Builder::new()
        .name("pdf-free".into())
        .spawn(move || {
            drop(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || drop(doc),
            )))
        });
    // Without a thread to spare, `doc` was dropped with the failed spawn's closure, here.
    drop(freeing);
}

/// File size from which a document is freed on a thread of its own.
const RELEASED_ASIDE_FROM: usize = 1 << 20;

/// Threads for reading `pages` pages of a PDF of `size` bytes: one per core, at most
/// [`MAX_THREADS`], and no more extra copies of the document than [`EXTRA_COPIES_BUDGET`]
/// allows (an open copy takes about 8 times the file's size: 64 MB for an 8 MB paper).
fn worker_count(size: usize, pages: usize) -> usize {
    if pages <= 1 {
        return 1;
    }
    let extra_copies = EXTRA_COPIES_BUDGET / size.saturating_mul(8).max(1);
    cores()
        .min(MAX_THREADS)
        .min(pages)
        .min(1 + extra_copies)
        .max(1)
}

/// Cores this process may use, asked once: on Linux the answer comes from reading cgroup
/// files (about 0.1 ms, a twentieth of a one-page PDF's read), and it does not change between
/// documents.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Threads one PDF is read on, at most.
const MAX_THREADS: usize = 8;

/// Memory the extra copies of a document may take, together.
const EXTRA_COPIES_BUDGET: usize = 256 << 20;

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use crate::media::document::{pdf_to_markdown, DocumentError};

    fn open(bytes: &[u8]) -> OpenPdf {
        OpenPdf::open_copy(bytes).unwrap()
    }

    /// What each page gave, comparable (its text, marker or failure, as `Debug` shows it).
    fn shown(pages: &[Option<PageText>]) -> Vec<Option<String>> {
        pages
            .iter()
            .map(|page| page.as_ref().map(|page| format!("{page:?}")))
            .collect()
    }

    #[test]
    fn pages_read_on_several_threads_are_the_pages_read_one_by_one() {
        let bytes = fixture_bytes("multipage.pdf");
        let doc = open(&bytes);
        let later = Instant::now() + std::time::Duration::from_secs(600);
        let one_by_one = shown(&read_pages_on(1, &doc, &bytes, 0..3, later));
        assert!(one_by_one.iter().all(Option::is_some), "{one_by_one:?}");
        for workers in [2, 3, 8] {
            let parallel = shown(&read_pages_on(workers, &doc, &bytes, 0..3, later));
            assert_eq!(parallel, one_by_one, "{workers} threads");
        }
        // A range that does not start at the first page keeps its own order.
        let tail = shown(&read_pages_on(2, &doc, &bytes, 1..3, later));
        assert_eq!(tail, one_by_one[1..]);
    }

    #[test]
    fn no_page_is_started_past_the_deadline_on_any_thread() {
        let bytes = fixture_bytes("multipage.pdf");
        let doc = open(&bytes);
        let past = Instant::now() - std::time::Duration::from_millis(1);
        for workers in [1, 3] {
            let pages = read_pages_on(workers, &doc, &bytes, 0..3, past);
            assert!(pages.iter().all(Option::is_none), "{workers} threads");
        }
    }

    #[test]
    fn a_large_pdf_gets_fewer_threads_than_a_small_one() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(worker_count(1_000, 1), 1, "one page, one thread");
        assert_eq!(worker_count(1_000, 100), cores.min(MAX_THREADS));
        assert_eq!(
            worker_count(1_000, 2),
            cores.clamp(1, 2),
            "never more threads than pages"
        );
        // 200 MB: no memory left for a second copy.
        assert_eq!(worker_count(200 << 20, 100), 1);
    }

    #[test]
    fn pdf_out_of_time_before_the_first_page_is_a_timeout() {
        let limits = DocLimits {
            timeout: std::time::Duration::ZERO,
            ..DocLimits::default()
        };
        let err = pdf_to_markdown(&fixture_bytes("multipage.pdf"), None, &limits).unwrap_err();
        assert!(matches!(err, DocumentError::TimedOut { .. }), "{err}");
    }
}
