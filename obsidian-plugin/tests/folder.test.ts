import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type VaultsumPlugin from "../src/main";
import { TFile } from "./stubs/obsidian";
import {
  FakeLlm,
  VAULTS,
  addLeftOutEntries,
  answerConfirm,
  cleanup,
  cliClosingLine,
  copyVault,
  loadPlugin,
  noticeTexts,
  runCommand,
  tempDir,
  vaultWithPictures,
  waitForNotice,
} from "./support";

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

/** Records the tools the plugin calls, passing every call through to the real binary. */
function recordCalls(plugin: VaultsumPlugin): string[] {
  const names: string[] = [];
  const call = plugin.callTool.bind(plugin);
  plugin.callTool = (name, args, options) => {
    names.push(args.dry_run ? `${name} (dry run)` : name);
    return call(name, args, options);
  };
  return names;
}

describe("bulk runs over a folder", () => {
  // Both backends: the binary over MCP, and the engine inside Obsidian (what a phone runs).
  for (const backend of ["binary", "app"] as const)
  it(`count first and do nothing until confirmed; fill in missing, then refresh only what is stale (${backend})`, async () => {
    const vault = copyVault(VAULTS.tasksDocs);
    const { plugin } = await loadPlugin(vault, { backend });
    const folder = "Getting Started";
    const expected = notesUnder(vault, folder);
    const n = expected.length;
    expect(n).toBeGreaterThan(5);
    const before = expected.map((note) => readFileSync(path.join(vault, note), "utf8"));

    // Declined: nothing written.
    const declined = plugin.runFolder(folder, "missing");
    expect(await answerConfirm(false)).toBe(
      `${folder}: ${n} notes to summarize\n${n} without a summary: summarize ${n} notes with the offline engine? Nothing leaves this computer and nothing is paid.`,
    );
    expect((await declined)?.kind).toBe("declined");
    expect(expected.map((note) => readFileSync(path.join(vault, note), "utf8"))).toEqual(before);

    // Each note the binary finishes is a progress report in the status bar, in order.
    const shown: string[] = [];
    const show = plugin.showProgress.bind(plugin);
    plugin.showProgress = (text) => (text && shown.push(text), show(text));
    const run = plugin.runFolder(folder, "missing");
    await answerConfirm(true);
    const done = await run;
    const counted = shown.map((text) => /^vaultsum (\d+)\/(\d+)/.exec(text)).filter((m) => m !== null);
    expect(counted.map((m) => Number(m[1]))).toEqual([...Array(n + 1).keys()]);
    expect(new Set(counted.map((m) => Number(m[2])))).toEqual(new Set([n]));
    expect(done).toMatchObject({ kind: "done", line: `${n} notes: ${n} summarized, offline` });
    expect(noticeTexts().at(-1)).toBe(`${folder}: ${n} notes: ${n} summarized, offline`);
    for (const note of expected) expect(readFileSync(path.join(vault, note), "utf8")).toContain("## Summary");
    // The closing line and every note as `vaultsum summarize-file FOLDER` has them on a copy.
    const byCli = copyVault(VAULTS.tasksDocs);
    expect(await cliClosingLine(plugin, byCli, folder)).toBe(done?.kind === "done" ? done.line : "");
    for (const note of expected) expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(byCli, note), "utf8"));

    // Nothing left to do: said, and no question asked.
    expect((await plugin.runFolder(folder, "missing"))?.kind).toBe("nothing");
    expect(noticeTexts().at(-1)).toBe(`${folder}: nothing to summarize (${n} notes).`);

    // One note edited: "refresh stale" counts it alone and replaces its summary only.
    const file = path.join(vault, expected[0]);
    writeFileSync(file, readFileSync(file, "utf8").replace(/^(#+ .*)$/m, "$1 (revised)"));
    const refresh = plugin.runFolder(folder, "stale");
    expect(await answerConfirm(true)).toContain("1 stale: summarize 1 note with the offline engine?");
    expect(await refresh).toMatchObject({ kind: "done", line: `${n} notes: 1 summarized, ${n - 1} skipped, offline` });
    expect(readFileSync(file, "utf8").match(/^## Summary$/gm)).toHaveLength(1);
  });

  it("one binary call at the configured concurrency, no status process per note; cancel stops it within one note", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const config = path.join(tempDir("vaultsum-config-"), "config.toml");
    // A fixed window (the fake on 127.0.0.1 would be treated as a local server, one at a time).
    writeFileSync(config, "[llm]\nlocal_server = false\n\n[summarize]\nconcurrency = 3\nadaptive = false\n");
    const vault = copyVault(VAULTS.tasksDocs);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "test-key", model: "fake-model", pricePerMillion: 0.9 });
    process.env.VAULTSUM_CONFIG = config;
    const calls = recordCalls(plugin);
    const folder = "Getting Started";
    const expected = notesUnder(vault, folder);
    const before = new Map(expected.map((note) => [note, readFileSync(path.join(vault, note), "utf8")]));

    const run = plugin.runFolder(folder, "missing_and_stale");
    const question = await answerConfirm(true);
    expect(question).toMatch(
      new RegExp(`${expected.length} without a summary: summarize ${expected.length} notes with fake-model\\? About [\\d,]+ prompt tokens .*, about \\$0\\.\\d\\d at \\$0\\.9 per million\\. At least one request a note, one more when the fact check sends its summary back \\(a short one: the summary, not the note\\)\\. Before the summaries, the model reads 24 pictures: one paid request each`),
    );
    // Three notes at the model at once: summarize.concurrency, not a number of the plugin's.
    const third = await llm.nthRequest(3);
    plugin.cancel();
    const outcome = await run;
    await third.abandoned;
    expect(outcome).toEqual({ kind: "cancelled", done: 0, total: expected.length });
    expect(noticeTexts().at(-1)).toBe(`${folder}: cancelled after 0 of ${expected.length} notes; the notes in progress were left as they were.`);
    llm.releaseAll();
    for (const note of expected) expect(readFileSync(path.join(vault, note), "utf8")).toBe(before.get(note));
    // The count, the run, then one question for the folder's states: never one per note.
    expect(calls).toEqual(["summarize_folder (dry run)", "summarize_folder", "summary_status"]);
  });

  it("the closing notice is the command line's closing line: an LLM run counts every request, a run that asked nothing says so", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const settings = { engine: "llm" as const, baseUrl: url, apiKey: "test-key", model: "fake-model" };
    const vault = copyVault(VAULTS.fixture);
    const twin = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, settings);

    const first = plugin.runFolder("Meetings", "missing");
    await answerConfirm(true);
    const line = (await first)?.kind === "done" ? noticeTexts().at(-1)?.slice("Meetings: ".length) : "";
    const asked = llm.requests.length;
    // A transcription is billed by the second of audio: a request, no tokens.
    const chats = llm.requests.filter((request) => !("transcription_form" in request.body)).length;
    expect(chats).toBeGreaterThanOrEqual(2);
    expect(line).toMatch(new RegExp(`^2 notes: 2 summarized; ${asked} requests, ${120 * chats} prompt \\+ ${30 * chats} completion tokens, \\d+ media calls?$`));
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe(line);
    expect(plugin.todaysUsage().requests).toBe(asked);
  });

  it.skipIf(process.platform === "win32")("a folder holding a symlink out of the vault and a FIFO: both left out, and the notice says how many, as the command line does", async () => {
    const vault = copyVault(VAULTS.fixture);
    const twin = copyVault(VAULTS.fixture);
    addLeftOutEntries(vault, "Meetings");
    addLeftOutEntries(twin, "Meetings");
    const { plugin } = await loadPlugin(vault);

    const first = plugin.runFolder("Meetings", "missing");
    await answerConfirm(true);
    expect(await first).toMatchObject({ kind: "done", line: "2 notes: 2 summarized, 2 left out, offline" });
    expect(await cliClosingLine(plugin, twin, "Meetings")).toBe("2 notes: 2 summarized, 2 left out, offline");
    // Nothing was written through the link: its target outside the vault keeps only its own text.
    expect(readFileSync(path.join(vault, "Meetings", "Link out.md"), "utf8")).not.toContain("## Summary");
  });

  it("a note at the vault's root (Obsidian names the root folder `/`): its folder commands run on the vault", async () => {
    const vault = copyVault(VAULTS.fixture);
    const twin = copyVault(VAULTS.fixture);
    for (const root of [vault, twin]) {
      writeFileSync(path.join(root, "Inbox.md"), "# Inbox\n\nThings to sort out this week: the budget, the vendor call, the plan.\n");
    }
    const { plugin, app } = await loadPlugin(vault);
    const file = app.vault.getAbstractFileByPath("Inbox.md");
    if (!(file instanceof TFile)) throw new Error("no Inbox.md");
    expect(file.parent?.path).toBe("/");
    app.workspace.setActiveFile(file);

    expect(runCommand(plugin, "fill-missing-folder")).toBe(true);
    const question = await answerConfirm(true);
    expect(question).toMatch(/^The vault: \d+ notes to summarize\n/);
    const notice = await waitForNotice((t) => t.startsWith("The vault: "));
    // The fixture's template has nothing to summarize: the command line says the same.
    expect(notice).toBe(`The vault: ${await cliClosingLine(plugin, twin, ".")}`);
    expect(readFileSync(path.join(vault, "Inbox.md"), "utf8")).toContain("## Summary");
  });

  it("one bulk run at a time", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "k" });
    const first = plugin.runFolder("Meetings", "missing");
    await answerConfirm(true);
    await llm.nthRequest(1);
    expect(await plugin.runFolder("Notes", "missing")).toBeUndefined();
    expect(noticeTexts().at(-1)).toBe("vaultsum is summarizing a folder already; cancel it first (click the status bar, or run “Cancel the running summary”).");
    llm.releaseAll();
    expect((await first)?.kind).toBe("done");
  });

  it("the LLM engine without a key: said before any count or question, in the plugin's words", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", apiKey: "" });
    expect(await plugin.runFolder("Meetings", "missing")).toEqual({
      kind: "failed",
      message: "No API key: set one in the vaultsum settings (API key), or choose the offline engine there.",
    });
    expect(noticeTexts().at(-1)).toBe("Meetings: No API key: set one in the vaultsum settings (API key), or choose the offline engine there.");
  });
});

describe("a folder's question counts the pictures and recordings its notes embed", () => {
  for (const backend of ["app", "binary"] as const) {
    it(`each one a paid request before the summaries; declined, nothing is sent (${backend})`, async () => {
      const llm = new FakeLlm();
      const url = await llm.start();
      const { vault } = vaultWithPictures(4);
      // A second note embeds the same boards: each is described once, so counted once.
      writeFileSync(path.join(vault, "Notes/Boards again.md"), "# Boards again\n\nThe same boards, for the retro.\n\n![[board 1.png]] ![[board 2.png]] ![[board 3.png]] ![[board 4.png]]\n");
      const { plugin } = await loadPlugin(vault, { backend, engine: "llm", baseUrl: url, apiKey: "sk-test-key-1234", model: "fake-model" });
      const run = plugin.runFolder("Notes", "missing");
      const question = await answerConfirm(false);
      // Boards (four pictures, one of them twice), Boards again (the same four) and the
      // cheatsheet (the fixture's whiteboard).
      expect(question).toContain("Before the summaries, the model reads 5 pictures: one paid request each");
      expect(await run).toMatchObject({ kind: "declined" });
      expect(llm.requests).toHaveLength(0);
    });
  }
});
