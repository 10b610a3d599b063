import { afterEach, describe, expect, it } from "vitest";

import type { PluginSettingTab as StubTab } from "./stubs/obsidian";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

import { SECRET_IDS } from "../src/secrets";
import { FakeLlm, VAULTS, cleanup, copyVault, loadPlugin, note, noticeTexts, onCleanup, tempDir } from "./support";

afterEach(cleanup);

/** Resolves once `el`'s text passes `test` (a DOM mutation is the event). */
function textBecomes(el: Element, test: (text: string) => boolean): Promise<string> {
  if (test(el.textContent ?? "")) return Promise.resolve(el.textContent ?? "");
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (test(el.textContent ?? "")) {
        observer.disconnect();
        resolve(el.textContent ?? "");
      }
    });
    observer.observe(el, { childList: true, characterData: true, subtree: true });
  });
}

function settingNamed(tab: StubTab, name: string): HTMLElement {
  const setting = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find(
    (el) => el.querySelector(".setting-item-name")?.textContent === name,
  );
  if (!setting) throw new Error(`no setting ${name}`);
  return setting;
}

describe("the settings tab", () => {
  it("shows the binary found, its version and `vaultsum doctor`'s report", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();

    const found = settingNamed(tab, "Program found");
    expect(found.querySelector(".setting-item-description")?.textContent).toContain(plugin.settings.binaryPath);
    const version = found.querySelector(".vaultsum-version");
    if (!version) throw new Error("no version line");
    expect(await textBecomes(version, (t) => t !== "Version: …")).toMatch(/^Version: vaultsum \d+\.\d+\.\d+/);

    settingNamed(tab, "Check the setup").querySelector("button")?.click();
    const report = tab.containerEl.querySelector(".vaultsum-doctor");
    if (!report) throw new Error("no doctor report");
    const text = await textBecomes(report, (t) => t.includes("ready"));
    expect(text).toContain(`vault                      ${vault} (from --vault)`);
  });

  it("without the binary, says where it looked and how to install it", async () => {
    const vault = copyVault(VAULTS.fixture);
    const emptyPath = tempDir("vaultsum-path-");
    const savedPath = process.env.PATH;
    process.env.PATH = emptyPath;
    try {
      const { plugin } = await loadPlugin(vault, { binaryPath: "" });
      const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
      tab.display();
      const found = settingNamed(tab, "Program found");
      expect(found.querySelector(".setting-item-description")?.textContent).toContain("vaultsum was not found. Until then, notes are summarized by the engine inside Obsidian (offline, or by your provider's model with an API key). Install it once in a terminal. Linux: `uv tool install vaultsum`");
      expect(found.querySelector(".vaultsum-searched")?.textContent).toMatch(new RegExp(`^Searched: ${emptyPath}, `));
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("a changed setting is saved with the plugin's data", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    const select = settingNamed(tab, "Write the summary into").querySelector("select");
    if (!select) throw new Error("no dropdown");
    select.value = "property";
    select.dispatchEvent(new Event("change"));
    expect(plugin.settings.into).toBe("property");
    const stored = (plugin as unknown as { data: { settings: { into: string } } }).data;
    expect(stored.settings.into).toBe("property");
  });

  it("typing a 40-character model name restarts the binary and the watcher once, when the tab closes", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "k", model: "m", autoSummarize: true });
    const watcherOf = () => (plugin as unknown as { watcher?: ChildProcess }).watcher;
    expect((await plugin.summarize(note("Projects/Alpha/Plan.md"))).kind).toBe("written");
    const firstServer = plugin.mcpServer?.pid;
    const watchers = new Set([watcherOf()]);

    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    const input = settingNamed(tab, "Model").querySelector("input");
    if (!input) throw new Error("no model field");
    input.value = "";
    const model = "accounts/fireworks/models/a-model-of-40";
    expect(model.length).toBeGreaterThanOrEqual(38);
    for (const character of model) {
      input.value += character;
      input.dispatchEvent(new Event("input"));
      watchers.add(watcherOf());
    }
    // Saved as typed, applied not yet: the binary and the watcher run as they were.
    expect(plugin.settings.model).toBe(model);
    expect(watchers.size).toBe(1);
    expect(plugin.mcpServer?.pid).toBe(firstServer);

    tab.hide();
    watchers.add(watcherOf());
    expect(watchers.size).toBe(2);
    // Both watchers have exited (their state written) before the test's folders are removed.
    onCleanup(async () => {
      const running = [...watchers].filter((w): w is ChildProcess => w !== undefined && w.exitCode === null && w.signalCode === null);
      const exits = running.map((w) => once(w, "exit"));
      plugin.onunload();
      await Promise.all(exits);
    });
    expect((await plugin.summarize(note("Notes/Cycle A.md"))).kind).toBe("written");
    expect(plugin.mcpServer?.pid).not.toBe(firstServer);
    expect(llm.requests.at(-1)?.body.model).toBe(model);
  });

  it("a key in the secret storage is never overwritten by an older copy left in data.json", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-stale-copy" }, { secrets: { [SECRET_IDS.apiKey]: "sk-set-since" } });
    expect(app.secretStorage?.getSecret(SECRET_IDS.apiKey)).toBe("sk-set-since");
    expect(plugin.settings.apiKey).toBe("sk-set-since");
    await plugin.saveSettings();
    expect(JSON.stringify((plugin as unknown as { data: unknown }).data)).not.toContain("sk-stale-copy");
  });

  it("keys go to Obsidian's secret storage, never to data.json; a key an older version saved moves there", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-from-data-json" });
    const data = () => JSON.stringify((plugin as unknown as { data: unknown }).data);
    expect(data()).not.toContain("sk-from-data-json");
    expect(app.secretStorage?.getSecret(SECRET_IDS.apiKey)).toBe("sk-from-data-json");

    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    const setting = settingNamed(tab, "API key");
    expect(setting.querySelector(".setting-item-description")?.textContent).toContain("Kept in Obsidian's secret storage");
    const input = setting.querySelector("input");
    if (!input) throw new Error("no key field");
    input.value = "sk-typed-now";
    input.dispatchEvent(new Event("input"));
    await plugin.saveSettings();
    tab.hide();
    expect(data()).not.toContain("sk-typed-now");
    expect(app.secretStorage?.getSecret(SECRET_IDS.apiKey)).toBe("sk-typed-now");
    // The key still reaches the binary.
    expect((await plugin.summarize(note("Projects/Alpha/Plan.md"))).kind).toBe("written");
    expect(llm.requests.at(-1)?.authorization).toBe("Bearer sk-typed-now");
  });

  it("before Obsidian 1.11.4 (no secret storage), the setting says the key is kept in plain text", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { apiKey: "sk-plain" }, { secretStorage: false });
    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    expect(settingNamed(tab, "API key").querySelector(".setting-item-description")?.textContent).toBe(
      `Sent only to the provider's base URL. This Obsidian (before 1.11.4) has no secret storage: kept in plain text in ${plugin.app.vault.configDir}/plugins/vaultsum/data.json. Update Obsidian to keep it in the keychain.`,
    );
  });

  it("names the config file where the binary reads it, asked of the binary (a relative XDG_CONFIG_HOME is not a config folder)", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    // The binary (the `dirs` crate) ignores a relative XDG_CONFIG_HOME, as the XDG spec says; a copy of its rule in TypeScript did not.
    process.env.XDG_CONFIG_HOME = "relative-config";
    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    const desc = settingNamed(tab, "Folder rules").querySelector(".setting-item-description")!;
    const text = await textBecomes(desc, (t) => t.includes("config.toml"));
    expect(text).toBe(`Per-folder prompts and languages live in vaultsum's config file: ${process.env.HOME}/.config/vaultsum/config.toml`);
  });

  it("Open on a config file that does not exist yet says where to create it", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    const tab = (plugin as unknown as { settingTabs: StubTab[] }).settingTabs[0];
    tab.display();
    settingNamed(tab, "Folder rules").querySelector("button")?.click();
    const { waitForNotice } = await import("./support");
    const text = await waitForNotice((t) => t.startsWith("vaultsum has no config file yet"));
    expect(text).toContain(`create ${(await plugin.configFile()).path};`);
    expect(noticeTexts()).toHaveLength(1);
  });
});
