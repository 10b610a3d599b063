// vaultsum's two WebAssembly modules inside Obsidian: the engine, started at the first call,
// and the document reader, started only when a note embeds a document (it is twice the
// engine's size). Both come gzipped in main.js (esbuild.config.mjs) and are inflated here with
// fflate, which works on every platform Obsidian runs on. A Rust panic ends a call with a trap;
// the instance that trapped is never used again: wasm-bindgen's `__wbg_reset_state` starts a
// fresh one.
import { gunzipSync } from "fflate";
import initEngine, { __wbg_reset_state as resetEngine } from "vaultsum-wasm";
import engineGzip from "vaultsum-wasm-bytes";
import initDocuments, { __wbg_reset_state as resetDocuments, canvasNote, extractDocument, lastPanic, panicAnswer } from "vaultsum-documents-wasm";
import documentsGzip from "vaultsum-documents-bytes";

/** A module's bytes from the gzipped base64 main.js carries (a plain loop: a per-character callback is ten times slower on a phone). */
function inflate(base64: string): Uint8Array {
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return gunzipSync(bytes);
}

/** A trap inside a WebAssembly module (a Rust panic). */
export function isTrap(error: unknown): boolean {
  return typeof WebAssembly !== "undefined" && error instanceof WebAssembly.RuntimeError;
}

let engine: Promise<unknown> | undefined;
let engineTrapped = false;

/**
 * The engine, instantiated once (asynchronously: a 2.6 MB module is not compiled on the main
 * thread at once); a fresh instance after a trap. The reset waits for the next call, so the
 * objects of the call that trapped are dropped with the old instance, never freed into the new.
 */
export async function engineReady(): Promise<void> {
  if (!engine) {
    const starting = initEngine({ module_or_path: inflate(engineGzip) });
    // A module that failed to start is tried again by the next call, not kept failed.
    starting.catch(() => {
      if (engine === starting) engine = undefined;
    });
    engine = starting;
  }
  await engine;
  if (engineTrapped) {
    engineTrapped = false;
    resetEngine();
  }
}

/** The engine trapped: the next call starts with a fresh instance. */
export function engineStopped(): void {
  engineTrapped = true;
}

let documents: Promise<unknown> | undefined;
/** Whether the reader read something since it last started afresh. */
let readerUsed = false;

/**
 * Starts the document reader afresh once a summary is done with it: WebAssembly memory only
 * grows, so the memory a large PDF needed would otherwise stay taken (on a phone too) until
 * Obsidian closes. A new instance of the compiled module costs a few milliseconds.
 */
export function releaseDocumentReader(): void {
  if (!readerUsed) return;
  readerUsed = false;
  resetDocuments();
}

/**
 * Calls the document reader (started the first time). A parser's panic gives `{"error"}` in
 * the program's words for it (`panicAnswer`, for `fileName`), and the reader starts afresh for
 * the next call; the engine is not touched.
 */
async function withReader(fileName: string, read: () => string): Promise<string> {
  if (!documents) {
    const starting = initDocuments({ module_or_path: inflate(documentsGzip) });
    starting.catch(() => {
      if (documents === starting) documents = undefined;
    });
    documents = starting;
  }
  await documents;
  readerUsed = true;
  try {
    return read();
  } catch (error) {
    if (!isTrap(error)) throw error;
    // The panic's words from the instance that trapped (a read of what its hook kept), then a new one.
    let message = "no message";
    try {
      message = lastPanic() || message;
    } catch {
      // Its words are lost with it; the file is still named.
    }
    resetDocuments();
    return panicAnswer(fileName, message);
  }
}

/**
 * The text of a document (PDF, office file, table, canvas) from its bytes, as the vaultsum
 * program reads it: the reader's answer, `{"text"}` or `{"error"}` (a JSON string for the
 * engine's `documentRead`).
 */
export function readDocument(fileName: string, bytes: Uint8Array, page: number | undefined): Promise<string> {
  return withReader(fileName, () => extractDocument(fileName, bytes, page));
}

/** A canvas embedded as a note, as the program's expander reads it: `{"text"}` (Markdown, its file cards as embeds) or `{"error"}` (not a valid canvas). */
export function readCanvas(fileName: string, bytes: Uint8Array): Promise<string> {
  return withReader(fileName, () => canvasNote(bytes));
}
