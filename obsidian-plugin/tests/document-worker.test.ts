// The document reader in a Web Worker, as Obsidian runs it (desktop and mobile have workers;
// tests/stubs/web-worker.ts runs one on a Node thread): the same text as the program, a time
// limit, and a cancel that stops a reading at once.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { runCli } from "../src/binary/cli";
import { setDocumentTimeLimitForTests } from "../src/engine/modules";
import { installWebWorkers, platformWorker, setPlatformWorker, workerEvents, workerMessages } from "./stubs/web-worker";
import { BINARY, VAULTS, cleanup, copyVault, loadPlugin, note as noteFile, tempDir } from "./support";

afterEach(() => {
  setDocumentTimeLimitForTests(30_000);
  return cleanup();
});

beforeAll(installWebWorkers);

const fixtures = path.resolve(__dirname, "../../crates/vaultsum-documents/tests/fixtures");

/** Two copies of the fixture vault with `files` (from `dir`) in Documents/files and `note`'s text. */
function twoVaults(note: string, text: string, files: string[], dir = fixtures): [string, string] {
  const vaults = [copyVault(VAULTS.fixture), copyVault(VAULTS.fixture)] as [string, string];
  for (const vault of vaults) {
    mkdirSync(path.join(vault, "Documents/files"), { recursive: true });
    for (const name of files) writeFileSync(path.join(vault, "Documents/files", name), readFileSync(path.join(dir, name)));
    writeFileSync(path.join(vault, note), text);
  }
  return vaults;
}

describe("the document reader in a worker", () => {
  it("reads a PDF, a page of it, a DOCX and a canvas as the program does, and is ended after the summary", async () => {
    const note = "Documents/Reading list.md";
    const text = "# Reading list\n\nWhat the files say about revenue and the methods.\n\n![[multipage.pdf]]\n\n![[multipage.pdf#page=2]]\n\n![[report.docx]]\n\n![[board.canvas]]\n";
    const [vault, other] = twoVaults(note, text, ["multipage.pdf", "report.docx", "board.canvas"]);
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });
    const before = { ...workerEvents };

    expect(await plugin.summarize(noteFile(note))).toMatchObject({ kind: "written" });

    expect(workerEvents.started).toBeGreaterThan(before.started);
    expect(workerEvents.terminated - before.terminated).toBe(workerEvents.started - before.started);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
    delete env.FIREWORKS_API_KEY;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", note], env, other);
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(other, note), "utf8"));
  });

  it("a reading past the time limit is stopped, and the summary goes on without that document, in the program's words", async () => {
    setDocumentTimeLimitForTests(300);
    const note = "Documents/Slow.md";
    const text = "# Slow\n\nThe budget of the library is agreed and the opening is in June.\n\n![[slow-page.pdf]]\n\n![[report.docx]]\n";
    const [vault] = twoVaults(note, text, ["report.docx"]);
    writeFileSync(path.join(vault, "Documents/files/slow-page.pdf"), readFileSync(path.join(__dirname, "fixtures/slow-page.pdf")));
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });

    const outcome = await plugin.summarize(noteFile(note));

    expect(outcome).toMatchObject({ kind: "written" });
    expect(outcome.message).toContain(
      "Made without an embedded file that could not be read: Documents/files/slow-page.pdf (cannot read Documents/files/slow-page.pdf as a document: extraction took longer than 30 s and was abandoned).",
    );
    // The next document was read by a new worker.
    expect(readFileSync(path.join(vault, note), "utf8")).toContain("## Summary");
  });

  it("two summaries at once: one's reading stopped at the limit does not cost the other its document", async () => {
    setDocumentTimeLimitForTests(300);
    const slow = "Documents/Slow.md";
    const report = "Documents/Report.md";
    const [vault] = twoVaults(slow, "# Slow\n\nThe budget of the library is agreed and the opening is in June.\n\n![[slow-page.pdf]]\n", ["report.docx"]);
    writeFileSync(path.join(vault, "Documents/files/slow-page.pdf"), readFileSync(path.join(__dirname, "fixtures/slow-page.pdf")));
    writeFileSync(path.join(vault, report), "# Report\n\nWhat the quarterly report says about the regions.\n\n![[report.docx]]\n");
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });
    // The slow reading is in the worker's hands when the second summary asks for its document.
    const slowStarted = new Promise<void>((resolve) => {
      const listener = (data: { ifStopped?: string }) => {
        if (data.ifStopped?.includes("slow-page.pdf")) {
          workerMessages.off("message", listener);
          resolve();
        }
      };
      workerMessages.on("message", listener);
    });
    const first = plugin.summarize(noteFile(slow));
    await slowStarted;
    const second = plugin.summarize(noteFile(report));
    const [slowOutcome, reportOutcome] = await Promise.all([first, second]);
    expect(slowOutcome.message).toContain("extraction took longer than 30 s and was abandoned");
    expect(reportOutcome).toMatchObject({ kind: "written" });
    expect(reportOutcome.message).not.toContain("could not be read");
  });

  it("Cancel stops a reading at once: the worker is ended and the note is unchanged", async () => {
    const note = "Documents/Slow.md";
    const text = "# Slow\n\nThe budget of the library is agreed and the opening is in June.\n\n![[slow-page.pdf]]\n";
    const [vault] = twoVaults(note, text, []);
    writeFileSync(path.join(vault, "Documents/files/slow-page.pdf"), readFileSync(path.join(__dirname, "fixtures/slow-page.pdf")));
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });
    const terminated = workerEvents.terminated;
    // The worker has the reading (it sends the words for a stopped reading first): then the
    // person cancels.
    const reading = new Promise<void>((resolve) => {
      const listener = (data: { ifStopped?: string }) => {
        if (typeof data.ifStopped !== "string") return;
        workerMessages.off("message", listener);
        resolve();
      };
      workerMessages.on("message", listener);
    });
    const summarized = plugin.callTool("summarize_file", { path: note });
    await reading;
    plugin.cancel();
    await expect(summarized).rejects.toThrow(/cancelled/);
    expect(workerEvents.terminated).toBeGreaterThan(terminated);
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(text);
  });
});

describe("where the platform refuses the worker", () => {
  // Last in this file: once a worker has failed to start, the module reads in-process for good.
  it("an error event at its start (as a blocked script fires it): the document is read on Obsidian's thread instead, as the program reads it", async () => {
    const shim = platformWorker();
    class RefusedWorker {
      onmessage: unknown = null;
      onerror: ((event: Event) => void) | null = null;
      constructor() {
        queueMicrotask(() => this.onerror?.(new Event("error")));
      }
      postMessage(): void {}
      terminate(): void {}
    }
    setPlatformWorker(RefusedWorker);
    try {
      const note = "Documents/Reading list.md";
      const text = "# Reading list\n\nWhat the files say about revenue and the methods.\n\n![[multipage.pdf]]\n\n![[report.docx]]\n";
      const [vault, other] = twoVaults(note, text, ["multipage.pdf", "report.docx"]);
      const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });
      const outcome = await plugin.summarize(noteFile(note));
      expect(outcome).toMatchObject({ kind: "written" });
      expect(outcome.message).not.toContain("could not be read");
      const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
      delete env.FIREWORKS_API_KEY;
      await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", note], env, other);
      expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(other, note), "utf8"));
    } finally {
      setPlatformWorker(shim);
    }
  });
});
