//! The vault as the app's engine sees it: the file names (for link resolution) and the notes
//! the host has read so far. A summary is asked for again until the host has given every note
//! its expansion needs: each call either names the notes still missing or gives the summary,
//! so the host's reads stay asynchronous (Obsidian's adapter, Node's fs) and the engine never
//! waits on I/O.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use serde_json::{json, Value};
use vaultsum_engine::media::refusal::{read_limit, too_large_for, too_large_to_read};
use vaultsum_engine::media::work::MediaWork;
use vaultsum_engine::summary::batch_line::{closing_line, BatchCounts, OFFLINE};
use vaultsum_engine::summary::defaults;
use vaultsum_engine::summary::in_app::{self, AppInstructions};
use vaultsum_engine::summary::in_app_llm::{self, LlmExchange, LlmSettings, LlmStep};
use vaultsum_engine::summary::in_app_media::{
    media_answered, media_request, KeptMedia, MediaRequest,
};
use vaultsum_engine::summary::in_app_rollup::{
    self, check_target, document, select, AppNotes, RollupAsk, RollupFailure, Selected,
};
use vaultsum_engine::summary::refresh_plan::{
    folder_choice, plan, FolderChoice, Plan, RefreshPolicy,
};
use vaultsum_engine::summary::rollup::days::{days_asked, Day};
use vaultsum_engine::summary::rollup::document::{
    dry_run_text, empty_selection_message, would_be_written,
};
use vaultsum_engine::vault::attachment_kind::{counted_placeholder, AttachmentKind};
use vaultsum_engine::vault::document_kind::MAX_DOCUMENT_BYTES;
use vaultsum_engine::vault::expand::{
    assemble, failed_marker, plan_expansion, EmbedFiles, Expansion, PendingAttachment,
};
use vaultsum_engine::vault::index::NoteIndex;
use vaultsum_engine::vault::output_policy::DefusedText;
use vaultsum_engine::vault::output_policy::SourceLinks;
use vaultsum_engine::vault::parsed_note::ParsedNote;
use vaultsum_engine::vault::policy::is_hidden;
use wasm_bindgen::prelude::wasm_bindgen;

/// A file the host could not give, and why (shown inline where it is embedded).
#[derive(Debug, Clone, Copy)]
enum Refused {
    NotFound,
    TooLarge,
    Unreadable,
    InvalidCanvas,
    Outside,
}

impl Refused {
    /// The binary's inline reasons (vaultsum-core's `impl EmbedFiles for Vault`), word for word.
    fn reason(self) -> &'static str {
        match self {
            Refused::NotFound => "not found",
            Refused::TooLarge => "too large to read (read.max_note_bytes)",
            Refused::Unreadable => "could not be read",
            Refused::InvalidCanvas => "not a valid canvas",
            Refused::Outside => "outside the vault",
        }
    }
}

/// The vault's names and the notes read so far.
#[wasm_bindgen]
pub struct AppVault {
    index: NoteIndex,
    notes: HashMap<String, Result<Arc<ParsedNote>, Refused>>,
    /// Notes an expansion asked for that the host has not given yet.
    missing: RefCell<BTreeSet<String>>,
    /// The summary by a model under way: between its requests (`startLlm`, `llmAnswered`).
    exchange: RefCell<Option<Pending>>,
    /// What each embedded image or recording stands for in a model's summary, once read: its
    /// description or transcript, or why there is none (an `[Embed failed]` line's reason).
    media: HashMap<String, Result<String, String>>,
    /// Images and recordings an expansion for a model needs that the host has not read yet.
    media_missing: RefCell<BTreeMap<String, AttachmentKind>>,
    /// Images and recordings whose failure may pass (a rate limit, a server error): asked
    /// again for the next note ([`AppVault::forget_media_failures`]).
    retryable_media: HashSet<String>,
    /// The request out for each file (`mediaRequest` to `mediaAnswered`), and its body.
    media_sent: HashMap<String, (MediaWork, Vec<u8>)>,
    /// Images and recordings a count (a rollup's dry run) left unread.
    media_counted: Cell<usize>,
    /// The images and recordings a count of what a note's summary reads found
    /// ([`AppVault::media_to_read`]), by path.
    media_found: RefCell<BTreeMap<String, AttachmentKind>>,
    /// What each embedded document (PDF, office file, table, canvas; whole or one page) stands
    /// for, once the host read it with the document reader's module: its text, or why there
    /// is none (an `[Embed failed]` line's reason). Read for every summary, as the binary
    /// reads them: on this device, for nothing.
    documents: HashMap<DocumentKey, Result<String, String>>,
    /// Documents an expansion needs that the host has not read yet.
    documents_missing: RefCell<BTreeSet<DocumentKey>>,
}

/// An embedded document as read: its path, and the page asked for (`![[paper.pdf#page=3]]`).
type DocumentKey = (String, Option<u32>);

/// How an expansion reads embedded images and recordings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MediaReading {
    /// A placeholder naming the file (the offline engine: no model to ask).
    Offline,
    /// Described and transcribed by the model (the host sends the requests first).
    ByModel,
    /// Counted, not read: a count before a paid run pays for nothing.
    Counted,
    /// Counted, and documents left unread too: how many images and recordings a summary by
    /// the model would read first, nothing else.
    CountedOnly,
}

impl MediaReading {
    fn of(with_model: bool, dry_run: bool) -> MediaReading {
        match (with_model, dry_run) {
            (false, _) => MediaReading::Offline,
            (true, false) => MediaReading::ByModel,
            (true, true) => MediaReading::Counted,
        }
    }
}

/// A summary by a model between the host's sends: a note's, or a rollup's.
// One at a time, held between two requests: its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Pending {
    Note {
        path: String,
        root: Arc<ParsedNote>,
        instructions: AppInstructions,
        /// What the note as expanded names (`Expansion::named`: what the summary's links may
        /// point at).
        named: String,
        exchange: LlmExchange,
    },
    Rollup(Box<PendingRollup>),
}

/// A rollup waiting for its model's answer.
struct PendingRollup {
    ask: RollupAsk,
    selected: Selected,
    source: SourceLinks,
    /// The rollup note's text now (`None`: it does not exist yet).
    existing: Option<String>,
    reused: usize,
    exchange: LlmExchange,
}

impl Pending {
    fn exchange(&mut self) -> &mut LlmExchange {
        match self {
            Pending::Note { exchange, .. } => exchange,
            Pending::Rollup(rollup) => &mut rollup.exchange,
        }
    }
}

thread_local! {
    /// Summaries a model made for a preview, by the preview's id, kept for its write
    /// (`composeKept`): a model does not give the same answer twice, so the write is of the very
    /// summary shown, already through the output policy. The fewest kept: the last 16.
    static KEPT: RefCell<Vec<(String, AppInstructions, DefusedText)>> = const { RefCell::new(Vec::new()) };

    /// Descriptions and transcripts made while Obsidian runs, shared by every vault (an image
    /// two notes embed is described once; a folder run pays for it once).
    static KEPT_MEDIA: RefCell<KeptMedia> = RefCell::new(KeptMedia::default());
}

/// How many previews' summaries are kept for their writes.
const KEEP_PREVIEWS: usize = 16;

#[wasm_bindgen]
impl AppVault {
    /// A vault whose files (notes and attachments, vault-relative, `/`-separated) are `paths`;
    /// hidden ones (`.obsidian/`, `.trash/`) are left out, as the binary's index leaves them.
    #[wasm_bindgen(constructor)]
    pub fn new(paths: Vec<String>) -> AppVault {
        let mut index = NoteIndex::default();
        for path in &paths {
            index.insert(path);
        }
        AppVault {
            index,
            notes: HashMap::new(),
            missing: RefCell::new(BTreeSet::new()),
            exchange: RefCell::new(None),
            media: HashMap::new(),
            media_missing: RefCell::new(BTreeMap::new()),
            retryable_media: HashSet::new(),
            media_sent: HashMap::new(),
            media_counted: Cell::new(0),
            media_found: RefCell::new(BTreeMap::new()),
            documents: HashMap::new(),
            documents_missing: RefCell::new(BTreeSet::new()),
        }
    }

    /// The largest note the host should read (bytes); a larger one is given with
    /// [`AppVault::refuse_note`] as `too_large`.
    #[wasm_bindgen(js_name = maxNoteBytes)]
    pub fn max_note_bytes() -> f64 {
        defaults::MAX_NOTE_BYTES as f64
    }

    /// Gives the text of the note at `path` (its bytes decoded as UTF-8, invalid sequences
    /// replaced, a byte-order mark kept).
    #[wasm_bindgen(js_name = addNote)]
    pub fn add_note(&mut self, path: String, text: String) {
        self.missing.borrow_mut().remove(&path);
        self.notes.insert(path, Ok(Arc::new(ParsedNote::new(text))));
    }

    /// The text given for `path` ([`AppVault::add_note`]), or an empty string: what a write
    /// composed by the engine may replace.
    #[wasm_bindgen(js_name = givenText)]
    pub fn given_text(&self, path: &str) -> String {
        match self.notes.get(path) {
            Some(Ok(note)) => note.source.clone(),
            _ => String::new(),
        }
    }

    /// Says the note at `path` cannot be given: `not_found`, `too_large`, `invalid_canvas`,
    /// `outside` (a link that leads out of the vault), or
    /// anything else for a read that failed.
    #[wasm_bindgen(js_name = refuseNote)]
    pub fn refuse_note(&mut self, path: String, why: &str) {
        let refused = match why {
            "not_found" => Refused::NotFound,
            "too_large" => Refused::TooLarge,
            "invalid_canvas" => Refused::InvalidCanvas,
            "outside" => Refused::Outside,
            _ => Refused::Unreadable,
        };
        self.missing.borrow_mut().remove(&path);
        self.notes.insert(path, Err(refused));
    }

    /// The offline summary of the note at `path`, as `vaultsum summarize-file --engine
    /// offline --dry-run` makes it with no config file. JSON: `{"needs": [paths]}` when notes
    /// must be given first (then ask again), `{"summary", "expansion"}`, or `{"error"}`.
    /// `nonce`: random hex from the host, marking where attachment texts go.
    #[wasm_bindgen(js_name = previewOffline)]
    pub fn preview_offline(
        &self,
        path: &str,
        focus: &str,
        prompt: Option<String>,
        nonce: &str,
    ) -> String {
        match self.summarize(path, focus, prompt.as_deref(), nonce) {
            Ok((_, _, summary, expansion)) => json!({
                "summary": summary.as_str(),
                "expansion": expansion,
            }),
            Err(answer) => answer,
        }
        .to_string()
    }

    /// What `vaultsum summarize-file --engine offline NOTE` writes with no config file: as
    /// [`AppVault::preview_offline`], with `content`, the note's new text (the text given by
    /// [`AppVault::add_note`] with the summary section composed onto it, fingerprinted and
    /// verified). `replace`: in place of the note's summary sections. The host writes it only
    /// if the note is still the text it gave, and only for a note whose bytes are valid UTF-8.
    #[wasm_bindgen(js_name = summarizeOffline)]
    pub fn summarize_offline(
        &self,
        path: &str,
        focus: &str,
        prompt: Option<String>,
        nonce: &str,
        replace: bool,
    ) -> String {
        let (root, instructions, summary, expansion) =
            match self.summarize(path, focus, prompt.as_deref(), nonce) {
                Ok(done) => done,
                Err(answer) => return answer.to_string(),
            };
        match in_app::compose_write(
            path,
            root.source.as_bytes(),
            &summary,
            replace,
            instructions,
        ) {
            // Composed from UTF-8 text and UTF-8 additions: the bytes are UTF-8.
            Ok(content) => json!({
                "summary": summary.as_str(),
                "content": String::from_utf8_lossy(&content),
                "expansion": expansion,
            })
            .to_string(),
            Err(error) => json!({ "error": error.to_string() }).to_string(),
        }
    }
    /// Starts the summary of the note at `path` by a model, as `vaultsum summarize-file` makes
    /// it with a key and no config file: JSON `{"needs"}` (give the notes, ask again),
    /// `{"media"}` (`[{path, kind, max_bytes}]`: read each through
    /// [`AppVault::media_request`], then ask again), `{"error"}`, or `{"send": body, "expansion"}`: POST `body` (a JSON string) to
    /// `{base_url}/chat/completions` and hand the response to [`AppVault::llm_answered`].
    /// `model`: empty for the default; `max_output_tokens`: 0 for the default.
    #[wasm_bindgen(js_name = startLlm)]
    pub fn start_llm(
        &self,
        path: &str,
        focus: &str,
        prompt: Option<String>,
        nonce: &str,
        model: &str,
        max_output_tokens: u32,
    ) -> String {
        let (root, instructions, expansion) =
            match self.expand(path, prompt.as_deref(), nonce, MediaReading::ByModel) {
                Ok(done) => done,
                Err(answer) => return answer.to_string(),
            };
        let mut settings = LlmSettings::default();
        if !model.trim().is_empty() {
            settings.model = model.trim().to_string();
        }
        if max_output_tokens > 0 {
            settings.max_output_tokens = max_output_tokens;
        }
        let focus = Some(focus).filter(|focus| !focus.is_empty());
        let (exchange, body) =
            LlmExchange::for_note(path, &expansion.text, focus, instructions, settings);
        *self.exchange.borrow_mut() = Some(Pending::Note {
            path: path.to_string(),
            root,
            instructions,
            named: expansion.named,
            exchange,
        });
        json!({ "send": body.to_string(), "expansion": expansion.details }).to_string()
    }

    /// Reads the response to the request [`AppVault::start_llm`] (or this) gave: `url` as it
    /// may be shown, the HTTP `status`, its `content_type`, the whole `body` with the key
    /// masked. JSON `{"send": body}` (the fact check's corrective request: send it too),
    /// `{"summary", "content"}` (as [`AppVault::summarize_offline`] gives them; `replace` as
    /// there; `preview_id`, when given, keeps the summary for [`compose_kept`]), or `{"error"}`.
    #[wasm_bindgen(js_name = llmAnswered)]
    pub fn llm_answered(
        &self,
        url: &str,
        status: u16,
        content_type: &str,
        body: &[u8],
        replace: bool,
        preview_id: Option<String>,
    ) -> String {
        let Some(mut pending) = self.exchange.borrow_mut().take() else {
            return json!({ "error": "no summary by a model is under way here" }).to_string();
        };
        let (text, run) = match pending.exchange().answered(url, status, content_type, body) {
            Ok(LlmStep::Send(next)) => {
                *self.exchange.borrow_mut() = Some(pending);
                return json!({ "send": next.to_string() }).to_string();
            }
            Ok(LlmStep::Answered { text, run }) => (text, run),
            Err(error) => return json!({ "error": error.to_string() }).to_string(),
        };
        match pending {
            Pending::Note {
                path,
                root,
                instructions,
                named,
                ..
            } => {
                let summary = match in_app_llm::note_to_write(&named, &text, &run) {
                    Ok(written) => written.summary,
                    Err(error) => return json!({ "error": error.to_string() }).to_string(),
                };
                if let Some(id) = preview_id {
                    keep(id, instructions, summary.clone());
                }
                composed(&path, &root.source, &summary, replace, instructions)
            }
            Pending::Rollup(rollup) => {
                let finished =
                    in_app_rollup::finished(&text, Some(&run), &rollup.selected, &rollup.source);
                rollup_done(
                    &rollup.ask,
                    &rollup.selected,
                    rollup.existing.as_deref(),
                    rollup.reused,
                    finished,
                    "llm",
                )
            }
        }
    }

    /// The images and recordings a summary of the note at `path` by a model would have
    /// described and transcribed first (its embedded notes' included), each a paid request:
    /// `{"needs": [paths]}` when notes must be given first (then ask again),
    /// `{"images": [paths], "recordings": [paths]}`, or `{"error"}`. Nothing is read but notes:
    /// a count pays for nothing and reads no document. Named by path, so that a host counting
    /// several notes counts a file they share once, as it is read once.
    #[wasm_bindgen(js_name = mediaToRead)]
    pub fn media_to_read(&self, path: &str, nonce: &str) -> String {
        self.media_found.borrow_mut().clear();
        let answer = match self.expand(path, None, nonce, MediaReading::CountedOnly) {
            Ok(_) => {
                let found = self.media_found.borrow();
                let of = |kind: AttachmentKind| -> Vec<&String> {
                    found
                        .iter()
                        .filter(|(_, k)| **k == kind)
                        .map(|(path, _)| path)
                        .collect()
                };
                json!({ "images": of(AttachmentKind::Image), "recordings": of(AttachmentKind::Audio) })
            }
            Err(answer) => answer,
        };
        answer.to_string()
    }

    /// The request that reads the image or recording at `path` (one a `{"media"}` answer
    /// named) whose bytes are `bytes`, as the binary sends it with no config file: JSON
    /// `{"given": true}` when nothing is to be sent (the description kept from earlier while
    /// Obsidian runs, or the file refused: an empty file, a type the model does not take), or
    /// `{"endpoint", "content_type"}`: POST [`AppVault::media_body`] to
    /// `{base_url}/{endpoint}` with that content type and hand the response to
    /// [`AppVault::media_answered`]. `boundary`: random, for a recording's multipart form.
    #[wasm_bindgen(js_name = mediaRequest)]
    pub fn media_request(&mut self, path: String, bytes: &[u8], boundary: &str) -> String {
        let kind = AttachmentKind::of(&path).unwrap_or(AttachmentKind::Other);
        let (work, request) = match media_request(&path, kind, bytes, boundary) {
            Ok(asked) => asked,
            Err(refusal) => {
                self.media_given(path, Err(refusal.to_string()));
                return json!({ "given": true }).to_string();
            }
        };
        if let Some(text) = KEPT_MEDIA.with(|kept| kept.borrow().get(&work.key).map(str::to_string))
        {
            self.media_given(path, Ok(text));
            return json!({ "given": true }).to_string();
        }
        let (endpoint, content_type, body) = match request {
            MediaRequest::Chat(body) => (
                "chat/completions",
                "application/json".to_string(),
                body.to_string().into_bytes(),
            ),
            MediaRequest::Upload(form) => ("audio/transcriptions", form.content_type, form.body),
        };
        self.media_sent.insert(path, (work, body));
        json!({ "endpoint": endpoint, "content_type": content_type }).to_string()
    }

    /// The body of the request [`AppVault::media_request`] gave for `path`, handed over once
    /// (empty when none, or asked for again): a 20 MB image is not held twice.
    #[wasm_bindgen(js_name = mediaBody)]
    pub fn media_body(&mut self, path: &str) -> Vec<u8> {
        self.media_sent
            .get_mut(path)
            .map(|(_, body)| std::mem::take(body))
            .unwrap_or_default()
    }

    /// Reads the response to `path`'s request (`url` as it may be shown, the HTTP `status`,
    /// its `content_type`, the whole `body` with the key masked): JSON `{"given": true}` (its
    /// description or transcript is now what the file stands for, kept while Obsidian runs),
    /// or `{"failed": reason, "retryable"}`, the binary's words for why there is none: the host
    /// masks its key in them and gives them back with [`AppVault::refuse_media`].
    #[wasm_bindgen(js_name = mediaAnswered)]
    pub fn media_answered(
        &mut self,
        path: &str,
        url: &str,
        status: u16,
        content_type: &str,
        body: &[u8],
    ) -> String {
        let Some((work, _)) = self.media_sent.remove(path) else {
            return json!({ "failed": format!("no request for {path} is out") }).to_string();
        };
        match media_answered(&work, url, status, content_type, body) {
            Ok(text) => {
                KEPT_MEDIA.with(|kept| kept.borrow_mut().put(work.key, text.clone()));
                self.media_given(path.to_string(), Ok(text));
                json!({ "given": true }).to_string()
            }
            Err(failure) => {
                json!({ "failed": failure.reason, "retryable": failure.retryable }).to_string()
            }
        }
    }

    /// Forgets why images and recordings had no text when asking again may succeed (a
    /// server's 429 or 5xx, an unreachable server): the next note summarized asks for them
    /// again. A refusal (a type, a size, a content policy) stands, as do descriptions.
    #[wasm_bindgen(js_name = forgetMediaFailures)]
    pub fn forget_media_failures(&mut self) {
        for path in self.retryable_media.drain() {
            self.media.remove(&path);
        }
    }

    /// Says the image or recording at `path` has no text, and why (`reason`, shown as the
    /// binary shows it: `[Embed failed: PATH: reason]`); `retryable`: asking again later may
    /// succeed (then the next note asks again).
    #[wasm_bindgen(js_name = refuseMedia)]
    pub fn refuse_media(&mut self, path: String, reason: String, retryable: bool) {
        self.media_sent.remove(&path);
        if retryable {
            self.retryable_media.insert(path.clone());
        }
        self.media_given(path, Err(reason));
    }

    /// Says the image or recording at `path` is `size` bytes, over the largest read
    /// (`max_bytes` in its `{"media"}` entry): refused in the binary's words, unread.
    #[wasm_bindgen(js_name = mediaTooLarge)]
    pub fn media_too_large(&mut self, path: String, size: f64) {
        let kind = AttachmentKind::of(&path).unwrap_or(AttachmentKind::Other);
        let reason = too_large_to_read(&path, size as u64, kind);
        self.refuse_media(path, reason, false);
    }

    /// The text of the document at `path` (`page`: the one page asked for), one a
    /// `{"documents"}` answer named: `answer` is what the document reader's `extractDocument`
    /// gave for the file's bytes (`{"text"}` or `{"error"}`), or `{"error"}` the host's own
    /// (the file gone or unreadable, the reader stopped): an error becomes the binary's
    /// `[Embed failed]` line, and the summary goes on.
    #[wasm_bindgen(js_name = documentRead)]
    pub fn document_read(&mut self, path: String, page: Option<u32>, answer: &str) {
        let read = match serde_json::from_str::<Value>(answer) {
            Ok(Value::Object(answer)) => match (answer.get("text"), answer.get("error")) {
                (Some(Value::String(text)), _) => Ok(text.clone()),
                (_, Some(Value::String(error))) => Err(error.clone()),
                _ => Err("the document reader gave no text".to_string()),
            },
            _ => Err("the document reader gave no text".to_string()),
        };
        self.documents_missing
            .borrow_mut()
            .remove(&(path.clone(), page));
        self.documents.insert((path, page), read);
    }

    /// The document at `path` is `size` bytes, over the document limit (`max_bytes` in its
    /// `{"documents"}` entry): refused in the binary's words, unread.
    #[wasm_bindgen(js_name = documentTooLarge)]
    pub fn document_too_large(&mut self, path: String, page: Option<u32>, size: f64) {
        let reason = too_large_for(&path, size as u64, MAX_DOCUMENT_BYTES, "document");
        self.document_read(path, page, &json!({ "error": reason }).to_string());
    }

    /// A rollup (`summarize_notes`) over this vault, as the binary makes it with no config
    /// file: `args` its arguments as JSON (`tag`, `period` with `today`, `from`, `to`,
    /// `links_of`, `depth`, `focus`, `prompt`, `save_to`, `max_notes`, `dry_run`), `today` the
    /// host's local date (`YYYY-MM-DD`), `model` the model to ask (`None`: offline). JSON
    /// `{"needs"}` (give those files: notes, and Obsidian's settings files, refused when
    /// absent; then ask again), `{"error", "kind"}`, a dry run's `{"dry_run": true, "text",
    /// "note_count", "paid_calls", "engine", "notes", "from", "to"}`, `{"send"}` (then
    /// [`AppVault::llm_answered`]), or the rollup `{"rollup", "content"?, "save_to"?,
    /// "created", "note_count", "reused_summaries", "engine", "notes", "from", "to"}`:
    /// `content` is the rollup note's new text, written only over the text given for it.
    #[wasm_bindgen(js_name = rollup)]
    pub fn rollup(
        &self,
        args: &str,
        nonce: &str,
        today: &str,
        model: Option<String>,
        max_output_tokens: u32,
    ) -> String {
        match self.rollup_step(args, nonce, today, model, max_output_tokens) {
            Ok(answer) | Err(answer) => answer.to_string(),
        }
    }
}

/// `Err({"error", "kind": "too_large"})` when a rollup's `document` of `count` notes is more
/// than one request from inside Obsidian may send.
fn too_large_for_one_request(count: usize, document: &str) -> Result<(), Value> {
    let chars = document.chars().count();
    if chars <= defaults::MAX_CHARS {
        return Ok(());
    }
    Err(json!({
        "error": format!(
            "the {count} notes selected make {chars} characters, more than the {} one request from inside Obsidian may send; narrow the selection, or make the rollup with the vaultsum program, which summarizes it in parts",
            defaults::MAX_CHARS
        ),
        "kind": "too_large",
    }))
}

/// The answer of a finished rollup: the rollup, and the note's new text when it is saved.
fn rollup_done(
    ask: &RollupAsk,
    selected: &Selected,
    existing: Option<&str>,
    reused: usize,
    finished: Result<DefusedText, RollupFailure>,
    engine: &str,
) -> String {
    let rollup = match finished {
        Ok(rollup) => rollup,
        Err(failure) => return failed(&failure).to_string(),
    };
    let mut answer = json!({
        "success": true,
        "rollup": rollup.as_str(),
        "notes": selected.notes,
        "note_count": selected.notes.len(),
        "reused_summaries": reused,
        "engine": engine,
        "from": ask.from.map(|day| day.to_string()),
        "to": ask.to.map(|day| day.to_string()),
    });
    if let Some(target) = &ask.save_to {
        match in_app_rollup::compose_note(target, existing, ask, &rollup) {
            Ok(content) => {
                answer["save_to"] = json!(target);
                answer["created"] = json!(existing.is_none());
                answer["content"] = json!(String::from_utf8_lossy(&content));
            }
            Err(error) => {
                return json!({ "error": error.to_string(), "kind": "write" }).to_string()
            }
        }
    }
    answer.to_string()
}

fn failed(failure: &RollupFailure) -> Value {
    json!({ "error": failure.message, "kind": failure.kind })
}

/// Keeps a preview's summary for its write, the oldest dropped past [`KEEP_PREVIEWS`].
fn keep(id: String, instructions: AppInstructions, summary: DefusedText) {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.retain(|(kept_id, _, _)| *kept_id != id);
        if kept.len() >= KEEP_PREVIEWS {
            kept.remove(0);
        }
        kept.push((id, instructions, summary));
    });
}

/// What writing the summary a model made for preview `id` onto the note at `path` whose text
/// is now `text` gives: JSON `{"summary", "content"}` (composed and verified as any write), or
/// `{"error"}` when no such preview is kept. The kept summary is given up: one write each.
#[wasm_bindgen(js_name = composeKept)]
pub fn compose_kept(id: &str, path: &str, text: &str, replace: bool) -> String {
    let found = KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = kept.iter().position(|(kept_id, _, _)| kept_id == id)?;
        Some(kept.remove(at))
    });
    match found {
        Some((_, instructions, summary)) => composed(path, text, &summary, replace, instructions),
        None => json!({
            "error": format!("no preview {id} is kept for {path}; preview the note again")
        })
        .to_string(),
    }
}

/// `{"summary", "content"}` with `summary` composed onto `text`, or `{"error"}`.
fn composed(
    path: &str,
    text: &str,
    summary: &DefusedText,
    replace: bool,
    instructions: AppInstructions,
) -> String {
    match in_app::compose_write(path, text.as_bytes(), summary, replace, instructions) {
        // Composed from UTF-8 text and UTF-8 additions: the bytes are UTF-8.
        Ok(content) => json!({
            "summary": summary.as_str(),
            "content": String::from_utf8_lossy(&content),
        })
        .to_string(),
        Err(error) => json!({ "error": error.to_string() }).to_string(),
    }
}

/// The instructions for the note whose text is `text` (no call prompt: what its
/// state is measured against), or the `{"error"}` answer.
fn chosen(text: &str) -> Result<AppInstructions, Value> {
    in_app::choose(text, None).map_err(|e| json!({ "error": e.to_string() }))
}

/// The state of the summaries of the note whose text is `text`, for the instructions
/// chosen for it, as the binary's `summary_status` gives it: JSON `{"summary": "present" |
/// "missing", "state", "section", "property"}`, each state `current`, `stale`, `edited`,
/// `unmarked` or `missing`; `{"error"}` when its instructions cannot be chosen (the binary
/// lists such a note apart).
#[wasm_bindgen(js_name = summaryStatus)]
pub fn summary_status(text: &str) -> String {
    let freshness = match chosen(text) {
        Ok(instructions) => in_app::status(text, instructions),
        Err(answer) => return answer.to_string(),
    };
    let state = freshness.overall();
    json!({
        "summary": freshness.presence(),
        "state": state.name(),
        "section": freshness.section.name(),
        "property": freshness.property.name(),
    })
    .to_string()
}

/// What `summarize_file` with `refresh` (or leaving current summaries alone) does with the
/// note whose text is `text`: JSON `{"write": true, "replace"}`, `{"skip": reason}`
/// (`up to date`, `summary edited by hand`, `summary is stale; …`) or `{"error"}`.
#[wasm_bindgen(js_name = refreshPlan)]
pub fn refresh_plan(text: &str, prompt: Option<String>, refresh: bool) -> String {
    let instructions = match in_app::choose(text, prompt.as_deref()) {
        Ok(instructions) => instructions,
        Err(error) => return json!({ "error": error.to_string() }).to_string(),
    };
    let policy = RefreshPolicy {
        refresh,
        refresh_unmarked: false,
    };
    match plan(in_app::status(text, instructions), true, false, policy) {
        Plan::Write { replace } => json!({ "write": true, "replace": replace }),
        Plan::Skip(why) => json!({ "skip": why.reason() }),
    }
    .to_string()
}

/// What a folder run over `only` (`missing`, `stale`, `missing_and_stale`) does with the note
/// whose text is `text`, as `summarize_folder` decides it: JSON `{"write":
/// "missing"|"stale", "replace"}`, `{"skip": reason}`, or `{"error"}` (counted as failed).
#[wasm_bindgen(js_name = folderChoice)]
pub fn folder_choice_of(text: &str, prompt: Option<String>, only: &str) -> String {
    let instructions = match in_app::choose(text, prompt.as_deref()) {
        Ok(instructions) => instructions,
        Err(error) => return json!({ "error": error.to_string() }).to_string(),
    };
    match folder_choice(in_app::status(text, instructions), true, false, only) {
        FolderChoice::Write { kind, replace } => json!({ "write": kind, "replace": replace }),
        FolderChoice::Skip(why) => json!({ "skip": why }),
    }
    .to_string()
}

/// The folder the engine names Obsidian's settings files in (`.obsidian`, as the program
/// reads them): the host reads them from its vault's own config folder.
#[wasm_bindgen(js_name = engineConfigDir)]
pub fn engine_config_dir() -> String {
    ".obsidian".to_string()
}

/// How long one answer may take, in seconds (`llm.timeout_secs`'s default).
#[wasm_bindgen(js_name = requestTimeoutSecs)]
pub fn request_timeout_secs() -> f64 {
    defaults::TIMEOUT_SECS as f64
}

/// Why a folder run that would summarize `now` notes, more than the `max` agreed to, is
/// refused (the binary's words).
#[wasm_bindgen(js_name = moreThanAgreed)]
pub fn more_than_agreed(now: u32, max: u32) -> String {
    vaultsum_engine::summary::batch_line::more_than_agreed(now as usize, max as usize)
}

/// The model asked when none is set (`llm.summarize_model`'s default).
#[wasm_bindgen(js_name = defaultModel)]
pub fn default_model() -> String {
    defaults::SUMMARIZE_MODEL.to_string()
}

/// The provider asked when none is set (`llm.base_url`'s default).
#[wasm_bindgen(js_name = defaultBaseUrl)]
pub fn default_base_url() -> String {
    defaults::BASE_URL.to_string()
}

/// A folder run's closing line: `12 notes: 3 summarized, 9 skipped, offline` (`offline`: the
/// offline engine ran; with a model, no cost part: the app does not meter requests).
#[wasm_bindgen(js_name = closingLine)]
pub fn closing_line_offline(
    notes: u32,
    summarized: u32,
    skipped: u32,
    failed: u32,
    offline: bool,
) -> String {
    let counts = BatchCounts {
        notes: notes as usize,
        summarized: summarized as usize,
        skipped: skipped as usize,
        failed: failed as usize,
        left_out: 0,
    };
    closing_line(&counts, false, if offline { OFFLINE } else { "" })
}

impl AppVault {
    /// What the image or recording at `path` stands for from now on.
    fn media_given(&mut self, path: String, text: Result<String, String>) {
        self.media_missing.borrow_mut().remove(&path);
        self.media.insert(path, text);
    }

    /// One step of [`AppVault::rollup`]: `Err` with `{"needs"}`, `{"media"}` or `{"error"}`.
    fn rollup_step(
        &self,
        args: &str,
        nonce: &str,
        today: &str,
        model: Option<String>,
        max_output_tokens: u32,
    ) -> Result<Value, Value> {
        let invalid = |message: String| json!({ "error": message, "kind": "invalid_arguments" });
        let args: Value = serde_json::from_str(args).map_err(|e| invalid(e.to_string()))?;
        let text_of = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_string);
        if args
            .get("paths")
            .and_then(Value::as_array)
            .is_some_and(|paths| !paths.is_empty())
        {
            return Err(json!({
                "error": "a rollup of chosen paths needs the vaultsum program; the engine inside Obsidian rolls up a period, a tag or the links of a note",
                "kind": "needs_binary",
            }));
        }
        let (from, to) = days_asked(
            text_of("period").as_deref(),
            text_of("from").as_deref(),
            text_of("to").as_deref(),
            text_of("today").as_deref(),
            || Day::parse(today).unwrap_or(Day(0)),
        )
        .map_err(invalid)?;
        let ask = RollupAsk {
            tag: text_of("tag"),
            from,
            to,
            links_of: text_of("links_of"),
            depth: args.get("depth").and_then(Value::as_u64).unwrap_or(1) as usize,
            focus: text_of("focus"),
            prompt: text_of("prompt"),
            save_to: text_of("save_to"),
        };
        if ask.tag.is_none() && from.is_none() && to.is_none() && ask.links_of.is_none() {
            return Err(invalid(
                "invalid arguments for summarize_notes: no notes selected: give paths, tag, from/to or links_of".to_string(),
            ));
        }
        self.missing.borrow_mut().clear();
        self.media_missing.borrow_mut().clear();
        self.documents_missing.borrow_mut().clear();
        self.media_counted.set(0);
        let dry_run = args.get("dry_run").and_then(Value::as_bool) == Some(true);
        let reading = MediaReading::of(model.is_some(), dry_run);
        let text = |path: &str| self.text_of(path);
        let expanded = |path: &str| self.expanded_text(path, nonce, reading);
        let notes = AppNotes {
            index: &self.index,
            text: &text,
            expanded: &expanded,
        };
        let selected = select(&ask, &notes);
        // Texts not given yet first: a hub not read yet is not "not a note".
        self.needs()?;
        let selected = selected.map_err(|f| failed(&f))?;
        let count = selected.notes.len();
        if count == 0 {
            return Err(json!({
                "error": empty_selection_message(selected.undated, &selected.rollups, &[]),
                "kind": "empty_selection",
            }));
        }
        let max_notes = args.get("max_notes").and_then(Value::as_u64).unwrap_or(100) as usize;
        if count > max_notes {
            return Err(json!({
                "error": format!("{count} notes selected, more than max_notes ({max_notes}); narrow the selection or raise max_notes (--max-notes {count})"),
                "kind": "too_many_notes",
            }));
        }
        let existing = match &ask.save_to {
            Some(target) if self.index.iter().any(|path| path == target) => {
                let text = self.text_of(target);
                self.needs()?;
                // Listed but not given (too large, unreadable): said before anything is paid
                // for, not found to exist only when the rollup is written.
                if let Some(Err(refused)) = self.notes.get(target) {
                    return Err(json!({
                        "error": format!("{target}: {}", refused.reason()),
                        "kind": "save_to",
                    }));
                }
                text
            }
            _ => None,
        };
        if let Some(target) = &ask.save_to {
            let is_file = |path: &str| self.index.iter().any(|listed| listed == path);
            check_target(target, existing.as_deref(), &is_file).map_err(|f| failed(&f))?;
        }
        let instructions = in_app_rollup::instructions(&ask).map_err(|f| failed(&f))?;
        if reading == MediaReading::ByModel {
            // Sized first with its images and recordings named, not read: a rollup too large
            // for one request is refused before any of them is paid for.
            let counted = |path: &str| self.expanded_text(path, nonce, MediaReading::Counted);
            let sizing = AppNotes {
                index: &self.index,
                text: &text,
                expanded: &counted,
            };
            let sized = document(&selected, &sizing);
            self.needs()?;
            let sized = sized.map_err(|f| failed(&f))?;
            too_large_for_one_request(count, &sized.document)?;
        }
        let doc = document(&selected, &notes);
        self.needs()?;
        let doc = doc.map_err(|f| failed(&f))?;
        let engine = if model.is_some() { "llm" } else { "offline" };
        // The app sends a rollup in one request: one larger than a note may be is refused
        // before it is paid for, its count included (the program splits it within the
        // model's window).
        if model.is_some() {
            too_large_for_one_request(count, &doc.document)?;
        }
        if dry_run {
            let paid_calls = in_app_rollup::paid_calls(model.is_none());
            let media = self.media_counted.get();
            let mut text = dry_run_text(
                &selected.notes,
                doc.reused.len(),
                paid_calls,
                engine,
                media,
                &selected.rollups,
            );
            if let Some(target) = &ask.save_to {
                text.push_str(&would_be_written(target));
            }
            return Ok(json!({
                "success": true,
                "dry_run": true,
                "text": text,
                "notes": selected.notes,
                "note_count": count,
                "reused_summaries": doc.reused.len(),
                "paid_calls": paid_calls,
                "media_to_read": media,
                "engine": engine,
                "estimated_tokens": doc.document.chars().count().div_ceil(4),
                "from": from.map(|day| day.to_string()),
                "to": to.map(|day| day.to_string()),
            }));
        }
        let focus = in_app_rollup::focus(&ask);
        let Some(model) = model else {
            let finished = in_app_rollup::offline_answer(&doc.document, &focus, instructions)
                .and_then(|(answer, run)| {
                    in_app_rollup::finished(&answer, run.as_ref(), &selected, &doc.source)
                });
            let done = rollup_done(
                &ask,
                &selected,
                existing.as_deref(),
                doc.reused.len(),
                finished,
                engine,
            );
            return Ok(serde_json::from_str(&done).unwrap_or(Value::Null));
        };
        let mut settings = LlmSettings::default();
        if !model.trim().is_empty() {
            settings.model = model.trim().to_string();
        }
        if max_output_tokens > 0 {
            settings.max_output_tokens = max_output_tokens;
        }
        let reused = doc.reused.len();
        let (exchange, body) = LlmExchange::start(
            "rollup",
            doc.document,
            Some(&focus),
            None,
            instructions,
            settings,
        );
        *self.exchange.borrow_mut() = Some(Pending::Rollup(Box::new(PendingRollup {
            ask,
            selected,
            source: doc.source,
            existing,
            reused,
            exchange,
        })));
        Ok(json!({ "send": body.to_string() }))
    }

    /// `Err({"needs"})` when a text was asked for that the host has not given, then
    /// `Err({"documents"})` when a document is to be read first, then `Err({"media"})` when an
    /// image or recording is to be read by the model first.
    fn needs(&self) -> Result<(), Value> {
        let missing: Vec<String> = self.missing.borrow().iter().cloned().collect();
        if !missing.is_empty() {
            return Err(json!({ "needs": missing }));
        }
        let documents: Vec<Value> = self
            .documents_missing
            .borrow()
            .iter()
            .map(|(path, page)| json!({ "path": path, "page": page, "max_bytes": MAX_DOCUMENT_BYTES }))
            .collect();
        if !documents.is_empty() {
            return Err(json!({ "documents": documents }));
        }
        let media: Vec<Value> = self
            .media_missing
            .borrow()
            .iter()
            .map(|(path, kind)| {
                let (max_bytes, _) = read_limit(*kind);
                json!({ "path": path, "kind": kind, "max_bytes": max_bytes })
            })
            .collect();
        if media.is_empty() {
            Ok(())
        } else {
            Err(json!({ "media": media }))
        }
    }

    /// The text the host gave for `path` (`None`: refused, or not given yet, then asked for).
    fn text_of(&self, path: &str) -> Option<String> {
        match self.notes.get(path) {
            Some(Ok(note)) => Some(note.source.clone()),
            Some(Err(_)) => None,
            None => {
                self.missing.borrow_mut().insert(path.to_string());
                None
            }
        }
    }

    /// The note at `path` expanded for a summary (`None`: a note it embeds is not given yet,
    /// then asked for).
    fn expanded_text(&self, path: &str, nonce: &str, reading: MediaReading) -> Option<Expansion> {
        match self.notes.get(path) {
            Some(Ok(root)) => self.expansion_of(path, root, nonce, reading),
            _ => None,
        }
    }

    /// `root`'s expansion for a summary, the texts of what it embeds as the app gives them
    /// (`reading`: how images and recordings are read); `None` when a note it embeds is not
    /// given yet, or an image or recording is not read yet (then among those asked for).
    fn expansion_of(
        &self,
        path: &str,
        root: &Arc<ParsedNote>,
        nonce: &str,
        reading: MediaReading,
    ) -> Option<Expansion> {
        let before = self.missing.borrow().len();
        let plan = plan_expansion(
            self,
            &self.index,
            path,
            root,
            in_app::expand_options(),
            in_app::supported_attachments(),
            nonce.to_string(),
        );
        if self.missing.borrow().len() > before {
            return None;
        }
        let unread_before = self.unread();
        let texts: Vec<String> = plan
            .pending
            .iter()
            .map(|pending| self.attachment_text(pending, reading))
            .collect();
        if self.unread() > unread_before {
            return None;
        }
        Some(assemble(&root.source, plan, &texts))
    }

    /// Images, recordings and documents an expansion asked the host to read, so far.
    fn unread(&self) -> usize {
        self.media_missing.borrow().len() + self.documents_missing.borrow().len()
    }

    /// What an embedded file stands for: a document as read (however images are read: a
    /// document costs nothing), an image or recording as `reading` reads it (a missing one
    /// asked for), anything else as the app's engine gives it.
    fn attachment_text(&self, pending: &PendingAttachment, reading: MediaReading) -> String {
        if in_app::is_document(pending) {
            if reading == MediaReading::CountedOnly {
                return String::new();
            }
            let key = (pending.path.clone(), pending.page);
            return match self.documents.get(&key) {
                Some(Ok(text)) => text.clone(),
                Some(Err(reason)) => failed_marker(&pending.path, reason),
                None => {
                    self.documents_missing.borrow_mut().insert(key);
                    String::new()
                }
            };
        }
        if !in_app::is_read_by_model(pending) || reading == MediaReading::Offline {
            return in_app::attachment_text(pending);
        }
        if matches!(reading, MediaReading::Counted | MediaReading::CountedOnly) {
            self.media_counted.set(self.media_counted.get() + 1);
            if reading == MediaReading::CountedOnly {
                self.media_found
                    .borrow_mut()
                    .insert(pending.path.clone(), pending.kind);
            }
            return counted_placeholder(&pending.path, pending.kind);
        }
        match self.media.get(&pending.path) {
            Some(Ok(text)) => text.clone(),
            Some(Err(reason)) => failed_marker(&pending.path, reason),
            None => {
                self.media_missing
                    .borrow_mut()
                    .insert(pending.path.clone(), pending.kind);
                String::new()
            }
        }
    }

    /// The note's text, its offline summary as written and its expansion's details; or the
    /// answer to give instead (`{"needs"}` or `{"error"}`).
    fn summarize(
        &self,
        path: &str,
        focus: &str,
        prompt: Option<&str>,
        nonce: &str,
    ) -> Result<(Arc<ParsedNote>, AppInstructions, DefusedText, Value), Value> {
        let (root, instructions, expansion) =
            self.expand(path, prompt, nonce, MediaReading::Offline)?;
        let focus = Some(focus).filter(|focus| !focus.is_empty());
        let written =
            in_app::offline_summary(path, &expansion.text, &expansion.named, focus, instructions)
                .map_err(|e| json!({ "error": e.to_string() }))?;
        Ok((root, instructions, written.summary, expansion.details))
    }

    /// The note at `path`, its instructions and its expansion; or the answer to give instead
    /// (`{"needs"}`, `{"media"}` or `{"error"}`).
    fn expand(
        &self,
        path: &str,
        prompt: Option<&str>,
        nonce: &str,
        reading: MediaReading,
    ) -> Result<(Arc<ParsedNote>, AppInstructions, Expansion), Value> {
        let root = match self.notes.get(path) {
            Some(Ok(root)) => Arc::clone(root),
            Some(Err(refused)) => return Err(json!({ "error": refused.reason() })),
            None => return Err(json!({ "needs": [path] })),
        };
        let instructions =
            in_app::choose(&root.source, prompt).map_err(|e| json!({ "error": e.to_string() }))?;
        self.missing.borrow_mut().clear();
        self.media_missing.borrow_mut().clear();
        self.documents_missing.borrow_mut().clear();
        let Some(expansion) = self.expansion_of(path, &root, nonce, reading) else {
            self.needs()?;
            return Err(json!({ "error": "the expansion is incomplete" }));
        };
        Ok((root, instructions, expansion))
    }
}

impl EmbedFiles for AppVault {
    fn parsed_note(&self, path: &str) -> Result<Arc<ParsedNote>, &'static str> {
        if is_hidden(path) {
            return Err("could not be read");
        }
        match self.notes.get(path) {
            Some(Ok(note)) => Ok(Arc::clone(note)),
            Some(Err(refused)) => Err(refused.reason()),
            None => {
                // Asked for again once the host has read it.
                self.missing.borrow_mut().insert(path.to_string());
                Err("not found")
            }
        }
    }

    fn attachment_allowed(&self, path: &str) -> bool {
        !is_hidden(path)
    }
}
