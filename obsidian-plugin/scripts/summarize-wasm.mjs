// The app's engine (vaultsum's WebAssembly build) from the command line: what the plugin's
// in-app backend does for one note, with Node's fs in place of Obsidian's vault. It prints on
// stdout what `vaultsum --vault DIR summarize-file --engine offline --dry-run NOTE` prints
// there, byte for byte; with --write it writes the note as `vaultsum ... summarize-file
// --engine offline NOTE` writes it (--replace: in place of its summary sections), byte for
// byte too (scripts/wasm-parity.sh checks both on every note of both vaults).
//
// With --engine llm, the model is asked as the binary asks it with a key and no config file
// (FIREWORKS_API_KEY, FIREWORKS_BASE_URL, FIREWORKS_MODEL, read as the binary reads them): the
// engine builds each request and reads each answer; this file only sends them, as the plugin
// does through Obsidian's requestUrl, one request at a time, the key masked in what comes back.
//
//   node obsidian-plugin/scripts/summarize-wasm.mjs --vault DIR --engine local|llm [--focus TEXT] [--prompt PRESET] [--write [--replace]] NOTE
//
// The module is scripts/wasm-build.sh's Node build (target/wasm-pkg/node), or the folder
// VAULTSUM_WASM_PKG names.
import { isUtf8 } from "node:buffer";
import { lstatSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

function fail(message, code = 1) {
  process.stderr.write(`vaultsum: ${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      vault: { type: "string" },
      engine: { type: "string", default: "offline" },
      focus: { type: "string", default: "" },
      prompt: { type: "string" },
      write: { type: "boolean", default: false },
      replace: { type: "boolean", default: false },
    },
  });
} catch (error) {
  fail(error.message, 2);
}
const { values, positionals } = parsed;
if (!values.vault) fail("give the vault with --vault DIR", 2);
if (positionals.length !== 1) fail("give one note path, relative to the vault", 2);
// `local` is the offline engine's old name, kept as the binary keeps it.
if (!["offline", "local", "llm"].includes(values.engine)) {
  fail(`the engine is offline (or local) or llm, not ${JSON.stringify(values.engine)}`, 2);
}
const llm = values.engine === "llm";
const apiKey = process.env.FIREWORKS_API_KEY ?? "";
if (llm && !apiKey) fail("FIREWORKS_API_KEY is not set: export FIREWORKS_API_KEY=<your Fireworks API key> to use the LLM, or pass --engine offline to use the built-in offline summarizer", 1);
const baseUrl = (process.env.FIREWORKS_BASE_URL || "https://api.fireworks.ai/inference/v1").replace(/\/+$/, "");
const root = resolve(values.vault);
const realRoot = realpathSync(root);

/** Whether the file at vault-relative `path` is, symlinks followed, inside the vault (the binary never reads past it). */
function insideVault(path) {
  let real;
  try {
    real = relative(realRoot, realpathSync(join(root, path)));
  } catch {
    return true; // Not there: its read says so.
  }
  return !(real === ".." || real.startsWith(`..${sep}`) || isAbsolute(real));
}
const note = positionals[0].replaceAll("\\", "/").replace(/^\.\//, "");

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.env.VAULTSUM_WASM_PKG || join(here, "..", "..", "target", "wasm-pkg", "node");
let engine;
try {
  engine = createRequire(import.meta.url)(join(pkg, "vaultsum_wasm.js"));
} catch (error) {
  fail(`cannot load the WebAssembly engine from ${pkg} (build it with scripts/wasm-build.sh): ${error.message}`);
}
/** The document reader's module, loaded the first time a note embeds a document (as the plugin does). */
let reader;
function documentReader() {
  try {
    reader ??= createRequire(import.meta.url)(join(pkg, "vaultsum_documents_wasm.js"));
  } catch (error) {
    fail(`cannot load the WebAssembly document reader from ${pkg} (build it with scripts/wasm-build.sh): ${error.message}`);
  }
  return reader;
}
/** A call to the document reader; a parser's panic is `{"error"}` in the program's words, and the reader starts afresh. */
function withReader(fileName, read) {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    // A trap that left the instance's memory unusable (a stack overflow) takes its words with it.
    let message = "no message";
    try {
      message = reader.lastPanic() || message;
    } catch {
      // The file is still named.
    }
    reader.__wbg_reset_state();
    return reader.panicAnswer(fileName, message);
  }
}

/** Every file of the vault, as the binary's index lists them: hidden names (`.obsidian`,
 *  `.trash`) skipped, symlinked folders not followed. */
function filesUnder(dir, found) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return found; // A folder it may not open is left out, as the binary's walk leaves it.
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) filesUnder(path, found);
    else if (entry.isSymbolicLink()) {
      let target;
      try {
        target = statSync(join(root, path));
      } catch {
        found.push(path); // A broken link is a name the index knows; its read says why.
        continue;
      }
      if (!target.isDirectory()) found.push(path);
    } else found.push(path);
  }
  return found;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** The bytes of the note summarized, as read: the write happens only over these. */
let originalBytes;
const vault = new engine.AppVault(filesUnder("", []));

/** Gives the engine the note at `path`, or says why it cannot. */
function give(path) {
  const full = join(root, path);
  if (!insideVault(path)) {
    vault.refuseNote(path, "outside");
    return;
  }
  let stat;
  try {
    stat = lstatSync(full).isSymbolicLink() ? statSync(full) : lstatSync(full);
  } catch {
    vault.refuseNote(path, "not_found");
    return;
  }
  if (!stat.isFile()) {
    vault.refuseNote(path, "unreadable");
  } else if (stat.size > engine.AppVault.maxNoteBytes()) {
    vault.refuseNote(path, "too_large");
  } else if (path.toLowerCase().endsWith(".canvas")) {
    // A canvas reads as Markdown, its file cards as embeds (the document reader's `canvasNote`).
    let read;
    try {
      read = JSON.parse(withReader(path, () => documentReader().canvasNote(readFileSync(full))));
    } catch {
      read = {};
    }
    if (typeof read.text === "string") vault.addNote(path, read.text);
    else vault.refuseNote(path, "invalid_canvas");
  } else {
    try {
      const bytes = readFileSync(full);
      if (path === note) originalBytes = bytes;
      vault.addNote(path, decoder.decode(bytes));
    } catch {
      vault.refuseNote(path, "unreadable");
    }
  }
}

const nonce = randomBytes(8).toString("hex");
const ask = () => {
  if (llm) return vault.startLlm(note, values.focus, values.prompt, nonce, process.env.FIREWORKS_MODEL ?? "", 0);
  return values.write ? vault.summarizeOffline(note, values.focus, values.prompt, nonce, values.replace) : vault.previewOffline(note, values.focus, values.prompt, nonce);
};
/** The key masked in a text the engine gives back (it decodes what the server sent). */
const maskText = (text) => text.split(apiKey).join("***");

/**
 * POSTs `body` to `url` with `contentType`: the response's status, content type and bytes
 * with the key masked before the engine reads them; a failure to reach the server ends the run.
 */
async function post(url, contentType, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": contentType, accept: "text/event-stream, application/json", authorization: `Bearer ${apiKey}` },
      body,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const masked = Buffer.from(bytes.toString("latin1").split(Buffer.from(apiKey).toString("latin1")).join("***"), "latin1");
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", body: masked };
  } catch (error) {
    fail(`${note}: cannot reach the LLM at ${url}: ${maskText(String(error.cause?.message ?? error.message))}`);
  }
}

/** Reads an image or recording the engine named (`{path, max_bytes}`) through the model, one at a time. */
async function readMedia(item) {
  const full = join(root, item.path);
  let bytes;
  try {
    if (!insideVault(item.path)) throw new Error("outside the vault");
    const stat = statSync(full);
    if (!stat.isFile()) throw new Error("not a regular file"); // A FIFO named .wav would hang the read.
    if (stat.size > item.max_bytes) return vault.mediaTooLarge(item.path, stat.size);
    bytes = readFileSync(full);
  } catch {
    return vault.refuseMedia(item.path, "could not be read", false);
  }
  const asked = JSON.parse(vault.mediaRequest(item.path, bytes, randomBytes(16).toString("hex")));
  if (asked.given) return;
  const url = `${baseUrl}/${asked.endpoint}`;
  const response = await post(url, asked.content_type, vault.mediaBody(item.path));
  const read = JSON.parse(vault.mediaAnswered(item.path, url, response.status, response.contentType, response.body));
  if (typeof read.failed === "string") vault.refuseMedia(item.path, maskText(read.failed), read.retryable === true);
}

/** Reads a document the engine named (`{path, page, max_bytes}`) with the document reader: sized first, then its text. */
function readDocument(item) {
  const full = join(root, item.path);
  const page = item.page ?? undefined;
  let bytes;
  try {
    if (!insideVault(item.path)) throw new Error("outside the vault");
    const stat = statSync(full);
    if (!stat.isFile()) throw new Error("not a regular file");
    if (stat.size > item.max_bytes) return vault.documentTooLarge(item.path, page, stat.size);
    bytes = readFileSync(full);
  } catch {
    return vault.documentRead(item.path, page, JSON.stringify({ error: "could not be read" }));
  }
  vault.documentRead(item.path, page, withReader(item.path, () => documentReader().extractDocument(item.path, bytes, page)));
}

let answer;
for (;;) {
  answer = JSON.parse(ask());
  if (answer.needs) answer.needs.forEach(give);
  else if (answer.documents) answer.documents.forEach(readDocument);
  else if (answer.media) for (const item of answer.media) await readMedia(item);
  else break;
}
// The model's requests, one after the other, as the engine gives them.
const url = `${baseUrl}/chat/completions`;
while (llm && typeof answer.send === "string") {
  const response = await post(url, "application/json", answer.send);
  answer = JSON.parse(vault.llmAnswered(url, response.status, response.contentType, response.body, values.replace, undefined));
  if (typeof answer.error === "string") answer.error = maskText(answer.error);
}
if (answer.error) fail(`${note}: ${answer.error}`);
// A key the server sent back past the byte mask (split across the stream, escaped) is not written.
const shown = (text) => String(text ?? "").replace(/[\\*_~`]/g, "");
if (llm && shown(apiKey).length >= 8 && shown(answer.summary).includes(shown(apiKey))) fail(`${note}: the model's answer holds the API key; nothing was written`);
if (!values.write) {
  process.stdout.write(`## Summary\n\n${answer.summary}\n`);
  process.exit(0);
}
// The write: only over the bytes summarized, only for a note that is UTF-8 (the text the
// engine composed onto is then those very bytes), whole or not at all (a temporary file
// beside it, renamed over it).
const full = join(root, note);
if (!isUtf8(originalBytes)) fail(`${note}: the note is not valid UTF-8; the app's engine writes only UTF-8 notes (the note was left unchanged)`);
if (!readFileSync(full).equals(originalBytes)) fail(`${note}: the note changed while its summary was being made; it was left unchanged`);
const temporary = join(dirname(full), `.vaultsum-${nonce}.tmp`);
writeFileSync(temporary, answer.content);
renameSync(temporary, full);
process.stdout.write(`${JSON.stringify({ success: true, path: note, summary_length: [...answer.summary].length })}\n`);
