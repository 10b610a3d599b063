// Web Workers as Obsidian has them (desktop and mobile), for tests that run under Node: a
// worker made from a Blob's script, posted to and terminated, run on a Node worker thread. The
// plugin's code is the same; only the platform's Worker and URL.createObjectURL are these.
import { EventEmitter } from "node:events";
import { Worker as ThreadWorker } from "node:worker_threads";

/** What a worker script sees of its scope on a Node thread: `self`, `onmessage`, `postMessage`. */
const PRELUDE = `const { parentPort } = require("node:worker_threads");
globalThis.self = globalThis;
globalThis.postMessage = (message) => parentPort.postMessage(message);
parentPort.on("message", (data) => { if (typeof globalThis.onmessage === "function") globalThis.onmessage({ data }); });
`;

/** The workers started and ended, for the tests to see. */
export const workerEvents = { started: 0, terminated: 0 };

/** Each message a worker sends, as it arrives (`message`, with its data). */
export const workerMessages = new EventEmitter();

const blobs = new Map<string, Blob>();

class BlobWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  private readonly thread: Promise<ThreadWorker>;

  constructor(url: string) {
    const blob = blobs.get(url);
    if (!blob) throw new Error(`no script at ${url}`);
    workerEvents.started += 1;
    this.thread = blob.text().then((script) => {
      const thread = new ThreadWorker(PRELUDE + script, { eval: true });
      thread.on("message", (data: unknown) => {
        workerMessages.emit("message", data);
        this.onmessage?.({ data });
      });
      thread.on("error", (error: Error) => this.onerror?.({ message: error.message }));
      return thread;
    });
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    void this.thread.then((thread) => thread.postMessage(message, transfer as never));
  }

  terminate(): void {
    workerEvents.terminated += 1;
    void this.thread.then((thread) => thread.terminate());
  }
}

/** The platform's Worker now (the shim's, or a test's own), and a way to put another in its place. */
export function platformWorker(): unknown {
  return (globalThis as { Worker?: unknown }).Worker;
}
export function setPlatformWorker(worker: unknown): void {
  (globalThis as { Worker?: unknown }).Worker = worker;
}

/** Installs the two (before the plugin reads its first document: it looks for workers then). */
export function installWebWorkers(): void {
  let next = 0;
  (globalThis as { Worker?: unknown }).Worker = BlobWorker;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:vaultsum-test/${next++}`;
    blobs.set(url, blob);
    return url;
  };
}
