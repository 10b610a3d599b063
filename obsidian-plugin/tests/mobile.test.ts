// The plugin as a phone gets it: main.js built for release by esbuild.config.mjs, loaded where
// Obsidian mobile loads it, with no Node module at all (every `require` of one throws, as
// there) and Platform.isMobile. It must load, and summarize a note with the engine inside
// Obsidian, writing what the binary writes offline.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { runInThisContext } from "node:vm";

import { afterEach, describe, expect, it } from "vitest";

import { runCli } from "../src/binary/cli";

import * as obsidian from "./stubs/obsidian";
import { BINARY, VAULTS, answerConfirm, cleanup, copyVault, isolateUserFolders, onCleanup, tempDir } from "./support";

afterEach(cleanup);

interface LoadedPlugin {
  onload(): Promise<void>;
  onunload(): void;
  usesInAppEngine(): boolean;
  summarize(file: unknown): Promise<{ kind: string; message: string }>;
  runFolder(folder: string, only: string): Promise<{ kind: string; line?: string } | undefined>;
}

/** main.js as released, loaded with `require` answering only `obsidian` (a mobile one). */
function loadMobileBundle(): { Plugin: new (app: unknown, manifest: unknown) => LoadedPlugin; refused: string[] } {
  const bundle = path.join(tempDir("vaultsum-bundle-"), "main.js");
  execFileSync(process.execPath, ["esbuild.config.mjs", "production", bundle], { cwd: path.resolve(__dirname, ".."), stdio: "pipe" });
  const mobileObsidian = { ...obsidian, FileSystemAdapter: undefined, Platform: { isDesktop: false, isDesktopApp: false, isMobile: true, isMobileApp: true } };
  const refused: string[] = [];
  const mobileRequire = (id: string): unknown => {
    if (id === "obsidian") return mobileObsidian;
    refused.push(id);
    throw new Error(`Cannot find module '${id}' (Obsidian mobile has no Node modules)`);
  };
  const module = { exports: {} as { default?: unknown } };
  // Node's globals are not there either: Buffer, process, global, setImmediate.
  const run = runInThisContext(`(function (exports, require, module, Buffer, process, global, setImmediate, __dirname, __filename) {${readFileSync(bundle, "utf8")}\n})`, { filename: bundle }) as (...args: unknown[]) => void;
  run(module.exports, mobileRequire, module);
  return { Plugin: module.exports.default as new (app: unknown, manifest: unknown) => LoadedPlugin, refused };
}

describe("on a phone (no Node modules)", () => {
  it("loads, and summarizes a note with the engine inside Obsidian as the binary would", async () => {
    const { Plugin, refused } = loadMobileBundle();
    expect(refused).toEqual([]);
    isolateUserFolders();
    const vault = copyVault(VAULTS.fixture);
    const app = new obsidian.App(vault);
    const plugin = new Plugin(app, { id: "vaultsum" });
    // Settings a desktop saved (a program path, the LLM): on the phone the in-app engine runs.
    (plugin as unknown as { data: unknown }).data = { settings: { binaryPath: BINARY, backend: "binary", engine: "local" } };
    await plugin.onload();
    onCleanup(() => plugin.onunload());
    expect(refused).toEqual([]);
    expect(plugin.usesInAppEngine()).toBe(true);

    const note = "Meetings/2024-03-04 Weekly sync.md";
    const outcome = await plugin.summarize(new obsidian.TFile(note));

    expect(outcome).toMatchObject({ kind: "written" });
    expect(refused).toEqual([]);
    const other = copyVault(VAULTS.fixture);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
    delete env.FIREWORKS_API_KEY;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", note], env, other);
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(other, note), "utf8"));

    // A folder: counted, confirmed, then written as `vaultsum summarize-file FOLDER` writes it.
    const run = plugin.runFolder("Notes", "missing");
    expect(await answerConfirm(true)).toContain("summarize 4 notes with the offline engine? Nothing leaves this computer and nothing is paid.");
    expect(await run).toMatchObject({ kind: "done", line: "4 notes: 4 summarized, offline" });
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", "Notes"], env, other);
    for (const name of ["Notes/Cycle A.md", "Notes/Cycle B.md", "Notes/Café résumé.md", "Notes/Markdown cheatsheet.md"]) {
      expect(readFileSync(path.join(vault, name), "utf8")).toBe(readFileSync(path.join(other, name), "utf8"));
    }
    expect(refused).toEqual([]);
  });
});
