// What every test needs: the real binary, a temporary copy of a real vault, the plugin loaded
// on it through the `obsidian` stub, and (for LLM cases) a fake OpenAI-compatible server that
// speaks the real wire format over real HTTP on 127.0.0.1.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { EventEmitter, once } from "node:events";

import type { TFile as ObsidianFile } from "obsidian";

import { App, modalEvents, noticeEvents, notices, openModals, Plugin as StubPlugin, TFile, type Modal, type Notice } from "./stubs/obsidian";

import { runCli } from "../src/binary/cli";
import VaultsumPlugin from "../src/main";
import { binaryEnvironment, type VaultsumSettings } from "../src/settings";

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, "..", "..");

/** The binary under test: VAULTSUM_BIN, else the workspace's debug build. */
export const BINARY = process.env.VAULTSUM_BIN ?? path.join(repo, "target", "debug", process.platform === "win32" ? "vaultsum.exe" : "vaultsum");

if (!existsSync(BINARY)) {
  throw new Error(`no vaultsum binary at ${BINARY}: run \`cargo build\` first, or set VAULTSUM_BIN`);
}

/** The repository's vaults a test can copy. */
export const VAULTS = {
  fixture: path.join(repo, "vault-fixture"),
  tasksDocs: path.join(repo, "tests", "data", "obsidian-tasks-docs"),
};

const cleanups: (() => void | Promise<void>)[] = [];

/** Runs everything registered with `onCleanup`, newest first (call it in afterEach). */
export async function cleanup(): Promise<void> {
  while (cleanups.length) await cleanups.pop()?.();
  notices.length = 0;
  openModals.length = 0;
}

export function onCleanup(run: () => void | Promise<void>): void {
  cleanups.push(run);
}

/** A temporary folder removed at cleanup. */
export function tempDir(prefix = "vaultsum-plugin-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temporary copy of one of the repository's vaults. */
export function copyVault(source: string): string {
  const vault = path.join(tempDir(), "vault");
  cpSync(source, vault, { recursive: true });
  return vault;
}

/**
 * The binary's per-user folders (config, cache, state) moved into a temporary folder, so no
 * test reads the developer's config or shares a cache with another test.
 */
export function isolateUserFolders(): void {
  const home = tempDir("vaultsum-home-");
  const saved = { ...process.env };
  Object.assign(process.env, {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    XDG_STATE_HOME: path.join(home, "state"),
    VAULTSUM_CACHE_DIR: path.join(home, "cache", "vaultsum"),
  });
  delete process.env.VAULTSUM_CONFIG;
  onCleanup(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });
}

/**
 * Adds to `folder` of `vault` two entries the binary's scans leave out (unix only): a note that
 * is a symlink to a file outside the vault, and a FIFO named like a note.
 */
export function addLeftOutEntries(vault: string, folder: string): void {
  const outside = path.join(tempDir("vaultsum-outside-"), "Elsewhere.md");
  writeFileSync(outside, "# Elsewhere\n\nA note of another folder, not of the vault.\n");
  symlinkSync(outside, path.join(vault, folder, "Link out.md"));
  execFileSync("mkfifo", [path.join(vault, folder, "Pipe.md")]);
}

/**
 * The closing line of `vaultsum summarize-file FOLDER` on `vault`, without its `vaultsum: `: the
 * command line run with the environment the plugin gives the binary (its settings), but with a
 * cache of its own, so nothing the plugin's calls cached spares it a request.
 */
export async function cliClosingLine(plugin: VaultsumPlugin, vault: string, folder: string): Promise<string> {
  const env = { ...binaryEnvironment(plugin.settings, vault, process.env), VAULTSUM_CACHE_DIR: tempDir("vaultsum-cli-cache-") };
  const output = await runCli({ command: BINARY, prefix: [], foundBy: "setting" }, ["--vault", vault, "summarize-file", folder], env, vault);
  const last = output.stderr.trimEnd().split("\n").at(-1) ?? "";
  // Exit 1 when a note failed (the closing line still says it).
  if ((output.code !== 0 && output.code !== 1) || !last.startsWith("vaultsum: ")) {
    throw new Error(`vaultsum summarize-file ${folder} exited ${output.code}:\n${output.stderr}`);
  }
  return last.slice("vaultsum: ".length);
}

/** A copy of the fixture vault with a note embedding `images` distinct pictures (and the fixture's recording when asked). */
export function vaultWithPictures(images: number, recording = false): { vault: string; note: string } {
  const vault = copyVault(VAULTS.fixture);
  const picture = readFileSync(path.join(vault, "Attachments/whiteboard.png"));
  const embeds: string[] = [];
  for (let i = 1; i <= images; i++) {
    writeFileSync(path.join(vault, `Attachments/board ${i}.png`), Buffer.concat([picture, Buffer.from([i])]));
    embeds.push(`![[board ${i}.png]]`);
  }
  if (recording) embeds.push("![[standup-voice-memo.wav]]");
  const note = "Notes/Boards.md";
  // One picture embedded twice is one request, counted once.
  writeFileSync(path.join(vault, note), `# Boards\n\nThe boards of the planning day, photographed.\n\n${embeds.join("\n\n")}\n\n![[board 1.png]]\n`);
  return { vault, note };
}

/** The plugin loaded on `vault` with these settings (the binary's path filled in). */
export async function loadPlugin(
  vault: string,
  settings: Partial<VaultsumSettings> = {},
  options: { secretStorage?: boolean; secrets?: Record<string, string> } = {},
): Promise<{ plugin: VaultsumPlugin; app: App }> {
  isolateUserFolders();
  const app = new App(vault, options);
  // Secrets the keychain holds already (set on another device, or in Obsidian's settings).
  for (const [id, secret] of Object.entries(options.secrets ?? {})) app.secretStorage?.setSecret(id, secret);
  const plugin = new VaultsumPlugin(app as never, { id: "vaultsum" } as never);
  (plugin as unknown as { data: unknown }).data = { settings: { binaryPath: BINARY, engine: "local", ...settings } };
  await plugin.onload();
  onCleanup(() => plugin.onunload());
  return { plugin, app };
}

/** Resolves with the first notice (shown already or to come) whose text passes `test`. */
export function waitForNotice(test: (text: string) => boolean): Promise<string> {
  const shown = notices.find((notice) => test(notice.text));
  if (shown) return Promise.resolve(shown.text);
  return new Promise((resolve) => {
    const listener = (notice: Notice) => {
      if (test(notice.text)) {
        noticeEvents.off("notice", listener);
        resolve(notice.text);
      }
    };
    noticeEvents.on("notice", listener);
  });
}

/** A note of the vault as the plugin's types see it. */
export function note(path: string): ObsidianFile {
  return new TFile(path) as unknown as ObsidianFile;
}

/** Runs a command as the palette does; false when it is not available now. */
export function runCommand(plugin: VaultsumPlugin, id: string): boolean {
  return (plugin as unknown as StubPlugin).runCommand(id);
}

/** Resolves with the next modal to open (or the one open now). */
export function nextModal(): Promise<Modal> {
  const open = openModals.at(-1);
  if (open) return Promise.resolve(open);
  return new Promise((resolve) => modalEvents.once("open", resolve));
}

/**
 * Answers the next confirmation: its text is returned, and its first button (yes) or its last
 * (Cancel) is clicked.
 */
export async function answerConfirm(yes: boolean): Promise<string> {
  const modal = await nextModal();
  const text = `${modal.titleEl.textContent ?? ""}\n${modal.contentEl.querySelector("pre")?.textContent ?? ""}`;
  const buttons = [...modal.contentEl.querySelectorAll("button")];
  (yes ? buttons[0] : buttons.at(-1))?.click();
  return text;
}

/** Answers the next dialog of choices by clicking `label`: its title and every button's label are returned. */
export async function answerChoice(label: string): Promise<{ title: string; buttons: string[] }> {
  const modal = await nextModal();
  const buttons = [...modal.contentEl.querySelectorAll("button")];
  const answer = { title: modal.titleEl.textContent ?? "", buttons: buttons.map((button) => button.textContent ?? "") };
  buttons.find((button) => button.textContent === label)?.click();
  return answer;
}

/** The notices shown so far, as text. */
export function noticeTexts(): string[] {
  return notices.map((notice) => notice.text);
}

// ----- A fake OpenAI-compatible server -------------------------------------------------------

export interface ChatRequest {
  body: Record<string, unknown>;
  authorization: string | undefined;
  /** Answers this request (it is held until then when the server holds answers). */
  release: () => void;
  /** Resolves when the client closed the connection before the answer (it gave up on it). */
  abandoned: Promise<void>;
}

/**
 * POST …/chat/completions answers a chat completion with `answer` (a structured summary) and a
 * `usage`; POST …/audio/transcriptions a plain transcript (the form recorded as
 * `transcription_form`, its boundary made canonical); anything else is 404 (the binary asks /props and /models for the context window and
 * takes no answer as "unknown"). With `hold`, each answer waits until the test releases it:
 * the test then does what must happen between the call and the write, as an event, not a sleep.
 */
export class FakeLlm extends EventEmitter {
  readonly requests: ChatRequest[] = [];
  private server: Server | undefined;
  url = "";

  constructor(
    private readonly options: {
      hold?: boolean;
      answer?: string;
      status?: number;
      rawBody?: string;
      /** Image requests refused before the rest are answered, with `refuseImagesStatus` (429 unless given). */
      refuseImages?: number;
      refuseImagesStatus?: number;
      /** Written JSON-escaped (`\u0073k…`) wherever the answer holds it, as a server may. */
      escape?: string;
    } = {},
  ) {
    super();
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    const address = this.server.address();
    if (!address || typeof address === "string") throw new Error("no address");
    this.url = `http://127.0.0.1:${address.port}/v1`;
    onCleanup(() => this.stop());
    return this.url;
  }

  /** Resolves with the n-th request (1-based) once it has arrived. */
  async nthRequest(n: number): Promise<ChatRequest> {
    while (this.requests.length < n) await once(this, "request");
    return this.requests[n - 1];
  }

  /** Answers every held request and the ones to come at once. */
  releaseAll(): void {
    this.options.hold = false;
    for (const request of this.requests) request.release();
  }

  stop(): Promise<void> {
    this.releaseAll();
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (req.method === "POST" && req.url?.endsWith("/audio/transcriptions")) {
      // A recording: recorded as its form (the random boundary made canonical) and answered
      // with a plain transcript.
      const boundary = /boundary=([^;\s]+)/.exec(req.headers["content-type"] ?? "")?.[1] ?? "";
      const form = bytes.toString("latin1").split(boundary).join("BOUNDARY");
      this.requests.push({ body: { transcription_form: form }, authorization: req.headers.authorization, release: () => {}, abandoned: new Promise(() => {}) });
      this.emit("request", this.requests[this.requests.length - 1]);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ text: "We ship the release on Friday." }));
      return;
    }
    const raw = bytes.toString("utf8");
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let answered = false;
    const abandoned = new Promise<void>((resolve) =>
      res.on("close", () => {
        if (!answered) resolve();
      }),
    );
    const request: ChatRequest = {
      body: JSON.parse(raw) as Record<string, unknown>,
      authorization: req.headers.authorization,
      release,
      abandoned,
    };
    this.requests.push(request);
    this.emit("request", request);
    if (this.options.hold) await released;
    if (res.destroyed) return;
    answered = true;
    if (this.options.refuseImages && raw.includes('"image_url"')) {
      this.options.refuseImages -= 1;
      const status = this.options.refuseImagesStatus ?? 429;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: status === 429 ? "rate limited, try later" : "refused by the content policy", type: "invalid_request_error" } }));
      return;
    }
    if (this.options.status) {
      // A refusal as OpenAI sends one: the status and an error object.
      res.writeHead(this.options.status, { "content-type": "application/json" });
      res.end(this.options.rawBody ?? JSON.stringify({ error: { message: this.options.answer ?? "refused", type: "invalid_request_error" } }));
      return;
    }
    const content =
      this.options.answer ??
      "### Overview\n\nThe note plans the quarter's work and who does what.\n\n### Action Items\n\n- [ ] Send the plan to the team";
    const body = JSON.stringify({
      id: `chatcmpl-${this.requests.length}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: (request.body.model as string) ?? "fake",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    });
    res.writeHead(200, { "content-type": "application/json" });
    const escape = this.options.escape;
    const escaped = escape ? [...escape].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("") : "";
    res.end(escape ? body.split(escape).join(escaped) : body);
  }
}
