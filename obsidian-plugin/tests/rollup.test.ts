import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { makeRollup, rollupRequest } from "../src/commands/rollup";
import { VAULTS, cleanup, copyVault, loadPlugin, noticeTexts } from "./support";

afterEach(cleanup);

// Tuesday 5 March 2024, the fixture's week.
const TODAY = new Date(2024, 2, 5);

describe("rollups", () => {
  it("this week's notes: saved to the rollup folder and opened", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin, app } = await loadPlugin(vault);
    const asked: number[] = [];
    const outcome = await makeRollup(plugin, { kind: "this-week" }, async (count) => (asked.push(count), true), TODAY);

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
    const outcome = await makeRollup(plugin, { kind: "this-week" }, async () => true, TODAY);

    expect(outcome.kind).toBe("failed");
    expect(noticeTexts().at(-1)).toMatch(/^Rollup not made: .*refusing to write inside \.Reviews\//);
    expect(existsSync(path.join(vault, ".Reviews"))).toBe(false);
    expect(app.workspace.opened).toEqual([]);
  });

  it("over the limit: a preview with the count first; declined, nothing is written", async () => {
    const vault = copyVault(VAULTS.fixture);
    const { plugin } = await loadPlugin(vault, { rollupLimit: 1 });
    const previews: { count: number; preview: string }[] = [];
    const declined = await makeRollup(plugin, { kind: "this-week" }, async (count, preview) => (previews.push({ count, preview }), false), TODAY);
    expect(declined).toEqual({ kind: "declined", count: 2 });
    expect(previews).toHaveLength(1);
    expect(previews[0].preview).toMatch(/^2 notes selected/);
    expect(previews[0].preview).toContain("- [[Daily/2024-03-05]]");
    expect(existsSync(path.join(vault, "Reviews"))).toBe(false);
    expect(plugin.todaysUsage().requests).toBe(0);

    const accepted = await makeRollup(plugin, { kind: "this-week" }, async () => true, TODAY);
    expect(accepted).toEqual({ kind: "saved", path: "Reviews/Week of 2024-03-04.md" });
  });

  it("names each selection's note and dates in the person's calendar", () => {
    expect(rollupRequest({ kind: "last-week" }, "Reviews", TODAY)).toEqual({
      args: { from: "2024-02-26", to: "2024-03-03" },
      saveTo: "Reviews/Week of 2024-02-26.md",
    });
    expect(rollupRequest({ kind: "this-month" }, "Reviews/", new Date(2024, 1, 10))).toEqual({
      args: { from: "2024-02-01", to: "2024-02-29" },
      saveTo: "Reviews/Month 2024-02.md",
    });
    // A Sunday belongs to the week that began on the Monday before.
    expect(rollupRequest({ kind: "this-week" }, "", new Date(2024, 2, 10)).args).toEqual({ from: "2024-03-04", to: "2024-03-10" });
    expect(rollupRequest({ kind: "tag", tag: "#client/acme" }, "Reviews", TODAY)).toEqual({
      args: { tag: "client/acme" },
      saveTo: "Reviews/Tag client-acme 2024-03-05.md",
    });
  });
});
