// vaultsum's engine inside Obsidian (WebAssembly, built from the same Rust as the binary): the
// backend when no binary is set up. Obsidian's vault gives the files, the engine decides
// everything (the expansion, the offline summary, the fact check, the output policy, the
// section and its fingerprint), and the write goes through Vault.process, only over the text
// that was summarized. What it does is what `vaultsum summarize-file --engine offline` does
// with no config file, byte for byte (scripts/wasm-parity.sh); what it does not do yet is
// refused by name, with code `needs_binary`, never done differently. Nothing here needs Node.
//
// With an API key (and the LLM engine chosen), the model writes the summary: the engine builds
// each request (an embedded image's description, a recording's transcription, the summary's,
// then the fact check's corrective one when needed) and reads each answer; this file only
// reads the files it names, sends the requests through Obsidian's requestUrl, one at a time,
// and masks the key in what comes back before the engine sees it.

import { Platform, requestUrl, type App, type TFile } from "obsidian";

import { AppVault, closingLine, requestTimeoutSecs, composeKept, defaultBaseUrl, defaultModel, engineConfigDir, moreThanAgreed, folderChoice, refreshPlan, summaryStatus } from "vaultsum-wasm";
import { engineReady, engineStopped, isTrap, readCanvas, readDocument, ReadingCancelled, releaseDocumentReader } from "./modules";

import type { Backend, CallOptions, ToolResult } from "../backend";
import { CallCancelled } from "../backend";

/** The arguments of summarize_file the in-app engine follows; any other is refused by name. */
const FOLLOWED = new Set(["path", "dry_run", "preview", "replace", "focus", "prompt", "refresh", "skip_current"]);

/** The arguments of summarize_folder it follows. */
const FOLDER_FOLLOWED = new Set(["folder", "only", "dry_run", "focus", "prompt", "max_notes"]);

/**
 * Arguments given that the in-app engine does not follow: a language other than the note's
 * own, a destination other than the section (each set by a call or by the plugin's settings,
 * which sync from a desktop). What it does anyway (`into: section`, `language: auto`) is not
 * an objection; a prompt is followed when it is a preset (the engine refuses a prompt note).
 */
function notFollowed(args: Record<string, unknown>, followed: Set<string>): string[] {
  const builtIn = (key: string, value: unknown) => (key === "into" && value === "section") || (key === "language" && value === "auto");
  return Object.keys(args).filter((key) => !followed.has(key) && args[key] !== undefined && args[key] !== "" && args[key] !== false && !builtIn(key, args[key]));
}

/** What the person is told about arguments the engine inside Obsidian does not follow. */
function notFollowedMessage(others: string[]): string {
  return `The engine inside Obsidian writes the summary in the note's language, into the summary section; the ${others.join(", ")} chosen (in this call or in the vaultsum settings) needs the vaultsum program. Clear it in the settings to summarize here.`;
}

/** A dry run's summary, kept for the write that shows it (the preview's Insert or Replace). */
interface Kept {
  path: string;
  focus: string;
  prompt: string | undefined;
  original: string;
  summary: string;
  /** Made by the model: the engine keeps it under the preview's id (a model does not answer twice the same). */
  byModel: boolean;
}

/** The model the in-app engine asks, when the person gave a key: the provider's base URL and model (empty: the binary's defaults). */
export interface ModelAccess {
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** How long one answer may take (the program's `llm.timeout_secs`), in milliseconds. */
function requestTimeoutMs(): number {
  return requestTimeoutSecs() * 1000;
}

/** `sent`'s answer, unless the call is cancelled first (CallCancelled) or `timeoutMs` passes (an error naming the timeout). */
function untilAnswered<T>(sent: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => {
      cleanup();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const onAbort = () => {
      cleanup();
      reject(new CallCancelled("cancelled"));
    };
    const cleanup = () => {
      window.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort);
    sent.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** `bytes` with every occurrence of the key's UTF-8 bytes replaced by `***`, before the engine reads them. */
function maskBytes(bytes: Uint8Array, key: string): Uint8Array {
  const needle = new TextEncoder().encode(key);
  if (needle.length === 0 || needle.length > bytes.length) return bytes;
  // Written into a typed array (never longer than the input: `***` replaces a longer key, or
  // one as long as 3 bytes), no per-byte JavaScript array on a phone.
  const out = new Uint8Array(bytes.length + Math.max(0, 3 - needle.length) * Math.floor(bytes.length / needle.length));
  let at = 0;
  for (let i = 0; i < bytes.length; ) {
    let match = i + needle.length <= bytes.length;
    for (let j = 0; match && j < needle.length; j++) match = bytes[i + j] === needle[j];
    if (match) {
      out[at++] = 42;
      out[at++] = 42;
      out[at++] = 42;
      i += needle.length;
    } else {
      out[at++] = bytes[i];
      i += 1;
    }
  }
  return out.subarray(0, at);
}

/** A header of a response, whatever case the platform gives its name in. */
function header(headers: Record<string, string>, name: string): string {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : "";
}

/** A document (PDF, office file, table, canvas; whole, or one page) the engine asks to have read (its `{"documents"}` answer). */
interface DocumentItem {
  path: string;
  page: number | null;
  max_bytes: number;
}

/** An image or recording the engine asks to have read through the model (its `{"media"}` answer). */
interface MediaItem {
  path: string;
  kind: string;
  /** The largest file read (the binary's limit); a larger one is refused unread. */
  max_bytes: number;
}

/** The provider's base URL without a trailing slash (the binary's default when none is set). */
function baseUrlOf(access: ModelAccess): string {
  return (access.baseUrl.trim() || defaultBaseUrl()).replace(/\/+$/, "");
}

/** `text` with the key replaced by `***`, and any 8 characters or more of its start (an error excerpt cut inside the key). */
function maskKey(text: string, key: string): string {
  if (!key) return text;
  let masked = text.split(key).join("***");
  for (let length = key.length - 1; length >= 8; length--) masked = masked.split(key.slice(0, length)).join("***");
  return masked;
}

/**
 * Whether a model's answer holds the key: the bytes are masked before the engine reads them,
 * but a server may split the key across a stream's pieces, or escape it. Such an answer is
 * not written.
 */
function holdsKey(text: unknown, key: string): boolean {
  // As a reader sees it: Markdown's escapes and emphasis marks are not in what is shown. A
  // key under 8 characters (a test's) would be in every text; no provider's is that short.
  const secret = key.replace(/[\\*_~`]/g, "");
  if (typeof text !== "string" || secret.length < 8) return false;
  return text.replace(/[\\*_~`]/g, "").includes(secret);
}

/** What a phone uploads of one recording at most: larger ones are refused unread (the program on a computer reads up to 200 MB). A phone's memory holds several copies of a body on its way out. */
const PHONE_MAX_RECORDING_BYTES = 25 * 1024 * 1024;

/** What a person can do about an error, in the plugin's words (the engine's name the program's settings). */
function withHint(error: string, status: number): string {
  if (status === 401 || status === 403) return `${error} (check the API key in the vaultsum settings)`;
  if (status === 404) return `${error} (check the provider base URL and the model in the vaultsum settings)`;
  return error;
}

/**
 * POSTs `body` to `url` through Obsidian's requestUrl with the key: the response's status,
 * content type and bytes, the key masked in them before the engine reads them; or why the
 * server could not be reached. A cancel or the timeout stops the waiting (CallCancelled for a
 * cancel): requestUrl cannot be aborted, and nothing that comes after is read.
 */
async function post(url: string, contentType: string, body: string | ArrayBuffer, access: ModelAccess, signal: AbortSignal | undefined): Promise<{ status: number; contentType: string; body: Uint8Array } | { unreachable: string }> {
  let response;
  try {
    const sent = requestUrl({
      url,
      method: "POST",
      contentType,
      headers: { Authorization: `Bearer ${access.apiKey}`, Accept: "text/event-stream, application/json" },
      body,
      throw: false,
    });
    response = await untilAnswered(sent, signal, requestTimeoutMs());
  } catch (error) {
    if (error instanceof CallCancelled) throw error;
    return { unreachable: `cannot reach the LLM at ${url}: ${maskKey(String(error), access.apiKey)}` };
  }
  if (signal?.aborted) throw new CallCancelled("cancelled");
  return { status: response.status, contentType: header(response.headers, "content-type"), body: maskBytes(new Uint8Array(response.arrayBuffer), access.apiKey) };
}

/** How long a dry run's summary is kept for its write (the binary keeps it an hour). */
const KEEP_MS = 60 * 60 * 1000;

function result(details: Record<string, unknown>, isError = false): ToolResult {
  const text = JSON.stringify(isError ? { success: false, error: details.error } : details);
  return { text, isError, details };
}

function failure(path: string, error: string, code?: string): ToolResult {
  return result({ path, error, ...(code ? { code } : {}) }, true);
}

/** Random hex from the platform's CSPRNG: the expansion's nonce, a preview's id. */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The person's local date, `YYYY-MM-DD` (a period is counted from it, as the binary counts it from the date the plugin gives). */
function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/** Whether the note's bytes are exactly `text` in UTF-8. */
async function isExactText(app: App, file: TFile, text: string): Promise<boolean> {
  const bytes = new Uint8Array(await app.vault.readBinary(file));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) === text;
  } catch {
    return false;
  }
}

export class InAppBackend implements Backend {
  private kept = new Map<string, Kept & { at: number }>();

  /** `model`: the model to ask, or undefined for the offline engine (no key, or the offline engine chosen). */
  constructor(
    private readonly app: App,
    private readonly model: () => ModelAccess | undefined = () => undefined,
  ) {}

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    await engineReady();
    if (options.signal?.aborted) throw new CallCancelled(`${name} cancelled`);
    switch (name) {
      case "summarize_file":
        return this.summarizeFile(args, options);
      case "summarize_folder":
        return this.summarizeFolder(args, options);
      case "summary_status":
        return this.summaryStatus(typeof args.path === "string" ? args.path : "");
      case "summarize_notes":
        return this.summarizeNotes(args, options);
      default:
        return failure(
          "",
          `${name} needs the vaultsum program: the engine inside Obsidian summarizes notes, folders and rollups (offline, or with the model when an API key is set), so far. Install vaultsum on a computer (see the plugin's settings) for selections and web pages.`,
          "needs_binary",
        );
    }
  }

  /**
   * How many images and recordings a summary of each note at `paths` by a model would read
   * first (one paid request each; the notes they embed included; a file several of them embed
   * once), counted by the engine over this vault: the program expands a note the same way.
   * Nothing is sent, no document is read.
   * A note that cannot be counted (gone, too large, a prompt refused) counts nothing.
   */
  async mediaToRead(paths: string[]): Promise<{ images: number; recordings: number }> {
    await engineReady();
    // By path: a picture several notes embed is described once (kept while Obsidian runs, and
    // in the program's cache), so it is counted once.
    const images = new Set<string>();
    const recordings = new Set<string>();
    const vault = new AppVault(this.app.vault.getFiles().map((f) => f.path));
    try {
      for (const path of paths) {
        const nonce = randomHex(8);
        for (;;) {
          const answer = JSON.parse(vault.mediaToRead(path, nonce)) as { needs?: string[]; images?: string[]; recordings?: string[] };
          if (Array.isArray(answer.needs)) {
            for (const needed of answer.needs) await this.give(vault, needed);
            continue;
          }
          for (const image of answer.images ?? []) images.add(image);
          for (const recording of answer.recordings ?? []) recordings.add(recording);
          break;
        }
      }
    } catch (error) {
      if (isTrap(error)) engineStopped();
      throw error;
    } finally {
      // A canvas the count read (its cards may embed pictures) was read by the document reader.
      releaseDocumentReader();
      try {
        vault.free();
      } catch {
        // Freed with the instance a trap dropped.
      }
    }
    return { images: images.size, recordings: recordings.size };
  }

  /** Each note's state under `target` (a note, a folder, or the vault for ""), as summary_status gives it. */
  private async summaryStatus(target: string): Promise<ToolResult> {
    const folder = target.replace(/\/+$/, "");
    // One note is looked up by its path, not found by going through the vault.
    const single = folder ? this.app.vault.getFileByPath(folder) : null;
    const files = single
      ? single.extension === "md" ? [single] : []
      : this.app.vault
          .getMarkdownFiles()
          .filter((file) => !folder || folder === "/" || file.path.startsWith(`${folder}/`))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const notes: Record<string, unknown>[] = [];
    for (const file of files) {
      const state = JSON.parse(summaryStatus(await this.app.vault.cachedRead(file))) as Record<string, unknown>;
      // A note whose prompt cannot be followed has no state to show (the binary lists it apart).
      if (typeof state.error !== "string") notes.push({ path: file.path, ...state });
    }
    return result({ path: target, notes });
  }

  private async summarizeFile(args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const path = typeof args.path === "string" ? args.path : "";
    const others = notFollowed(args, FOLLOWED);
    if (others.length > 0) {
      return failure(path, notFollowedMessage(others), "needs_binary");
    }
    const file = this.app.vault.getFileByPath(path);
    if (!file || file.extension !== "md") return failure(path, `${path}: no such note in the vault`, "not_found");
    const replace = args.replace === true;
    if (typeof args.preview === "string") return this.writePreview(file, args.preview, replace);
    const focus = typeof args.focus === "string" ? args.focus : "";
    // An unset prompt is none; a prompt given empty is the engine's to refuse.
    const prompt = typeof args.prompt === "string" ? args.prompt : undefined;
    let replaceNow = replace;
    if (args.refresh === true || args.skip_current === true) {
      // A run that leaves current summaries alone decides from the fingerprint first.
      const planned = JSON.parse(refreshPlan(await this.app.vault.read(file), prompt, args.refresh === true)) as { skip?: string; replace?: boolean; error?: string };
      if (planned.error) return failure(path, planned.error);
      if (planned.skip) return result({ success: true, path, skipped: planned.skip });
      replaceNow = replace || planned.replace === true;
    }
    return this.summarizeNote(file, { focus, prompt, replace: replaceNow, dryRun: args.dry_run === true }, options);
  }

  /**
   * Summarizes `file` offline; a dry run keeps its summary for a write. With `shown`, the write
   * of a preview: refused unless the summary made now is the one shown.
   */
  private async summarizeNote(file: TFile, run: { focus: string; prompt: string | undefined; replace: boolean; dryRun: boolean; shown?: string }, options: CallOptions, shared?: AppVault): Promise<ToolResult> {
    const path = file.path;
    options.onProgress?.({ progress: 0, message: `reading ${path}` });
    // A folder run shares one vault (its names listed once); a single note gets its own.
    // The binary's limit on a note's size, and its words.
    if (file.stat.size > AppVault.maxNoteBytes()) return failure(path, `${path}: too large to read (read.max_note_bytes)`, "too_large");
    const vault = shared ?? new AppVault(this.app.vault.getFiles().map((f) => f.path));
    // A folder run shares its vault: an image a server refused for one note is asked again for the next.
    vault.forgetMediaFailures();
    try {
      const original = await this.app.vault.read(file);
      // Written back as text, so only a note whose bytes are that very text (valid UTF-8,
      // no byte-order mark the read would drop): nothing but the summary may change.
      if (!(await isExactText(this.app, file, original))) {
        return failure(path, `${path} is not plain UTF-8 text (invalid bytes or a byte-order mark), which the engine inside Obsidian does not write back; the vaultsum program writes it byte for byte`, "not_utf8");
      }
      vault.addNote(path, original);
      const nonce = randomHex(8);
      const access = this.model();
      const previewId = run.dryRun ? randomHex(12) : undefined;
      let answer: Record<string, unknown>;
      for (;;) {
        if (options.signal?.aborted) throw new CallCancelled("summarize_file cancelled");
        let json: string;
        if (access) json = vault.startLlm(path, run.focus, run.prompt, nonce, access.model.trim(), 0);
        else json = run.dryRun ? vault.previewOffline(path, run.focus, run.prompt, nonce) : vault.summarizeOffline(path, run.focus, run.prompt, nonce, run.replace);
        answer = JSON.parse(json) as Record<string, unknown>;
        if (Array.isArray(answer.needs)) for (const needed of answer.needs as string[]) await this.give(vault, needed, options.signal);
        else if (Array.isArray(answer.documents)) for (const item of answer.documents as DocumentItem[]) await this.readDocument(vault, item, options);
        else if (Array.isArray(answer.media) && access) for (const item of answer.media as MediaItem[]) await this.readMedia(vault, item, access, options);
        else break;
      }
      // What the expansion read and could not read, for the notice (the binary's `details.expansion`).
      const expansion = answer.expansion;
      if (access) answer = await this.askModel(vault, path, answer, access, run.replace, previewId, options);
      if (access && holdsKey(answer.summary, access.apiKey)) return failure(path, `${path}: the model's answer holds your API key (the server sent it back split or escaped); nothing was written`, "key_in_answer");
      if (typeof answer.error === "string") return failure(path, answer.error, typeof answer.code === "string" ? answer.code : undefined);
      const summary = String(answer.summary);
      if (run.dryRun) {
        const id = previewId ?? randomHex(12);
        this.keep(id, { path, focus: run.focus, prompt: run.prompt, original, summary, byModel: access !== undefined });
        return result({ success: true, path, summary, summary_length: [...summary].length, dry_run: true, into: "section", preview_id: id, engine: "in-app", expansion });
      }
      if (run.shown !== undefined && summary !== run.shown) {
        return failure(path, `${path}: what its notes embed changed since its preview; nothing was written: preview it again`, "preview_stale");
      }
      options.onProgress?.({ progress: 0, message: `writing ${path}` });
      return await this.write(file, original, String(answer.content), summary, run.replace, access, expansion);
    } catch (error) {
      if (!isTrap(error)) throw error;
      engineStopped();
      return failure(path, `the engine inside Obsidian stopped on an internal error while summarizing ${path} (${String(error)}); the note is unchanged. Please report it.`, "engine_error");
    } finally {
      releaseDocumentReader();
      try {
        if (!shared) vault.free();
      } catch {
        // Freed with the instance a trap dropped.
      }
    }
  }

  /**
   * A folder (or the vault, for "" or "/") as summarize_folder runs it: every note's choice
   * made by the engine (missing, stale, or left and why), counted first with `dry_run`, then
   * written one note at a time, each reported as progress; cancelling stops before the next note.
   */
  private async summarizeFolder(args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const folder = (typeof args.folder === "string" ? args.folder : "").replace(/^\/+|\/+$/g, "");
    const only = typeof args.only === "string" ? args.only : "";
    const others = notFollowed(args, FOLDER_FOLLOWED);
    if (others.length > 0) {
      return failure(folder, notFollowedMessage(others), "needs_binary");
    }
    if (!["missing", "stale", "missing_and_stale"].includes(only)) return failure(folder, `only must be missing, stale or missing_and_stale, not ${JSON.stringify(only)}`, "invalid_arguments");
    const notes = this.app.vault
      .getMarkdownFiles()
      .filter((file) => !folder || file.path.startsWith(`${folder}/`))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const prompt = typeof args.prompt === "string" ? args.prompt : undefined;
    const access = this.model();
    const chosen: { file: TFile; kind: string; replace: boolean }[] = [];
    let [skipped, failed, chars] = [0, 0, 0];
    const failures: { path: string; error: string }[] = [];
    for (const file of notes) {
      try {
        const text = await this.app.vault.cachedRead(file);
        const choice = JSON.parse(folderChoice(text, prompt, only)) as { write?: string; replace?: boolean; skip?: string; error?: string };
        if (choice.error) {
          failed += 1;
          failures.push({ path: file.path, error: choice.error });
        } else if (choice.write) {
          chosen.push({ file, kind: choice.write, replace: choice.replace === true });
          chars += text.length;
        } else skipped += 1;
      } catch (error) {
        failed += 1;
        failures.push({ path: file.path, error: String(error) });
      }
    }
    if (args.dry_run === true) {
      const missing = chosen.filter((note) => note.kind === "missing").length;
      return result({
        success: true,
        dry_run: true,
        folder,
        notes: notes.length,
        to_summarize: chosen.length,
        missing,
        stale: chosen.length - missing,
        skipped,
        failed,
        estimated_prompt_tokens: Math.ceil(chars / 4),
        paths: chosen.map((note) => note.file.path),
        failures,
        offline: access === undefined,
        model: access ? access.model.trim() || defaultModel() : "",
        engine: "in-app",
      });
    }
    // Never more notes than the person agreed to (notes added or gone stale since the count).
    if (typeof args.max_notes === "number" && chosen.length > args.max_notes) {
      return failure(folder, moreThanAgreed(chosen.length, args.max_notes), "too_many_notes");
    }
    const focus = typeof args.focus === "string" ? args.focus : "";
    let [summarized, done] = [0, 0];
    const results: { path: string; result: string }[] = [];
    // One vault for the run: an embedded note read once (its summary, written meanwhile, is
    // left out of every expansion anyway); each note summarized is read again.
    const vault = new AppVault(this.app.vault.getFiles().map((f) => f.path));
    try {
      for (const note of chosen) {
        if (options.signal?.aborted) throw new CallCancelled("summarize_folder cancelled");
        const written = await this.summarizeNote(note.file, { focus, prompt, replace: note.replace, dryRun: false }, { signal: options.signal }, vault);
        const outcome = written.isError ? "failed" : "summarized";
        if (written.isError) {
          failed += 1;
          failures.push({ path: note.file.path, error: String(written.details.error) });
        } else summarized += 1;
        done += 1;
        results.push({ path: note.file.path, result: outcome });
        options.onProgress?.({ progress: done, total: chosen.length, message: `${note.file.path}: ${outcome}`, details: { path: note.file.path, result: outcome, done, total: chosen.length, cost: {} } });
        // The engine stopped on an internal error: its vault went with it; the rest waits.
        if (written.details.code === "engine_error") return written;
      }
    } finally {
      try {
        vault.free();
      } catch {
        // Freed with the instance a trap dropped.
      }
    }
    const line = closingLine(notes.length, summarized, skipped, failed, access === undefined);
    return result({ success: true, folder, notes: notes.length, summarized, skipped, failed, left_out: 0, line, results, failures, offline: access === undefined, engine: "in-app" });
  }

  /**
   * Sends the engine's requests to the model, one after the other, and hands it each response
   * whole (the key masked): its answer is the summary composed onto the note, or an error.
   */
  private async askModel(vault: AppVault, path: string, started: Record<string, unknown>, access: ModelAccess, replace: boolean, previewId: string | undefined, options: CallOptions): Promise<Record<string, unknown>> {
    const url = `${baseUrlOf(access)}/chat/completions`;
    let answer = started;
    while (typeof answer.send === "string") {
      if (options.signal?.aborted) throw new CallCancelled("summarize_file cancelled");
      options.onProgress?.({ progress: 0, message: `asking the model about ${path}` });
      const response = await post(url, "application/json", answer.send, access, options.signal);
      if ("unreachable" in response) return { error: response.unreachable, code: "network" };
      answer = JSON.parse(vault.llmAnswered(url, response.status, response.contentType, response.body, replace, previewId)) as Record<string, unknown>;
      // The engine decodes what the server sent (JSON escapes, HTML entities): masked again.
      if (typeof answer.error === "string") answer.error = withHint(maskKey(answer.error, access.apiKey), response.status);
    }
    return answer;
  }

  /**
   * Reads an embedded image or recording through the model, as the binary does before a
   * summary: the file's bytes to the engine, its request sent, the answer handed back. What
   * cannot be read (gone, too large, refused by the server) becomes the binary's
   * `[Embed failed]` line in the note's text, and the summary goes on.
   */
  private async readMedia(vault: AppVault, item: MediaItem, access: ModelAccess, options: CallOptions): Promise<void> {
    if (options.signal?.aborted) throw new CallCancelled("summarize_file cancelled");
    const action = item.kind === "image" ? "describe" : "transcribe";
    const file = this.app.vault.getFileByPath(item.path);
    if (!file) return vault.refuseMedia(item.path, "not found", false);
    // Sized before a byte is read: a 3 GB "recording" is refused at once.
    if (file.stat.size > item.max_bytes) return vault.mediaTooLarge(item.path, file.stat.size);
    if (Platform.isMobile && item.kind === "audio" && file.stat.size > PHONE_MAX_RECORDING_BYTES) {
      return vault.refuseMedia(item.path, `cannot transcribe ${item.path} on a phone: ${Math.round(file.stat.size / 1024 / 1024)} MB is over the 25 MB a phone uploads (the vaultsum program on a computer sends up to 200 MB)`, false);
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await this.app.vault.readBinary(file));
    } catch {
      return vault.refuseMedia(item.path, "could not be read", false);
    }
    const asked = JSON.parse(vault.mediaRequest(item.path, bytes, randomHex(16))) as { given?: boolean; endpoint?: string; content_type?: string };
    if (asked.given) return;
    options.onProgress?.({ progress: 0, message: `${action === "describe" ? "describing" : "transcribing"} ${item.path}` });
    const url = `${baseUrlOf(access)}/${String(asked.endpoint)}`;
    const body = vault.mediaBody(item.path);
    // The engine hands over a copy of its own: its buffer is the body, sent without another copy.
    const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const sent = (whole ? body.buffer : body.slice().buffer) as ArrayBuffer;
    const response = await post(url, String(asked.content_type), sent, access, options.signal);
    if ("unreachable" in response) return vault.refuseMedia(item.path, `cannot ${action} ${item.path}: ${response.unreachable}`, true);
    const read = JSON.parse(vault.mediaAnswered(item.path, url, response.status, response.contentType, response.body)) as { failed?: string; retryable?: boolean };
    if (typeof read.failed === "string") vault.refuseMedia(item.path, maskKey(read.failed, access.apiKey), read.retryable === true);
  }

  /**
   * Reads an embedded document with the document reader's module, on this device and for
   * nothing, as the binary reads it: sized before a byte is read, its text (or why there is
   * none, which becomes the binary's `[Embed failed]` line) handed to the engine.
   */
  private async readDocument(vault: AppVault, item: DocumentItem, options: CallOptions): Promise<void> {
    if (options.signal?.aborted) throw new CallCancelled("summarize_file cancelled");
    const page = item.page ?? undefined;
    const file = this.app.vault.getFileByPath(item.path);
    if (!file) return vault.documentRead(item.path, page, JSON.stringify({ error: "not found" }));
    if (file.stat.size > item.max_bytes) return vault.documentTooLarge(item.path, page, file.stat.size);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await this.app.vault.readBinary(file));
    } catch {
      return vault.documentRead(item.path, page, JSON.stringify({ error: "could not be read" }));
    }
    options.onProgress?.({ progress: 0, message: `extracting ${item.path}` });
    try {
      vault.documentRead(item.path, page, await readDocument(item.path, bytes, page, options.signal));
    } catch (error) {
      if (error instanceof ReadingCancelled) throw new CallCancelled("summarize_file cancelled");
      throw error;
    }
  }

  /**
   * A rollup (summarize_notes) as the binary makes it with no config file, for a period, a tag
   * or a hub's links: the engine selects, builds the document, summarizes (offline, or with the
   * model) and composes the rollup note; written here only over the text it was given, or
   * created new. A dry run counts first, as the binary's does.
   */
  private async summarizeNotes(args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const access = this.model();
    const vault = new AppVault(this.app.vault.getFiles().map((f) => f.path));
    try {
      const nonce = randomHex(8);
      const today = localDay(new Date());
      let answer: Record<string, unknown>;
      for (;;) {
        if (options.signal?.aborted) throw new CallCancelled("summarize_notes cancelled");
        answer = JSON.parse(vault.rollup(JSON.stringify(args), nonce, today, access?.model.trim(), 0)) as Record<string, unknown>;
        if (Array.isArray(answer.needs)) {
          options.onProgress?.({ progress: 0, message: `reading ${(answer.needs as string[]).length} notes` });
          for (const needed of answer.needs as string[]) await this.give(vault, needed, options.signal);
        } else if (Array.isArray(answer.documents)) for (const item of answer.documents as DocumentItem[]) await this.readDocument(vault, item, options);
        else if (Array.isArray(answer.media) && access) for (const item of answer.media as MediaItem[]) await this.readMedia(vault, item, access, options);
        else break;
      }
      if (access && typeof answer.send === "string") {
        options.onProgress?.({ progress: 0, message: "summarizing" });
        answer = await this.askModel(vault, "the rollup", answer, access, false, undefined, options);
        if (holdsKey(answer.rollup, access.apiKey)) answer = { error: "the model's answer holds your API key (the server sent it back split or escaped); nothing was written", kind: "key_in_answer" };
      }
      if (typeof answer.error === "string") {
        return { text: answer.error, isError: true, details: { success: false, error: answer.kind ?? "rollup", message: answer.error } };
      }
      if (answer.dry_run === true) return { text: String(answer.text), isError: false, details: { ...answer, engine: answer.engine, offline: access === undefined } };
      const rollup = String(answer.rollup);
      if (typeof answer.save_to === "string" && typeof answer.content === "string") {
        options.onProgress?.({ progress: 0, message: `writing ${answer.save_to}` });
        const written = await this.saveRollup(answer.save_to, answer.content, vault, answer.created === true);
        if (written) return { text: written, isError: true, details: { success: false, error: "write", message: written } };
      }
      return { text: rollup, isError: false, details: { ...answer, content: undefined } };
    } catch (error) {
      if (!isTrap(error)) throw error;
      engineStopped();
      return failure("", `the engine inside Obsidian stopped on an internal error while making the rollup (${String(error)}); nothing was written. Please report it.`, "engine_error");
    } finally {
      releaseDocumentReader();
      try {
        vault.free();
      } catch {
        // Freed with the instance a trap dropped.
      }
    }
  }

  /** Writes the rollup note: created (its folders too) when new, else only over the text the engine composed onto. Returns why not, or undefined. */
  private async saveRollup(path: string, content: string, vault: AppVault, created: boolean): Promise<string | undefined> {
    const existing = this.app.vault.getFileByPath(path);
    if (created) {
      if (existing) return `${path} was created while the rollup was being made; it was left as it is. Make the rollup again.`;
      const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
      if (folder && !this.app.vault.getAbstractFileByPath(folder)) await this.app.vault.createFolder(folder);
      await this.app.vault.create(path, content);
      return undefined;
    }
    if (!existing) return `${path} was deleted while the rollup was being made; nothing was written. Make the rollup again.`;
    const original = vault.givenText(path);
    // Written back as text, so only a note whose bytes are that very text: nothing else may change.
    if (!(await isExactText(this.app, existing, original))) {
      return `${path} is not plain UTF-8 text (invalid bytes or a byte-order mark), which the engine inside Obsidian does not write back; the vaultsum program writes it byte for byte`;
    }
    let changed = false;
    await this.app.vault.process(existing, (now) => {
      if (now !== original) {
        changed = true;
        return now;
      }
      return content;
    });
    return changed ? `${path} changed while the rollup was being made; it was left as it is. Make the rollup again.` : undefined;
  }

  /** Gives the engine a note its expansion needs, or says why it cannot. */
  private async give(vault: AppVault, path: string, signal?: AbortSignal): Promise<void> {
    // Obsidian's settings files (daily notes, excluded files), named as the program names
    // them, read from this vault's config folder.
    const engineDir = `${engineConfigDir()}/`;
    if (path.startsWith(engineDir)) {
      const configPath = `${this.app.vault.configDir}/${path.slice(engineDir.length)}`;
      try {
        if (await this.app.vault.adapter.exists(configPath)) return vault.addNote(path, await this.app.vault.adapter.read(configPath));
      } catch {
        // Unreadable settings count as absent, as Obsidian reads them.
      }
      return vault.refuseNote(path, "not_found");
    }
    const file = this.app.vault.getFileByPath(path);
    if (!file) return vault.refuseNote(path, "not_found");
    if (file.stat.size > AppVault.maxNoteBytes()) return vault.refuseNote(path, "too_large");
    if (file.extension === "canvas") return this.giveCanvas(vault, file, signal);
    try {
      vault.addNote(path, await this.app.vault.cachedRead(file));
    } catch {
      vault.refuseNote(path, "unreadable");
    }
  }

  /** Gives the engine a canvas a note embeds, as the program reads it: Markdown, its file cards as embeds (read by the document reader). */
  private async giveCanvas(vault: AppVault, file: TFile, signal?: AbortSignal): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await this.app.vault.readBinary(file));
    } catch {
      return vault.refuseNote(file.path, "unreadable");
    }
    let answer: string;
    try {
      answer = await readCanvas(file.path, bytes, signal);
    } catch (error) {
      if (error instanceof ReadingCancelled) throw new CallCancelled("summarize_file cancelled");
      throw error;
    }
    const read = JSON.parse(answer) as { text?: string };
    if (typeof read.text === "string") vault.addNote(file.path, read.text);
    else vault.refuseNote(file.path, "invalid_canvas");
  }

  /** Writes `content` over the note only if it is still `original` (edits made meanwhile are never lost). */
  private async write(file: TFile, original: string, content: string, summary: string, replace: boolean, access: ModelAccess | undefined, expansion?: unknown): Promise<ToolResult> {
    let changed = false;
    await this.app.vault.process(file, (now) => {
      if (now !== original) {
        changed = true;
        return now;
      }
      return content;
    });
    if (changed) return failure(file.path, `${file.path} changed while its summary was being made; it was left as it is. Summarize it again.`, "note_busy");
    const by = access ? { offline: false, model: access.model.trim() || defaultModel() } : { offline: true };
    return result({ success: true, path: file.path, summary_length: [...summary].length, into: "section", replace, stale: false, engine: "in-app", ...by, expansion });
  }

  /** Writes the summary a dry run showed, if the note is still as it was then. */
  private async writePreview(file: TFile, id: string, replace: boolean): Promise<ToolResult> {
    const kept = this.kept.get(id);
    this.kept.delete(id);
    if (!kept || kept.path !== file.path || Date.now() - kept.at > KEEP_MS) {
      return failure(file.path, `no preview ${id} is kept for ${file.path} (written already, or older than an hour); preview the note again`, "preview_unknown");
    }
    if ((await this.app.vault.read(file)) !== kept.original) {
      return failure(file.path, `${file.path} changed since its preview; nothing was written: preview it again`, "preview_stale");
    }
    if (kept.byModel) {
      // The very summary shown, kept by the engine under the preview's id, composed onto the note as it is now.
      const composed = JSON.parse(composeKept(id, file.path, kept.original, replace)) as Record<string, unknown>;
      if (typeof composed.error === "string") return failure(file.path, composed.error, "preview_unknown");
      return this.write(file, kept.original, String(composed.content), String(composed.summary), replace, this.model());
    }
    // The offline engine gives the same summary for the same note: made again, written only
    // when it is the one shown.
    return this.summarizeNote(file, { focus: kept.focus, prompt: kept.prompt, replace, dryRun: false, shown: kept.summary }, {});
  }

  private keep(id: string, kept: Kept): void {
    const now = Date.now();
    for (const [key, value] of this.kept) if (now - value.at > KEEP_MS) this.kept.delete(key);
    this.kept.set(id, { ...kept, at: now });
  }
}
