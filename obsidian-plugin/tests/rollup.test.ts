import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { makeRollup, selectionArguments, vaultFolder } from "../src/commands/rollup";
import { FakeLlm, VAULTS, cleanup, copyVault, loadPlugin, noticeTexts, tempDir } from "./support";

afterEach(cleanup);

// Tuesday 5 March 2024, the fixture's week.
const TODAY = new Date(2024, 2, 5);

describe("rollups", () => {
  it("this week's notes: saved to the rollup folder and opened", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const asked: number[] = [];
    const outcome = await makeRollup(plugin, { kind: "period", period: "this-week" }, async (count) => (asked.push(count), true), TODAY);

    const saved = "Reviews/Week of 2024-03-04.md";
    expect(outcome).toEqual({ kind: "saved", path: saved });
    expect(asked).toEqual([]);
    const text = readFileSync(path.join(vault, saved), "utf8");
    expect(text).toContain("### Sources");
    expect(text).toContain("[[Daily/2024-03-05]]");
    expect(text).toContain("[[Meetings/2024-03-04 Weekly sync]]");
    expect(text).not.toContain("2024-03-11 Vendor call");
    expect(app.workspace.opened).toEqual([saved]);
    expect(noticeTexts().at(-1)).toBe(`Rollup saved to ${saved}.`);
  });

  it("a hidden rollup folder: the binary's policy for new folders refuses it, the plugin says why and creates nothing", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault, { rollupFolder: ".Reviews" });
    const outcome = await makeRollup(plugin, { kind: "period", period: "this-week" }, async () => true, TODAY);

    expect(outcome.kind).toBe("failed");
    expect(noticeTexts().at(-1)).toMatch(/^Rollup not made: .*refusing to write inside \.Reviews\//);
    expect(existsSync(path.join(vault, ".Reviews"))).toBe(false);
    expect(app.workspace.opened).toEqual([]);
  });

  it("over the limit: a preview with the count first; declined, nothing is written", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { rollupLimit: 1 });
    const previews: { count: number; preview: string }[] = [];
    const declined = await makeRollup(plugin, { kind: "period", period: "this-week" }, async (count, preview) => (previews.push({ count, preview }), false), TODAY);
    expect(declined).toEqual({ kind: "declined", count: 2 });
    expect(previews).toHaveLength(1);
    expect(previews[0].preview).toMatch(/^2 notes selected/);
    expect(previews[0].preview).toContain("- [[Daily/2024-03-05]]");
    expect(existsSync(path.join(vault, "Reviews"))).toBe(false);
    expect(plugin.todaysUsage().requests).toBe(0);

    const accepted = await makeRollup(plugin, { kind: "period", period: "this-week" }, async () => true, TODAY);
    expect(accepted).toEqual({ kind: "saved", path: "Reviews/Week of 2024-03-04.md" });
  });

  it("with the LLM engine, under the limit, a rollup that pays the model more than once is asked first with the paid calls", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { engine: "llm", baseUrl: url, apiKey: "sk-test" });
    // A small model window (vaultsum's config file): the week's two notes go in parts, then merged.
    process.env.VAULTSUM_CONFIG = path.join(tempDir(), "config.toml");
    writeFileSync(process.env.VAULTSUM_CONFIG, "[llm]\ncontext_tokens = 2048\n");
    const previews: string[] = [];
    const declined = await makeRollup(plugin, { kind: "period", period: "this-week" }, async (_count, preview) => (previews.push(preview), false), TODAY);
    expect(declined).toEqual({ kind: "declined", count: 2 });
    expect(previews[0]).toMatch(/^2 notes selected \(0 with a current summary reused\); 3 paid calls at least \(llm engine\)/);
    // Nothing was paid for: no summary, and not the week's embedded image either (counted only).
    expect(llm.requests).toEqual([]);
    expect(existsSync(path.join(vault, "Reviews"))).toBe(false);
  });

  it("inside Obsidian with a model, a rollup whose notes embed a picture and a recording is asked first: three paid calls, not one", async () => {
    const llm = new FakeLlm();
    const url = await llm.start();
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { backend: "app", engine: "llm", baseUrl: url, apiKey: "sk-test" });
    expect(plugin.usesInAppEngine()).toBe(true);
    const previews: string[] = [];
    const declined = await makeRollup(plugin, { kind: "period", period: "this-week" }, async (_count, preview) => (previews.push(preview), false), TODAY);
    expect(declined).toEqual({ kind: "declined", count: 2 });
    expect(previews[0]).toMatch(/^2 notes selected \(0 with a current summary reused\); 1 paid call at least \(llm engine\), and 2 embedded pictures or recordings to describe/);
    // The count paid for nothing, the picture and the recording included.
    expect(llm.requests).toEqual([]);
    expect(existsSync(path.join(vault, "Reviews"))).toBe(false);
  });

  it("the binary resolves the period from the person's local date; the note is named by its first day", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault);
    // Sunday 10 March 2024 belongs to the week that began on Monday 4 March: last week is 26 Feb.
    const counted = await plugin.callTool("summarize_notes", { ...selectionArguments({ kind: "period", period: "last-week" }, new Date(2024, 2, 10)), dry_run: true });
    expect([counted.details.from, counted.details.to]).toEqual(["2024-02-26", "2024-03-03"]);
    const month = await makeRollup(plugin, { kind: "period", period: "this-month" }, async () => true, TODAY);
    expect(month).toEqual({ kind: "saved", path: "Reviews/Month 2024-03.md" });
  });

  it("a rollup folder written `/Reviews/` is the vault's Reviews folder: saved there and opened", async () => {
    expect(vaultFolder("/Reviews/")).toBe("Reviews");
    expect(vaultFolder("/")).toBe("");
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault, { rollupFolder: "/Reviews" });
    const outcome = await makeRollup(plugin, { kind: "period", period: "this-week" }, async () => true, TODAY);
    expect(outcome).toEqual({ kind: "saved", path: "Reviews/Week of 2024-03-04.md" });
    expect(existsSync(path.join(vault, "Reviews/Week of 2024-03-04.md"))).toBe(true);
    expect(app.workspace.opened).toEqual(["Reviews/Week of 2024-03-04.md"]);
  });
});
