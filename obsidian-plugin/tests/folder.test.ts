import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { FolderEvent } from "../src/commands/summarize-folder";
import { summarizeFolder } from "../src/commands/summarize-folder";
import { FakeLlm, VAULTS, addLeftOutEntries, cleanup, cliClosingLine, copyVault, loadPlugin, noticeTexts } from "./support";

afterEach(cleanup);

function notesUnder(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith(".md")) out.push(rel);
    }
  };
  walk(folder);
  return out;
}

describe("Summarize a folder", () => {
  it("reports progress in order and a final count; a second run skips what is up to date; a refresh replaces only the stale", async () => {
    const vault = copyVault(VAULTS.tasksDocs);
    const { plugin } = await loadPlugin(vault);
    const folder = "Getting Started";
    const expected = notesUnder(vault, folder);
    expect(expected.length).toBeGreaterThan(5);

    const events: FolderEvent[] = [];
    const end = await summarizeFolder(plugin, { folder, refresh: false, stop: new AbortController().signal, onEvent: (e) => events.push(e) });

    expect(events[0]).toEqual({ kind: "start", total: expected.length });
    const notes = events.filter((e) => e.kind === "note");
    expect(notes.map((e) => e.done)).toEqual(expected.map((_, i) => i + 1));
    expect(new Set(notes.map((e) => e.path))).toEqual(new Set(expected));
    expect(events.at(-1)).toBe(end);
    expect(end.counts).toMatchObject({ notes: expected.length, summarized: expected.length, skipped: 0, failed: 0, notStarted: 0 });
    // The offline engine asked nothing: the line says so instead of counting zeros.
    expect(end.line).toBe(`${expected.length} notes: ${expected.length} summarized, offline`);
    for (const note of expected) expect(readFileSync(path.join(vault, note), "utf8")).toContain("## Summary");

    const again = await plugin.runFolder(folder, false);
    expect(again?.counts).toMatchObject({ summarized: 0, skipped: expected.length });
    expect(noticeTexts().at(-1)).toBe(`${folder}: ${expected.length} notes: 0 summarized, ${expected.length} skipped, offline`);

    // One note edited: a refresh replaces its stale summary and leaves the others.
    const edited = expected[0];
    const file = path.join(vault, edited);
    writeFileSync(file, readFileSync(file, "utf8").replace(/^(#+ .*)$/m, "$1 (revised)"));
    const refreshed = await plugin.runFolder(folder, true);
    expect(refreshed?.counts).toMatchObject({ summarized: 1, skipped: expected.length - 1, failed: 0 });
    expect(readFileSync(file, "utf8").match(/^## Summary$/gm)).toHaveLength(1);
  });

  it("cancelled mid-folder: the notes in flight finish whole, the rest are not started", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const vault = copyVault(VAULTS.tasksDocs);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "test-key", model: "fake-model" });
    const folder = "Getting Started";
    const expected = notesUnder(vault, folder);
    const before = new Map(expected.map((note) => [note, readFileSync(path.join(vault, note), "utf8")]));

    const stop = new AbortController();
    const run = summarizeFolder(plugin, { folder, refresh: false, stop: stop.signal });
    // The first note's request is at the model, so both notes the plugin runs at a time are
    // in flight (the second may wait in the binary's limiter): cancel now, then let the
    // model answer.
    await llm.nthRequest(1);
    stop.abort();
    llm.releaseAll();
    const end = await run;

    expect(end.counts).toMatchObject({ summarized: 2, failed: 0, notStarted: expected.length - 2, cancelled: true });
    // Every request the model answered is counted (an embedded image's description is one).
    const n = llm.requests.length;
    expect(end.line).toMatch(
      new RegExp(`^Cancelled: 2 of ${expected.length} notes summarized, ${expected.length - 2} not started; ${n} requests, ${120 * n} prompt \\+ ${30 * n} completion tokens, [01] media calls?$`),
    );
    let summarized = 0;
    for (const note of expected) {
      const now = readFileSync(path.join(vault, note), "utf8");
      const was = before.get(note) ?? "";
      if (now === was) continue;
      // A note that changed holds its whole text and then one whole summary.
      expect(now.startsWith(was.trimEnd())).toBe(true);
      expect(now).toContain("- [ ] Send the plan to the team");
      summarized += 1;
    }
    expect(summarized).toBe(2);
  });

  it("the closing notice is the command line's closing line: an LLM run counts every request, a run that asked nothing says so", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const settings = { engine: "llm" as const, baseUrl: url, apiKey: "test-key", model: "fake-model" };
    const vault = copyVault(VAULTS.fixture);
    const twin = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, settings);

    const first = await plugin.runFolder("Meetings", false);
    const asked = llm.requests.length;
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(first?.line).toMatch(new RegExp(`^2 notes: 2 summarized; ${asked} requests, ${120 * asked} prompt \\+ ${30 * asked} completion tokens, \\d+ media calls?$`));
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe(first?.line);
    expect(noticeTexts().at(-1)).toBe(`Meetings: ${first?.line}`);

    // Every summary current: nothing is asked, and the line says that rather than zeros.
    const again = await plugin.runFolder("Meetings", false);
    expect(again?.line).toBe("2 notes: 0 summarized, 2 skipped; no requests");
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe(again?.line);
  });

  it.skipIf(process.platform === "win32")("a folder holding a symlink out of the vault and a FIFO: both left out, and the notice says how many, as the command line does", async () => {
    const vault = copyVault(VAULTS.fixture);
    const twin = copyVault(VAULTS.fixture);
    addLeftOutEntries(vault, "Meetings");
    addLeftOutEntries(twin, "Meetings");
    const { plugin } = await loadPlugin(vault);

    const first = await plugin.runFolder("Meetings", false);
    expect(first?.counts).toMatchObject({ notes: 2, summarized: 2, leftOut: 2 });
    expect(first?.line).toBe("2 notes: 2 summarized, 2 left out, offline");
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe(first?.line);
    expect(noticeTexts().at(-1)).toBe("Meetings: 2 notes: 2 summarized, 2 left out, offline");
    // Nothing was written through the link: its target outside the vault keeps only its own text.
    expect(readFileSync(path.join(vault, "Meetings", "Link out.md"), "utf8")).not.toContain("## Summary");

    const again = await plugin.runFolder("Meetings", false);
    expect(again?.line).toBe("2 notes: 0 summarized, 2 skipped, 2 left out, offline");
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe(again?.line);
  });
});
