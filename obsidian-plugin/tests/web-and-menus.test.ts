import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { Menu, TFile, TFolder, type Plugin as StubPlugin } from "./stubs/obsidian";
import { VAULTS, cleanup, copyVault, loadPlugin, noticeTexts, onCleanup, runCommand } from "./support";

afterEach(cleanup);

/** A fake Kagi v0 API on 127.0.0.1: `POST /api/v0/summarize` answers Kagi's real envelope. */
async function fakeKagi(output: string): Promise<{ url: string; requests: { url: string; authorization?: string }[] }> {
  const requests: { url: string; authorization?: string }[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += String(chunk)));
    req.on("end", () => {
      if (req.method === "POST" && req.url?.startsWith("/api/v0/summarize")) {
        const body = JSON.parse(raw || "{}") as { url?: string };
        requests.push({ url: body.url ?? "", authorization: req.headers.authorization });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ meta: { id: "1b2c3d", node: "us-central1", ms: 412, api_balance: 9.876 }, data: { output, tokens: 42 } }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${address.port}/api/v0`, requests };
}

describe("Summarize a web page", () => {
  it("is offered only with a Kagi key; writes a new note from Kagi's summary and opens it", async () => {
    const kagi = await fakeKagi("The page explains how to keep notes in plain text.");
    process.env.KAGI_BASE_URL = kagi.url;
    onCleanup(() => void delete process.env.KAGI_BASE_URL);
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    expect(runCommand(plugin, "summarize-url")).toBe(false);

    plugin.settings.kagiKey = "kagi-test-key";
    const { summarizeUrl } = await import("../src/commands/summarize-url");
    const saved = await summarizeUrl(plugin, "https://example.com/plain-text-notes", new Date(2026, 10, 27));

    expect(saved, noticeTexts().join("\n")).toBe("Clippings/example.com plain-text-notes 2026-11-27.md");
    expect(kagi.requests).toEqual([{ url: "https://example.com/plain-text-notes", authorization: "Bot kagi-test-key" }]);
    const text = readFileSync(path.join(vault, saved ?? ""), "utf8");
    expect(text).toContain("The page explains how to keep notes in plain text.");
    expect(text).toContain("source: ");
    expect(app.workspace.opened).toEqual([saved]);
    expect(noticeTexts().at(-1)).toBe(`Web page summarized into ${saved}.`);
  });
});

describe("Obsidian's command line", () => {
  it("`obsidian vaultsum:summarize path=…` summarizes the note and answers with the notice's words", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    const handler = (plugin as unknown as StubPlugin).cliHandlers.get("vaultsum:summarize");
    if (!handler) throw new Error("no CLI handler");
    expect(await handler({ path: "Projects/Alpha/Plan.md" })).toBe("Summary written to the summary section of Projects/Alpha/Plan.md.");
    expect(readFileSync(path.join(vault, "Projects/Alpha/Plan.md"), "utf8")).toContain("## Summary");
    expect(await handler({ path: "Nowhere.md" })).toBe("No note at Nowhere.md.");
  });
});

describe("commands and menus", () => {
  it("command ids leave out the plugin id, none has a hotkey; folders and notes get their menu entries", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const commands = [...(plugin as unknown as StubPlugin).commands.values()];
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) {
      expect(command.id).not.toContain("vaultsum");
      expect(command.hotkeys).toBeUndefined();
    }

    const folderMenu = new Menu();
    app.workspace.trigger("file-menu", folderMenu, new TFolder("Meetings"));
    expect(folderMenu.items.map((i) => i.title)).toEqual(["Summarize the notes without a summary", "Refresh stale summaries in this folder"]);
    const noteMenu = new Menu();
    app.workspace.trigger("file-menu", noteMenu, new TFile("Meetings/2024-03-04 Weekly sync.md"));
    expect(noteMenu.items.map((i) => i.title)).toEqual(["Summarize this note", "Summarize with a focus…", "Summarize this note (preview)"]);

    // The folder entry runs a folder summary once confirmed; its closing notice has the counts and the cost.
    folderMenu.items[0].action?.();
    const { answerConfirm, waitForNotice } = await import("./support");
    await answerConfirm(true);
    expect(await waitForNotice((t) => t.startsWith("Meetings: "))).toBe(
      "Meetings: 2 notes: 2 summarized, offline",
    );
  });

  it("summarize new notes automatically: watch runs while the plugin is loaded and stops cleanly", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { autoSummarize: true });
    const watcher = (plugin as unknown as { watcher?: import("node:child_process").ChildProcess }).watcher;
    if (!watcher) throw new Error("no watcher started");
    // Ready once it says what it watches (logged after its signal handlers are in place).
    await new Promise<void>((resolve) => {
      let seen = "";
      watcher.stderr?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes("watch: watching")) resolve();
      });
    });
    expect(watcher.spawnargs.slice(1)).toEqual(["--vault", vault, "watch", "--max-per-hour", "60"]);
    const exited = once(watcher, "exit");
    plugin.onunload();
    const [code, signal] = (await exited) as [number | null, string | null];
    // SIGTERM to a service after a clean stop exits 0 (DESIGN §13).
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
