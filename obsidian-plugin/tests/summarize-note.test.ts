import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { TFile, type Plugin as StubPlugin } from "./stubs/obsidian";

import { FakeLlm, VAULTS, answerChoice, cleanup, copyVault, loadPlugin, note as noteFile, noticeTexts, runCommand, vaultWithPictures, waitForNotice } from "./support";

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

  it("over a summary already there, asks before any paid call: Cancel pays nothing, Replace keeps one section, Add another appends a second", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-test" });
    const note = "Projects/Alpha/Plan.md";
    const read = () => readFileSync(path.join(vault, note), "utf8");
    // No summary yet: nothing to ask.
    expect((await plugin.summarize(noteFile(note))).kind).toBe("written");
    const [summarized, paid] = [read(), llm.requests.length];

    const cancelled = plugin.summarize(noteFile(note));
    expect(await answerChoice("Cancel")).toEqual({ title: "Plan has a summary already", buttons: ["Replace", "Add another", "Cancel"] });
    expect((await cancelled).kind).toBe("declined");
    // Obsidian's command line has no dialog: it answers Cancel, and says so.
    const cli = (plugin as unknown as StubPlugin).cliHandlers.get("vaultsum:summarize");
    expect(await cli?.({ path: note })).toBe(`${note} has a summary already; nothing was done (Summarize this note again replaces it).`);
    expect(llm.requests).toHaveLength(paid);
    expect(read()).toBe(summarized);

    const replaced = plugin.summarize(noteFile(note));
    await answerChoice("Replace");
    expect((await replaced).kind).toBe("written");
    expect(read().match(/## Summary/g)).toHaveLength(1);

    const added = plugin.summarize(noteFile(note));
    await answerChoice("Add another");
    expect((await added).kind).toBe("written");
    expect(read().match(/## Summary/g)).toHaveLength(2);
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

describe("Summarize this note: pictures and recordings are counted and asked for first", () => {
  for (const backend of ["app", "binary"] as const) {
    it(`four pictures: the count is asked before anything is sent; Cancel sends nothing, Summarize reads them (${backend})`, async () => {
      const llm = new FakeLlm();
      const url = await llm.start();
      const { vault, note } = vaultWithPictures(4);
      const before = readFileSync(path.join(vault, note), "utf8");
      const { plugin } = await loadPlugin(vault, { backend, engine: "llm", baseUrl: url, apiKey: "sk-test-key-1234", model: "fake-model" });

      const declined = plugin.summarize(noteFile(note));
      const asked = await answerChoice("Cancel");
      expect(asked).toEqual({ title: "Boards: 4 pictures to read first", buttons: ["Summarize", "Cancel"] });
      expect(await declined).toMatchObject({ kind: "declined" });
      expect(llm.requests).toHaveLength(0);
      expect(readFileSync(path.join(vault, note), "utf8")).toBe(before);

      const summarized = plugin.summarize(noteFile(note));
      await answerChoice("Summarize");
      expect(await summarized).toMatchObject({ kind: "written" });
      const pictures = llm.requests.filter((request) => JSON.stringify(request.body).includes("image_url"));
      expect(pictures).toHaveLength(4);
    });
  }

  it("three pictures are read without a question; one recording is always asked for", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const few = vaultWithPictures(3);
    const { plugin } = await loadPlugin(few.vault, { backend: "app", engine: "llm", baseUrl: url, apiKey: "sk-test-key-1234" });
    expect(await plugin.summarize(noteFile(few.note))).toMatchObject({ kind: "written" });

    const withRecording = vaultWithPictures(1, true);
    const second = await loadPlugin(withRecording.vault, { backend: "app", engine: "llm", baseUrl: url, apiKey: "sk-test-key-1234" });
    const run = second.plugin.summarize(noteFile(withRecording.note));
    expect(await answerChoice("Cancel")).toEqual({ title: "Boards: 1 picture and 1 recording to read first", buttons: ["Summarize", "Cancel"] });
    expect(await run).toMatchObject({ kind: "declined" });
  });

  it("the offline engine reads no picture and asks nothing", async () => {
    const { vault, note } = vaultWithPictures(5, true);
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "local" });
    expect(await plugin.summarize(noteFile(note))).toMatchObject({ kind: "written" });
  });
});

describe("Summarize this note: what could not be read is said", () => {
  for (const backend of ["app", "binary"] as const) {
    it(`the notice names an embedded file that could not be read, and why (${backend})`, async () => {
      const vault = copyVault(VAULTS.fixture);
      const fixtures = path.resolve(__dirname, "../../crates/vaultsum-documents/tests/fixtures");
      writeFileSync(path.join(vault, "Attachments/scan.pdf"), readFileSync(path.join(fixtures, "truncated.pdf")));
      const note = "Notes/Scan.md";
      writeFileSync(path.join(vault, note), "# Scan\n\nThe contract scan from Tuesday, and what we agreed about it.\n\n![[scan.pdf]]\n");
      const { plugin } = await loadPlugin(vault, { backend, engine: "local" });
      const outcome = await plugin.summarize(noteFile(note));
      expect(outcome.kind).toBe("written");
      expect(outcome.message).toContain(
        "Made without an embedded file that could not be read: Attachments/scan.pdf (cannot read Attachments/scan.pdf as a document: not a readable PDF file: the file is truncated (no %%EOF) and no page has text).",
      );
    });
  }
});
