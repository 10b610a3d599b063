import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { locateBinary, searchFolders, type Machine, type SystemName } from "../src/binary/locate";
import { binaryEnvironment, DEFAULT_SETTINGS } from "../src/settings";
import { FakeLlm, VAULTS, answerConfirm, cleanup, copyVault, loadPlugin, note, noticeTexts, tempDir, waitForNotice } from "./support";

afterEach(cleanup);

describe("finding the binary", () => {
  it("set to use it but without it, the notice names the folders searched and how to install it", async () => {
    const vault = copyVault(VAULTS.fixture);
    const emptyPath = tempDir("vaultsum-path-");
    const savedPath = process.env.PATH;
    process.env.PATH = emptyPath;
    try {
      // (With the default `auto`, the engine inside Obsidian summarizes instead: in-app.test.ts.)
      const { plugin } = await loadPlugin(vault, { binaryPath: "", backend: "binary" });
      const outcome = await plugin.summarize(note("Projects/Alpha/Plan.md"));
      expect(outcome.kind).toBe("failed");
      const text = noticeTexts().at(-1) ?? "";
      const home = process.env.HOME ?? "";
      expect(text).toContain("vaultsum was not found. Searched: ");
      for (const folder of [emptyPath, path.join(home, ".cargo", "bin"), path.join(home, ".local", "bin"), "/opt/homebrew/bin", "/usr/local/bin"]) {
        expect(text).toContain(folder);
      }
      expect(text).toContain("Install it once in a terminal. Linux: `uv tool install vaultsum` (or `pipx install vaultsum`, `cargo install vaultsum`).");
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("looks where installers put it, on Windows too, and never runs anything from the network (uvx)", () => {
    const files = new Set<string>();
    const machine = (platform: SystemName, env: Record<string, string>, home: string): Machine => ({
      platform,
      env,
      home,
      isFile: (file) => files.has(file),
    });
    const mac = machine("darwin", { PATH: "/usr/bin:/bin" }, "/Users/ada");
    expect(searchFolders(mac)).toEqual(["/usr/bin", "/bin", "/Users/ada/.cargo/bin", "/Users/ada/.local/bin", "/opt/homebrew/bin", "/usr/local/bin"]);
    // uvx would fetch and run whatever PyPI serves now: found, it is not used.
    files.add("/opt/homebrew/bin/uvx");
    expect(locateBinary("", mac)).toMatchObject({ found: false, reason: "vaultsum was not found." });
    files.add("/Users/ada/.cargo/bin/vaultsum");
    expect(locateBinary("", mac)).toMatchObject({ found: true, launcher: { command: "/Users/ada/.cargo/bin/vaultsum", prefix: [] } });

    const windows = machine("win32", { Path: "C:\\Windows", LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local" }, "C:\\Users\\ada");
    files.add("C:\\Users\\ada\\.cargo\\bin\\vaultsum.exe");
    expect(searchFolders(windows)).toContain("C:\\Users\\ada\\.cargo\\bin");
    expect(locateBinary("", windows)).toMatchObject({ found: true, launcher: { command: "C:\\Users\\ada\\.cargo\\bin\\vaultsum.exe" } });
    expect(locateBinary("/nowhere/vaultsum", mac)).toMatchObject({ found: false, reason: "The vaultsum path in the settings does not exist: /nowhere/vaultsum." });
  });
});

describe("the binary's life", () => {
  it("restarts once after a crash, with the reason shown, then reports an error", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    const first = await plugin.summarize(note("Projects/Alpha/Plan.md"));
    expect(first.kind).toBe("written");

    const pid = plugin.mcpServer?.pid;
    expect(pid).toBeTypeOf("number");
    process.kill(pid as number, "SIGKILL");
    expect(await waitForNotice((t) => t.startsWith("vaultsum stopped:"))).toBe(
      "vaultsum stopped: it was stopped by SIGKILL without a message. It will be started again on the next use.",
    );

    const second = await plugin.summarize(note("Notes/Cycle A.md"));
    expect(second.kind).toBe("written");
    const restarted = plugin.mcpServer?.pid;
    expect(restarted).toBeTypeOf("number");
    expect(restarted).not.toBe(pid);

    process.kill(restarted as number, "SIGKILL");
    expect(await waitForNotice((t) => t.includes("It will not be restarted."))).toMatch(/^vaultsum stopped: /);
    const third = await plugin.summarize(note("Notes/Cycle B.md"));
    expect(third).toMatchObject({ kind: "failed" });
    expect(third.message).toMatch(/^vaultsum stopped again and was not restarted: it was stopped by SIGKILL/);
    expect(noticeTexts().at(-1)).toBe(third.message);
  });
});

describe("settings as the binary's configuration", () => {
  it("the provider URL, model and API key reach the binary; the offline engine calls no provider", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, model: "test-model-7", apiKey: "sk-test-123", language: "Deutsch" });
    const outcome = await plugin.summarize(note("Projects/Alpha/Plan.md"));
    expect(outcome.kind).toBe("written");
    expect(llm.requests.length).toBeGreaterThan(0);
    for (const request of llm.requests) {
      expect(request.body.model).toBe("test-model-7");
      expect(request.authorization).toBe("Bearer sk-test-123");
    }
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain("Deutsch");
    expect(readFileSync(path.join(vault, "Projects/Alpha/Plan.md"), "utf8")).toContain("- [ ] Send the plan to the team");
    expect(plugin.todaysUsage().requests).toBe(llm.requests.length);

    plugin.settings.engine = "local";
    await plugin.saveSettings();
    await plugin.applySettings();
    const count = llm.requests.length;
    expect((await plugin.summarize(note("Notes/Cycle A.md"))).kind).toBe("written");
    expect(llm.requests.length).toBe(count);
  });

  it("a setting changed during a folder run applies after it, without cutting it short", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "k", model: "model-before" });
    const run = plugin.runFolder("Meetings", "missing");
    await answerConfirm(true);
    await llm.nthRequest(1);
    plugin.settings.model = "model-after";
    await plugin.saveSettings();
    await plugin.applySettings();
    llm.releaseAll();
    const end = await run;
    expect(end).toMatchObject({ kind: "done" });
    expect(end?.kind === "done" && end.line).toMatch(/^2 notes: 2 summarized; /);
    // The run kept the binary it started with (an embedded image goes to the vision model).
    const models = llm.requests.map((r) => r.body.model);
    expect(models).toContain("model-before");
    expect(models).not.toContain("model-after");

    expect((await plugin.summarize(note("Projects/Alpha/Plan.md"))).kind).toBe("written");
    expect(llm.requests.at(-1)?.body.model).toBe("model-after");
  });

  it("unset, `into` is left to vaultsum's config and its folder rules; set, it is the call's", async () => {
    const config = path.join(tempDir("vaultsum-config-"), "config.toml");
    writeFileSync(config, '[[summarize.rules]]\nfolder = "Projects"\nprompt = "default"\ninto = "property"\n');
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    // After loadPlugin isolated the user folders (its cleanup restores the environment).
    process.env.VAULTSUM_CONFIG = config;
    const plan = path.join(vault, "Projects/Alpha/Plan.md");
    expect((await plugin.summarize(note("Projects/Alpha/Plan.md"))).message).toBe("Summary written to the summary property of Projects/Alpha/Plan.md.");
    expect(readFileSync(plan, "utf8")).not.toContain("## Summary");

    plugin.settings.into = "section";
    expect((await plugin.summarize(note("Projects/Alpha/Plan.md"))).message).toBe("Summary written to the summary section of Projects/Alpha/Plan.md.");
    expect(readFileSync(plan, "utf8")).toContain("## Summary");
  });

  it("inherited provider variables never override the settings; the others pass through", () => {
    const env = binaryEnvironment(
      { ...DEFAULT_SETTINGS, engine: "local", apiKey: "", model: "m" },
      "/vault",
      { FIREWORKS_API_KEY: "from-shell", SUMMARIZE_MODEL: "shell-model", PATH: "/bin", VAULTSUM_CACHE_DIR: "/c" },
    );
    expect(env).toEqual({ PATH: "/bin", VAULTSUM_CACHE_DIR: "/c", VAULTSUM_VAULT: "/vault", VAULTSUM_ENGINE: "local", FIREWORKS_MODEL: "m" });
  });
});

describe("a note edited while its summary is made", () => {
  it("keeps the edit, says so and offers to summarize again", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "k" });
    const notePath = "Projects/Alpha/Plan.md";
    const file = path.join(vault, notePath);
    const before = readFileSync(file, "utf8");

    const call = plugin.summarize(note(notePath));
    // The model has the note: the person types now, then the model answers.
    await llm.nthRequest(1);
    const edited = `${before}\nA sentence typed while the summary was being made.\n`;
    writeFileSync(file, edited);
    llm.releaseAll();
    const outcome = await call;

    const after = readFileSync(file, "utf8");
    expect(after.startsWith(edited.trimEnd())).toBe(true);
    expect(outcome.kind).toBe("changed-meanwhile");
    expect(outcome.message).toContain(`${notePath} changed while its summary was being made`);
    const { notices } = await import("./stubs/obsidian");
    const shown = notices.at(-1);
    expect(shown?.text.startsWith(outcome.message)).toBe(true);
    expect(shown?.buttons().map((b) => b.textContent)).toEqual(["Summarize again"]);
  });
});

describe("cancelling a summary", () => {
  it("sends the MCP cancellation: the binary stops the call and the note stays as it was", async () => {
    const llm = new FakeLlm({ hold: true });
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "k" });
    const notePath = "Projects/Alpha/Plan.md";
    const file = path.join(vault, notePath);
    const before = readFileSync(file, "utf8");

    const call = plugin.summarize(note(notePath));
    const request = await llm.nthRequest(1);
    plugin.cancel();
    const outcome = await call;
    // The binary got the cancellation and dropped the call: its request to the model is gone.
    await request.abandoned;
    expect(outcome).toEqual({ kind: "cancelled", path: notePath, message: `Summary of ${notePath} cancelled; the note is unchanged.` });

    // The model answers after all; the binary dropped the call, so nothing is written, which a
    // later call through the same server (answered after it) shows.
    llm.releaseAll();
    expect((await plugin.summarize(note("Notes/Cycle A.md"))).kind).toBe("written");
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});
