import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { SummaryStates } from "../src/states";
import { SummariesView } from "../src/views/summaries-view";
import { TFile } from "./stubs/obsidian";
import { VAULTS, addLeftOutEntries, cleanup, copyVault, loadPlugin, note } from "./support";

afterEach(cleanup);

/** Resolves once `states` says `path` is in `state` (checked at each update: an event). */
function stateBecomes(states: SummaryStates, path: string, state: string): Promise<void> {
  if (states.get(path) === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = states.onUpdate(() => {
      if (states.get(path) === state) {
        stop();
        resolve();
      }
    });
  });
}

function rows(view: SummariesView): { note: string; badge: string; buttons: string[] }[] {
  return [...view.contentEl.querySelectorAll(".vaultsum-row")].map((row) => ({
    note: row.querySelector(".vaultsum-note")?.textContent ?? "",
    badge: row.querySelector(".vaultsum-badge")?.textContent ?? "",
    buttons: [...row.querySelectorAll("button")].map((b) => b.textContent ?? ""),
  }));
}

describe("the Summaries side view", () => {
  it("shows each note's state; an edited note turns stale, its Refresh makes it current", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const plan = "Projects/Alpha/Plan.md";
    await plugin.summarize(note(plan));

    const leaf = await plugin.openView();
    const view = leaf?.view as unknown as SummariesView;
    expect(view).toBeInstanceOf(SummariesView);
    await stateBecomes(plugin.states, plan, "current");

    const all = rows(view);
    expect(all.find((r) => r.note === "Projects/Alpha/Plan")).toEqual({ note: "Projects/Alpha/Plan", badge: "Current", buttons: [] });
    expect(all.find((r) => r.note === "Notes/Cycle A")).toEqual({ note: "Notes/Cycle A", badge: "Missing", buttons: [] });
    // Not notes of the vault: the trash and the templates folder.
    expect(all.map((r) => r.note)).not.toContain(".trash/Discarded idea");
    expect(view.contentEl.querySelector(".vaultsum-cost")?.textContent).toBe("Today: 0 requests, 0 prompt + 0 completion tokens, 0 media calls");

    // The person edits the note's body; Obsidian saves and reports it.
    const file = path.join(vault, plan);
    writeFileSync(file, readFileSync(file, "utf8").replace(/^# (.*)$/m, "# $1, revised"));
    app.vault.trigger("modify", new TFile(plan));
    await stateBecomes(plugin.states, plan, "stale");
    expect(rows(view).find((r) => r.note === "Projects/Alpha/Plan")).toEqual({ note: "Projects/Alpha/Plan", badge: "Stale", buttons: ["Refresh"] });

    // Filtered to stale notes, it is the only one.
    const filter = view.contentEl.querySelector<HTMLSelectElement>(".vaultsum-state-filter");
    if (!filter) throw new Error("no state filter");
    filter.value = "stale";
    filter.dispatchEvent(new Event("change"));
    expect(rows(view).map((r) => r.note)).toEqual(["Projects/Alpha/Plan"]);

    const refresh = view.contentEl.querySelector<HTMLButtonElement>(".vaultsum-row .vaultsum-refresh");
    const current = stateBecomes(plugin.states, plan, "current");
    refresh?.click();
    await current;
    expect(rows(view)).toEqual([]);
    expect(view.contentEl.querySelector(".vaultsum-empty")?.textContent).toBe("No notes match.");
    const text = readFileSync(file, "utf8");
    expect(text.match(/^## Summary$/gm)).toHaveLength(1);
  });

  it("the status bar shows the active note's state", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const statusBar = (plugin as unknown as { statusBar: HTMLElement[] }).statusBar[0];
    const cycle = "Notes/Cycle B.md";
    const missing = stateBecomes(plugin.states, cycle, "missing");
    app.workspace.setActiveFile(new TFile(cycle));
    await missing;
    expect(statusBar.textContent).toBe("Summary: none");
    await plugin.summarize(note(cycle));
    await stateBecomes(plugin.states, cycle, "current");
    expect(statusBar.textContent).toBe("Summary: current");
  });

  it("the status bar follows an edit of the active note without the side view ever opened", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const statusBar = (plugin as unknown as { statusBar: HTMLElement[] }).statusBar[0];
    const plan = "Projects/Alpha/Plan.md";
    app.workspace.setActiveFile(new TFile(plan));
    await plugin.summarize(note(plan));
    await stateBecomes(plugin.states, plan, "current");
    expect(statusBar.textContent).toBe("Summary: current");
    expect(plugin.states.isLoaded).toBe(false);

    const file = path.join(vault, plan);
    writeFileSync(file, readFileSync(file, "utf8").replace(/^# (.*)$/m, "# $1, revised"));
    app.vault.trigger("modify", new TFile(plan));
    await stateBecomes(plugin.states, plan, "stale");
    expect(statusBar.textContent).toBe("Summary: stale");
  });

  it.skipIf(process.platform === "win32")("a vault holding a symlink out and a FIFO: the view lists every note and neither of those", async () => {
    const vault = copyVault(VAULTS.fixture);
    addLeftOutEntries(vault, "Meetings");
    const { plugin } = await loadPlugin(vault);

    // The binary's summary_status says what its scan left out, by reason.
    const status = await plugin.callTool("summary_status", { path: "" });
    expect(status.details.left_out).toEqual({ "not a regular file": 1, "outside the vault": 1 });
    const listing = { notes: await plugin.noteStates() };
    expect(listing.notes.map((n) => n.path)).toContain("Meetings/2024-03-04 Weekly sync.md");

    const leaf = await plugin.openView();
    const view = leaf?.view as unknown as SummariesView;
    await stateBecomes(plugin.states, "Meetings/2024-03-11 Vendor call.md", "missing");
    expect(plugin.states.error).toBeUndefined();
    const shown = rows(view).map((r) => r.note);
    expect(shown.filter((n) => n.startsWith("Meetings/"))).toEqual(["Meetings/2024-03-04 Weekly sync", "Meetings/2024-03-11 Vendor call"]);
    expect(shown).toHaveLength(listing.notes.length);
    expect(view.contentEl.querySelector(".vaultsum-error")).toBeNull();
  });
});
