import { afterEach, describe, expect, it } from "vitest";

import type { PluginSettingTab as StubTab } from "./stubs/obsidian";
import { VAULTS, cleanup, copyVault, loadPlugin, tempDir } from "./support";

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
      expect(found.querySelector(".setting-item-description")?.textContent).toContain("vaultsum was not found. Install vaultsum with `uv tool install vaultsum`");
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
});
