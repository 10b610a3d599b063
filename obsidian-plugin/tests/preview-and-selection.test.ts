import { readFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { MarkdownView, TFile, type Modal } from "./stubs/obsidian";

import { FakeLlm, VAULTS, cleanup, copyVault, loadPlugin, nextModal, noticeTexts, runCommand, waitForNotice } from "./support";

afterEach(cleanup);

const NOTE = "Projects/Alpha/Plan.md";
/** An answer with a link the note never names: the binary makes it inert before anyone sees it. */
const ANSWER = "### Plan\n\n- Pilot in May, see [the spec](https://evil.example/spec).\n- [ ] Book the rooms";

/** The plugin on a copy of the fixture, its LLM a fake answering `answer`, the plan note open in an editor. */
async function withOpenNote(answer = ANSWER) {
  const llm = new FakeLlm({ answer });
  const url = await llm.start();
  const vault = copyVault(VAULTS.fixture);
  const { plugin, app } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-test" });
  const leaf = app.workspace.getLeaf(true);
  await leaf.openFile(new TFile(NOTE));
  const view = leaf.view as MarkdownView;
  const read = () => readFileSync(path.join(vault, NOTE), "utf8");
  return { llm, plugin, app, view, read, before: read() };
}

/** A section of Obsidian's parse of a note: its type and its lines (0-based, inclusive). */
function section(type: string, start: number, end: number) {
  return { type, position: { start: { line: start, col: 0, offset: 0 }, end: { line: end, col: 0, offset: 0 } } };
}

/** The labels of a dialog's buttons, in order. */
function buttonsOf(modal: Modal): string[] {
  return [...modal.contentEl.querySelectorAll("button")].map((button) => button.textContent ?? "");
}

/** The preview's modal, once it shows: the summary it shows, and a click on one of its buttons. */
async function previewShown(): Promise<{ modal: Modal; shown: string; click: (label: string) => void }> {
  const modal = await nextModal();
  const shown = modal.contentEl.querySelector("pre")?.textContent ?? "";
  const click = (label: string) => [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === label)?.click();
  return { modal, shown, click };
}

describe("Summarize this note (preview)", () => {
  it("shows the binary's summary, writes nothing, and Insert has the binary write exactly it without a second model call", async () => {
    const { llm, plugin, read, before } = await withOpenNote();
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { modal, shown, click } = await previewShown();
    // The preview's requests: one, two when the fact check sent the answer back (docs/fact-check.md).
    const paid = llm.requests.length;
    expect(paid).toBeGreaterThanOrEqual(1);
    expect(modal.titleEl.textContent).toBe("Summary of Plan");
    expect(buttonsOf(modal)).toEqual(["Insert", "Replace", "Copy"]);
    expect(shown).toContain("- Pilot in May, see the spec");
    expect(shown).not.toContain("](https://evil.example");
    expect(read()).toBe(before);

    click("Insert");
    await waitForNotice((text) => text === `Summary written to the summary section of ${NOTE}.`);
    const after = read();
    expect(after.startsWith(before)).toBe(true);
    expect(after).toContain(`\n\n${shown}\n`);
    expect(llm.requests).toHaveLength(paid);
  });

  it("Replace has the binary replace the note's summary section with the one shown", async () => {
    const { llm, plugin, read } = await withOpenNote();
    await plugin.summarize(new TFile(NOTE) as never);
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { modal, shown, click } = await previewShown();
    const paid = llm.requests.length;
    // The note has a summary: Insert would add a second one, so Replace comes first.
    expect(buttonsOf(modal)).toEqual(["Replace", "Add another", "Copy"]);
    click("Replace");
    await waitForNotice((text) => text === `Summary written to the summary section of ${NOTE}.` && noticeTexts().length === 2);
    const after = read();
    expect(after.match(/## Summary/g)).toHaveLength(1);
    expect(after.trimEnd().endsWith(shown)).toBe(true);
    expect(llm.requests).toHaveLength(paid);
  });

  it("text typed while the preview shows is saved and kept: the binary refuses the outdated preview", async () => {
    const { plugin, view, read, before } = await withOpenNote();
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { click } = await previewShown();
    view.unsaved = `${before}\nA line typed while the preview was open.\n`;
    click("Insert");
    const text = await waitForNotice((t) => t.includes("changed since its preview"));
    expect(text).toContain("nothing was written");
    expect(read()).toBe(`${before}\nA line typed while the preview was open.\n`);
  });

  it("with the summary property as the destination, shows and writes the abstract", async () => {
    const llm = new FakeLlm({ answer: "### Plan\n\n- Pilot in May.\n\n<abstract>The team pilots the app in May.</abstract>" });
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-test", into: "property" });
    app.workspace.setActiveFile(new TFile(NOTE));
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { shown, click } = await previewShown();
    const paid = llm.requests.length;
    expect(shown).toBe("The team pilots the app in May.");
    click("Insert");
    await waitForNotice((text) => text === `Summary written to the summary property of ${NOTE}.`);
    expect(readFileSync(path.join(vault, NOTE), "utf8")).toContain('\nsummary: "The team pilots the app in May."\n');
    expect(llm.requests).toHaveLength(paid);
  });

  it("into both: shows the section's summary and the property's abstract apart; Copy takes the section's summary alone", async () => {
    const llm = new FakeLlm({ answer: "### Plan\n\n- Pilot in May.\n\n<abstract>The team pilots the app in May.</abstract>" });
    const url = await llm.start();
    const { plugin, app } = await loadPlugin(copyVault(VAULTS.fixture), { engine: "llm", baseUrl: url, apiKey: "sk-test", into: "both" });
    app.workspace.setActiveFile(new TFile(NOTE));
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { shown, click } = await previewShown();
    expect(shown).toBe("### Plan\n\n- Pilot in May.\n\nIn the summary property: The team pilots the app in May.");
    click("Copy");
    await waitForNotice((text) => text === "Summary copied.");
    expect(await navigator.clipboard.readText()).toBe("### Plan\n\n- Pilot in May.");
  });

  it("Copy puts the summary shown on the clipboard and leaves the note", async () => {
    const { plugin, read, before } = await withOpenNote();
    expect(runCommand(plugin, "summarize-note-preview")).toBe(true);
    const { shown, click } = await previewShown();
    click("Copy");
    await waitForNotice((text) => text === "Summary copied.");
    expect(await navigator.clipboard.readText()).toBe(shown);
    expect(read()).toBe(before);
  });
});

describe("Summarize selection", () => {
  it("inserts the binary's callout below the selection's last line, in the editor, with only the selection's links", async () => {
    const answer = "- Offline first, per [the study](https://research.example/offline).\n- Pay [here](https://evil.example/pay).";
    const { llm, plugin, view, read, before } = await withOpenNote(answer);
    const editor = view.editor;
    editor.replaceRange("The study https://research.example/offline says technicians work without signal.\n", { line: 7, ch: 0 });
    const selected = editor.getLine(7);
    // A whole line, selected to the start of the next, as a triple click does.
    editor.setSelection({ line: 7, ch: 0 }, { line: 8, ch: 0 });
    const typed = editor.getValue();

    expect(runCommand(plugin, "summarize-selection")).toBe(true);
    await waitForNotice((text) => text === "Summary inserted below the selection.");

    expect(JSON.stringify(llm.requests[0]?.body)).toContain("technicians work without signal");
    const lines = editor.getValue().split("\n");
    expect(lines[7]).toBe(selected);
    expect(lines[8]).toBe("");
    expect(lines[9]).toBe("> [!summary]");
    const block = lines.slice(9, lines.indexOf("", 9));
    expect(block.every((line) => line.startsWith(">"))).toBe(true);
    expect(block.join("\n")).toContain("[the study](https://research.example/offline)");
    expect(block.join("\n")).not.toContain("](https://evil.example");
    expect(editor.getValue()).toBe(typed.replace(selected, `${selected}\n\n${block.join("\n")}\n`));
    // The plugin wrote nothing itself: the editor holds the summary until Obsidian saves it.
    expect(read()).toBe(before);
  });

  it("inside a table, the callout goes below the table (Obsidian's sections), not into it", async () => {
    const { plugin, view, app } = await withOpenNote("- The pilot starts in May.");
    // Plan.md's milestones table, lines 26 to 31, as Obsidian's parser reports it.
    app.metadataCache.caches.set(NOTE, { sections: [section("heading", 24, 24), section("table", 26, 31), section("paragraph", 33, 33)] });
    const editor = view.editor;
    const table = editor.getValue().split("\n").slice(26, 32);
    editor.setSelection({ line: 28, ch: 2 }, { line: 29, ch: 20 });

    expect(runCommand(plugin, "summarize-selection")).toBe(true);
    await waitForNotice((text) => text === "Summary inserted below the selection.");
    const lines = editor.getValue().split("\n");
    expect(lines.slice(26, 32)).toEqual(table);
    expect(lines.slice(32, 35)).toEqual(["", "> [!summary]", "> - The pilot starts in May."]);
  });

  it("in the frontmatter, is refused with a notice before any paid call: a callout there would break the YAML", async () => {
    const { llm, plugin, view, app } = await withOpenNote();
    app.metadataCache.caches.set(NOTE, { frontmatterPosition: section("yaml", 0, 5).position, sections: [section("yaml", 0, 5)] });
    const typed = view.editor.getValue();
    view.editor.setSelection({ line: 3, ch: 0 }, { line: 3, ch: 18 });

    expect(runCommand(plugin, "summarize-selection")).toBe(true);
    const text = await waitForNotice((t) => t.includes("frontmatter"));
    expect(text).toBe("The selection is in the note's properties (frontmatter), where a summary would break them; nothing was summarized.");
    expect(view.editor.getValue()).toBe(typed);
    expect(llm.requests).toHaveLength(0);
  });

  it("is offered only when something is selected", async () => {
    const { plugin } = await withOpenNote();
    expect(runCommand(plugin, "summarize-selection")).toBe(false);
  });
});
