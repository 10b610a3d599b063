// Opt-in figure (VAULTSUM_BENCH=1 npm run bench): time from "Summarize this note" to the
// summary on disk with the offline engine, cold (the first call starts `vaultsum mcp`) and
// warm (it runs already), beside the baseline of the same run: the command line's
// `vaultsum summarize-file NOTE`, one process per note. On the fixture and on the vendored
// obsidian-tasks-docs vault (not tuned on).

import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { BINARY, VAULTS, cleanup, copyVault, loadPlugin, note } from "./support";

afterEach(cleanup);

function notesOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      if (name.startsWith(".") || name === "Templates") continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith(".md")) out.push(rel);
    }
  };
  walk("");
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.skipIf(!process.env.VAULTSUM_BENCH)("latency of Summarize this note (offline engine)", () => {
  for (const [name, source] of Object.entries(VAULTS)) {
    it(`on ${name}`, async () => {
      const vault = copyVault(source);
      const notes = notesOf(vault).slice(0, 12);
      const { plugin } = await loadPlugin(vault);

      const coldStart = performance.now();
      expect((await plugin.summarize(note(notes[0]))).kind).toBe("written");
      const cold = performance.now() - coldStart;

      const warm: number[] = [];
      for (const notePath of notes.slice(1, 6)) {
        const start = performance.now();
        const outcome = await plugin.summarize(note(notePath));
        warm.push(performance.now() - start);
        expect(outcome.kind).toBe("written");
        expect(readFileSync(path.join(vault, notePath), "utf8")).toContain("## Summary");
      }

      // Baseline in the same run: one `vaultsum summarize-file` process per note.
      const cli: number[] = [];
      for (const notePath of notes.slice(6, 11)) {
        const start = performance.now();
        const run = spawnSync(BINARY, ["--vault", vault, "summarize-file", notePath], { env: { ...process.env, VAULTSUM_ENGINE: "local" } });
        cli.push(performance.now() - start);
        expect(run.status, String(run.stderr)).toBe(0);
      }
      const line =
        `${name}: cold ${cold.toFixed(0)} ms; warm median ${median(warm).toFixed(0)} ms (${warm.map((t) => t.toFixed(0)).join(", ")}); ` +
        `CLI process median ${median(cli).toFixed(0)} ms; warm/CLI ${(median(warm) / median(cli)).toFixed(2)}x, cold/CLI ${(cold / median(cli)).toFixed(2)}x`;
      process.stdout.write(`${line}\n`);
    });
  }
});
