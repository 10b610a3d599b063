// The plugin as a phone gets it: main.js built for release by esbuild.config.mjs, loaded where
// Obsidian mobile loads it, with no Node module at all (every `require` of one throws, as
// there) and Platform.isMobile. It must load, and summarize a note with the engine inside
// Obsidian, writing what the binary writes offline.

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { runInThisContext } from "node:vm";

import { afterEach, describe, expect, it } from "vitest";

import { runCli } from "../src/binary/cli";

import * as obsidian from "./stubs/obsidian";
import { BINARY, FakeLlm, VAULTS, answerChoice, answerConfirm, cleanup, copyVault, isolateUserFolders, onCleanup, tempDir } from "./support";

afterEach(cleanup);

interface LoadedPlugin {
  onload(): Promise<void>;
  onunload(): void;
  usesInAppEngine(): boolean;
  cancel(): void;
  summarize(file: unknown): Promise<{ kind: string; message: string }>;
  runFolder(folder: string, only: string): Promise<{ kind: string; line?: string } | undefined>;
  rollup(selection: { kind: string; [key: string]: string }): Promise<{ kind: string; path?: string; message?: string }>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; details: Record<string, unknown> }>;
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

/** The release bundle as a phone loads it, on a copy of the fixture vault, the key in the secret storage and `llm` the provider. */
async function phone(llm: FakeLlm) {
  const { Plugin, refused } = loadMobileBundle();
  isolateUserFolders();
  const baseUrl = await llm.start();
  const vault = copyVault(VAULTS.fixture);
  const app = new obsidian.App(vault);
  app.secretStorage?.setSecret("vaultsum-api-key", "sk-phone-secret");
  const plugin = new Plugin(app, { id: "vaultsum" });
  (plugin as unknown as { data: unknown }).data = { settings: { engine: "llm", baseUrl } };
  await plugin.onload();
  onCleanup(() => plugin.onunload());
  return { plugin, vault, baseUrl, refused };
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

describe("on a phone, embedded documents", () => {
  it("reads a PDF (a page of it too), a DOCX, a CSV, a canvas and a broken PDF as the binary does, and writes the binary's bytes", async () => {
    const { Plugin, refused } = loadMobileBundle();
    isolateUserFolders();
    const fixtures = path.resolve(__dirname, "../../crates/vaultsum-documents/tests/fixtures");
    const note = "Documents/Reading list.md";
    const text = "# Reading list\n\nWhat the quarter's files say about revenue, the methods and the people.\n\n![[multipage.pdf]]\n\n![[multipage.pdf#page=2]]\n\n![[report.docx]]\n\n![[contacts.csv]]\n\n![[board.canvas]]\n\n![[truncated.pdf]]\n";
    const vaults = [copyVault(VAULTS.fixture), copyVault(VAULTS.fixture)];
    for (const vault of vaults) {
      mkdirSync(path.join(vault, "Documents/files"), { recursive: true });
      for (const name of ["multipage.pdf", "report.docx", "contacts.csv", "board.canvas", "truncated.pdf"]) writeFileSync(path.join(vault, "Documents/files", name), readFileSync(path.join(fixtures, name)));
      writeFileSync(path.join(vault, note), text);
    }
    const [vault, other] = vaults;
    const plugin = new Plugin(new obsidian.App(vault), { id: "vaultsum" });
    (plugin as unknown as { data: unknown }).data = { settings: { engine: "local" } };
    await plugin.onload();
    onCleanup(() => plugin.onunload());

    const shown = await plugin.callTool("summarize_file", { path: note, dry_run: true });
    expect(shown.isError).toBe(false);
    // The documents' own words are in the summary: read, not named.
    expect(String(shown.details.summary)).toMatch(/Quarterly report|Revenue grew|São Paulo|methods section/);
    expect(await plugin.summarize(new obsidian.TFile(note))).toMatchObject({ kind: "written" });
    expect(refused).toEqual([]);

    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir() };
    delete env.FIREWORKS_API_KEY;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "--engine", "local", note], env, other);
    const written = readFileSync(path.join(vault, note), "utf8");
    expect(written).toBe(readFileSync(path.join(other, note), "utf8"));
    expect(written.startsWith(text)).toBe(true);
  });
});

describe("on a phone, with an API key in the secret storage", () => {
  it("asks the model what the binary asks and writes what it writes: a note, then a folder counted and confirmed", async () => {
    const llm = new FakeLlm();
    const { plugin, vault, baseUrl, refused } = await phone(llm);
    expect(plugin.usesInAppEngine()).toBe(true);

    const note = "Archive/Plan.md";
    expect(await plugin.summarize(new obsidian.TFile(note))).toMatchObject({ kind: "written" });
    const byApp = llm.requests.splice(0);
    expect(byApp.length).toBeGreaterThan(0);
    for (const request of byApp) expect(request.authorization).toBe("Bearer sk-phone-secret");

    const other = copyVault(VAULTS.fixture);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir(), FIREWORKS_API_KEY: "sk-phone-secret", FIREWORKS_BASE_URL: baseUrl, VAULTSUM_CONFIG: "" };
    delete env.FIREWORKS_MODEL;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", note], env, other);
    const byBinary = llm.requests.splice(0);
    expect(byApp.map((r) => r.body)).toEqual(byBinary.map((r) => r.body));
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(readFileSync(path.join(other, note), "utf8"));
    expect(readFileSync(path.join(vault, note), "utf8")).toContain("The note plans the quarter's work");

    // A folder through the model: the count, the model and the estimate first; nothing sent before the yes.
    const run = plugin.runFolder("Notes", "missing");
    const question = await answerConfirm(true);
    expect(question).toContain("summarize 4 notes with accounts/fireworks/models/gpt-oss-120b?");
    expect(question).toContain("prompt tokens");
    expect(await run).toMatchObject({ kind: "done", line: "4 notes: 4 summarized" });
    const folderByApp = llm.requests.splice(0);
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "summarize-file", "Notes"], env, other);
    const folderByBinary = llm.requests.splice(0);
    // The cheatsheet embeds an image: described first by both, with the same request.
    const bodies = (requests: typeof folderByApp) => requests.map((r) => JSON.stringify(r.body)).sort();
    expect(bodies(folderByApp)).toEqual(bodies(folderByBinary));
    expect(folderByApp.filter((r) => JSON.stringify(r.body).includes("image_url"))).toHaveLength(1);
    for (const name of ["Notes/Cycle A.md", "Notes/Cycle B.md", "Notes/Café résumé.md", "Notes/Markdown cheatsheet.md"]) {
      expect(readFileSync(path.join(vault, name), "utf8")).toBe(readFileSync(path.join(other, name), "utf8"));
    }
    // The key stays in the secret storage: not in what the plugin saves.
    expect(JSON.stringify((plugin as unknown as { data: unknown }).data)).not.toContain("sk-phone-secret");
    expect(refused).toEqual([]);
  });

  it("says the server's refusal, the key masked, and leaves the note as it was", async () => {
    const llm = new FakeLlm({ status: 401, answer: "invalid key sk-phone-secret" });
    const { plugin, vault } = await phone(llm);
    const note = "Archive/Plan.md";
    const before = readFileSync(path.join(vault, note), "utf8");
    const outcome = await plugin.summarize(new obsidian.TFile(note));
    expect(outcome.kind).toBe("failed");
    expect(outcome.message).toContain("LLM request failed with HTTP 401: invalid key *** (check the API key in the vaultsum settings)");
    expect(outcome.message).not.toContain("sk-phone-secret");
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(before);
  });
});

describe("on a phone, what a model's server may do", () => {
  it("a cancel while the model answers writes nothing, even when the answer comes after", async () => {
    const llm = new FakeLlm({ hold: true });
    const { plugin, vault } = await phone(llm);
    const note = "Archive/Plan.md";
    const before = readFileSync(path.join(vault, note), "utf8");
    const summary = plugin.summarize(new obsidian.TFile(note));
    await llm.nthRequest(1);
    plugin.cancel();
    llm.releaseAll();
    expect((await summary).kind).toBe("cancelled");
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(before);
  });

  it("a key the server writes escaped in its error is masked once the engine has read it", async () => {
    const escaped = [..."sk-phone-secret"].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    const llm = new FakeLlm({ status: 401, rawBody: `{"error":{"message":"bad key ${escaped}"}}` });
    const { plugin } = await phone(llm);
    const outcome = await plugin.summarize(new obsidian.TFile("Archive/Plan.md"));
    expect(outcome.message).toContain("HTTP 401: bad key ***");
    expect(outcome.message).not.toContain("sk-phone-secret");
  });
});

/** Two notes embedding the same image, in a folder summarized (counted, agreed) by `plugin`. */
async function summarizeBoards(plugin: LoadedPlugin, vault: string): Promise<void> {
  mkdirSync(path.join(vault, "Boards"));
  for (const name of ["One", "Two"]) writeFileSync(path.join(vault, "Boards", `${name}.md`), `# ${name}\n\nThe board from Monday:\n\n![[whiteboard.png]]\n\nWe keep every record and show them in order.\n`);
  const run = plugin.runFolder("Boards", "missing");
  await answerConfirm(true);
  expect(await run).toMatchObject({ kind: "done", line: "2 notes: 2 summarized" });
}

describe("on a phone, embedded images and recordings", () => {
  it("an image a server refused for one note of a folder is asked for again for the next", async () => {
    const llm = new FakeLlm({ refuseImages: 1 });
    const { plugin, vault } = await phone(llm);
    await summarizeBoards(plugin, vault);
    const images = llm.requests.filter((r) => JSON.stringify(r.body).includes("image_url"));
    expect(images).toHaveLength(2);
    const summaries = llm.requests.filter((r) => JSON.stringify(r.body).includes("<note path="));
    expect(JSON.stringify(summaries[0].body)).toContain("[Embed failed: Attachments/whiteboard.png: cannot describe Attachments/whiteboard.png: LLM request failed with HTTP 429");
    expect(JSON.stringify(summaries[1].body)).not.toContain("Embed failed");
  });

  it("an image a server refused for good (a 400) is not asked again for the next note of a folder", async () => {
    const llm = new FakeLlm({ refuseImages: 1, refuseImagesStatus: 400 });
    const { plugin, vault } = await phone(llm);
    await summarizeBoards(plugin, vault);
    expect(llm.requests.filter((r) => JSON.stringify(r.body).includes("image_url"))).toHaveLength(1);
    const summaries = llm.requests.filter((r) => JSON.stringify(r.body).includes("<note path="));
    for (const summary of summaries) expect(JSON.stringify(summary.body)).toContain("LLM request failed with HTTP 400");
  });

  it("a recording over 25 MB is not uploaded from a phone, and the note is summarized without it", async () => {
    const llm = new FakeLlm();
    const { plugin, vault } = await phone(llm);
    writeFileSync(path.join(vault, "Attachments", "long-call.wav"), Buffer.alloc(26 * 1024 * 1024, 1));
    writeFileSync(path.join(vault, "Call.md"), "# Call\n\nThe whole call:\n\n![[long-call.wav]]\n\nWe agreed to ship on Friday.\n");
    const summarized = plugin.summarize(new obsidian.TFile("Call.md"));
    // A recording is always counted and asked for first.
    expect(await answerChoice("Summarize")).toEqual({ title: "Call: 1 recording to read first", buttons: ["Summarize", "Cancel"] });
    expect(await summarized).toMatchObject({ kind: "written" });
    expect(llm.requests.filter((r) => "transcription_form" in r.body)).toHaveLength(0);
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain("cannot transcribe Attachments/long-call.wav on a phone: 26 MB is over the 25 MB a phone uploads");
  });

  it.each([
    ["escaped by the server in its JSON", { answer: "### Overview\n\nThe board reads sk-phone-secret in red.", escape: "sk-phone-secret" }],
    ["written with Markdown escapes", { answer: "### Overview\n\nThe board reads sk\\-phone\\-**secret** in red." }],
  ])("an answer that holds the key, %s, is not written", async (_how, options) => {
    const llm = new FakeLlm(options);
    const { plugin, vault } = await phone(llm);
    const note = "Archive/Plan.md";
    const before = readFileSync(path.join(vault, note), "utf8");
    const outcome = await plugin.summarize(new obsidian.TFile(note));
    expect(outcome.kind).toBe("failed");
    expect(outcome.message).toContain("the model's answer holds your API key");
    expect(outcome.message).not.toContain("sk-phone-secret");
    expect(readFileSync(path.join(vault, note), "utf8")).toBe(before);
  });

  it("a rollup too large for one request is refused by its count, before any image is paid for", async () => {
    const llm = new FakeLlm();
    const { plugin, vault } = await phone(llm);
    mkdirSync(path.join(vault, "Long"));
    const prose = "The inspection team keeps every record and shows them in order on the site screen. ".repeat(900);
    for (const n of [1, 2, 3]) writeFileSync(path.join(vault, "Long", `Part ${n}.md`), `---\ntags: [longread]\n---\n# Part ${n}\n\n![[whiteboard.png]]\n\n${prose}\n`);
    const counted = await plugin.callTool("summarize_notes", { tag: "longread", dry_run: true });
    expect(counted.isError).toBe(true);
    expect(counted.text).toContain("more than the 200000 one request from inside Obsidian may send");
    const made = await plugin.callTool("summarize_notes", { tag: "longread", save_to: "Reviews/Long.md" });
    expect(made.isError).toBe(true);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("a rollup on a phone", () => {
  it("is made offline as the binary makes it, and saved into the rollup folder", async () => {
    const { Plugin, refused } = loadMobileBundle();
    isolateUserFolders();
    const vault = copyVault(VAULTS.fixture);
    const app = new obsidian.App(vault);
    const plugin = new Plugin(app, { id: "vaultsum" });
    (plugin as unknown as { data: unknown }).data = { settings: { engine: "local" } };
    await plugin.onload();
    onCleanup(() => plugin.onunload());
    const outcome = await plugin.rollup({ kind: "links-of", path: "Daily/2024-03-05.md", basename: "2024-03-05" });
    expect(outcome).toMatchObject({ kind: "saved" });
    const saved = String(outcome.path);
    expect(saved).toMatch(/^Reviews\/Links of 2024-03-05 \d{4}-\d{2}-\d{2}\.md$/);

    const other = copyVault(VAULTS.fixture);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir(), VAULTSUM_CONFIG: "" };
    delete env.FIREWORKS_API_KEY;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "rollup", "--engine", "offline", "--links-of", "Daily/2024-03-05.md", "--save-to", saved], env, other);
    const written = readFileSync(path.join(vault, saved), "utf8");
    expect(written).toBe(readFileSync(path.join(other, saved), "utf8"));
    expect(written).toContain("### Sources");

    // Again: the rollup vaultsum wrote is rewritten in place, what a person added around it kept.
    writeFileSync(path.join(vault, saved), `${written}My takeaway.\n`);
    writeFileSync(path.join(other, saved), `${written}My takeaway.\n`);
    expect(await plugin.rollup({ kind: "links-of", path: "Daily/2024-03-05.md", basename: "2024-03-05" })).toMatchObject({ kind: "saved", path: saved });
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "rollup", "--engine", "offline", "--links-of", "Daily/2024-03-05.md", "--save-to", saved], env, other);
    expect(readFileSync(path.join(vault, saved), "utf8")).toBe(readFileSync(path.join(other, saved), "utf8"));
    expect(readFileSync(path.join(vault, saved), "utf8")).toContain("My takeaway.");
    expect(refused).toEqual([]);
  });

  it("through the model, with the key from the secret storage: the binary's request and the binary's note", async () => {
    const llm = new FakeLlm();
    const { plugin, vault, baseUrl, refused } = await phone(llm);
    const outcome = await plugin.rollup({ kind: "tag", tag: "#project" });
    expect(outcome).toMatchObject({ kind: "saved" });
    const saved = String(outcome.path);
    const byApp = llm.requests.splice(0);
    expect(byApp.length).toBeGreaterThan(0);

    const other = copyVault(VAULTS.fixture);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), VAULTSUM_CACHE_DIR: tempDir(), FIREWORKS_API_KEY: "sk-phone-secret", FIREWORKS_BASE_URL: baseUrl, VAULTSUM_CONFIG: "" };
    delete env.FIREWORKS_MODEL;
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "rollup", "--tag", "project", "--save-to", saved], env, other);
    const byBinary = llm.requests.splice(0);
    // Images and recordings first (the binary sends a note's at once: compared as a set), then the rollup's requests in order.
    const isMedia = (r: (typeof byApp)[number]) => JSON.stringify(r.body).includes("image_url") || "transcription_form" in r.body;
    const inOrder = (requests: typeof byApp) => [...requests.filter(isMedia).map((r) => JSON.stringify(r.body)).sort(), ...requests.filter((r) => !isMedia(r)).map((r) => JSON.stringify(r.body))];
    expect(inOrder(byApp)).toEqual(inOrder(byBinary));
    expect(readFileSync(path.join(vault, saved), "utf8")).toBe(readFileSync(path.join(other, saved), "utf8"));
    expect(readFileSync(path.join(vault, saved), "utf8")).toContain("The note plans the quarter's work");
    expect(refused).toEqual([]);

    // A day whose meeting embeds a whiteboard photo and a voice memo: counted first (nothing
    // paid), then described and transcribed through the model as the binary does.
    const day = { from: "2024-03-04", to: "2024-03-04", save_to: "Reviews/Sync day.md" };
    const counted = await plugin.callTool("summarize_notes", { ...day, dry_run: true });
    expect(counted.details.media_to_read).toBe(2);
    expect(counted.text).toContain("2 embedded pictures or recordings to describe");
    expect(llm.requests).toHaveLength(0);
    const made = await plugin.callTool("summarize_notes", day);
    expect(made.isError).toBe(false);
    const dayByApp = llm.requests.splice(0);
    await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", other, "rollup", "--from", day.from, "--to", day.to, "--save-to", day.save_to], env, other);
    const dayByBinary = llm.requests.splice(0);
    expect(dayByApp.filter(isMedia)).toHaveLength(2);
    expect(inOrder(dayByApp)).toEqual(inOrder(dayByBinary));
    expect(readFileSync(path.join(vault, day.save_to), "utf8")).toBe(readFileSync(path.join(other, day.save_to), "utf8"));
    expect(refused).toEqual([]);
  });
});
