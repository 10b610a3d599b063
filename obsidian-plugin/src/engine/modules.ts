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

/** A reading the worker has in hand: how to answer it, and what to answer if it is stopped. */
interface Reading {
  resolve(answer: string): void;
  reject(error: Error): void;
  /** The worker began it (its words for a stopped reading came): its time runs from then. */
  started(ifStopped: string): void;
}

/** The document reader's worker while it runs: the readings it has in hand, by id. */
interface ReaderWorker {
  thread: Worker;
  readings: Map<number, Reading>;
  /** A summary is done with it: ended once its last reading is answered. */
  endWhenIdle: boolean;
}

let worker: ReaderWorker | undefined;
/** The worker script's `blob:` URL, made at the first worker. */
let workerUrl: string | undefined;
/** The compiled module the workers start from (compiled once, sent to each). */
let compiled: Promise<WebAssembly.Module> | undefined;
/** Whether readings go to a worker: decided at the first (whether this platform has workers), false once one could not be started or failed (the in-process reader is used instead). */
let workersWork: boolean | undefined;

function useWorkers(): boolean {
  workersWork ??= typeof Worker === "function" && typeof Blob === "function" && typeof URL?.createObjectURL === "function";
  return workersWork;
}
let nextReading = 0;
/**
 * The time limit of one reading in a worker, from when the worker begins it: the program's
 * (`DocLimits::timeout`, whose words the worker sends, `timeoutAnswer`; the reader's
 * `timeLimitMs` export says the same 30 s, tested on the Rust side); tests shorten it.
 */
let timeLimitMs = 30_000;

/** For tests: a shorter time limit for a reading in a worker. */
export function setDocumentTimeLimitForTests(ms: number): void {
  timeLimitMs = ms;
}

/** Thrown when a reading is cancelled by the person (the worker ended with it). */
export class ReadingCancelled extends Error {}

/** A reading whose worker was ended for another reading (its time limit, its cancel): read again in a new one. */
class WorkerEnded extends Error {}

/** The worker itself failed (its script, the platform): the in-process reader takes over. */
class WorkerFailed extends Error {}

/**
 * Ends the reader once a summary is done with it: WebAssembly memory only grows, so the memory a
 * large PDF needed would otherwise stay taken (on a phone too) until Obsidian closes. A worker
 * is ended (all its memory goes with it) once it has no reading in hand (another summary's may
 * be); the in-process reader starts afresh.
 */
export function releaseDocumentReader(): void {
  if (worker) {
    if (worker.readings.size === 0) endWorker(worker, () => new WorkerEnded());
    else worker.endWhenIdle = true;
  }
  if (!readerUsed) return;
  readerUsed = false;
  resetDocuments();
}

/** Ends the reader for good (the plugin unloads): its worker, and the worker script's URL. */
export function endDocumentReader(): void {
  if (worker) endWorker(worker, () => new WorkerEnded());
  if (workerUrl) URL.revokeObjectURL(workerUrl);
  workerUrl = undefined;
  releaseDocumentReader();
}

/** Ends `ended`; each reading it still had in hand fails with `why(reading)`. */
function endWorker(ended: ReaderWorker, why: (reading: Reading) => Error): void {
  if (worker === ended) worker = undefined;
  ended.thread.terminate();
  const readings = [...ended.readings.values()];
  ended.readings.clear();
  for (const reading of readings) reading.reject(why(reading));
}

/** The worker, started with the compiled module when there is none (undefined when workers cannot run here). */
async function startedWorker(): Promise<ReaderWorker | undefined> {
  compiled ??= WebAssembly.compile(inflate(documentsGzip) as Uint8Array<ArrayBuffer>);
  const module = await compiled;
  if (worker) return worker;
  let thread: Worker;
  try {
    // The script's URL is made once and kept while Obsidian runs: every worker starts from it.
    workerUrl ??= URL.createObjectURL(new Blob([workerScript], { type: "text/javascript" }));
    thread = new Worker(workerUrl);
  } catch {
    // A platform that refuses a worker made from a script in memory: read in-process.
    workersWork = false;
    return undefined;
  }
  const started: ReaderWorker = { thread, readings: new Map(), endWhenIdle: false };
  thread.onmessage = (event: MessageEvent<{ id: number; answer?: string; ifStopped?: string }>) => {
    const reading = started.readings.get(event.data.id);
    if (!reading) return;
    if (typeof event.data.ifStopped === "string") reading.started(event.data.ifStopped);
    if (typeof event.data.answer === "string") {
      started.readings.delete(event.data.id);
      reading.resolve(event.data.answer);
      if (started.endWhenIdle && started.readings.size === 0) endWorker(started, () => new WorkerEnded());
    }
  };
  thread.onerror = (event: ErrorEvent) => {
    // The worker itself failed (not a document: a parser's panic is an answer), or the platform
    // would not run its script: the in-process reader from now on, for the readings in hand too.
    workersWork = false;
    endWorker(started, () => new WorkerFailed(`the document reader stopped: ${event.message ?? "its worker could not start"}`));
  };
  thread.postMessage({ module });
  worker = started;
  return started;
}

/**
 * One reading in a worker: its answer; the program's words for a reading stopped at the time
 * limit (counted from when the worker begins it; the worker is ended, and the next reading
 * starts another); `ReadingCancelled` when the person cancels (the worker is ended too). A
 * reading whose worker was ended for another's limit or cancel is read again in a new worker.
 * Undefined when no worker can run here.
 */
async function inWorker(call: "extract" | "canvas", fileName: string, bytes: Uint8Array, page: number | undefined, signal: AbortSignal | undefined): Promise<string | undefined> {
  for (;;) {
    if (signal?.aborted) throw new ReadingCancelled(`reading ${fileName} cancelled`);
    // A worker failed meanwhile (it could not start here): read in-process.
    if (workersWork === false) return undefined;
    const started = await startedWorker();
    if (!started) return undefined;
    if (signal?.aborted) throw new ReadingCancelled(`reading ${fileName} cancelled`);
    try {
      return await oneReading(started, call, fileName, bytes, page, signal);
    } catch (error) {
      if (!(error instanceof WorkerEnded)) throw error;
    }
  }
}

/** One reading sent to `started`, answered, stopped or cancelled (see [`inWorker`]). */
function oneReading(started: ReaderWorker, call: "extract" | "canvas", fileName: string, bytes: Uint8Array, page: number | undefined, signal: AbortSignal | undefined): Promise<string> {
  // Ended between its start and now (another reading's limit or cancel): read in a new one.
  if (worker !== started) return Promise.reject(new WorkerEnded());
  const id = nextReading++;
  return new Promise<string>((resolve, reject) => {
    let timer: number | undefined;
    const done = () => {
      if (timer !== undefined) window.clearTimeout(timer);
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
      started: (ifStopped) => {
        timer = window.setTimeout(() => {
          // This reading's answer is the program's words; the others in hand are read again.
          started.readings.delete(id);
          endWorker(started, () => new WorkerEnded());
          reading.resolve(ifStopped);
        }, timeLimitMs);
      },
    };
    const cancel = () => {
      started.readings.delete(id);
      endWorker(started, () => new WorkerEnded());
      reading.reject(new ReadingCancelled(`reading ${fileName} cancelled`));
    };
    signal?.addEventListener("abort", cancel);
    started.readings.set(id, reading);
    // Copied, not moved: a reading its worker did not finish (ended for another) is sent again.
    started.thread.postMessage({ id, call, fileName, bytes, page });
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
 * A reading whose worker failed (the worker itself, not the document: its script, the
 * platform): the in-process reader is used from now on, for this reading too. A cancel is
 * passed on.
 */
function workerFailed(error: unknown): undefined {
  if (!(error instanceof WorkerFailed)) throw error;
  workersWork = false;
  return undefined;
}

/**
 * The text of a document (PDF, office file, table, canvas) from its bytes, as the vaultsum
 * program reads it: the reader's answer, `{"text"}` or `{"error"}` (a JSON string for the
 * engine's `documentRead`). Read in a worker where workers run (the program's time limit, and
 * `signal` stops it), else on this thread.
 */
export async function readDocument(fileName: string, bytes: Uint8Array, page: number | undefined, signal?: AbortSignal): Promise<string> {
  if (useWorkers()) {
    const answer = await inWorker("extract", fileName, bytes, page, signal).catch(workerFailed);
    if (answer !== undefined) return answer;
  }
  return withReader(fileName, () => extractDocument(fileName, bytes, page));
}

/** A canvas embedded as a note, as the program's expander reads it: `{"text"}` (Markdown, its file cards as embeds) or `{"error"}` (not a valid canvas). */
export async function readCanvas(fileName: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
  if (useWorkers()) {
    const answer = await inWorker("canvas", fileName, bytes, undefined, signal).catch(workerFailed);
    if (answer !== undefined) return answer;
  }
  return withReader(fileName, () => canvasNote(bytes));
}
