// The document reader in a Web Worker (built by esbuild.config.mjs into a script of its own,
// carried in main.js as text): a document is read off Obsidian's thread, so Obsidian stays
// responsive, and the plugin can stop a reading that runs past the program's time limit or that
// the person cancels, by ending the worker, which frees all its memory. It receives the compiled
// module first, then one call at a time; see modules.ts for the other side.
import { __wbg_reset_state as resetDocuments, canvasNote, extractDocument, initSync, lastPanic, panicAnswer, timeoutAnswer } from "vaultsum-documents-wasm";

/** What the plugin sends: the compiled module once, then calls. */
type Request = { module: WebAssembly.Module } | { id: number; call: "extract" | "canvas"; fileName: string; bytes: Uint8Array; page?: number };

/** A call's answer (`{"text"}` or `{"error"}` as JSON), or, before it, the words for a reading stopped at the time limit. */
type Reply = { id: number; answer: string } | { id: number; ifStopped: string };

const scope = self as unknown as { onmessage: ((event: MessageEvent<Request>) => void) | null; postMessage(reply: Reply): void };

scope.onmessage = (event) => {
  const request = event.data;
  if ("module" in request) {
    initSync({ module: request.module });
    return;
  }
  scope.postMessage({ id: request.id, ifStopped: timeoutAnswer(request.fileName) });
  let answer: string;
  try {
    answer = request.call === "canvas" ? canvasNote(request.bytes) : extractDocument(request.fileName, request.bytes, request.page);
  } catch (error) {
    // A parser's panic (a trap): its words from the instance that trapped. Anything else thrown
    // inside the module (a stack overflow's RangeError) is told with its own words. Either way a
    // fresh instance reads the next document.
    let message = error instanceof WebAssembly.RuntimeError ? "no message" : String(error);
    try {
      if (error instanceof WebAssembly.RuntimeError) message = lastPanic() || message;
    } catch {
      // A trap that left the instance unusable takes its words with it; the file is named.
    }
    resetDocuments();
    answer = panicAnswer(request.fileName, message);
  }
  scope.postMessage({ id: request.id, answer });
};
