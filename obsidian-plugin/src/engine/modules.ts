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
import workerScript from "vaultsum-document-worker";

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
/** Whether the in-process reader read something since it last started afresh. */
let readerUsed = false;

/** A reading the worker is doing: how to answer it, and what to answer if it is stopped. */
interface Reading {
  resolve(answer: string): void;
  reject(error: Error): void;
  ifStopped?: string;
}

/** The document reader's worker, while it runs, and the readings it has in hand. */
let worker: { thread: Worker; readings: Map<number, Reading> } | undefined;
/** The compiled module the workers start from (compiled once, sent to each). */
let compiled: Promise<WebAssembly.Module> | undefined;
/** Whether readings go to a worker: decided at the first (whether this platform has workers), false once one could not be started (the in-process reader is used instead). */
let workersWork: boolean | undefined;

function useWorkers(): boolean {
  workersWork ??= typeof Worker === "function" && typeof Blob === "function" && typeof URL?.createObjectURL === "function";
  return workersWork;
}
let nextReading = 0;
/** The time limit of one reading in a worker: the program's (`timeLimitMs`); tests shorten it. */
let timeLimitMs = 30_000;

/** For tests: a shorter time limit for a reading in a worker. */
export function setDocumentTimeLimitForTests(ms: number): void {
  timeLimitMs = ms;
}

/** Thrown when a reading is cancelled by the person (the worker ended with it). */
export class ReadingCancelled extends Error {}

/**
 * Ends the reader once a summary is done with it: WebAssembly memory only grows, so the memory a
 * large PDF needed would otherwise stay taken (on a phone too) until Obsidian closes. A worker
 * is ended (all its memory goes with it); the in-process reader starts afresh.
 */
export function releaseDocumentReader(): void {
  stopWorker();
  if (!readerUsed) return;
  readerUsed = false;
  resetDocuments();
}

/** Ends the worker; a reading it had in hand gets `answer` (its words for being stopped) or the error. */
function stopWorker(answer?: (reading: Reading) => void): void {
  if (!worker) return;
  const { thread, readings } = worker;
  worker = undefined;
  thread.terminate();
  for (const reading of readings.values()) (answer ?? ((r) => r.reject(new Error("the document reader was ended"))))(reading);
}

/** The worker, started with the compiled module when there is none (undefined when workers cannot run here). */
async function startedWorker(): Promise<{ thread: Worker; readings: Map<number, Reading> } | undefined> {
  if (worker) return worker;
  compiled ??= WebAssembly.compile(inflate(documentsGzip) as Uint8Array<ArrayBuffer>);
  const module = await compiled;
  if (worker) return worker;
  let thread: Worker;
  try {
    thread = new Worker(URL.createObjectURL(new Blob([workerScript], { type: "text/javascript" })));
  } catch {
    // A platform that refuses a worker made from a script in memory: read in-process.
    workersWork = false;
    return undefined;
  }
  const started = { thread, readings: new Map<number, Reading>() };
  thread.onmessage = (event: MessageEvent<{ id: number; answer?: string; ifStopped?: string }>) => {
    const reading = started.readings.get(event.data.id);
    if (!reading) return;
    if (typeof event.data.ifStopped === "string") reading.ifStopped = event.data.ifStopped;
    if (typeof event.data.answer === "string") {
      started.readings.delete(event.data.id);
      reading.resolve(event.data.answer);
    }
  };
  thread.onerror = (event) => {
    // The worker itself failed (not a document: a parser's panic is an answer): readings in
    // hand fail with it, and the next one starts another worker.
    if (worker === started) stopWorker((reading) => reading.reject(new Error(`the document reader stopped: ${event.message}`)));
  };
  thread.postMessage({ module });
  worker = started;
  return started;
}

/**
 * One reading in the worker: its answer; the program's words for a reading stopped at the time
 * limit (the worker is ended, and the next reading starts another); `ReadingCancelled` when the
 * person cancels (the worker is ended too).
 */
async function inWorker(call: "extract" | "canvas", fileName: string, bytes: Uint8Array, page: number | undefined, signal: AbortSignal | undefined): Promise<string | undefined> {
  if (signal?.aborted) throw new ReadingCancelled(`reading ${fileName} cancelled`);
  const started = await startedWorker();
  if (!started) return undefined;
  if (signal?.aborted) throw new ReadingCancelled(`reading ${fileName} cancelled`);
  const id = nextReading++;
  return new Promise<string>((resolve, reject) => {
    const done = () => {
      window.clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    };
    const reading: Reading = {
      resolve: (answer) => {
        done();
        resolve(answer);
      },
      reject: (error) => {
        done();
        reject(error);
      },
    };
    const timer = window.setTimeout(() => {
      if (worker === started) stopWorker((r) => (r === reading ? reading.resolve(reading.ifStopped ?? JSON.stringify({ error: `cannot read ${fileName} as a document: extraction took longer than ${Math.round(timeLimitMs / 1000)} s and was abandoned` })) : r.reject(new Error("the document reader was ended"))));
    }, timeLimitMs);
    const cancel = () => {
      if (worker === started) stopWorker((r) => r.reject(new ReadingCancelled(`reading ${fileName} cancelled`)));
    };
    signal?.addEventListener("abort", cancel);
    started.readings.set(id, reading);
    // The bytes are the worker's now (moved, not copied): the caller read them for this.
    started.thread.postMessage({ id, call, fileName, bytes, page }, [bytes.buffer]);
  });
}

/**
 * Calls the in-process document reader (started the first time): where workers cannot run. A
 * parser's panic gives `{"error"}` in the program's words for it (`panicAnswer`, for
 * `fileName`), and the reader starts afresh for the next call; the engine is not touched.
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
 * What a reading whose worker failed (not the document: the worker itself, a platform that
 * will not run it) answers: the file named, and the in-process reader used from now on. A
 * cancel is passed on.
 */
function workerFailed(fileName: string): (error: unknown) => string {
  return (error) => {
    if (error instanceof ReadingCancelled) throw error;
    workersWork = false;
    return JSON.stringify({ error: `cannot read ${fileName} as a document: ${error instanceof Error ? error.message : String(error)}` });
  };
}

/**
 * The text of a document (PDF, office file, table, canvas) from its bytes, as the vaultsum
 * program reads it: the reader's answer, `{"text"}` or `{"error"}` (a JSON string for the
 * engine's `documentRead`). Read in a worker where workers run (the program's time limit, and
 * `signal` stops it), else on this thread.
 */
export async function readDocument(fileName: string, bytes: Uint8Array, page: number | undefined, signal?: AbortSignal): Promise<string> {
  if (useWorkers()) {
    const answer = await inWorker("extract", fileName, bytes, page, signal).catch(workerFailed(fileName));
    if (answer !== undefined) return answer;
  }
  return withReader(fileName, () => extractDocument(fileName, bytes, page));
}

/** A canvas embedded as a note, as the program's expander reads it: `{"text"}` (Markdown, its file cards as embeds) or `{"error"}` (not a valid canvas). */
export async function readCanvas(fileName: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
  if (useWorkers()) {
    const answer = await inWorker("canvas", fileName, bytes, undefined, signal).catch(workerFailed(fileName));
    if (answer !== undefined) return answer;
  }
  return withReader(fileName, () => canvasNote(bytes));
}
