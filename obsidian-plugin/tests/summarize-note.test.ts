import { readFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { TFile } from "./stubs/obsidian";

import { VAULTS, cleanup, copyVault, loadPlugin, note as noteFile, noticeTexts, runCommand, waitForNotice } from "./support";

afterEach(cleanup);

describe("Summarize this note", () => {
  it("writes the summary into the note and the notice names it (offline engine, fixture)", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const note = "Meetings/2024-03-04 Weekly sync.md";
    const before = readFileSync(path.join(vault, note), "utf8");
    app.workspace.setActiveFile(new TFile(note));

    const outcome = await plugin.summarize(noteFile(note));

    expect(outcome.kind).toBe("written");
    const after = readFileSync(path.join(vault, note), "utf8");
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after).toContain("## Summary");
    expect(noticeTexts()).toContain(`Summary written to the summary section of ${note}.`);
  });

  it("runs from the command palette on the active note, saving its unsaved text first", async () => {
    const vault = copyVault(VAULTS.tasksDocs);
    const { plugin, app } = await loadPlugin(vault);
    const note = "Getting Started/Priority.md";
    const file = new TFile(note);
    const leaf = app.workspace.getLeaf(true);
    await leaf.openFile(file);
    const typed = `${readFileSync(path.join(vault, note), "utf8")}\nA line typed a moment ago, not saved yet.\n`;
    (leaf.view as unknown as { unsaved: string }).unsaved = typed;

    expect(runCommand(plugin, "summarize-note")).toBe(true);
    await waitForNotice((text) => text.includes(note));

    const after = readFileSync(path.join(vault, note), "utf8");
    expect(after).toContain("A line typed a moment ago, not saved yet.");
    expect(after.indexOf("A line typed a moment ago")).toBeLessThan(after.indexOf("## Summary"));
    expect(noticeTexts().at(-1)).toBe(`Summary written to the summary section of ${note}.`);
  });

  it("writes the summary property when asked to", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { into: "property" });
    const note = "Projects/Alpha/Plan.md";
    const outcome = await plugin.summarize(noteFile(note));
    expect(outcome.kind).toBe("written");
    const after = readFileSync(path.join(vault, note), "utf8");
    expect(after).toMatch(/^---\n(.|\n)*\nsummary: /);
    expect(after).not.toContain("## Summary");
  });

  it("the LLM engine without a key: the notice says what to do in the plugin's words, not the tool's JSON", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", apiKey: "" });
    const outcome = await plugin.summarize(noteFile("Projects/Alpha/Plan.md"));
    expect(outcome).toMatchObject({ kind: "failed", message: "No API key: set one in the vaultsum settings (API key), or choose the offline engine there." });
    expect(noticeTexts().at(-1)).toBe(outcome.message);
  });
});
