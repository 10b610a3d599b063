// vaultsum's engine inside Obsidian (WebAssembly, built from the same Rust as the binary): the
// backend when no binary is set up. Obsidian's vault gives the files, the engine decides
// everything (the expansion, the offline summary, the fact check, the output policy, the
// section and its fingerprint), and the write goes through Vault.process, only over the text
// that was summarized. What it does is what `vaultsum summarize-file --engine offline` does
// with no config file, byte for byte (scripts/wasm-parity.sh); what it does not do yet is
// refused by name, with code `needs_binary`, never done differently. Nothing here needs Node.

import type { App, TFile } from "obsidian";

import initEngine, { AppVault, summaryStatus } from "vaultsum-wasm";
import wasmBytes from "vaultsum-wasm-bytes";

import type { Backend, CallOptions, ToolResult } from "../backend";
import { CallCancelled } from "../backend";

/** The arguments of summarize_file the in-app engine follows; any other is refused by name. */
const FOLLOWED = new Set(["path", "dry_run", "preview", "replace", "focus"]);

/** A dry run's summary, kept for the write that shows it (the preview's Insert or Replace). */
interface Kept {
  path: string;
  focus: string;
  original: string;
  summary: string;
}

/** How long a dry run's summary is kept for its write (the binary keeps it an hour). */
const KEEP_MS = 60 * 60 * 1000;

let loaded: Promise<unknown> | undefined;

/** Instantiates the module once (asynchronously: a 2 MB module is not compiled on the main thread at once). */
function engineReady(): Promise<unknown> {
  if (!loaded) loaded = initEngine({ module_or_path: wasmBytes });
  return loaded;
}

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

  constructor(private readonly app: App) {}

  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    await engineReady();
    if (options.signal?.aborted) throw new CallCancelled(`${name} cancelled`);
    switch (name) {
      case "summarize_file":
        return this.summarizeFile(args, options);
      case "summary_status":
        return this.summaryStatus(typeof args.path === "string" ? args.path : "");
      default:
        return failure(
          "",
          `${name} needs the vaultsum program: the engine inside Obsidian summarizes one note at a time, offline, so far. Install vaultsum on this computer (see the plugin's settings) for folders, rollups and web pages.`,
          "needs_binary",
        );
    }
  }

  /** Each note's state under `target` (a note, a folder, or the vault for ""), as summary_status gives it. */
  private async summaryStatus(target: string): Promise<ToolResult> {
    const folder = target.replace(/\/+$/, "");
    const files = this.app.vault
      .getMarkdownFiles()
      .filter((file) => !folder || folder === "/" || file.path === folder || file.path.startsWith(`${folder}/`))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const notes: Record<string, unknown>[] = [];
    for (const file of files) {
      const state = JSON.parse(summaryStatus(await this.app.vault.cachedRead(file))) as Record<string, unknown>;
      notes.push({ path: file.path, ...state });
    }
    return result({ path: target, notes });
  }

  private async summarizeFile(args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const path = typeof args.path === "string" ? args.path : "";
    const others = Object.keys(args).filter((key) => !FOLLOWED.has(key) && args[key] !== undefined && args[key] !== "" && args[key] !== false);
    if (others.length > 0) {
      return failure(path, `The engine inside Obsidian writes the built-in summary into the note's summary section; ${others.join(", ")} needs the vaultsum program (see the plugin's settings).`, "needs_binary");
    }
    const file = this.app.vault.getFileByPath(path);
    if (!file || file.extension !== "md") return failure(path, `${path}: no such note in the vault`, "not_found");
    const replace = args.replace === true;
    if (typeof args.preview === "string") return this.writePreview(file, args.preview, replace);
    const focus = typeof args.focus === "string" ? args.focus : "";
    return this.summarizeNote(file, { focus, replace, dryRun: args.dry_run === true }, options);
  }

  /**
   * Summarizes `file` offline; a dry run keeps its summary for a write. With `shown`, the write
   * of a preview: refused unless the summary made now is the one shown.
   */
  private async summarizeNote(file: TFile, run: { focus: string; replace: boolean; dryRun: boolean; shown?: string }, options: CallOptions): Promise<ToolResult> {
    const path = file.path;
    options.onProgress?.({ progress: 0, message: `reading ${path}` });
    const vault = new AppVault(this.app.vault.getFiles().map((f) => f.path));
    try {
      const original = await this.app.vault.read(file);
      // Written back as text, so only a note whose bytes are that very text (valid UTF-8,
      // no byte-order mark the read would drop): nothing but the summary may change.
      if (!run.dryRun && !(await isExactText(this.app, file, original))) {
        return failure(path, `${path} is not plain UTF-8 text (invalid bytes or a byte-order mark), which the engine inside Obsidian does not write back; the vaultsum program writes it byte for byte`, "not_utf8");
      }
      vault.addNote(path, original);
      const nonce = randomHex(8);
      let answer: Record<string, unknown>;
      for (;;) {
        if (options.signal?.aborted) throw new CallCancelled("summarize_file cancelled");
        const json = run.dryRun ? vault.previewOffline(path, run.focus, nonce) : vault.summarizeOffline(path, run.focus, nonce, run.replace);
        answer = JSON.parse(json) as Record<string, unknown>;
        if (!Array.isArray(answer.needs)) break;
        for (const needed of answer.needs as string[]) await this.give(vault, needed);
      }
      if (typeof answer.error === "string") return failure(path, answer.error);
      const summary = String(answer.summary);
      if (run.dryRun) {
        const id = randomHex(12);
        this.keep(id, { path, focus: run.focus, original, summary });
        return result({ success: true, path, summary, summary_length: [...summary].length, dry_run: true, into: "section", preview_id: id, engine: "in-app" });
      }
      if (run.shown !== undefined && summary !== run.shown) {
        return failure(path, `${path}: what its notes embed changed since its preview; nothing was written: preview it again`, "preview_stale");
      }
      options.onProgress?.({ progress: 0, message: `writing ${path}` });
      return await this.write(file, original, String(answer.content), summary, run.replace);
    } finally {
      vault.free();
    }
  }

  /** Gives the engine a note its expansion needs, or says why it cannot. */
  private async give(vault: AppVault, path: string): Promise<void> {
    const file = this.app.vault.getFileByPath(path);
    if (!file) return vault.refuseNote(path, "not_found");
    if (file.extension === "canvas") return vault.refuseNote(path, "unreadable");
    if (file.stat.size > AppVault.maxNoteBytes()) return vault.refuseNote(path, "too_large");
    try {
      vault.addNote(path, await this.app.vault.cachedRead(file));
    } catch {
      vault.refuseNote(path, "unreadable");
    }
  }

  /** Writes `content` over the note only if it is still `original` (edits made meanwhile are never lost). */
  private async write(file: TFile, original: string, content: string, summary: string, replace: boolean): Promise<ToolResult> {
    let changed = false;
    await this.app.vault.process(file, (now) => {
      if (now !== original) {
        changed = true;
        return now;
      }
      return content;
    });
    if (changed) return failure(file.path, `${file.path} changed while its summary was being made; it was left as it is. Summarize it again.`, "note_busy");
    return result({ success: true, path: file.path, summary_length: [...summary].length, into: "section", replace, stale: false, engine: "in-app" });
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
    // The offline engine gives the same summary for the same note: made again, written only
    // when it is the one shown.
    return this.summarizeNote(file, { focus: kept.focus, replace, dryRun: false, shown: kept.summary }, {});
  }

  private keep(id: string, kept: Kept): void {
    const now = Date.now();
    for (const [key, value] of this.kept) if (now - value.at > KEEP_MS) this.kept.delete(key);
    this.kept.set(id, { ...kept, at: now });
  }
}
